//! The config file: TOML at `$XDG_CONFIG_HOME/proxydash/config.toml` (or `--config`), with
//! named profiles, one per account.
//!
//! Unknown keys are errors, so a typo (`tokne = …`) is reported instead of silently
//! ignored. A file that holds a secret (`token` or `password`) and can be read by group or
//! others gets a warning naming the file and the `chmod` that fixes it.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// The profile used when none is named.
    pub default_profile: Option<String>,
    /// The profiles the dashboard shows at once when none is named (`--profile`,
    /// `--all-profiles`); unset or empty: the one profile above.
    pub dashboard_profiles: Option<Vec<String>>,
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
    /// Alert rules and delivery for every profile (a profile's own `alerts` table
    /// overrides them key by key).
    pub alerts: Option<crate::alerts::AlertsConfig>,
    /// Your own actions for every profile (`[[actions]]`, see `config::actions`); each
    /// read on its own, so a bad one leaves out only itself.
    pub actions: Option<Vec<toml::Spanned<toml::Value>>>,
    /// Where each line of the file starts, for the line an action is written on.
    #[serde(skip)]
    pub line_starts: Vec<usize>,
}

impl FileConfig {
    /// The line of the file at byte `at`.
    pub fn line_at(&self, at: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= at)
    }
}

/// One account and how to show it. Every key is optional; flags and environment variables
/// override them.
#[derive(Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub base_url: Option<String>,
    /// The API token from the account area.
    pub token: Option<String>,
    /// A command whose standard output is the token (`pass show reseller/token`).
    pub token_command: Option<String>,
    pub login: Option<String>,
    pub password: Option<String>,
    /// A command whose standard output is the password.
    pub password_command: Option<String>,
    /// Put between login and password before base64 (`:` as the spec says).
    pub separator: Option<String>,
    /// Seconds between automatic refreshes; 0 turns them off.
    pub refresh: Option<u64>,
    /// The zone of the server's clock, for the 429 times: `UTC`, `+02:00`, `Europe/Berlin`.
    pub server_timezone: Option<String>,
    /// `auto`, `system`, `osc52` or `off`.
    pub clipboard: Option<String>,
    /// Where "this machine's public IP" is looked up (plain-text answer); `""` turns the
    /// lookup off.
    pub my_ip_url: Option<String>,
    /// The URL asked through each proxy by the probe; `""` checks TCP connects only.
    pub probe_url: Option<String>,
    /// Proxies probed at once.
    pub probe_concurrency: Option<usize>,
    /// Probe loopback, private, link-local… proxies too (skipped, with the reason, if not).
    pub probe_allow_private: Option<bool>,
    /// Asks of a rotation audit (`R`, `--rotation` without N).
    pub probe_rotation: Option<u64>,
    /// Seconds the probe gives one proxy (connect, handshake, request, answer).
    pub probe_timeout: Option<u64>,
    /// `watch`: probe the live services' proxies this often (`30s`, `5m`); unset: never.
    pub probe_every: Option<String>,
    /// `watch`'s rounds: proxies of one service checked per round (a longer list is
    /// sampled, in turn).
    pub probe_sample: Option<usize>,
    /// Export templates of working proxies, by name (`{ip}`, `{port}`, `{user}`, `{pass}`,
    /// `{scheme}`).
    pub probe_templates: Option<BTreeMap<String, String>>,
    /// `dark` or `light`.
    pub theme: Option<String>,
    /// Turn every write action off.
    pub read_only: Option<bool>,
    /// The account's colour beside other accounts (one of [`super::colour::ACCOUNT_COLOURS`]);
    /// unset, the next one not taken.
    #[serde(alias = "color")]
    pub colour: Option<String>,
    pub allow_insecure_http: Option<bool>,
    pub mouse: Option<bool>,
    pub timeout: Option<u64>,
    pub connect_timeout: Option<u64>,
    /// Seconds `token_command` / `password_command` may take before they are stopped
    /// (10 by default).
    pub command_timeout: Option<u64>,
    /// This profile's alert rules and delivery, over the top-level `[alerts]`.
    pub alerts: Option<crate::alerts::AlertsConfig>,
    /// This profile's own actions (`[[profiles.NAME.actions]]`), beside the file's.
    pub actions: Option<Vec<toml::Spanned<toml::Value>>>,
    /// Days of history kept in the profile's history file; 0 keeps none (no file).
    pub history_days: Option<u32>,
    /// The most requests a minute sent to this account, whatever the server allows.
    pub max_requests_per_minute: Option<u32>,
    /// `proxydash watch`: the static services kept bound to this machine's public IP.
    pub keep_bound: Option<Vec<u64>>,
    /// Where this machine's public IP is looked up after `my_ip_url` fails, in order.
    pub my_ip_fallbacks: Option<Vec<String>>,
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hidden = |v: &Option<String>| v.as_ref().map(|_| "[redacted]");
        f.debug_struct("Profile")
            .field("base_url", &self.base_url)
            .field("token", &hidden(&self.token))
            .field("token_command", &self.token_command)
            .field("login", &self.login)
            .field("password", &hidden(&self.password))
            .field("password_command", &self.password_command)
            .finish_non_exhaustive()
    }
}

/// `$XDG_CONFIG_HOME/proxydash/config.toml`, or `~/.config/proxydash/config.toml`
/// (etcetera's XDG strategy, on macOS too; a relative `XDG_CONFIG_HOME` is ignored, as the
/// XDG spec says).
pub fn default_path() -> Option<PathBuf> {
    use etcetera::BaseStrategy;
    let base = etcetera::choose_base_strategy().ok()?.config_dir();
    Some(base.join("proxydash").join("config.toml"))
}

/// Reads the file; a missing file is an empty config (proxydash works without one).
pub fn load(path: &Path) -> Result<Option<(FileConfig, Vec<String>)>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut config: FileConfig =
        toml::from_str(&text).map_err(|e| format!("{}: {}", path.display(), e.message()))?;
    config.line_starts = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    if let Some(why) = commands_writable_by_others(&config, path) {
        return Err(why);
    }
    let mut warnings = Vec::new();
    if holds_secret(&config) && readable_by_others(path) {
        // The fix first and the path shortened (`~/…`): the dashboard's status line is
        // one line, and what is cut at 80 columns is then only the explanation.
        warnings.push(format!(
            "chmod 600 {}: it holds a secret and other users can read it",
            crate::files::tilde(path)
        ));
    }
    Ok(Some((config, warnings)))
}

fn holds_secret(config: &FileConfig) -> bool {
    config
        .profiles
        .values()
        .any(|p| p.token.is_some() || p.password.is_some())
}

/// The commands the file would have run, each named by its key and where it is
/// (`token_command of profile resale`, `on_alert of [alerts]`), for the message.
fn commands(config: &FileConfig) -> Vec<String> {
    let mut named = Vec::new();
    if config.alerts.as_ref().is_some_and(|a| a.on_alert.is_some()) {
        named.push("on_alert of [alerts]".to_owned());
    }
    for (name, p) in &config.profiles {
        for (key, set) in [
            ("token_command", p.token_command.is_some()),
            ("password_command", p.password_command.is_some()),
            (
                "on_alert",
                p.alerts.as_ref().is_some_and(|a| a.on_alert.is_some()),
            ),
        ] {
            if set {
                named.push(format!("{key} of profile {name}"));
            }
        }
    }
    named
}

/// Why the commands of the file at `path` must not run: the file, or its folder, is
/// writable by group or others (as ssh refuses such a config), so another local user
/// could make proxydash run theirs (`sh -c`). The message says how to fix it.
fn commands_writable_by_others(config: &FileConfig, path: &Path) -> Option<String> {
    let named = commands(config);
    if named.is_empty() {
        return None;
    }
    let folder = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let open = [(path, "the file"), (folder, "its folder")]
        .into_iter()
        .find(|(p, _)| writable_by_others(p))?;
    Some(format!(
        "refusing to run {} from {}: {} is writable by other users, who could make \
         proxydash run their commands. Fix: chmod go-w {}",
        named.join(", "),
        crate::files::tilde(path),
        open.1,
        crate::files::tilde(open.0)
    ))
}

#[cfg(unix)]
fn writable_by_others(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o022 != 0)
}

#[cfg(not(unix))]
fn writable_by_others(_: &Path) -> bool {
    false
}

#[cfg(unix)]
fn readable_by_others(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
}

#[cfg(not(unix))]
fn readable_by_others(_: &Path) -> bool {
    false
}

/// The file `proxydash config init` writes.
pub const EXAMPLE: &str = r#"# proxydash configuration. Flags and PROXYDASH_* environment variables override what
# is set here; `proxydash --profile NAME` picks a profile, default_profile otherwise.

default_profile = "main"
# The accounts the dashboard shows together when started without --profile / --all-profiles:
# dashboard_profiles = ["main", "monitor"]

[profiles.main]
base_url = "https://reseller.example.com"
# The API token from the account area ("Generate API token"). Better: keep it in a
# password manager and name the command that prints it.
# token = "..."
token_command = "pass show reseller/main-token"
# command_timeout = 10    # seconds token_command / password_command may take (output: at most 64 KiB)
# Or a login and password (sent as base64 of login:password):
# login = "alice"
# password_command = "pass show reseller/alice"
# separator = ":"
refresh = 30                    # seconds between automatic refreshes; 0 = off
server_timezone = "UTC"         # the server's clock, for IP-list refresh times: "+02:00", "Europe/Berlin"
clipboard = "auto"              # auto, system, osc52 (over SSH), off
# my_ip_url = "https://api.ipify.org"   # "" turns the public-IP lookup off
# max_requests_per_minute = 60  # a ceiling on requests to this account (learned from the server otherwise)
# probe_url = "https://httpbin.org/get" # asked through each proxy by `h` and `proxydash probe`; "" = TCP connect only
# probe_concurrency = 32                # proxies probed at once (at most 256)
# probe_allow_private = false           # probe loopback/private/link-local proxies too
# probe_rotation = 20                   # asks of a rotation audit (R, --rotation), 2 to 100
# probe_timeout = 5                     # seconds the probe gives one proxy, 1 to 60
# probe_every = "5m"                    # `watch` probes the live services' proxies this often (off unless set)
# probe_sample = 20                     # proxies per service per round; longer lists are checked in turn
# probe_templates = { socks = "socks5://{user}:{pass}@{ip}:{port}" }
theme = "dark"                  # dark, light, or a skin: themes/NAME.toml beside this file; NO_COLOR turns colour off
read_only = false               # true: no ordering, binding, password or refresh actions
history_days = 90               # days of history kept (sparklines, uptime, export); 0 = none

# Alerts, for every profile ([profiles.NAME.alerts] overrides them key by key).
[alerts]
debounce = 2                    # sweeps (refreshes) in a row a change must be seen in
# renewal_days = 7              # credit_low: renewals due within this many days must be covered
# due_days = 7                  # service_due: info within, warn within 3 days, critical within 1
# error_percent = 20            # servers_in_error: critical above this share of a service's servers
# rate_percent = 90             # rate_limit: warn at this share of the limit, critical at 100
# probe_alive_percent = 50      # proxies_dead: warn under this share alive in watch's probe rounds, critical at none
# repeat_after_mins = 30        # a critical alert is announced again, then twice as late each time
# disabled = ["unpaid_invoice"] # rules turned off
# alert_bell = true             # ring the terminal bell
# on_alert = "notify-send \"proxydash $PROXYDASH_ALERT_LEVEL\" \"$PROXYDASH_ALERT_MESSAGE\""
# on_alert_timeout = 10         # seconds before the command is killed

# A monitoring screen that must never change anything:
[profiles.monitor]
base_url = "https://reseller.example.com"
token_command = "pass show reseller/monitor-token"
read_only = true
refresh = 15
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_parses() {
        let config: FileConfig = toml::from_str(EXAMPLE).unwrap();
        assert_eq!(config.default_profile.as_deref(), Some("main"));
        assert_eq!(config.profiles.len(), 2);
        assert_eq!(config.profiles["monitor"].read_only, Some(true));
    }

    #[test]
    fn a_typo_is_an_error_naming_the_key() {
        let err = toml::from_str::<FileConfig>("[profiles.a]\ntokne = \"x\"\n").unwrap_err();
        assert!(err.message().contains("tokne"), "{}", err.message());
    }

    #[test]
    fn debug_hides_secrets() {
        let p = Profile {
            token: Some("sentinel-token".into()),
            password: Some("sentinel-pw".into()),
            ..Profile::default()
        };
        let shown = format!("{p:?}");
        assert!(!shown.contains("sentinel"), "{shown}");
    }
}
