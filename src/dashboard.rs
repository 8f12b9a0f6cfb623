//! Starting the dashboard: settings (or the demo sandbox), the terminal, the run loop, and
//! switching profiles without leaving the terminal.

use crate::api::ApiClient;
use crate::app::{App, AppSettings, Clock};
use crate::cli::Cli;
use crate::clipboard;
use crate::config::{ConfigError, Settings, ThemeName};
use crate::effects::Effects;
use crate::fetcher;
use crate::run::{self, Exit, Input};
use crate::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use crate::term;
use crate::throttle::StateFile;
use crate::ui::theme::Look;
use crossterm::event::EventStream;
use futures::StreamExt;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

/// Runs the dashboard until the user quits; the exit code follows the DESIGN: 0 on quit,
/// 2 on bad settings, 128 + n on signal n.
pub async fn run(cli: &Cli) -> ExitCode {
    // The sandbox lives as long as this function: dropping the handle stops it.
    let mut sandbox: Option<SandboxHandle> = None;
    let settings = match first_settings(cli, &mut sandbox).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    for warning in &settings.warnings {
        eprintln!("proxydash: warning: {warning}");
    }
    let client = match ApiClient::new(settings.client_config()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("proxydash: {e}");
            return ExitCode::from(2);
        }
    };
    // Checked after the settings and the client, so a missing account or a bad URL is
    // reported as such even in a pipe.
    if !std::io::stdout().is_terminal() {
        eprintln!("proxydash: standard output is not a terminal; the dashboard needs one.");
        return ExitCode::from(2);
    }
    let (mut terminal, guard) = match term::enter(settings.mouse) {
        Ok(t) => t,
        Err(e) => {
            term::restore();
            eprintln!("proxydash: cannot set up the terminal: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut input = futures::stream::select(
        EventStream::new().map(|e| e.map(Input::Terminal)),
        signals().map(Ok),
    );
    let clock: Clock = Arc::new(chrono::Utc::now);
    let mut session = Session::new(settings, client, cli.demo, &clock);
    let outcome = loop {
        let exit = run::run(
            &mut terminal,
            &mut session.app,
            &mut input,
            &mut session.effects,
            &clock,
        )
        .await;
        match exit {
            Ok(Exit::SwitchProfile(name)) => {
                match Settings::resolve_profile(cli, Some(&name))
                    .map_err(|e| e.to_string())
                    .and_then(|s| {
                        ApiClient::new(s.client_config())
                            .map(|c| (s, c))
                            .map_err(|e| e.to_string())
                    }) {
                    Ok((settings, client)) => {
                        session = Session::new(settings, client, false, &clock)
                    }
                    Err(e) => session.app.notify(format!("Profile {name}: {e}")),
                }
            }
            other => break other,
        }
    };
    drop(guard);
    match outcome {
        Ok(Exit::Signal(n)) => ExitCode::from((128 + n) as u8),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proxydash: terminal error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One account's app and effects.
struct Session {
    app: App,
    effects: Effects,
}

impl Session {
    fn new(settings: Settings, client: ApiClient, demo: bool, clock: &Clock) -> Self {
        let account = format!("{} {}", settings.base_url, settings.profile);
        let state = StateFile::default_location();
        let throttles = state.as_ref().map(|f| f.load(&account)).unwrap_or_default();
        let effects = Effects::new(
            fetcher::spawn(client, fetcher::DEFAULT_CONCURRENCY),
            clipboard::for_mode(settings.clipboard),
            settings.my_ip_url.clone(),
            state.map(|f| (f, account)),
        );
        let mut app = App::new(
            AppSettings {
                profile: settings.profile.clone(),
                base_url: settings.base_url.clone(),
                demo,
                refresh: settings.refresh,
                mouse: settings.mouse,
                server_zone: settings.server_zone,
                throttles,
                read_only: settings.read_only,
                look: match (settings.no_color, settings.theme) {
                    (true, _) => Look::Plain,
                    (false, ThemeName::Dark) => Look::Dark,
                    (false, ThemeName::Light) => Look::Light,
                },
                profiles: settings.profiles.clone(),
            },
            clock.clone(),
        );
        app.set_utc_offset(*chrono::Local::now().offset());
        for warning in &settings.warnings {
            app.notify(format!("Warning: {warning}"));
        }
        Self { app, effects }
    }
}

async fn first_settings(
    cli: &Cli,
    sandbox: &mut Option<SandboxHandle>,
) -> Result<Settings, ExitCode> {
    if !cli.demo {
        return Settings::resolve(cli).map_err(|e| {
            eprintln!("proxydash: {e}");
            ExitCode::from(2)
        });
    }
    let handle = Sandbox::start(SandboxConfig::ephemeral())
        .await
        .map_err(|e| {
            eprintln!("proxydash: cannot start the demo sandbox: {e}");
            ExitCode::FAILURE
        })?;
    let settings =
        Settings::demo(cli, handle.base_url(), handle.token()).map_err(|e: ConfigError| {
            eprintln!("proxydash: {e}");
            ExitCode::from(2)
        })?;
    *sandbox = Some(handle);
    Ok(settings)
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
