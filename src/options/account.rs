//! The account options after a scripting subcommand's name, and how they combine with the
//! ones given before it.

use super::ConnectionArgs;
use clap::Args;
use std::path::PathBuf;

impl ConnectionArgs {
    /// These options with the ones given after a subcommand on top. A selection of
    /// profiles given after the subcommand replaces the one given before it (or by
    /// PROXYDASH_PROFILE) as a whole: `--all-profiles` after the name is not undone by a
    /// variable.
    pub fn with(&self, after: &AccountArgs) -> ConnectionArgs {
        let mut with = self.with_options(&after.options);
        if !after.profile.is_empty() || after.all_profiles {
            with.profile = after.profile.clone();
            with.all_profiles = after.all_profiles;
        }
        with
    }

    /// These options with a profile and a config file named after a subcommand that
    /// takes only those (`config`, `history`, `alerts`): one profile, when named.
    pub fn with_file(&self, profile: Option<&String>, config: Option<&PathBuf>) -> ConnectionArgs {
        let mut with = self.clone();
        if let Some(name) = profile {
            with.profile = vec![name.clone()];
            with.all_profiles = false;
        }
        with.config = config.cloned().or(with.config);
        with
    }

    /// These options with the ones (but the profiles) given after a subcommand on top.
    pub fn with_options(&self, after: &AccountOptions) -> ConnectionArgs {
        ConnectionArgs {
            profile: self.profile.clone(),
            all_profiles: self.all_profiles,
            config: after.config.clone().or_else(|| self.config.clone()),
            base_url: after.base_url.clone().or_else(|| self.base_url.clone()),
            token: after.token.clone().or_else(|| self.token.clone()),
            login: after.login.clone().or_else(|| self.login.clone()),
            password: after.password.clone().or_else(|| self.password.clone()),
            allow_insecure_http: after.allow_insecure_http || self.allow_insecure_http,
            read_only: after.read_only || self.read_only,
            connect_timeout: after.connect_timeout.or(self.connect_timeout),
            timeout: after.timeout.or(self.timeout),
            max_rpm: after.max_rpm.or(self.max_rpm),
        }
    }
}

/// The account options as a scripting subcommand takes them after its name
/// (`proxydash services --profile monitor`). The same as [`ConnectionArgs`] without the
/// environment (read once, before the subcommand), so a flag given here always wins and
/// one given before the subcommand is not undone by a variable. Only the subcommands
/// that talk to an account have them, so `sandbox --help` and `config --help` list none.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Account")]
pub struct AccountArgs {
    /// The profile (account) of the config file to use (PROXYDASH_PROFILE); repeat for
    /// several where the command reads several (watch, services, invoices, credit,
    /// network).
    #[arg(long, value_name = "NAME")]
    pub profile: Vec<String>,
    /// Every profile of the config file, where the command reads several.
    #[arg(long, conflicts_with = "profile")]
    pub all_profiles: bool,
    #[command(flatten)]
    pub options: AccountOptions,
}

/// The account options but the profiles: declared once, for the scripting subcommands
/// and `watch` (in [`AccountArgs`]).
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Account")]
pub struct AccountOptions {
    /// The config file (PROXYDASH_CONFIG).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Base URL of the reseller API (PROXYDASH_BASE_URL).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// API token (PROXYDASH_TOKEN; prefer the variable: arguments end up in shell history).
    #[arg(long)]
    pub token: Option<String>,
    /// Login, used with --password instead of a token (PROXYDASH_LOGIN).
    #[arg(long)]
    pub login: Option<String>,
    /// Password for --login (PROXYDASH_PASSWORD; prefer the variable).
    #[arg(long)]
    pub password: Option<String>,
    /// Allow plain http:// to a host that is not loopback (the API, the my-IP lookup).
    #[arg(long)]
    pub allow_insecure_http: bool,
    /// Refuse every write (order, bind, password, refresh-list) with status 7.
    #[arg(long)]
    pub read_only: bool,
    /// Seconds to wait for a connection [default: 5].
    #[arg(long, value_name = "SECS")]
    pub connect_timeout: Option<u64>,
    /// Seconds to wait for a whole answer [default: 30].
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<u64>,
    /// The most requests a minute to send to the account, spread evenly [default: the
    /// server's X-RateLimit-Limit; 60 while it shows none]. Profile: max_requests_per_minute.
    #[arg(long, value_name = "N")]
    pub max_rpm: Option<u32>,
}
