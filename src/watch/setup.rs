//! A profile's account engine for `watch`, made with the same settings, scheduler, state
//! files, history and alert rules as the dashboard's, with alerts going to standard
//! output as JSON lines and to the profile's `on_alert` command.
//!
//! Choices:
//! - **The bell is off**: standard output carries JSON lines, which a BEL would corrupt.
//! - **The state files are the dashboard's**: the open alerts of the account (so an
//!   alert announced before a restart, by `watch` or the dashboard, is not announced
//!   again), the services' types and the history file, which also holds the
//!   acknowledgements and silences (read again before each sweep, so one typed in the
//!   dashboard or `proxydash alerts` holds here from the next sweep). SQLite serialises the history
//!   writers when both run at once.
//! - Nothing in `watch` presses keys, so nothing writes but `--keep-bound`'s rebind (see
//!   [`super::keep_bound`]).

use super::output::Output;
use crate::account::types::TypesFile;
use crate::account::{self, AccountHandle, Clock, Event};
use crate::alerts::deliver::{Deliverer, payload};
use crate::alerts::store::AlertFile;
use crate::alerts::{AlertSink, Notice, Transition};
use crate::api::ApiClient;
use crate::config::Settings;
use crate::history::{Answer, History};
use std::sync::Arc;
use tokio::sync::mpsc;

/// Alerts as JSON lines (the `on_alert` command's payload, one object per line), and on
/// to the `on_alert` command when the profile has one.
pub struct JsonLines {
    pub output: Output,
    pub profile: String,
    pub then: Option<Deliverer>,
}

impl AlertSink for JsonLines {
    fn record(&mut self, t: &Transition) {
        self.output.alert(payload(t, &self.profile).to_string());
    }

    fn announce(&mut self, n: &Notice) {
        if let Some(next) = &mut self.then {
            next.announce(n);
        }
    }
}

/// The key of an account in the state files.
pub fn account_key(settings: &Settings) -> String {
    format!("{} {}", settings.base_url, settings.profile)
}

/// The engine's configuration from a profile's settings and the state files (`types`:
/// the services' types file, none for the demo); a state file that cannot be read (a
/// FIFO, a device, a broken entry) is gone on without, and said on standard error.
pub fn engine_config(
    settings: &Settings,
    alerts: Option<&AlertFile>,
    types: Option<&TypesFile>,
    output: &Output,
) -> account::Config {
    let key = account_key(settings);
    let mut config = account::Config::new(&settings.profile, &settings.base_url, settings.refresh);
    config.rules = settings.alert_rules.clone();
    let (open, alerts_said) = alerts.map(|f| f.load(&key)).unwrap_or_default();
    let (types, types_said) = types.map(|f| f.load(&key)).unwrap_or_default();
    for said in [alerts_said, types_said].into_iter().flatten() {
        output.log(format!("{}: warning: {said}", settings.profile));
    }
    if !open.is_empty() {
        output.log(format!(
            "{}: {} open from the last run, kept open and not announced again",
            settings.profile,
            crate::text::counted(open.len() as u64, "alert", "alerts")
        ));
    }
    config.open_alerts = open;
    config.saved_types = types;
    config.offset = chrono::Local::now().fixed_offset().timezone();
    config
}

/// What `watch` runs for one profile.
pub struct Built {
    pub account: (AccountHandle, mpsc::UnboundedReceiver<Event>),
    pub sink: JsonLines,
    /// The `on_alert` command's runner, to stop it with the watcher, and where what it did
    /// not deliver is kept.
    pub on_alert: Option<super::watcher::OnAlertRunner>,
    pub history: Option<(History, mpsc::UnboundedReceiver<Answer>)>,
}

/// The engine of one profile, started; call inside the runtime. The demo (`demo`) reads
/// and writes none of the user's files: its alerts, marks and types live for the run.
pub fn build(
    settings: &Settings,
    client: ApiClient,
    output: &Output,
    clock: Clock,
    demo: bool,
) -> Built {
    let key = account_key(settings);
    let alert_file = AlertFile::default_location().filter(|_| !demo);
    let types_file = TypesFile::default_location().filter(|_| !demo);
    let mut delivery = settings.alert_delivery.clone();
    delivery.bell = false;
    let report_to = output.clone();
    let profile = settings.profile.clone();
    let report = Arc::new(move |why: String| report_to.log(format!("{profile}: {why}")));
    let then = delivery
        .on_alert
        .is_some()
        .then(|| Deliverer::new(&delivery, &settings.profile, report));
    let on_alert = then
        .as_ref()
        .and_then(|d| d.on_alert().cloned())
        .map(|runner| {
            // What a stop kept from the command goes first.
            let file = crate::alerts::store::Undelivered::default_location().filter(|_| !demo);
            if let Some(file) = &file {
                let (kept, problem) = file.take(&key);
                if let Some(problem) = problem {
                    output.log(format!("{}: warning: {problem}", settings.profile));
                }
                if let Some(notice) = kept {
                    output.log(format!(
                        "{}: {} a stop kept from on_alert, delivered now",
                        settings.profile,
                        crate::text::counted(
                            notice.count() as u64,
                            "alert notice",
                            "alert notices"
                        )
                    ));
                    runner.submit(notice);
                }
            }
            (runner, file.map(|f| (f, key.clone())))
        });
    let sink = JsonLines {
        output: output.clone(),
        profile: settings.profile.clone(),
        then,
    };
    let history = if demo {
        None
    } else {
        history(settings, output)
    };
    // One budget with the profile's dashboard and other `watch`es (their send log); the
    // demo's sandbox is its own.
    let (budget, budget_said) = settings.shared_budget(!demo);
    if let Some(said) = budget_said {
        output.log(format!("{}: warning: {said}", settings.profile));
    }
    let setup = account::Setup {
        config: engine_config(settings, alert_file.as_ref(), types_file.as_ref(), output),
        door: crate::scheduler::Door::new(client, budget),
        clock,
        speed: 1,
        history: history.as_ref().map(|(h, _)| h.clone()),
        alert_file: alert_file.map(|f| (f, key.clone())),
        types_file: types_file.map(|f| (f, key)),
        marks_file: crate::history::file_for(&settings.profile)
            .filter(|_| !demo)
            .map(crate::history::marks::MarksFile::spawn),
        seen: (!demo).then(|| settings.profile.clone()),
    };
    Built {
        account: account::spawn(setup),
        sink,
        on_alert,
        history,
    }
}

/// The profile's history writer, when history is kept; its failures are said on standard
/// error with the file's path.
fn history(
    settings: &Settings,
    output: &Output,
) -> Option<(History, mpsc::UnboundedReceiver<Answer>)> {
    if settings.history_days == 0 {
        return None;
    }
    let Some(path) = crate::history::file_for(&settings.profile) else {
        output.log(format!(
            "{}: history off: no state directory (set XDG_STATE_HOME or HOME)",
            settings.profile
        ));
        return None;
    };
    let (tx, rx) = mpsc::unbounded_channel();
    let log = output.clone();
    let profile = settings.profile.clone();
    // History that cannot be opened (a broken file) is said once, with its path, on
    // standard error (the writer puts the same line in the log).
    let writer = History::spawn(
        path,
        settings.history_days,
        Box::new(move |answer| {
            if let Answer::Off(line) | Answer::Failed(line) = &answer {
                log.log(format!("{profile}: {line}"));
            }
            let _ = tx.send(answer);
        }),
    );
    Some((writer, rx))
}
