//! Starting the dashboard: settings (or the demo sandbox), the terminal, the run loop, and
//! switching profiles without leaving the terminal.
//!
//! The signals that end the program (SIGINT, SIGTERM, SIGHUP) are caught before the
//! terminal is taken, so none can arrive while it is in raw mode with nobody to restore
//! it; the loop turns each into an exit with status 128 + its number after restoring.
//!
//! # Debugging aid
//!
//! `PROXYDASH_DEBUG_PANIC=1` makes the dashboard panic right after its first frame is
//! drawn. It exists so that tests (and a doubting user) can see that a panic leaves the
//! terminal restored — raw mode off, the alternate screen left, the cursor shown, the
//! mouse released — with the panic message printed after that, and a non-zero exit
//! status. `PROXYDASH_DEBUG_PANIC=task` instead panics in a background task half a second
//! after start-up: the dashboard must carry on untouched (the message goes to the log).
//! Neither has any other effect, and neither is shown in `--help`.

use crate::account::types::TypesFile;
use crate::alerts::store::AlertFile;
use crate::api::ApiClient;
use crate::app::settings::{AlertStart, Among, IpListStart, ProbeSettings, Profiles};
use crate::app::{App, AppSettings, Clock};
use crate::cli::Cli;
use crate::clipboard;
use crate::config::selection::Unnamed;
use crate::config::{ConfigError, Settings};
use crate::demo::Server as SandboxHandle;
use crate::desk::{Desk, Seat};
use crate::effects::Effects;
use crate::iplist_throttle::StateFile;
use crate::run::{self, Exit};
use crate::term;
use futures::StreamExt;
use std::io::{IsTerminal, Write as _};
use std::process::ExitCode;
use std::sync::Arc;

/// Requests a minute the demo sandbox answers (the demo's own figure).
pub const DEMO_RATE_LIMIT: u32 = crate::demo::RATE_LIMIT;

/// Runs the dashboard until the user quits; the exit code follows the DESIGN: 0 on quit,
/// 2 on bad settings, 128 + n on signal n.
pub async fn run(cli: &Cli) -> ExitCode {
    // The sandboxes live as long as this function: dropping a handle stops it.
    let mut sandboxes: Vec<SandboxHandle> = Vec::new();
    let accounts = match first_accounts(cli, &mut sandboxes).await {
        Ok(a) => a,
        Err(code) => return code,
    };
    for (settings, _) in &accounts {
        for warning in &settings.warnings {
            eprintln!("proxydash: warning: {warning}");
        }
    }
    // Checked after the settings and the client, so a missing account or a bad URL is
    // reported as such even in a pipe.
    if !std::io::stdout().is_terminal() {
        eprintln!("proxydash: standard output is not a terminal; the dashboard needs one.");
        return ExitCode::from(2);
    }
    let signals = term::input::signals();
    // Registered: from now on the loop turns each into a restore and an exit.
    crate::signals::take_over(&crate::signals::HANDLED, false);
    let (mut terminal, guard) = match term::enter(accounts.iter().any(|(s, _)| s.mouse)) {
        // Never dropped: ratatui's `Terminal` shows the cursor when dropped and reports a
        // failure with `eprintln!`, which panics when standard error is gone (a closed
        // terminal) — and a panic in a drop during unwinding aborts the process.
        // `term::restore` shows the cursor already.
        Ok((terminal, guard)) => (std::mem::ManuallyDrop::new(terminal), guard),
        Err(e) => {
            term::restore();
            eprintln!("proxydash: cannot set up the terminal: {e}");
            return ExitCode::FAILURE;
        }
    };
    let keys = match term::input::spawn() {
        Ok(keys) => keys,
        Err(e) => {
            drop(guard);
            let _ = writeln!(
                std::io::stderr(),
                "proxydash: cannot read the terminal: {e}"
            );
            return ExitCode::FAILURE;
        }
    };
    let mut input = futures::stream::select(keys, signals.map(Ok));
    let debug_panic = std::env::var("PROXYDASH_DEBUG_PANIC").unwrap_or_default();
    if debug_panic == "task" {
        tokio::spawn(async {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            panic!("PROXYDASH_DEBUG_PANIC=task: a deliberate panic in a background task");
        });
    }
    let options = run::Options {
        foreground: Some((term::give_to_command, term::take_from_command)),
        suspend: Some(suspend),
        panic_after_first_frame: debug_panic == "1",
    };
    let clock: Clock = Arc::new(chrono::Utc::now);
    // Over several accounts, each is told the others' names (`P` picks among them, a
    // write's confirmation names its account).
    let names: Vec<String> = match accounts.len() {
        1 => Vec::new(),
        _ => accounts.iter().map(|(s, _)| s.profile.clone()).collect(),
    };
    let seats = accounts
        .into_iter()
        .map(|(settings, client)| seat(settings, client, cli.demo, &clock, &names))
        .collect();
    let mut desk = Desk::new(seats);
    // A profile switch being resolved off the UI task: its `token_command` may take up to
    // its timeout, and the screen, the keys and Ctrl-C go on meanwhile.
    let mut switching: Option<Switch> = None;
    let outcome = loop {
        let exit = match switching.as_mut() {
            None => run::run_with(&mut terminal, &mut desk, &mut input, &clock, &options).await,
            Some(switch) => {
                let ran = tokio::select! {
                    exit = run::run_with(&mut terminal, &mut desk, &mut input, &clock, &options)
                        => Err(exit),
                    // The loop is dropped while it waits (on keys, answers or its timer,
                    // whose receivers lose nothing when dropped) and started again.
                    resolved = &mut switch.task => Ok(resolved),
                };
                match ran {
                    Err(exit) => exit,
                    Ok(resolved) => {
                        let name = switch.name.clone();
                        switching = None;
                        // A switch is only ever started on a desk over one account.
                        if let Some(only) = desk.only() {
                            switched(only, resolved, &name, &clock);
                        }
                        continue;
                    }
                }
            }
        };
        match exit {
            Ok(Exit::SwitchProfile(name)) => {
                if let Some(only) = desk.only() {
                    only.app.set_waiting(Some(format!(
                        "profile {name}: waiting for its token_command… (q quits)"
                    )));
                }
                // A newer choice replaces one still waiting; the older command ends at
                // its own timeout and its answer is dropped.
                switching = Some(Switch::start(cli, name));
            }
            other => break other,
        }
    };
    drop(guard);
    // A profile switch still waiting on its token_command: stop the command too.
    crate::config::secrets::stop_all();
    match outcome {
        Ok(Exit::Signal(n)) => ExitCode::from((128 + n) as u8),
        Ok(_) => ExitCode::SUCCESS,
        // The terminal went away (its window closed, the SSH connection dropped): that is
        // a hangup, whether SIGHUP or the failed read arrived first.
        Err(e) if terminal_gone(&e) => ExitCode::from(128 + libc::SIGHUP as u8),
        Err(e) => {
            // Not `eprintln!`: it panics if standard error is gone.
            let _ = writeln!(std::io::stderr(), "proxydash: terminal error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A profile switch under way: the settings (and so the secret commands) are resolved on a
/// blocking thread.
struct Switch {
    name: String,
    task: tokio::task::JoinHandle<Result<(Settings, ApiClient), String>>,
}

impl Switch {
    fn start(cli: &Cli, name: String) -> Self {
        let cli = cli.clone();
        let profile = name.clone();
        let task = tokio::task::spawn_blocking(move || {
            let settings =
                Settings::resolve_profile(&cli, Some(&profile)).map_err(|e| e.to_string())?;
            let client = ApiClient::new(settings.client_config()).map_err(|e| e.to_string())?;
            Ok((settings, client))
        });
        Self { name, task }
    }
}

/// Reading or writing a terminal that has hung up fails with EIO (or ENXIO).
fn terminal_gone(e: &std::io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EIO) | Some(libc::ENXIO))
}

/// Ctrl-Z on the real terminal: suspend as a shell job, then redraw everything.
fn suspend(terminal: &mut term::Tui) -> std::io::Result<()> {
    term::suspend()?;
    // Not `Terminal::clear`: that asks the terminal where its cursor is and waits for the
    // answer. A resize to the current size clears the screen and forgets the last frame.
    let size = terminal.size()?;
    terminal.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
}

/// The outcome of a profile switch: the account replaced (its message and command logs
/// going on under the new one), or the failure said.
fn switched(
    only: &mut Seat,
    resolved: Result<Result<(Settings, ApiClient), String>, tokio::task::JoinError>,
    name: &str,
    clock: &Clock,
) {
    match resolved {
        Ok(Ok((settings, client))) => {
            let log = only.app.shell_mut().take_message_log();
            let commands = only.app.take_command_log();
            let from = only.app.settings().profile.clone();
            *only = seat(settings, client, false, clock, &[]);
            only.app.shell_mut().continue_message_log(log, &from);
            only.app.continue_command_log(commands);
        }
        Ok(Err(e)) => {
            only.app.set_waiting(None);
            only.app.shell_mut().profile_switch_failed(name, &e);
        }
        Err(e) => {
            only.app.set_waiting(None);
            let _ = only.app.update(crate::app::Msg::Diagnostic(format!(
                "Not switched to profile {name}: {e}"
            )));
        }
    }
}

/// One account's app and effects, its engine started.
/// `among`: every account's profile when there are several (`P` picks among them, and a
/// write's confirmation names its account); empty for one.
fn seat(
    settings: Settings,
    client: ApiClient,
    demo: bool,
    clock: &Clock,
    among: &[String],
) -> Seat {
    {
        let account = format!("{} {}", settings.base_url, settings.profile);
        // The demo reads and writes none of the user's files (throttles, alerts, history):
        // its sandbox is new on each start (and on a new port), so nothing of it is worth
        // keeping, and the user's own state must not see it.
        let state = StateFile::default_location().filter(|_| !demo);
        // A state file that cannot be read (a FIFO, a device, a broken entry) is gone on
        // without; the header says which and why.
        let (throttles, throttles_said) =
            state.as_ref().map(|f| f.load(&account)).unwrap_or_default();
        let alert_file = AlertFile::default_location().filter(|_| !demo);
        let (open_alerts, alerts_said) = alert_file
            .as_ref()
            .map(|f| f.load(&account))
            .unwrap_or_default();
        let types_file = TypesFile::default_location().filter(|_| !demo);
        let (saved_types, types_said) = types_file
            .as_ref()
            .map(|f| f.load(&account))
            .unwrap_or_default();
        let (budget, budget_said) = settings.shared_budget(!demo);
        let (look, skins, skin_said) = crate::config::skin::resolve(&settings);
        let (actions, actions_said) =
            crate::app::user_actions::check_keys(settings.actions.clone());
        let said = [
            throttles_said,
            alerts_said,
            types_said,
            budget_said,
            skin_said,
        ]
        .into_iter()
        .flatten()
        .chain(actions_said);
        let mut app = App::new(
            AppSettings {
                profile: settings.profile.clone(),
                base_url: settings.base_url.clone(),
                demo,
                refresh: settings.refresh,
                mouse: settings.mouse,
                read_only: settings.read_only,
                eager_rows: crate::app::EAGER_ROWS / among.len().max(1),
                look,
                skins,
                actions,
                profiles: Profiles {
                    names: if among.is_empty() {
                        settings.profiles.clone()
                    } else {
                        among.to_vec()
                    },
                    cards: settings.profile_cards.clone(),
                },
                among: Among {
                    accounts: !among.is_empty(),
                    colour: settings.colour,
                },
                iplist: IpListStart {
                    server_zone: settings.server_zone,
                    throttles,
                },
                // The header keeps them; a log that cannot be opened is one too.
                warnings: settings
                    .warnings
                    .iter()
                    .cloned()
                    .chain(crate::logging::problem().map(|p| format!("no log: {p}")))
                    .chain(said)
                    .collect(),
                alerts: AlertStart {
                    rules: settings.alert_rules.clone(),
                    open: open_alerts,
                },
                probe: ProbeSettings {
                    templates: settings.probe.templates.clone(),
                    rotation_asks: settings.probe.rotation_asks,
                },
                cli_args: cli_args(&settings, demo),
            },
            clock.clone(),
        );
        app.set_utc_offset(*chrono::Local::now().offset());
        let mut config = app.engine_config();
        config.saved_types = saved_types;
        let engine = crate::account::spawn(crate::account::Setup {
            config,
            door: crate::scheduler::Door::new(client, budget),
            clock: clock.clone(),
            speed: 1,
            history: None,
            alert_file: alert_file.map(|f| (f, account.clone())),
            types_file: types_file.map(|f| (f, account.clone())),
            // Shared with `watch` and `proxydash alerts` through the profile's history
            // file; the demo keeps its own in memory.
            marks_file: crate::history::file_for(&settings.profile)
                .filter(|_| !demo)
                .map(crate::history::marks::MarksFile::spawn),
            seen: (!demo).then(|| settings.profile.clone()),
        });
        let mut effects = Effects::new(
            engine,
            clipboard::for_mode(settings.clipboard),
            settings.my_ip_url.clone(),
            state.map(|f| (f, account.clone())),
        )
        .with_my_ip_allow_http(settings.allow_insecure_http)
        .with_alert_delivery(&settings.alert_delivery, &settings.profile);
        effects.set_probe(settings.probe.config());
        if let Some(problem) = crate::logging::problem() {
            let _ = app.update(crate::app::Msg::Diagnostic(format!(
                "No log: {problem}; diagnostics are off"
            )));
        }
        // Last, so it is the one on screen: a secret readable by others matters most.
        for warning in &settings.warnings {
            let _ = app.update(crate::app::Msg::Diagnostic(format!("Warning: {warning}")));
        }
        if settings.history_days > 0 {
            match crate::history::place_for(&settings.profile, demo) {
                Some(path) => {
                    let history = effects.attach_history(path, settings.history_days);
                    effects.account().record_to(history);
                    for command in app.enable_history() {
                        effects.execute(command);
                    }
                }
                None => app.notify("History off: no state directory (set XDG_STATE_HOME or HOME)"),
            }
        }
        Seat::new(app, effects)
    }
}

/// The options that name this account on a command line (the palette's and the command
/// log's lines): `--config PATH` for a file not at its default place and `--profile NAME`
/// for a profile not chosen by default, never credentials. The demo's are its running
/// sandbox's address and that sandbox's public demo token (it holds no real account):
/// `--demo` would start a fresh throwaway sandbox instead of doing what was done here.
fn cli_args(settings: &Settings, demo: bool) -> Vec<String> {
    if demo {
        return crate::demo::command_args(&settings.base_url);
    }
    let mut out = Vec::new();
    if let Some(path) = &settings.config_path
        && Some(path) != crate::config::file::default_path().as_ref()
    {
        out.extend(["--config".into(), path.display().to_string()]);
    }
    if !settings.default_profile {
        out.extend(["--profile".into(), settings.profile.clone()]);
    }
    out
}

/// The accounts the dashboard shows, each resolved with its client: the demo's
/// sandboxes, or the profiles the command line (or `dashboard_profiles`) selects.
async fn first_accounts(
    cli: &Cli,
    sandboxes: &mut Vec<SandboxHandle>,
) -> Result<Vec<(Settings, ApiClient)>, ExitCode> {
    let bad = |e: ConfigError| {
        eprintln!("proxydash: {e}");
        ExitCode::from(2)
    };
    if !cli.demo {
        return crate::config::selection::resolve_all(cli, Unnamed::DashboardProfiles).map_err(bad);
    }
    let several = cli.connection.all_profiles || cli.connection.profile.len() > 1;
    let names: Vec<String> = match cli.connection.profile.as_slice() {
        names if several && names.len() > 1 => names.to_vec(),
        _ if several => DEMO_ACCOUNTS.iter().map(|s| (*s).to_owned()).collect(),
        _ => vec![String::new()],
    };
    let mut out = Vec::new();
    for (i, name) in names.into_iter().enumerate() {
        // A realistic limit, so the demo shows the dashboard working within one; with its
        // proxies, so `h` has something to probe on loopback.
        let scale = (several && i == 2).then_some(DEMO_SCALED);
        let handle = crate::demo::start_scaled(Some(DEMO_RATE_LIMIT), scale)
            .await
            .map_err(|e| {
                eprintln!("proxydash: cannot start the demo sandbox: {e}");
                ExitCode::FAILURE
            })?;
        let mut settings = crate::demo::settings(cli, &handle).map_err(bad)?;
        if several {
            settings.profile = name;
            // The second demo account is read-only, to show how the others still write.
            settings.read_only |= i == 1;
        }
        let client = ApiClient::new(settings.client_config()).map_err(|e| {
            eprintln!("proxydash: {e}");
            ExitCode::from(2)
        })?;
        sandboxes.push(handle);
        out.push((settings, client));
    }
    Ok(out)
}

/// The demo's accounts with `--all-profiles`: a sandbox each, the second read-only, the
/// third with [`DEMO_SCALED`] generated services.
const DEMO_ACCOUNTS: [&str; 3] = ["acme", "globex", "initech"];
const DEMO_SCALED: usize = 40;
