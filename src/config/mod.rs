//! Settings: the command line, the environment, the config file's profile and the defaults,
//! resolved once into one value.
//!
//! Precedence is flags, then environment variables (clap reads both, so they are one
//! layer), then the profile, then defaults. Credentials are taken as a unit: a token or a
//! login given by flag or environment replaces the profile's credentials entirely, so a
//! profile's password is never sent with another login.
//!
//! Secrets are held as [`Secret`], so `Debug` of the settings never shows them.

pub mod actions;
mod cards;
pub mod colour;
pub mod command;
pub mod file;
mod look;
mod probe;
pub use probe::{DEFAULT_SAMPLE, ProbeSettings, RULES_PROBE_EVERY, parse_every};
pub mod secrets;
pub mod selection;
pub mod skin;

use crate::api::{ClientConfig, Credentials};
use crate::clipboard::ClipboardMode;
use crate::iplist_throttle::ServerZone;
use crate::net::myip::DEFAULT_MY_IP_URL;
use crate::options::Options;
use crate::secret::Secret;
pub use cards::ProfileCard;
use file::{FileConfig, Profile};
pub use look::{Look, ThemeName};
use std::path::PathBuf;
use std::time::Duration;

pub const DEFAULT_REFRESH_SECS: u64 = 30;
pub const DEFAULT_CONNECT_TIMEOUT_SECS: u64 = 5;
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;

/// Everything the program needs to talk to one account and show it.
#[derive(Clone, Debug)]
pub struct Settings {
    pub profile: String,
    pub base_url: String,
    pub credentials: Credentials,
    pub refresh: Option<Duration>,
    pub mouse: bool,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    pub allow_insecure_http: bool,
    pub read_only: bool,
    /// The account's colour beside other accounts: its place in [`colour::ACCOUNT_COLOURS`].
    pub colour: Option<u8>,
    pub server_zone: ServerZone,
    pub clipboard: ClipboardMode,
    pub my_ip_url: String,
    /// How proxies are probed (`probe_url`, `probe_concurrency`, `probe_templates`).
    pub probe: ProbeSettings,
    pub theme: ThemeName,
    /// `NO_COLOR` is set: no colour at all, state shown by bold, reverse and symbols.
    pub no_color: bool,
    /// Things the user should know (a config file readable by others); shown at start.
    pub warnings: Vec<String>,
    /// Your own actions that read (`config::actions`).
    pub actions: Vec<actions::UserAction>,
    /// The profiles of the config file, for switching inside the dashboard.
    pub profiles: Vec<String>,
    /// Where each points and whether it is read-only (the `P` chooser).
    pub profile_cards: Vec<ProfileCard>,
    pub config_path: Option<PathBuf>,
    /// Only from [`Settings::resolve_for_show`]: the secret command failed, and why; the
    /// credentials then hold an empty secret and must not be used.
    pub secret_unavailable: Option<String>,
    /// The alert rules' thresholds.
    pub alert_rules: crate::alerts::Rules,
    /// How alerts are delivered besides the screen.
    pub alert_delivery: crate::alerts::rules::Delivery,
    /// Days of history kept; 0: no history file at all.
    pub history_days: u32,
    /// The ceiling of the request budget (`--max-rpm`, `max_requests_per_minute`).
    pub max_rpm: Option<u32>,
    /// `proxydash watch`: the services kept bound to this machine's public IP.
    pub keep_bound: Vec<u64>,
    /// The profile is the one chosen without `--profile` (the command lines the palette
    /// shows leave `--profile` out then).
    pub default_profile: bool,
    /// Where this machine's public IP is looked up after `my_ip_url` fails.
    pub my_ip_fallbacks: Vec<String>,
    /// The file's `dashboard_profiles`: what the dashboard opens without `--profile`
    /// (`None`: not set, the dashboard opens the one profile a command would use).
    pub dashboard_profiles: Option<Vec<String>>,
}

/// Why settings could not be made; shown to the user as it is, with exit status 2.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "No account configured.\n\
         Try the built-in sandbox:  proxydash --demo\n\
         Or name an account with --base-url and --token (or --login and --password),\n\
         or the variables PROXYDASH_BASE_URL and PROXYDASH_TOKEN (or PROXYDASH_LOGIN and PROXYDASH_PASSWORD),\n\
         or a profile in the config file (proxydash config init writes an example)."
    )]
    NoAccount,
    #[error("{0}")]
    Invalid(String),
    /// A `token_command` or `password_command` failed (named by its key, never by its
    /// text); `placeholder` is the credentials with an empty secret, for showing the
    /// settings anyway.
    #[error("{failed}")]
    Command {
        placeholder: Box<Credentials>,
        failed: secrets::CommandFailed,
    },
}

impl Settings {
    /// Settings for a real account: flags and environment over the chosen profile. Works
    /// on one account: several profiles, or `--all-profiles`, are refused
    /// ([`selection::one`]; [`selection::resolve_all`] takes several).
    pub fn resolve(cli: &Options) -> Result<Self, ConfigError> {
        Self::resolve_profile(cli, selection::one(cli)?)
    }

    /// Like [`Settings::resolve`] for a profile named by the caller (switching accounts in
    /// the dashboard), still under the command line's flags.
    pub fn resolve_profile(cli: &Options, profile: Option<&str>) -> Result<Self, ConfigError> {
        Self::resolve_with(cli, profile, false)
    }

    /// For `config show`: like [`Settings::resolve`], but a `token_command` or
    /// `password_command` that fails does not hide the rest of the settings; its reason
    /// is kept in [`Settings::secret_unavailable`].
    pub fn resolve_for_show(cli: &Options) -> Result<Self, ConfigError> {
        Self::resolve_with(cli, selection::one(cli)?, true)
    }

    fn resolve_with(
        cli: &Options,
        profile: Option<&str>,
        lenient: bool,
    ) -> Result<Self, ConfigError> {
        let (file, config_path, warnings) = read_file(cli)?;
        let name = choose_profile(&file, profile, config_path.as_deref())?;
        let p = file.profiles.get(&name).cloned().unwrap_or_default();
        let (credentials, secret_unavailable) = match secrets::credentials(cli, &p, &name) {
            Err(ConfigError::Command {
                placeholder,
                failed,
            }) if lenient => (*placeholder, Some(failed.to_string())),
            other => (other?, None),
        };
        let given = &cli.connection.account;
        let base_url = given
            .base_url
            .clone()
            .or_else(|| p.base_url.clone())
            .filter(|u| !u.trim().is_empty())
            .ok_or_else(|| {
                ConfigError::Invalid(format!(
                    "No base URL for profile {name}: pass --base-url, set PROXYDASH_BASE_URL, or set base_url in the profile"
                ))
            })?;
        let mut settings = Self::with(cli, &p, name, base_url, credentials)?;
        settings.set_alerts(file.alerts.as_ref(), p.alerts.as_ref())?;
        settings.warnings = warnings;
        settings.set_actions(&file, &p, config_path.as_deref());
        settings.profiles = file.profiles.keys().cloned().collect();
        settings.dashboard_profiles = file.dashboard_profiles.clone();
        settings.profile_cards = cards::of(&file, cli);
        settings.default_profile = choose_profile(&file, None, config_path.as_deref())
            .is_ok_and(|d| d == settings.profile);
        settings.config_path = config_path;
        settings.secret_unavailable = secret_unavailable;
        Ok(settings)
    }

    /// Settings for the in-process sandbox at `base_url`: the command line's look and feel,
    /// no profile.
    pub fn demo(cli: &Options, base_url: String, token: &str) -> Result<Self, ConfigError> {
        let credentials = Credentials::Token(Secret::new(token));
        let mut settings = Self::with(
            cli,
            &Profile::default(),
            "demo".into(),
            base_url,
            credentials,
        )?;
        // The demo has no profile, but the file's top-level `[alerts]` and `[[actions]]`
        // apply, so the bell, `on_alert` and your actions can be tried on it; a broken
        // file does not stop the demo.
        match read_file(cli) {
            Ok((file, path, _)) => {
                if let Err(e) = settings.set_alerts(file.alerts.as_ref(), None) {
                    settings.warnings.push(e.to_string());
                }
                settings.set_actions(&file, &Profile::default(), path.as_deref());
            }
            Err(e) => settings.warnings.push(format!("alerts not read: {e}")),
        }
        Ok(settings)
    }

    /// The alert settings: the top-level `[alerts]`, overridden key by key by the
    /// profile's own.
    fn set_alerts(
        &mut self,
        top: Option<&crate::alerts::AlertsConfig>,
        profile: Option<&crate::alerts::AlertsConfig>,
    ) -> Result<(), ConfigError> {
        let top = top.cloned().unwrap_or_default();
        let merged = match profile {
            Some(p) => top.overlaid(p),
            None => top,
        };
        let (rules, delivery) = merged.resolve().map_err(ConfigError::Invalid)?;
        self.alert_rules = rules;
        self.alert_delivery = delivery;
        Ok(())
    }

    fn with(
        cli: &Options,
        p: &Profile,
        profile: String,
        base_url: String,
        credentials: Credentials,
    ) -> Result<Self, ConfigError> {
        let c = &cli.connection.account;
        let invalid = |what: &str, e: String| ConfigError::Invalid(format!("{what}: {e}"));
        let refresh = cli.refresh.or(p.refresh).unwrap_or(DEFAULT_REFRESH_SECS);
        let secs = |flag: Option<u64>, profile: Option<u64>, default: u64| {
            Duration::from_secs(flag.or(profile).unwrap_or(default).max(1))
        };
        Ok(Self {
            profile,
            base_url,
            credentials,
            refresh: (refresh > 0).then(|| Duration::from_secs(refresh)),
            mouse: cli.mouse || p.mouse.unwrap_or(false),
            connect_timeout: secs(
                c.connect_timeout,
                p.connect_timeout,
                DEFAULT_CONNECT_TIMEOUT_SECS,
            ),
            request_timeout: secs(c.timeout, p.timeout, DEFAULT_TIMEOUT_SECS),
            allow_insecure_http: c.allow_insecure_http || p.allow_insecure_http.unwrap_or(false),
            read_only: c.read_only || p.read_only.unwrap_or(false),
            colour: match &p.colour {
                Some(name) => Some(colour::account_colour(name).map_err(|e| invalid("colour", e))?),
                None => None,
            },
            server_zone: match &p.server_timezone {
                Some(z) => z.parse().map_err(|e| invalid("server_timezone", e))?,
                None => ServerZone::default(),
            },
            clipboard: match (cli.clipboard, &p.clipboard) {
                (Some(m), _) => m,
                (None, Some(m)) => m.parse().map_err(|e| invalid("clipboard", e))?,
                (None, None) => ClipboardMode::default(),
            },
            my_ip_url: p
                .my_ip_url
                .clone()
                .unwrap_or_else(|| DEFAULT_MY_IP_URL.into()),
            probe: ProbeSettings {
                url: p
                    .probe_url
                    .clone()
                    .unwrap_or_else(|| crate::probe::DEFAULT_PROBE_URL.into()),
                concurrency: match p.probe_concurrency {
                    Some(n) if n == 0 || n > crate::probe::MAX_CONCURRENCY => {
                        let most = crate::probe::MAX_CONCURRENCY;
                        return Err(invalid("probe_concurrency", format!("must be 1 to {most}")));
                    }
                    Some(n) => n,
                    None => crate::probe::DEFAULT_CONCURRENCY,
                },
                templates: p
                    .probe_templates
                    .clone()
                    .unwrap_or_default()
                    .into_iter()
                    .collect(),
                loopback_only: false,
                allow_private: p.probe_allow_private.unwrap_or(false),
                rotation_asks: match p.probe_rotation {
                    Some(n) => crate::probe::rotation::asks(n)
                        .map_err(|_| invalid("probe_rotation", rotation_bounds()))?,
                    None => crate::probe::rotation::DEFAULT_ASKS,
                },
                timeout: match p.probe_timeout {
                    Some(s @ 1..=60) => Duration::from_secs(s),
                    Some(_) => return Err(invalid("probe_timeout", "1 to 60 seconds".into())),
                    None => crate::probe::DEFAULT_TIMEOUT,
                },
                every: p
                    .probe_every
                    .as_deref()
                    .map(parse_every)
                    .transpose()
                    .map_err(|e| invalid("probe_every", e))?,
                sample: match p.probe_sample {
                    Some(n @ 1..=crate::probe::MAX_TARGETS) => n,
                    Some(_) => {
                        let most = crate::probe::MAX_TARGETS;
                        return Err(invalid("probe_sample", format!("1 to {most}")));
                    }
                    None => DEFAULT_SAMPLE,
                },
            },
            theme: match (cli.theme.clone(), &p.theme) {
                (Some(t), _) => t,
                (None, Some(t)) => t.parse().map_err(|e| invalid("theme", e))?,
                (None, None) => ThemeName::default(),
            },
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            warnings: Vec::new(),
            actions: Vec::new(),
            profiles: Vec::new(),
            profile_cards: Vec::new(),
            config_path: None,
            secret_unavailable: None,
            alert_rules: crate::alerts::Rules::default(),
            alert_delivery: crate::alerts::rules::Delivery::default(),
            history_days: p.history_days.unwrap_or(crate::history::DEFAULT_DAYS),
            max_rpm: c.max_rpm.or(p.max_requests_per_minute).filter(|n| *n > 0),
            keep_bound: p.keep_bound.clone().unwrap_or_default(),
            default_profile: true,
            my_ip_fallbacks: p.my_ip_fallbacks.clone().unwrap_or_default(),
            dashboard_profiles: None,
        })
    }

    /// The account's name in the budget's state file: the profile and where it points.
    pub fn budget_key(&self) -> String {
        format!("{}@{}", self.profile, self.base_url)
    }

    /// A fresh request budget for this account, under its ceiling.
    pub fn budget(&self) -> crate::scheduler::Budget {
        crate::scheduler::Budget::new(crate::scheduler::Bucket::new(self.max_rpm))
    }

    /// A fresh request budget that keeps one budget with the profile's other processes
    /// through their shared send log (`scheduler::sendlog`), when `share` (not for the
    /// demo's new sandbox); and the line to show when the log cannot be used (the budget
    /// is then this process's own).
    pub fn shared_budget(&self, share: bool) -> (crate::scheduler::Budget, Option<String>) {
        let budget = self.budget();
        let log = crate::scheduler::SendLog::for_account(&self.profile, &self.budget_key());
        match log.filter(|_| share) {
            Some(log) => {
                let problem = log.check();
                (budget.shared(log), problem)
            }
            None => (budget, None),
        }
    }

    pub fn client_config(&self) -> ClientConfig {
        ClientConfig {
            connect_timeout: self.connect_timeout,
            request_timeout: self.request_timeout,
            allow_insecure_http: self.allow_insecure_http,
            read_only: self.read_only,
            ..ClientConfig::new(self.base_url.clone(), self.credentials.clone())
        }
    }
}

/// The config file named by `--config`, or the default one; a missing default file is an
/// empty config, a missing named one is an error.
fn read_file(cli: &Options) -> Result<(FileConfig, Option<PathBuf>, Vec<String>), ConfigError> {
    let named = cli.connection.account.config.clone();
    let path = named.clone().or_else(file::default_path);
    let Some(path) = path else {
        return Ok((FileConfig::default(), None, Vec::new()));
    };
    match file::load(&path).map_err(ConfigError::Invalid)? {
        Some((config, warnings)) => Ok((config, Some(path), warnings)),
        None if named.is_some() => Err(ConfigError::Invalid(format!(
            "no config file at {}",
            path.display()
        ))),
        None => Ok((FileConfig::default(), Some(path), Vec::new())),
    }
}

/// The profile a command would use (`--profile`, `PROXYDASH_PROFILE`, the file's
/// `default_profile`, its only profile, or `default`), and its `history_days`, without
/// resolving any credentials.
pub fn profile_name(cli: &Options) -> Result<(String, u32), ConfigError> {
    let (file, path, _) = read_file(cli)?;
    let name = choose_profile(&file, selection::one(cli)?, path.as_deref())?;
    let days = file
        .profiles
        .get(&name)
        .and_then(|p| p.history_days)
        .unwrap_or(crate::history::DEFAULT_DAYS);
    Ok((name, days))
}

fn choose_profile(
    file: &FileConfig,
    asked: Option<&str>,
    path: Option<&std::path::Path>,
) -> Result<String, ConfigError> {
    if let Some(name) = asked {
        if file.profiles.contains_key(name) || file.profiles.is_empty() && name == "default" {
            return Ok(name.to_owned());
        }
        let known: Vec<&str> = file.profiles.keys().map(String::as_str).collect();
        return Err(ConfigError::Invalid(format!(
            "no profile {name:?} in {} (profiles: {})",
            path.map_or_else(|| "the config file".into(), |p| p.display().to_string()),
            if known.is_empty() {
                "none".into()
            } else {
                known.join(", ")
            }
        )));
    }
    if let Some(name) = &file.default_profile {
        if !file.profiles.contains_key(name) {
            return Err(ConfigError::Invalid(format!(
                "default_profile {name:?} is not a profile of the config file"
            )));
        }
        return Ok(name.clone());
    }
    Ok(match file.profiles.keys().next() {
        Some(only) if file.profiles.len() == 1 => only.clone(),
        _ => "default".into(),
    })
}

#[cfg(test)]
mod tests;

/// What `probe_rotation` may be.
fn rotation_bounds() -> String {
    use crate::probe::rotation::{MAX_ASKS, MIN_ASKS};
    format!("must be {MIN_ASKS} to {MAX_ASKS}")
}
