//! `proxydash watch`: its flags (what they are, not what they do; see [`super`]).

use clap::Args;
use std::net::SocketAddr;

#[derive(Debug, Clone, Args)]
#[command(after_help = concat!(
    "Example:\n  proxydash watch --verbose\n  \
proxydash watch --all-profiles --metrics-listen 127.0.0.1:9464 >> alerts.jsonl\n  \
proxydash watch --keep-bound 1001 1002 --dry-run --verbose\n  \
proxydash watch --probe-every 5m --metrics-listen 127.0.0.1:9464\n\n",
    "Exit status:\n  \
0  stopped by SIGINT or SIGTERM after finishing its writes (history flushed, alerts printed)\n  \
2  bad usage or settings (an unknown profile, no base URL, a bad --metrics-listen)\n  \
3  the metrics address cannot be listened on\n  \
1  anything else that stopped it (standard output closed, the runtime failed)"
))]
pub struct WatchArgs {
    /// A summary line on standard error when what it says changes (and every ten
    /// minutes); twice (-vv): one per sweep.
    #[arg(long, short = 'v', action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// Serve Prometheus metrics at http://ADDR/metrics (loopback unless you mean
    /// otherwise: a warning is printed when bound elsewhere).
    #[arg(long, value_name = "ADDR")]
    pub metrics_listen: Option<SocketAddr>,

    /// Keep these static services bound to this machine's public IP: rebind when it
    /// changes [default: the profile's keep_bound].
    #[arg(long, value_name = "SERVICE", num_args = 1..)]
    pub keep_bound: Vec<u64>,

    /// With --keep-bound: say what would be rebound, send no write.
    #[arg(long)]
    pub dry_run: bool,

    /// Where this machine's public IP is looked up (plain-text answer), tried in order;
    /// repeat for fallbacks [default: the profile's my_ip_url, then its my_ip_fallbacks].
    #[arg(long = "my-ip-url", value_name = "URL")]
    pub my_ip_urls: Vec<String>,

    /// Seconds between two checks of the public IP (--keep-bound).
    #[arg(long, value_name = "SECS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub check_every: u64,

    /// Probe the live services' proxies through themselves this often (30s, 5m, 1h30m),
    /// with the probe's own bounds (probe_concurrency, probe_timeout, probe_sample, the
    /// judge of probe_url) [default: the profile's probe_every, else never].
    #[arg(long, value_name = "DURATION", value_parser = crate::config::parse_every)]
    pub probe_every: Option<std::time::Duration>,

    /// The account options (`watch --profile a --profile b`, `watch --all-profiles`,
    /// `watch --max-rpm 60`), on top of those given before `watch`.
    #[command(flatten)]
    pub account: crate::options::AccountArgs,
}
