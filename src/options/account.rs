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
        with.account.config = config.cloned().or(with.account.config);
        with
    }

    /// These options with the ones (but the profiles) given after a subcommand on top.
    pub fn with_options(&self, after: &AccountOptions) -> ConnectionArgs {
        ConnectionArgs {
            profile: self.profile.clone(),
            all_profiles: self.all_profiles,
            account: after.over(&self.account),
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

/// The account options but the profiles: declared once, for before any subcommand (in
/// [`ConnectionArgs`], where the environment fills them) and after the name of a
/// subcommand that talks to an account (in [`AccountArgs`], where it does not: the
/// command line is read with the environment stripped from every subcommand's arguments,
/// `crate::cli::Cli::command_line`, so a flag given there always wins and one given
/// before the subcommand is not undone by a variable).
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Account")]
pub struct AccountOptions {
    /// The config file [default: $XDG_CONFIG_HOME/proxydash/config.toml].
    #[arg(long, env = "PROXYDASH_CONFIG", value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Base URL of the reseller API (https://…; PROXYDASH_BASE_URL).
    #[arg(long, env = "PROXYDASH_BASE_URL", value_name = "URL")]
    pub base_url: Option<String>,

    /// API token generated in the account area, sent as Basic credentials (PROXYDASH_TOKEN;
    /// prefer the variable: arguments end up in shell history).
    #[arg(long, env = "PROXYDASH_TOKEN", hide_env_values = true)]
    pub token: Option<String>,

    /// Login, used with --password instead of a token (PROXYDASH_LOGIN).
    #[arg(long, env = "PROXYDASH_LOGIN")]
    pub login: Option<String>,

    /// Password for --login (PROXYDASH_PASSWORD; prefer the variable: arguments end up in
    /// shell history).
    #[arg(long, env = "PROXYDASH_PASSWORD", hide_env_values = true)]
    pub password: Option<String>,

    /// Allow plain http:// to a host that is not loopback (the token travels unencrypted;
    /// a my-IP lookup could be answered by anyone on the path).
    #[arg(long)]
    pub allow_insecure_http: bool,

    /// Turn every write off (ordering, binding, passwords, IP-list refreshes; a
    /// subcommand's write exits with status 7).
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

impl AccountOptions {
    /// These options over `base`: what is given here wins, a switch given either place
    /// is on.
    pub fn over(&self, base: &AccountOptions) -> AccountOptions {
        AccountOptions {
            config: self.config.clone().or_else(|| base.config.clone()),
            base_url: self.base_url.clone().or_else(|| base.base_url.clone()),
            token: self.token.clone().or_else(|| base.token.clone()),
            login: self.login.clone().or_else(|| base.login.clone()),
            password: self.password.clone().or_else(|| base.password.clone()),
            allow_insecure_http: self.allow_insecure_http || base.allow_insecure_http,
            read_only: self.read_only || base.read_only,
            connect_timeout: self.connect_timeout.or(base.connect_timeout),
            timeout: self.timeout.or(base.timeout),
            max_rpm: self.max_rpm.or(base.max_rpm),
        }
    }
}
