//! `proxydash sandbox`: its arguments, and starting the sandbox server with them.

use super::sandbox_help::FAULTS_HELP;
use crate::options::{Options, Subcommand};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

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

impl Subcommand for SandboxArgs {
    async fn run(&self, options: &Options) -> ExitCode {
        if options.demo {
            return crate::options::refuse_demo(
                "sandbox",
                "`sandbox` is the server --demo starts for itself",
            );
        }
        run(options, self).await
    }
}

#[cfg(not(feature = "sandbox"))]
async fn run(_: &Options, _: &SandboxArgs) -> ExitCode {
    eprintln!("proxydash sandbox: {}", crate::demo::NO_SANDBOX);
    ExitCode::from(2)
}

#[cfg(feature = "sandbox")]
async fn run(cli: &Options, args: &SandboxArgs) -> ExitCode {
    use crate::sandbox::{FaultSpec, SandboxConfig};
    use std::time::Duration;
    let faults = match args
        .faults
        .as_deref()
        .map(str::parse::<FaultSpec>)
        .transpose()
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("proxydash sandbox: --faults: {e}");
            return ExitCode::from(2);
        }
    };
    let mut config = SandboxConfig {
        listen: args.listen,
        latency: Duration::from_millis(args.latency_ms),
        scale: args.scale,
        throttle: Duration::from_secs(args.throttle_secs),
        faults,
        seed: args.seed.clone(),
        quirks: args.quirks,
        rate_limit: args.rate_limit.filter(|n| *n > 0),
        rate_limit_headers: args.rate_limit_headers == "on",
        proxies: args.proxies,
        ..SandboxConfig::default()
    };
    // `sandbox --token`, or (as before) --token / PROXYDASH_TOKEN before the subcommand,
    // names the token the sandbox accepts.
    if let Some(token) = args
        .token
        .as_ref()
        .or(cli.connection.account.token.as_ref())
    {
        config.token = token.clone();
    }
    match crate::sandbox::run_cli(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proxydash sandbox: {e}");
            ExitCode::FAILURE
        }
    }
}
