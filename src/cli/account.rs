//! The account options after a scripting subcommand's name, and how they combine with the
//! ones given before it.

use super::{Command, ConnectionArgs};
use clap::Args;
use std::path::PathBuf;

impl ConnectionArgs {
    /// These options with the ones given after a subcommand on top.
    pub fn with(&self, after: &AccountArgs) -> ConnectionArgs {
        ConnectionArgs {
            profile: after.profile.clone().or_else(|| self.profile.clone()),
            ..self.with_options(&after.options)
        }
    }

    /// These options with the ones (but the profile) given after a subcommand on top.
    pub fn with_options(&self, after: &AccountOptions) -> ConnectionArgs {
        ConnectionArgs {
            profile: self.profile.clone(),
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

impl Command {
    /// The account options given after the subcommand's name, for the subcommands that
    /// talk to an account.
    pub fn account(&self) -> Option<&AccountArgs> {
        Some(match self {
            Command::Clients(o)
            | Command::Services(o)
            | Command::Credit(o)
            | Command::Invoices(o) => &o.account,
            Command::Products(a) => &a.output.account,
            Command::Product(a) => &a.output.account,
            Command::Order(a) => &a.output.account,
            Command::Service(a) => &a.output.account,
            Command::Bind(a) => &a.output.account,
            Command::Password(a) => &a.output.account,
            Command::RefreshList(a)
            | Command::Stats(a)
            | Command::Rate(a)
            | Command::Network(a) => &a.output.account,
            Command::Iplist(a) => &a.account,
            Command::Probe(a) => &a.output.account,
            Command::Invoice(a) => &a.output.account,
            Command::Sandbox(_)
            | Command::Config(_)
            | Command::Completions(_)
            | Command::History(_)
            | Command::Alerts(_)
            | Command::Watch(_) => return None,
        })
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
    /// The profile (account) of the config file to use (PROXYDASH_PROFILE).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    #[command(flatten)]
    pub options: AccountOptions,
}

/// The account options but the profile: declared once, for the scripting subcommands
/// (in [`AccountArgs`]) and for `watch`, whose `--profile` is its own (repeatable).
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

#[cfg(test)]
mod tests {
    use crate::cli::{Cli, Command};
    use clap::Parser;

    #[test]
    fn the_account_options_work_after_watch_and_the_scripting_commands() {
        let cli = Cli::try_parse_from(["proxydash", "watch", "--max-rpm", "60"]).unwrap();
        let Some(Command::Watch(w)) = &cli.command else {
            panic!("{cli:?}")
        };
        assert_eq!(cli.connection.with_options(&w.account).max_rpm, Some(60));
        let cli = Cli::try_parse_from(["proxydash", "services", "--max-rpm", "60"]).unwrap();
        let after = cli.command.as_ref().and_then(Command::account).unwrap();
        assert_eq!(cli.connection.with(after).max_rpm, Some(60));
        // `watch --profile` stays its own (repeatable).
        let cli = Cli::try_parse_from(["proxydash", "watch", "--profile", "a", "--profile", "b"]);
        assert!(cli.is_ok());
    }
}
