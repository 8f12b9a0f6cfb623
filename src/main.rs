//! The binary: parse the command line, then run the dashboard, the sandbox or (later) a
//! scripting subcommand.

use clap::Parser;
use crossterm::event::EventStream;
use futures::StreamExt;
use proxydash::api::ApiClient;
use proxydash::app::{App, AppSettings, Clock};
use proxydash::cli::{Cli, Command, SandboxArgs};
use proxydash::clipboard::{self, ClipboardMode};
use proxydash::config::{ConfigError, Settings};
use proxydash::effects::{DEFAULT_MY_IP_URL, Effects};
use proxydash::run::{Exit, Input};
use proxydash::sandbox::{FaultSpec, Sandbox, SandboxConfig};
use proxydash::throttle::StateFile;
use proxydash::{fetcher, run, term};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("proxydash: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        match &cli.command {
            Some(Command::Sandbox(args)) => sandbox(&cli, args).await,
            None => dashboard(&cli).await,
        }
    })
}

async fn sandbox(cli: &Cli, args: &SandboxArgs) -> ExitCode {
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
        ..SandboxConfig::default()
    };
    if let Some(token) = &cli.connection.token {
        config.token = token.clone();
    }
    match proxydash::sandbox::run_cli(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proxydash sandbox: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn dashboard(cli: &Cli) -> ExitCode {
    if !std::io::stdout().is_terminal() {
        eprintln!("proxydash: standard output is not a terminal; the dashboard needs one.");
        return ExitCode::from(2);
    }
    // The sandbox lives as long as this function: dropping the handle stops it.
    let mut _sandbox = None;
    let settings = if cli.demo {
        let config = SandboxConfig {
            listen: ([127, 0, 0, 1], 0).into(),
            ..SandboxConfig::default()
        };
        match Sandbox::start(config).await {
            Ok(handle) => {
                let settings = Settings::demo(cli, handle.base_url(), handle.token());
                _sandbox = Some(handle);
                settings
            }
            Err(e) => {
                eprintln!("proxydash: cannot start the demo sandbox: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        match Settings::from_cli(cli) {
            Ok(s) => s,
            Err(e @ (ConfigError::NoAccount | ConfigError::Invalid(_))) => {
                eprintln!("proxydash: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let client = match ApiClient::new(settings.client_config()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("proxydash: {e}");
            return ExitCode::from(2);
        }
    };
    // The 429 countdowns of this account, kept across restarts.
    let account = format!("{} {}", settings.base_url, settings.profile);
    let state_file = StateFile::default_location();
    let throttles = state_file
        .as_ref()
        .map(|f| f.load(&account))
        .unwrap_or_default();
    let mut effects = Effects::new(
        fetcher::spawn(client, fetcher::DEFAULT_CONCURRENCY),
        clipboard::for_mode(ClipboardMode::Auto),
        DEFAULT_MY_IP_URL.into(),
        state_file.map(|f| (f, account)),
    );
    let clock: Clock = Arc::new(chrono::Utc::now);
    let mut app = App::new(
        AppSettings {
            profile: settings.profile.clone(),
            base_url: settings.base_url.clone(),
            demo: cli.demo,
            refresh: settings.refresh,
            mouse: settings.mouse,
            throttles,
            ..AppSettings::default()
        },
        clock.clone(),
    );
    app.set_utc_offset(*chrono::Local::now().offset());
    let (mut terminal, guard) = match term::enter(settings.mouse) {
        Ok(t) => t,
        Err(e) => {
            term::restore();
            eprintln!("proxydash: cannot set up the terminal: {e}");
            return ExitCode::FAILURE;
        }
    };
    let input = futures::stream::select(
        EventStream::new().map(|e| e.map(Input::Terminal)),
        signals().map(Ok),
    );
    let outcome = run::run(&mut terminal, &mut app, input, &mut effects, &clock).await;
    drop(guard);
    match outcome {
        Ok(Exit::Quit | Exit::InputClosed) => ExitCode::SUCCESS,
        Ok(Exit::Signal(n)) => ExitCode::from((128 + n) as u8),
        Err(e) => {
            eprintln!("proxydash: terminal error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// SIGINT, SIGTERM and SIGHUP as a stream of [`Input::Signal`], so the loop can restore the
/// terminal and exit with 128 + the signal's number.
fn signals() -> impl futures::Stream<Item = Input> + Unpin {
    use tokio::signal::unix::{SignalKind, signal};
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    for (kind, number) in [
        (SignalKind::interrupt(), 2),
        (SignalKind::terminate(), 15),
        (SignalKind::hangup(), 1),
    ] {
        if let Ok(mut stream) = signal(kind) {
            let tx = tx.clone();
            tokio::spawn(async move {
                while stream.recv().await.is_some() {
                    if tx.send(Input::Signal(number)).is_err() {
                        break;
                    }
                }
            });
        }
    }
    Box::pin(futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|input| (input, rx))
    }))
}
