//! Alerts: rules over the account's current data, and the notifications they lead to.
//!
//! Three parts, each usable without the others (a future unattended `watch` mode reuses
//! the first two as they are):
//!
//! - [`evaluate`] is pure: a [`Snapshot`] of what is known, the [`Rules`] and the time in,
//!   one [`Observation`] per thing it could check out. It never sees the network, the
//!   terminal or the alert history.
//! - [`AlertBook`] is the state machine: fed the observations of one *sweep* at a time,
//!   it debounces them and answers the [`Transition`]s (opened, escalated, repeated,
//!   resolved). One transition is one notification.
//! - [`AlertSink`] is where transitions go: the dashboard's delivery (status line, bell,
//!   `on_alert` command, see [`deliver`]), a recording sink in tests, and later the
//!   history store, which records each transition through the same trait.
//!
//! # Choices where the issue leaves room
//!
//! - **A sweep** is one round of reads that has fully come back: the dashboard sweeps
//!   when a refresh (automatic, `r` or `R`) has no request left in flight, not after each
//!   answer, so the debounce counts refreshes and not packets.
//! - **Debounce**: a condition must be seen in `debounce` consecutive sweeps (default 2)
//!   before it opens, and be gone for as many before it resolves; a level change needs
//!   as many sweeps at the new level. So an alert opens at the sweep after the one that
//!   first saw the change, and a one-sweep blip says nothing.
//! - **Unknown is not fine**: a subject whose data never arrived gives no observation and
//!   leaves its alert as it was; a request that failed keeps its last good data, which is
//!   still evaluated. An alert whose subject is gone (a service no longer listed, an
//!   invoice no longer returned) resolves once its rule has been checked in full
//!   ([`Observation::Covered`]).
//! - **Levels** go down quietly (the alert stays open at the lower level); they go up
//!   with a notification. A critical alert repeats after `repeat_after` (default 30
//!   minutes), then after twice as long each time, at most once a day.
//! - Alert messages are built from sanitised text: a hostile product name cannot put an
//!   escape sequence into the status line or into the `on_alert` command's environment.

pub mod book;
pub mod deliver;
pub mod evaluate;
pub mod forecast;
pub mod marks;
pub mod rules;
pub mod snapshot;
pub mod store;

#[cfg(test)]
mod marks_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod truth_tests;

pub use book::{Alert, AlertBook, Change, Transition};
pub use evaluate::evaluate;
pub use rules::{AlertsConfig, Rules};
pub use snapshot::Snapshot;

use serde::{Deserialize, Serialize};

/// How bad it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Info,
    Warn,
    Critical,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Critical => "critical",
        }
    }
}

/// What is watched. The names are the config's and the `on_alert` command's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The credit does not cover the renewals due soon.
    CreditLow,
    /// A service is due soon.
    ServiceDue,
    /// A service is Suspended or Terminated.
    ServiceStatus,
    /// Proxy servers of a service are in error.
    ServersInError,
    /// A rotating service's rate is near its limit.
    RateLimit,
    /// At its recent daily use, a rotating service reaches its limit before its due date.
    RateForecast,
    /// An invoice is unpaid.
    UnpaidInvoice,
    /// The API has not answered anything for [`evaluate::UNREACHABLE_AFTER`].
    ApiUnreachable,
    /// The API answers, but nothing of use (no success, no documented answer) for
    /// [`evaluate::UNREACHABLE_AFTER`]: a server answering 500 to everything.
    ApiFailing,
}

impl Rule {
    pub const ALL: [Rule; 9] = [
        Rule::CreditLow,
        Rule::ServiceDue,
        Rule::ServiceStatus,
        Rule::ServersInError,
        Rule::RateLimit,
        Rule::RateForecast,
        Rule::UnpaidInvoice,
        Rule::ApiUnreachable,
        Rule::ApiFailing,
    ];

    /// Whether the rule reads a record the server keeps (a service's status, its due
    /// date, an invoice's state) rather than a measurement: a record does not blip, so
    /// its alert opens and resolves at the first sweep that sees it (no debounce), and a
    /// sweep runs as soon as the services list or the invoices arrive, not after a whole
    /// round of reads.
    /// Whether the rule watches the connection (`api_unreachable`, `api_failing`): it
    /// waited its own minute before it was seen, so it opens and resolves at once, and it
    /// is evaluated in every sweep (it needs no new data).
    pub fn reads_the_connection(self) -> bool {
        matches!(self, Rule::ApiUnreachable | Rule::ApiFailing)
    }

    pub fn reads_a_record(self) -> bool {
        matches!(
            self,
            Rule::ServiceStatus | Rule::ServiceDue | Rule::UnpaidInvoice
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Rule::CreditLow => "credit_low",
            Rule::ServiceDue => "service_due",
            Rule::ServiceStatus => "service_status",
            Rule::ServersInError => "servers_in_error",
            Rule::RateLimit => "rate_limit",
            Rule::RateForecast => "rate_forecast",
            Rule::UnpaidInvoice => "unpaid_invoice",
            Rule::ApiUnreachable => "api_unreachable",
            Rule::ApiFailing => "api_failing",
        }
    }
}

impl std::str::FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Rule::ALL
            .into_iter()
            .find(|r| r.as_str() == s.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = Rule::ALL.iter().map(|r| r.as_str()).collect();
                format!("unknown alert rule {s:?} ({})", names.join(", "))
            })
    }
}

/// What an alert is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    Account,
    Service(u64),
    Invoice(u64),
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Subject::Account => write!(f, "account"),
            Subject::Service(id) => write!(f, "service {id}"),
            Subject::Invoice(id) => write!(f, "invoice {id}"),
        }
    }
}

/// One alert's identity: a rule about a subject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct AlertKey {
    pub rule: Rule,
    pub subject: Subject,
}

/// What one sweep found.
#[derive(Clone, Debug, PartialEq)]
pub enum Observation {
    /// `key` was checked: a problem at `level`, or fine (`None`), with the words for it.
    Seen {
        key: AlertKey,
        level: Option<Level>,
        message: String,
    },
    /// Every subject of this rule was checked: a key of it not seen in this sweep is fine.
    Covered(Rule),
    /// The subject is gone for good (a service that ended): its alert resolves at once,
    /// whatever the debounce, with `message` saying why.
    Ended { key: AlertKey, message: String },
}

impl Observation {
    pub fn problem(key: AlertKey, level: Level, message: String) -> Self {
        Observation::Seen {
            key,
            level: Some(level),
            message,
        }
    }

    pub fn fine(key: AlertKey) -> Self {
        Observation::Seen {
            key,
            level: None,
            message: String::new(),
        }
    }
}

/// Where transitions go: delivery, a test's recorder, and later the history store.
pub trait AlertSink {
    fn record(&mut self, transition: &Transition);
}

/// A sink that keeps every transition, for tests and for counting.
#[derive(Clone, Debug, Default)]
pub struct Recording(pub std::sync::Arc<std::sync::Mutex<Vec<Transition>>>);

impl AlertSink for Recording {
    fn record(&mut self, transition: &Transition) {
        if let Ok(mut v) = self.0.lock() {
            v.push(transition.clone());
        }
    }
}

impl Recording {
    pub fn taken(&self) -> Vec<Transition> {
        self.0.lock().map(|v| v.clone()).unwrap_or_default()
    }
}
