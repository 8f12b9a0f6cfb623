//! A profile's [`App`] and [`Effects`] for `watch`, made as the dashboard makes them (the
//! same settings, scheduler, state files, history and alert rules), with alerts going to
//! standard output as JSON lines and to the profile's `on_alert` command.
//!
//! Choices:
//! - **The bell is off**: standard output carries JSON lines, which a BEL would corrupt.
//! - **The state files are the dashboard's**: the open alerts of the account (so an
//!   alert announced before a restart, by `watch` or the dashboard, is not announced
//!   again), the IP-list countdowns and the history file. SQLite serialises the history
//!   writers when both run at once.
//! - **The app's own public-IP lookup is off** (it only marks a bound IP on screen): an
//!   unattended program asks no outside service unless `--keep-bound` is given.
//! - Nothing in `watch` presses keys, so the app itself never writes; the only write is
//!   `--keep-bound`'s rebind (see [`super::keep_bound`]).

use super::output::Output;
use crate::alerts::deliver::{Deliverer, payload};
use crate::alerts::store::AlertFile;
use crate::alerts::{AlertSink, Transition};
use crate::api::ApiClient;
use crate::app::{App, AppSettings, Clock};
use crate::clipboard;
use crate::config::Settings;
use crate::effects::Effects;
use crate::fetcher;
use crate::throttle::StateFile;
use std::sync::Arc;

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
        if let Some(next) = &mut self.then {
            next.record(t);
        }
    }
}

/// The app's settings from a profile's, as the dashboard's (no terminal-only ones).
pub fn app_settings(settings: &Settings, account: &str, alerts: Option<&AlertFile>) -> AppSettings {
    AppSettings {
        profile: settings.profile.clone(),
        base_url: settings.base_url.clone(),
        refresh: settings.refresh,
        mouse: false,
        server_zone: settings.server_zone,
        throttles: StateFile::default_location()
            .map(|f| f.load(account))
            .unwrap_or_default(),
        read_only: settings.read_only,
        alert_rules: settings.alert_rules.clone(),
        open_alerts: alerts.map(|f| f.load(account)).unwrap_or_default(),
        ..AppSettings::default()
    }
}

/// The app, its effects and whether history is kept, for one profile; call inside the
/// runtime.
pub fn build(
    settings: &Settings,
    client: ApiClient,
    output: &Output,
    clock: Clock,
) -> (App, Effects, bool) {
    let account = format!("{} {}", settings.base_url, settings.profile);
    let alert_file = AlertFile::default_location();
    let mut delivery = settings.alert_delivery.clone();
    delivery.bell = false;
    let report_to = output.clone();
    let profile = settings.profile.clone();
    let report = Arc::new(move |why: String| report_to.log(format!("{profile}: {why}")));
    let sink = JsonLines {
        output: output.clone(),
        profile: settings.profile.clone(),
        then: delivery
            .on_alert
            .is_some()
            .then(|| Deliverer::new(&delivery, &settings.profile, report)),
    };
    let mut effects = Effects::new(
        fetcher::spawn(
            client.with_budget(settings.budget()),
            fetcher::DEFAULT_CONCURRENCY,
        ),
        Box::new(clipboard::Off),
        // Off: the app looks this machine's IP up for a marker on screen, and `watch` has
        // no screen. `--keep-bound` looks it up on its own, from its own URLs.
        String::new(),
        StateFile::default_location().map(|f| (f, account.clone())),
    )
    .with_alert_sink(Box::new(sink));
    let mut app = App::new(app_settings(settings, &account, alert_file.as_ref()), clock);
    if let Some(file) = alert_file {
        effects = effects.with_alert_file(file, account);
    }
    let mut history = false;
    if settings.history_days > 0 {
        match crate::history::file_for(&settings.profile) {
            Some(path) => {
                // History that cannot be opened (a broken file) is said once, with its
                // path, on standard error (and in the log, by the writer).
                let (out, profile) = (output.clone(), settings.profile.clone());
                effects.attach_history_telling(path, settings.history_days, move |why| {
                    out.log(format!("{profile}: {why}"));
                });
                for command in app.enable_history() {
                    effects.execute(command);
                }
                history = true;
            }
            None => output.log(format!(
                "{}: history off: no state directory (set XDG_STATE_HOME or HOME)",
                settings.profile
            )),
        }
    }
    (app, effects, history)
}
