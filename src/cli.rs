//! The command line: the options (`crate::options`), the list of subcommands, and running
//! the one given. The top of the command line: nothing below it names it.
//!
//! # A new subcommand
//!
//! One new file here (`cli/NAME.rs`) holding its arguments (a `clap::Args` struct whose
//! doc comment is the subcommand's help) and how it runs (`impl Subcommand`, or `impl
//! Script` for one that prints an answer from an account the common way), plus one line
//! in `commands!`'s list below: `Name(NameArgs in NAME),` (`in NAME` declares the file).
//! See `cli/doctor.rs`.

use clap::Parser;
use std::process::ExitCode;

pub mod complete;
mod completions;
mod sandbox;
mod sandbox_help;

pub use crate::config::command::{ConfigArgs, ConfigCommand};
pub use crate::options::{
    AccountArgs, AccountOptions, ConnectionArgs, Options, Subcommand, ThemeName,
};
pub use crate::script::{
    AlertsArgs, AlertsCommand, BindArgs, ClientsArgs, CreditArgs, HistoryCommand,
    HistoryExportArgs, InvoiceArgs, InvoicesArgs, IplistArgs, NetworkArgs, OrderArgs, OutputArgs,
    PasswordArgs, ProbeArgs, ProductArgs, ProductsArgs, RateArgs, RefreshListArgs, ServiceArgs,
    ServiceIdArgs, ServicesArgs, StatsArgs,
};
pub use crate::watch::WatchArgs;
pub use completions::CompletionsArgs;
pub use sandbox::SandboxArgs;

/// The subcommands: `Name(Args)` (the arguments, which implement [`Subcommand`]) or, for
/// one in a file of its own here, `Name(Args in file)`. Makes [`Command`] (clap's enum of
/// them) and [`Command::run`].
macro_rules! commands {
    ($( $(#[$attr:meta])* $name:ident($args:ident $(in $file:ident)?), )*) => {
        $($( mod $file; )?)*

        #[derive(Debug, Clone, clap::Subcommand)]
        pub enum Command {
            $( $(#[$attr])* $name($($file::)? $args), )*
        }

        impl Command {
            /// Runs the subcommand with the options given before its name.
            pub async fn run(&self, options: &Options) -> ExitCode {
                match self {
                    $( Command::$name(args) => Subcommand::run(args, options).await, )*
                }
            }
        }
    };
}

#[derive(Debug, Clone, Parser)]
#[command(
    name = "proxydash",
    version,
    about = "A terminal dashboard for proxy-reseller accounts",
    long_about = "A terminal dashboard for proxy-reseller accounts: services, products, billing, \
network status and rotating-proxy usage, kept up to date in the background.\n\n\
Try it without an account:  proxydash --demo\n\
On a real account:          PROXYDASH_BASE_URL=https://… PROXYDASH_TOKEN=… proxydash\n\
From a script:              proxydash services --json   (one of the commands below)",
    after_help = "Environment: PROXYDASH_BASE_URL, PROXYDASH_TOKEN, PROXYDASH_LOGIN, PROXYDASH_PASSWORD."
)]
pub struct Cli {
    #[command(flatten)]
    pub options: Options,

    #[command(subcommand)]
    pub command: Option<Command>,
}

commands! {
    /// Run the local sandbox server that answers the reseller API from demo data.
    #[command(
        after_help = "Example:\n  proxydash sandbox --listen 127.0.0.1:8787 --latency-ms 200 --scale 10000"
    )]
    Sandbox(SandboxArgs),

    /// List the reseller's clients (ID and e-mail).
    #[command(
        after_help = "Example:\n  proxydash clients\n  proxydash clients --json | jq -r '.[].email'"
    )]
    Clients(ClientsArgs),

    /// List the products, optionally sorted by one of the API's fields.
    #[command(
        after_help = "Example:\n  proxydash products --sort price\n  proxydash products --json | jq '.[] | {productId, price}'"
    )]
    Products(ProductsArgs),

    /// Show one product.
    #[command(after_help = "Example:\n  proxydash product 11")]
    Product(ProductArgs),

    /// Order a new service of a product for a client (spends credit).
    ///
    /// Shows the product, its price and the credit and asks first, unless --yes. Sent once,
    /// never retried.
    #[command(
        after_help = "Example:\n  proxydash order 11 --client 101 --ip 203.0.113.5\n  proxydash order 21 --client 101 --yes --json\n\n\
If the answer is lost (timeout, dropped connection) the order may or may not have gone \
through: check `proxydash services` before ordering again."
    )]
    Order(OrderArgs),

    /// List your services.
    #[command(
        after_help = "Example:\n  proxydash services\n  proxydash services --jq '.[] | select(.status == \"Active\") | .service_id'\n  proxydash services --format csv > services.csv\n  proxydash services --all-profiles   # a PROFILE column first; \"profile\" in each --json row"
    )]
    Services(ServicesArgs),

    /// Show one service with its proxy credentials.
    ///
    /// The password is masked (null in --json) unless --show-password.
    #[command(
        after_help = "Example:\n  proxydash service 1001\n  proxydash service 1001 --show-password --json | jq -r .password"
    )]
    Service(ServiceArgs),

    /// Bind an IPv4 address to a static (fpr) service.
    ///
    /// The address is the one given, or with --mine this machine's public address.
    #[command(
        after_help = "Example:\n  proxydash bind 1001 203.0.113.5\n  proxydash bind 1001 --mine"
    )]
    Bind(BindArgs),

    /// Change the proxy password of a service.
    ///
    /// The new password is read from standard input (its first line) or, on a terminal,
    /// from a prompt that does not echo; never from the command line, where it would stay
    /// in the shell history.
    #[command(
        after_help = "Example:\n  proxydash password 1001                 # asks twice, without echo\n  \
pass show proxies/1001 | proxydash password 1001"
    )]
    Password(PasswordArgs),

    /// Ask the server for a fresh IP list of a service.
    ///
    /// The server throttles this: when it is too soon, prints the next possible time and
    /// exits 6.
    #[command(after_help = "Example:\n  proxydash refresh-list 1001")]
    RefreshList(RefreshListArgs),

    /// Print the IP list of a service exactly as served, or write it to a new file.
    #[command(
        after_help = "Example:\n  proxydash iplist 1001\n  proxydash iplist 1003 --type ppr-socks --format csv -o proxies.csv"
    )]
    Iplist(IplistArgs),

    /// Check every proxy of a service through itself: alive or dead (and why), latency,
    /// exit IP and anonymity, beside the provider's network status.
    ///
    /// Exits 1 when any proxy is dead, so cron and CI can use it. The target asked through
    /// each proxy is the profile's probe_url (default https://httpbin.org/get).
    #[command(
        after_help = "Example:\n  proxydash probe 1001\n  proxydash probe 1001 --only-working --template url > working.txt\n  proxydash probe 1003 --type ppr-socks --json | jq '.[] | select(.state == \"dead\")'\n\n\
Templates: colon ({ip}:{port}:{user}:{pass}), url ({scheme}://{user}:{pass}@{ip}:{port}), \
proxychains, curl, those of the profile's probe_templates, or a pattern given inline."
    )]
    Probe(ProbeArgs),

    /// Show the account credit.
    #[command(
        after_help = "Example:\n  proxydash credit\n  proxydash credit --json | jq .credit\n  proxydash credit --profile shop --profile resale   # each, and the total"
    )]
    Credit(CreditArgs),

    /// List the invoices.
    #[command(
        after_help = "Example:\n  proxydash invoices\n  proxydash invoices --jq '.[] | select(.status == \"Unpaid\") | .id'\n  proxydash invoices --all-profiles --format tsv"
    )]
    Invoices(InvoicesArgs),

    /// Show one invoice.
    #[command(after_help = "Example:\n  proxydash invoice 7001")]
    Invoice(InvoiceArgs),

    /// Daily usage statistics of a rotating (ppr) service.
    #[command(after_help = "Example:\n  proxydash stats 1003\n  proxydash stats 1003 --json")]
    Stats(StatsArgs),

    /// Usage against the limit of a rotating (ppr) service.
    #[command(after_help = "Example:\n  proxydash rate 1003")]
    Rate(RateArgs),

    /// Proxy servers of a service that are in an error state or inactive; without an ID,
    /// those of every service not Terminated, Cancelled or Fraud.
    #[command(
        after_help = "Example:\n  proxydash network 1001\n  proxydash network 1001 --json | jq -r '.errors[]'\n  proxydash network --all-profiles"
    )]
    Network(NetworkArgs),

    /// Print a shell completion script (in bash, zsh and fish it completes profile names
    /// and the IDs the profile last saw too).
    #[command(
        after_help = "Example:\n  proxydash completions bash > ~/.local/share/bash-completion/completions/proxydash\n  \
proxydash completions zsh > ~/.zfunc/_proxydash\n  \
proxydash completions fish > ~/.config/fish/completions/proxydash.fish"
    )]
    Completions(CompletionsArgs),
    /// Show where the config file is, or write a commented example.
    Config(ConfigArgs),

    /// The history the dashboard keeps of a profile (credit, service states, servers in
    /// error, usage).
    #[command(subcommand)]
    History(HistoryCommand),

    /// The profile's alerts: list them, acknowledge one, silence or unsilence alerts
    /// (shared with the dashboard and `watch`).
    Alerts(AlertsArgs),

    /// Watch without a terminal: the dashboard's sweeps, history and alert rules, alerts
    /// as JSON lines on standard output, optionally Prometheus metrics and keeping
    /// services bound to this machine's public IP.
    Watch(WatchArgs),
    Doctor(DoctorArgs in doctor),
}

/// The options read through the command line: `cli.connection` is `cli.options.connection`.
impl Cli {
    /// The command line as it is read: the environment is stripped from every
    /// subcommand's arguments, so the variables are read once, for the options before any
    /// subcommand. A flag given after a subcommand's name always wins, and one given
    /// before it is not undone by a variable (the account flags are declared once,
    /// [`AccountOptions`], for both places).
    pub fn command_line() -> clap::Command {
        fn strip(command: clap::Command) -> clap::Command {
            command.mut_args(|a| a.env(None)).mut_subcommands(strip)
        }
        <Self as clap::CommandFactory>::command().mut_subcommands(strip)
    }

    /// This process's command line ([`Cli::command_line`]); exits with clap's message and
    /// status on a mistake, `--help` or `--version`.
    pub fn parse() -> Self {
        Self::try_parse_from(std::env::args_os()).unwrap_or_else(|e| e.exit())
    }

    /// `args` read as the command line ([`Cli::command_line`]).
    pub fn try_parse_from<I, T>(args: I) -> Result<Self, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::FromArgMatches;
        let mut command = Self::command_line();
        let matches = command.try_get_matches_from_mut(args)?;
        Self::from_arg_matches(&matches).map_err(|e| e.format(&mut command))
    }
}

impl std::ops::Deref for Cli {
    type Target = Options;
    fn deref(&self) -> &Options {
        &self.options
    }
}

impl std::ops::DerefMut for Cli {
    fn deref_mut(&mut self) -> &mut Options {
        &mut self.options
    }
}

#[cfg(test)]
mod tests {
    use super::{Cli, Command, ConnectionArgs};

    /// The options before the subcommand with those after it (watch's, a scripting one's).
    fn merged(args: &[&str]) -> ConnectionArgs {
        let cli = Cli::try_parse_from(args).unwrap();
        let after = match &cli.command {
            Some(Command::Watch(w)) => Some(&w.account),
            Some(Command::Services(s)) => Some(&s.output.account),
            Some(Command::Invoices(s)) => Some(&s.output.account),
            Some(Command::Credit(s)) => Some(&s.output.account),
            _ => None,
        };
        match after {
            Some(after) => cli.connection.with(after),
            None => cli.options.connection,
        }
    }

    #[test]
    fn the_account_options_work_after_watch_and_the_scripting_commands() {
        for command in ["watch", "services"] {
            let c = merged(&["proxydash", command, "--max-rpm", "60"]);
            assert_eq!(c.account.max_rpm, Some(60));
        }
    }

    /// The environment is read for the options before a subcommand only: an account flag
    /// after a subcommand's name has no variable behind it that could stand for it.
    #[test]
    fn the_environment_fills_the_options_before_a_subcommand_only() {
        let command = Cli::command_line();
        let env_of = |c: &clap::Command, id: &str| {
            c.get_arguments()
                .find(|a| a.get_id() == id)
                .map(|a| a.get_env().is_some())
        };
        assert_eq!(env_of(&command, "token"), Some(true));
        assert_eq!(env_of(&command, "profile"), Some(true));
        let mut seen = 0;
        for sub in command.get_subcommands() {
            if let Some(env) = env_of(sub, "token") {
                seen += 1;
                assert!(!env, "{} --token reads a variable", sub.get_name());
            }
        }
        assert!(
            seen >= 5,
            "the account flags are found after {seen} subcommands"
        );
    }

    #[test]
    fn profiles_are_chosen_before_or_after_the_subcommand_and_after_wins_whole() {
        let c = merged(&["proxydash", "watch", "--profile", "a", "--profile", "b"]);
        assert_eq!(
            (c.profile, c.all_profiles),
            (vec!["a".into(), "b".into()], false)
        );
        let c = merged(&["proxydash", "--profile", "a", "services", "--all-profiles"]);
        assert_eq!((c.profile.len(), c.all_profiles), (0, true));
        let c = merged(&["proxydash", "--all-profiles", "credit", "--profile", "b"]);
        assert_eq!((c.profile, c.all_profiles), (vec!["b".into()], false));
        let c = merged(&["proxydash", "--profile", "a", "--profile", "b", "invoices"]);
        assert_eq!(c.profile, ["a", "b"]);
        let c = merged(&["proxydash", "--all-profiles"]);
        assert!(c.all_profiles);
        // After a subcommand, clap itself refuses both at once.
        let both = ["proxydash", "watch", "--all-profiles", "--profile", "a"];
        assert!(Cli::try_parse_from(both).is_err());
    }
}
