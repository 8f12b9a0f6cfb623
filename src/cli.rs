//! Command-line definitions (clap) and nothing else: what the flags are, not what they do.

use clap::{Args, Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "proxydash",
    version,
    about = "A terminal dashboard for proxy-reseller accounts",
    long_about = "A terminal dashboard for proxy-reseller accounts: services, products, billing, \
network status and rotating-proxy usage, kept up to date in the background.\n\n\
Try it without an account:  proxydash --demo\n\
On a real account:          PROXYDASH_BASE_URL=https://… PROXYDASH_TOKEN=… proxydash",
    after_help = "Environment: PROXYDASH_BASE_URL, PROXYDASH_TOKEN, PROXYDASH_LOGIN, PROXYDASH_PASSWORD."
)]
pub struct Cli {
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
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,

    /// Clipboard: auto, system, osc52 or off [default: auto].
    #[arg(long, value_name = "MODE")]
    pub clipboard: Option<String>,

    /// Where diagnostics go [default: proxydash.log in the state directory]; the level comes
    /// from PROXYDASH_LOG (info, debug, trace).
    #[arg(long, value_name = "PATH", global = true)]
    pub log_file: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Where the API is and how to log in to it.
#[derive(Debug, Args, Clone, Default)]
pub struct ConnectionArgs {
    /// The profile (account) of the config file to use [default: the file's default_profile].
    #[arg(long, env = "PROXYDASH_PROFILE", value_name = "NAME", global = true)]
    pub profile: Option<String>,

    /// The config file [default: $XDG_CONFIG_HOME/proxydash/config.toml].
    #[arg(long, env = "PROXYDASH_CONFIG", value_name = "PATH", global = true)]
    pub config: Option<PathBuf>,

    /// Base URL of the reseller API (https://…).
    #[arg(long, env = "PROXYDASH_BASE_URL", value_name = "URL", global = true)]
    pub base_url: Option<String>,

    /// API token generated in the account area (sent as Basic credentials). With `sandbox`,
    /// the token the sandbox accepts.
    #[arg(long, env = "PROXYDASH_TOKEN", hide_env_values = true, global = true)]
    pub token: Option<String>,

    /// Login, used with --password instead of a token.
    #[arg(long, env = "PROXYDASH_LOGIN", global = true)]
    pub login: Option<String>,

    /// Password for --login. Prefer the environment variable: arguments end up in shell history.
    #[arg(
        long,
        env = "PROXYDASH_PASSWORD",
        hide_env_values = true,
        global = true
    )]
    pub password: Option<String>,

    /// Allow plain http:// to a host that is not loopback (the token travels unencrypted).
    #[arg(long, global = true)]
    pub allow_insecure_http: bool,

    /// Turn every write action off (ordering, binding, passwords, IP-list refreshes).
    #[arg(long, global = true)]
    pub read_only: bool,

    /// Seconds to wait for a connection [default: 5].
    #[arg(long, value_name = "SECS", global = true)]
    pub connect_timeout: Option<u64>,

    /// Seconds to wait for a whole answer [default: 30].
    #[arg(long, value_name = "SECS", global = true)]
    pub timeout: Option<u64>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the local sandbox server that answers the reseller API from demo data.
    #[command(
        after_help = "Example:\n  proxydash sandbox --listen 127.0.0.1:8787 --latency-ms 200 --scale 10000"
    )]
    Sandbox(SandboxArgs),
    /// Show where the config file is, or write a commented example.
    #[command(subcommand)]
    Config(ConfigCommand),
}

#[derive(Debug, Subcommand)]
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

#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Address to listen on (loopback unless you mean otherwise).
    #[arg(long, default_value = "127.0.0.1:8787")]
    pub listen: SocketAddr,

    /// Milliseconds added before every answer.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub latency_ms: u64,

    /// Generate N services (and matching invoices) instead of the demo seed's.
    #[arg(long, value_name = "N")]
    pub scale: Option<usize>,

    /// Seconds between two allowed IP-list refreshes of one service.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub throttle_secs: u64,

    /// Inject failures, e.g. `500-html:0.1,drop:0.05` or `all:0.2` (see the sandbox docs).
    #[arg(long, value_name = "SPEC")]
    pub faults: Option<String>,

    /// Seed file to load instead of the built-in demo data.
    #[arg(long, value_name = "FILE")]
    pub seed: Option<PathBuf>,
}
