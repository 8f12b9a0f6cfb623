//! The command line's options that every run reads (the account, the look, the log), as
//! clap defines them: read by the settings, the dashboard and every subcommand, naming
//! none of them.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

mod account;

pub use account::{AccountArgs, AccountOptions};

/// How a subcommand runs, given its arguments: each subcommand's arguments implement it,
/// and the list of subcommands (`crate::cli`) calls it. A scripting subcommand implements
/// `crate::script::Script` instead, which runs it on an account the common way.
// Run by `block_on` on the main thread: the future need not be `Send`.
#[allow(async_fn_in_trait)]
pub trait Subcommand {
    /// Runs with the options given before the subcommand's name; answers the exit status.
    async fn run(&self, options: &Options) -> ExitCode;
}

/// The options given before any subcommand (`proxydash --profile shop --refresh 10`), and
/// the environment's.
#[derive(Debug, Clone, Args)]
pub struct Options {
    #[command(flatten)]
    pub connection: ConnectionArgs,

    /// Run the dashboard on a built-in sandbox server (no account needed).
    #[arg(long)]
    pub demo: bool,

    /// Seconds between automatic refreshes of each pane; 0 turns them off [default: 30].
    #[arg(long, value_name = "SECS")]
    pub refresh: Option<u64>,

    /// Capture the mouse (wheel scrolling, click to select). Off by default so the terminal's
    /// own text selection keeps working.
    #[arg(long)]
    pub mouse: bool,

    /// Colour theme: dark or light. NO_COLOR in the environment turns colour off.
    #[arg(long, value_name = "NAME", ignore_case = true)]
    pub theme: Option<ThemeName>,

    /// Clipboard: auto, system, osc52 or off [default: auto].
    #[arg(long, value_name = "MODE", ignore_case = true)]
    pub clipboard: Option<crate::clipboard::ClipboardMode>,

    /// Where diagnostics go [default: proxydash.log in the state directory]; the level comes
    /// from PROXYDASH_LOG (info, debug, trace).
    #[arg(long, value_name = "PATH", global = true)]
    pub log_file: Option<PathBuf>,
}

/// Where the API is and how to log in to it: the dashboard's options, given before any
/// subcommand (`proxydash --read-only order …`), read from the environment too.
#[derive(Debug, Args, Clone, Default)]
pub struct ConnectionArgs {
    /// The profile (account) of the config file to use [default: the file's default_profile];
    /// repeat for several where a command reads several (watch, services, invoices,
    /// credit, network).
    #[arg(long, env = "PROXYDASH_PROFILE", value_name = "NAME")]
    pub profile: Vec<String>,

    /// Every profile of the config file, where a command reads several (watch, services,
    /// invoices, credit, network).
    #[arg(long)]
    pub all_profiles: bool,

    /// The config file [default: $XDG_CONFIG_HOME/proxydash/config.toml].
    #[arg(long, env = "PROXYDASH_CONFIG", value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Base URL of the reseller API (https://…).
    #[arg(long, env = "PROXYDASH_BASE_URL", value_name = "URL")]
    pub base_url: Option<String>,

    /// API token generated in the account area (sent as Basic credentials).
    #[arg(long, env = "PROXYDASH_TOKEN", hide_env_values = true)]
    pub token: Option<String>,

    /// Login, used with --password instead of a token.
    #[arg(long, env = "PROXYDASH_LOGIN")]
    pub login: Option<String>,

    /// Password for --login. Prefer the environment variable: arguments end up in shell history.
    #[arg(long, env = "PROXYDASH_PASSWORD", hide_env_values = true)]
    pub password: Option<String>,

    /// Allow plain http:// to a host that is not loopback (the token travels unencrypted;
    /// a my-IP lookup could be answered by anyone on the path).
    #[arg(long)]
    pub allow_insecure_http: bool,

    /// Turn every write action off (ordering, binding, passwords, IP-list refreshes).
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

/// The colour theme asked for: `--theme` (clap's own parsing) or `theme =` in a profile
/// (read through the same names, any case).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ThemeName {
    #[default]
    #[value(alias = "default")]
    Dark,
    Light,
}

impl std::str::FromStr for ThemeName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        <Self as clap::ValueEnum>::from_str(s.trim(), true)
            .map_err(|_| format!("unknown theme {:?} (dark, light)", s.trim()))
    }
}
