//! `proxydash config path | init | show`.

use super::{Settings, file};
use crate::api::Credentials;
use crate::options::{Options, Subcommand as RunsAs};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// `config`: the file and the profile are the only account options that apply.
#[derive(Debug, Clone, Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub command: ConfigCommand,
    /// The profile to show (PROXYDASH_PROFILE) [default: the file's default_profile].
    // Its own ID: clap copies a value of the top-level `--profile` into a global
    // argument of the same ID, the first of several only.
    #[arg(
        long = "profile",
        id = "config_profile",
        value_name = "NAME",
        global = true,
        conflicts_with = "all_profiles"
    )]
    pub profile: Option<String>,
    /// `show`: every profile of the file, one after the other (by name).
    #[arg(long, global = true)]
    pub all_profiles: bool,
    /// The config file (PROXYDASH_CONFIG) [default: $XDG_CONFIG_HOME/proxydash/config.toml].
    #[arg(long, value_name = "PATH", global = true)]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Clone, Subcommand)]
pub enum ConfigCommand {
    /// Print the path of the config file proxydash reads.
    #[command(after_help = "Example:\n  $EDITOR \"$(proxydash config path)\"")]
    Path,
    /// Write a commented example config file (never overwrites one; created 0600).
    #[command(after_help = "Example:\n  proxydash config init && proxydash config path")]
    Init,
    /// Print the settings as resolved from flags, environment, profile and defaults
    /// (secrets left out).
    #[command(after_help = "Example:\n  PROXYDASH_PROFILE=monitor proxydash config show")]
    Show,
}

impl RunsAs for ConfigArgs {
    async fn run(&self, options: &Options) -> ExitCode {
        if options.demo {
            return crate::options::refuse_demo(
                "config",
                "the demo reads no profile (its settings are the built-in sandbox's)",
            );
        }
        // `config show --profile x`: the options after `config` count too.
        let mut with = options.clone();
        with.connection = options
            .connection
            .with_file(self.profile.as_ref(), self.config.as_ref());
        if self.all_profiles {
            with.connection.all_profiles = true;
            with.connection.profile.clear();
        }
        let named = &with.connection.profile;
        let several = with.connection.all_profiles || named.iter().any(|n| *n != named[0]);
        match (&self.command, several) {
            (ConfigCommand::Show, true) => show_all(&with),
            _ => run(&with, &self.command),
        }
    }
}

/// `config show --all-profiles` (or `--profile` repeated before `config`): each profile's
/// settings (by name for `--all-profiles`, as given otherwise), a blank line between
/// them; a profile that does not resolve says why on standard error, the others are
/// shown, and the status is 2.
fn show_all(cli: &Options) -> ExitCode {
    let names = match super::selection::profiles(cli, super::selection::Unnamed::DefaultProfile) {
        Ok(names) => names,
        Err(e) => {
            eprintln!("proxydash: {e}");
            return ExitCode::from(2);
        }
    };
    let mut failed = false;
    let mut shown = Vec::new();
    for name in names {
        let mut one = cli.clone();
        one.connection.all_profiles = false;
        one.connection.profile = name.clone().into_iter().collect();
        match Settings::resolve_for_show(&one) {
            Ok(s) => shown.push(describe(&s)),
            Err(e) => {
                failed = true;
                eprintln!(
                    "proxydash: profile {}: {e}",
                    name.as_deref().unwrap_or("default")
                );
            }
        }
    }
    print!("{}", shown.join("\n"));
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

pub fn run(cli: &Options, command: &ConfigCommand) -> ExitCode {
    let path = cli
        .connection
        .account
        .config
        .clone()
        .or_else(file::default_path);
    match command {
        ConfigCommand::Path => match path {
            Some(p) => {
                println!("{}", p.display());
                ExitCode::SUCCESS
            }
            None => {
                eprintln!(
                    "proxydash: no config location: set HOME or XDG_CONFIG_HOME, or pass --config"
                );
                ExitCode::from(2)
            }
        },
        ConfigCommand::Init => {
            let Some(path) = path else {
                eprintln!(
                    "proxydash: no config location: set HOME or XDG_CONFIG_HOME, or pass --config"
                );
                return ExitCode::from(2);
            };
            if let Some(dir) = path.parent()
                && let Err(e) = crate::files::create_private_dir(dir)
            {
                eprintln!("proxydash: cannot create {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
            match crate::files::write_new(&path, file::EXAMPLE.as_bytes()) {
                Ok(()) => {
                    println!("wrote {}", path.display());
                    ExitCode::SUCCESS
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    eprintln!(
                        "proxydash: {} already exists; not overwritten",
                        path.display()
                    );
                    ExitCode::FAILURE
                }
                Err(e) => {
                    eprintln!("proxydash: cannot write {}: {e}", path.display());
                    ExitCode::FAILURE
                }
            }
        }
        ConfigCommand::Show => match Settings::resolve_for_show(cli) {
            Ok(s) => {
                print!("{}", describe(&s));
                ExitCode::SUCCESS
            }
            // No config file and no full account in the environment: not an error to
            // show (issue 26.12); what the environment and the defaults give, and what is
            // missing.
            Err(e)
                if cli.connection.account.config.is_none()
                    && !path.as_deref().is_some_and(std::path::Path::exists) =>
            {
                match without_file(cli, path, &e) {
                    Ok(text) => {
                        print!("{text}");
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("proxydash: {e}");
                        ExitCode::from(2)
                    }
                }
            }
            Err(e) => {
                eprintln!("proxydash: {e}");
                ExitCode::from(2)
            }
        },
    }
}

/// `config show` with no config file: the defaults under the environment's and flags'
/// values, the missing base URL or credentials named with `why`.
fn without_file(
    cli: &Options,
    path: Option<std::path::PathBuf>,
    why: &super::ConfigError,
) -> Result<String, super::ConfigError> {
    let c = &cli.connection.account;
    let base_url = c.base_url.clone().filter(|u| !u.trim().is_empty());
    let mut s = Settings::demo(cli, base_url.clone().unwrap_or_default(), "")?;
    s.profile = super::selection::one(cli)?.unwrap_or("default").to_owned();
    s.config_path = path;
    let mut text = describe(&s);
    if base_url.is_none() {
        text = text.replace(
            "base_url = \n",
            "base_url = none (--base-url or PROXYDASH_BASE_URL)\n",
        );
    }
    if c.token.is_none() && c.login.is_none() {
        text = text.replace("credentials = token\n", "credentials = none\n");
    }
    let why = why.to_string();
    Ok(format!(
        "{text}missing = {}\n",
        why.lines().next().unwrap_or_default()
    ))
}

/// The resolved settings, secrets left out, one `key = value` per line.
pub fn describe(s: &Settings) -> String {
    let mut credentials = match &s.credentials {
        Credentials::Token(_) => "token".to_owned(),
        Credentials::Login {
            login, separator, ..
        } => format!("login {login} (separator {separator:?})"),
    };
    if let Some(why) = &s.secret_unavailable {
        credentials.push_str(&format!(" — secret unavailable: {why}"));
    }
    let mut out = String::new();
    let mut line = |k: &str, v: String| out.push_str(&format!("{k} = {v}\n"));
    line(
        "config",
        match &s.config_path {
            Some(p) if p.exists() => p.display().to_string(),
            Some(p) => format!("{} (not found; defaults apply)", p.display()),
            None => "none".into(),
        },
    );
    line("profile", s.profile.clone());
    line(
        "dashboard_profiles",
        match &s.dashboard_profiles {
            Some(names) if !names.is_empty() => format!(
                "{} (what the dashboard opens without --profile)",
                names.join(", ")
            ),
            _ => "none (the dashboard opens the default profile)".into(),
        },
    );
    line("base_url", s.base_url.clone());
    line("credentials", credentials);
    line(
        "refresh",
        s.refresh
            .map_or("off".into(), |d| format!("{}s", d.as_secs())),
    );
    line("read_only", s.read_only.to_string());
    line("server_timezone", s.server_zone.to_string());
    line("clipboard", format!("{:?}", s.clipboard).to_lowercase());
    line("theme", format!("{:?}", s.theme).to_lowercase());
    line("no_color", s.no_color.to_string());
    line("timeout", format!("{}s", s.request_timeout.as_secs()));
    line(
        "connect_timeout",
        format!("{}s", s.connect_timeout.as_secs()),
    );
    let rules = &s.alert_rules;
    line(
        "alerts",
        format!(
            "debounce {}, disabled [{}], bell {}, on_alert {}",
            rules.debounce,
            rules
                .disabled
                .iter()
                .map(|r| r.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            if s.alert_delivery.bell { "on" } else { "off" },
            match &s.alert_delivery.on_alert {
                // A webhook URL in it may hold a token: not shown.
                Some(_) => format!("set (timeout {}s)", s.alert_delivery.timeout.as_secs()),
                None => "none".into(),
            }
        ),
    );
    line(
        "history",
        match (s.history_days, crate::history::file_for(&s.profile)) {
            (0, _) => "off".into(),
            (days, Some(file)) => format!("{days} days in {}", file.display()),
            (days, None) => format!("{days} days (no state directory: off)"),
        },
    );
    for w in &s.warnings {
        line("warning", w.clone());
    }
    out
}
