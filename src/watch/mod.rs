//! `proxydash watch`: account engines ([`crate::account`]) without a terminal, for one
//! profile or several at once, each with its own request budget, history and alert rules.
//! Nothing of the dashboard runs here.
//!
//! - Alerts go to standard output as JSON lines (one object per transition, the same
//!   object the `on_alert` command reads) and to the profile's `on_alert` command.
//! - `--verbose` writes a summary line on standard error when what it says changes, and
//!   at least every ten minutes (`sweep_news`); `-vv` one per sweep; rebinds, refusals,
//!   failed lookups and the API's state are always written there.
//! - `--metrics-listen ADDR` serves Prometheus metrics ([`crate::metrics`]); an address
//!   that is not loopback gets a warning, as the metrics name an account's services.
//! - `--keep-bound SERVICE…` (or the profile's `keep_bound`) keeps static services bound
//!   to this machine's public IP ([`keep_bound`]).
//! - `--probe-every DURATION` (or the profile's `probe_every`) probes the live services'
//!   proxies through themselves on that schedule ([`probing`]), with the probe's own
//!   bounds; what a round finds goes to the engine (the `proxies_dead` alert, the
//!   history, `proxydash_probe_*` metrics).
//! - SIGINT or SIGTERM stops every watcher gracefully ([`watcher`]: rebinds answered,
//!   history flushed, output written) and exits 0; the exit statuses are in `--help`
//!   (`watch/args.rs`) and the README.
//!
//! Choices where the issue leaves room: no profile named watches the default profile (as
//! a one-account command would; `dashboard_profiles` is the screen's own choice);
//! `--keep-bound` on the command line applies to every profile watched (with
//! one profile that is the usual case; with several, each profile's `keep_bound` key is
//! the way to give each its own); a profile that cannot be resolved (no base URL, a
//! failing `token_command`) stops `watch` before anything starts, so a typo is not a
//! silent gap in the monitoring.

mod args;
mod budget_news;
pub mod collect;
pub mod keep_bound;
pub mod myip;
pub mod output;
pub mod probing;
pub mod setup;
mod sweep_news;
pub mod watcher;

use crate::account::Clock;
use crate::api::ApiClient;
use crate::config::Settings;
use crate::metrics::Board;
use output::Output;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use watcher::{KeepOptions, Options, Watcher};

pub use args::WatchArgs;

/// The options given before `watch`.
type Cli = crate::options::Options;

/// The exit statuses (see `proxydash watch --help`).
pub mod status {
    pub const STOPPED: u8 = 0;
    pub const FAILED: u8 = 1;
    pub const USAGE: u8 = 2;
    pub const METRICS_ADDRESS: u8 = 3;
}

impl crate::options::Subcommand for WatchArgs {
    async fn run(&self, options: &Cli) -> ExitCode {
        // `watch --all-profiles --max-rpm 60`: the account options after `watch` count too.
        let mut with = options.clone();
        with.connection = options.connection.with(&self.account);
        run(&with, self).await
    }
}

/// Runs `watch` until SIGINT or SIGTERM.
pub async fn run(cli: &Cli, args: &WatchArgs) -> ExitCode {
    let fail = |code: u8, why: String| {
        eprintln!("proxydash watch: {why}");
        ExitCode::from(code)
    };
    // `--demo`: the demo's account on its own sandbox, kept for the run; nothing of any
    // profile is read or written (issue 45).
    // The demo's sandbox lives as long as this binding: until `watch` ends.
    let (profiles, _demo_server) = if cli.demo {
        match demo(cli).await {
            Ok((server, profile)) => (vec![profile], Some(server)),
            Err((code, why)) => return fail(code, why),
        }
    } else {
        match resolve(cli) {
            Ok(p) => (p, None),
            Err(e) => return fail(status::USAGE, e),
        }
    };
    let output = match Output::stdio() {
        Ok(o) => o,
        Err(e) => return fail(status::FAILED, format!("cannot start the output: {e}")),
    };
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let signalled = signals(stop_tx.clone());
    let board: Option<Board> = args.metrics_listen.map(|_| Board::default());
    let server = match (args.metrics_listen, &board) {
        (Some(addr), Some(board)) => match metrics(addr, board, &output, &stop_rx).await {
            Ok(task) => Some(task),
            Err(why) => return fail(status::METRICS_ADDRESS, why),
        },
        _ => None,
    };
    let clock: Clock = Arc::new(chrono::Utc::now);
    // Each engine runs on a task of its own; the watchers (delivery, metrics, keep-bound)
    // run as futures of this one task.
    let mut tasks = futures::stream::FuturesUnordered::new();
    for (settings, client) in profiles {
        let keep = keep_options(args, &settings);
        if keep.is_some() && settings.read_only {
            return fail(
                status::USAGE,
                format!(
                    "profile {}: --keep-bound writes (binds an IP) and the profile is read-only",
                    settings.profile
                ),
            );
        }
        let built = setup::build(&settings, client, &output, clock.clone(), cli.demo);
        let options = Options {
            clock: clock.clone(),
            speed: 1,
            verbose: args.verbose,
            board: board.clone(),
            keep,
            history: built.history,
            on_alert: built.on_alert,
            probe: probe_options(args, &settings),
        };
        let probing = options.probe.as_ref().map_or(String::new(), |p| {
            format!(", probe rounds every {} s", p.every.as_secs())
        });
        output.log(format!(
            "{}: watching {} (refresh {}{probing})",
            settings.profile,
            settings.base_url,
            settings
                .refresh
                .map_or("off".into(), |r| format!("{} s", r.as_secs()))
        ));
        let watcher = Watcher::new(
            &settings.profile,
            built.account,
            Box::new(built.sink),
            output.clone(),
            options,
        );
        tasks.push(watcher.run(stop_rx.clone()));
    }
    let mut code = status::STOPPED;
    while let Some(done) = futures::StreamExt::next(&mut tasks).await {
        if let Err(why) = done {
            eprintln!("proxydash watch: {why}");
            code = status::FAILED;
            let _ = stop_tx.send(true);
        }
    }
    signalled.abort();
    let _ = stop_tx.send(true);
    if let Some(task) = server {
        let _ = tokio::time::timeout(Duration::from_secs(2), task).await;
    }
    output.flush(Duration::from_secs(2)).await;
    ExitCode::from(code)
}

/// Starts the metrics server on `addr`, to stop with the watchers.
async fn metrics(
    addr: std::net::SocketAddr,
    board: &Board,
    output: &Output,
    stop: &tokio::sync::watch::Receiver<bool>,
) -> Result<tokio::task::JoinHandle<()>, String> {
    let mut stopped = stop.clone();
    let stop = async move {
        let _ = stopped.wait_for(|s| *s).await;
    };
    let (bound, task) = crate::metrics::server::serve(addr, board.clone(), stop)
        .await
        .map_err(|e| format!("cannot listen on {addr} for metrics: {e}"))?;
    if crate::metrics::server::is_exposed(&bound) {
        eprintln!(
            "proxydash watch: warning: the metrics at {bound} are reachable from other machines; they name your services (use 127.0.0.1 unless a firewall guards it)"
        );
    }
    output.log(format!("metrics at http://{bound}/metrics"));
    Ok(task)
}

/// The demo's account on a sandbox of its own (one: several profiles are the config
/// file's, which the demo does not read).
async fn demo(cli: &Cli) -> Result<(crate::demo::Server, (Settings, ApiClient)), (u8, String)> {
    if cli.connection.all_profiles || cli.connection.profile.len() > 1 {
        return Err((
            status::USAGE,
            "--demo watches the one demo account: leave out --all-profiles and --profile".into(),
        ));
    }
    let server = crate::demo::start(Some(crate::demo::RATE_LIMIT))
        .await
        .map_err(|e| {
            (
                status::FAILED,
                format!("cannot start the demo sandbox: {e}"),
            )
        })?;
    let settings =
        crate::demo::settings(cli, &server).map_err(|e| (status::USAGE, e.to_string()))?;
    let client =
        ApiClient::new(settings.client_config()).map_err(|e| (status::USAGE, e.to_string()))?;
    Ok((server, (settings, client)))
}

/// Each profile to watch ([`crate::config::selection`]: `--profile`, repeatable, or
/// `--all-profiles`; none named: the one the dashboard would use), resolved and with its
/// client made; the settings' warnings said once each.
fn resolve(cli: &Cli) -> Result<Vec<(Settings, ApiClient)>, String> {
    use crate::config::selection::{Unnamed, resolve_all};
    let profiles = resolve_all(cli, Unnamed::DefaultProfile).map_err(|e| e.to_string())?;
    for (settings, _) in &profiles {
        for warning in &settings.warnings {
            eprintln!("proxydash watch: warning: {warning}");
        }
    }
    Ok(profiles)
}

/// `--keep-bound`'s settings for a profile: the command line's services, else the
/// profile's `keep_bound`.
fn keep_options(args: &WatchArgs, settings: &Settings) -> Option<KeepOptions> {
    let services = if args.keep_bound.is_empty() {
        settings.keep_bound.clone()
    } else {
        args.keep_bound.clone()
    };
    (!services.is_empty()).then(|| KeepOptions {
        services,
        every: Duration::from_secs(args.check_every),
        dry_run: args.dry_run,
        urls: myip::urls(
            &args.my_ip_urls,
            &settings.my_ip_url,
            &settings.my_ip_fallbacks,
        ),
        allow_http: settings.allow_insecure_http,
    })
}

/// `--probe-every`'s settings for a profile: the command line's distance, else the
/// profile's `probe_every`; the probe's bounds are the profile's (`probe_url`,
/// `probe_concurrency`, `probe_timeout`, `probe_allow_private`, `probe_sample`).
fn probe_options(args: &WatchArgs, settings: &Settings) -> Option<probing::ProbeOptions> {
    let every = args.probe_every.or(settings.probe.every)?;
    Some(probing::ProbeOptions {
        every,
        sample: settings.probe.sample,
        config: settings.probe.config(),
    })
}

/// SIGINT and SIGTERM set the stop flag; a second one ends the program at once (the
/// finish is bounded anyway, but a stop that hangs is not waited for). Registered before
/// this returns, and only then taken over from the handler that ends the program
/// ([`crate::signals`]), so no signal falls between the two.
fn signals(stop: tokio::sync::watch::Sender<bool>) -> tokio::task::JoinHandle<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut int), Ok(mut term)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        // Not taken over: the signals end the program as their default does.
        return tokio::spawn(async {});
    };
    crate::signals::take_over(&crate::signals::HANDLED, true);
    tokio::spawn(async move {
        tokio::select! {
            _ = int.recv() => {}
            _ = term.recv() => {}
        }
        let _ = stop.send(true);
    })
}
