//! The arguments of the subcommands that do not ask an account: `sandbox`, `history` and
//! `completions` (`config`'s are in [`crate::config::command`]).

use super::sandbox_help::FAULTS_HELP;
use clap::{Args, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Clone, Subcommand)]
pub enum HistoryCommand {
    /// Print every change kept since a time, oldest first, as CSV (default) or JSON.
    #[command(
        after_help = "Example:\n  proxydash history export --since 7d --csv > week.csv\n  \
proxydash history export --profile monitor --since 2026-11-01 --json | jq '.[] | select(.kind == \"error_start\")'"
    )]
    Export(HistoryExportArgs),
}

#[derive(Debug, Clone, Args)]
pub struct HistoryExportArgs {
    /// The profile whose history to export [default: the config file's default_profile].
    #[arg(long, env = "PROXYDASH_PROFILE", value_name = "NAME")]
    pub profile: Option<String>,
    /// The config file that names the profiles.
    #[arg(long, env = "PROXYDASH_CONFIG", value_name = "PATH")]
    pub config: Option<std::path::PathBuf>,
    /// From when: a span back from now (`7d`, `12h`, `30m`) or a date (`2026-11-01`, UTC).
    #[arg(long, value_name = "WHEN", default_value = "7d")]
    pub since: String,
    /// Print JSON: an array of objects.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV with a header line (the default).
    #[arg(long)]
    pub csv: bool,
}

#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for.
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Clone, Args)]
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

    /// Inject failures, e.g. `500-html:0.1,drop:0.05` or `all:0.2` (--help lists every
    /// kind; docs/sandbox.md has an example of each).
    #[arg(long, value_name = "SPEC", long_help = FAULTS_HELP)]
    pub faults: Option<String>,

    /// The token the sandbox accepts [default: a fixed demo token, printed at start].
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,

    /// Seed file to load instead of the built-in demo data.
    #[arg(long, value_name = "FILE")]
    pub seed: Option<PathBuf>,

    /// Answer with live servers' quirks (numbers as strings, `0000-00-00` or null for
    /// missing dates, a json IP list without brackets) instead of the spec's exact types.
    #[arg(long)]
    pub quirks: bool,
    /// Answer at most N requests a minute per token (all endpoints), with 429
    /// "Too Many Attempts." beyond [default: no limit].
    #[arg(long, value_name = "N")]
    pub rate_limit: Option<u32>,

    /// Send the X-RateLimit-* and Retry-After headers with the rate limit: on or off.
    #[arg(long, value_name = "ON|OFF", default_value = "on", value_parser = ["on", "off"])]
    pub rate_limit_headers: String,

    /// Start real proxies (HTTP and SOCKS5) on 127.0.0.0/8 and a judge, and point the IP
    /// lists at them, so `proxydash probe` and `h` have something to check.
    #[arg(long)]
    pub proxies: bool,
}
