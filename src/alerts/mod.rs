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
//! - [`herald`] is the announcing policy: the baseline (what was already true when
//!   watching started) as one summary, many changes at once as one digest.
//! - [`AlertSink`] is where they go: every transition for machines (`watch`'s JSON
//!   lines, a recording sink in tests), the notices for people (status line, bell,
//!   `on_alert` command: [`deliver`], [`runner`]).
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
pub mod herald;
pub mod marks;
pub mod payload;
pub mod policy;
pub mod rules;
pub mod runner;
pub mod snapshot;
pub mod store;

#[cfg(test)]
mod herald_tests;
#[cfg(test)]
mod marks_tests;
#[cfg(test)]
mod runner_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod truth_tests;

pub use book::{Alert, AlertBook, Change, Transition};
pub use evaluate::evaluate;
pub use herald::{Digest, DigestKind, Notice};
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
    /// The API rejects the account's credentials (401, or its credential errors): a
    /// revoked or mistyped token.
    ApiUnauthorized,
    /// One kind of data keeps failing while the API answers others (an endpoint down
    /// alone, such as `/api/billing`).
    DatumFailing,
    /// Fewer of a service's proxies than the threshold answered proxydash's own probe in
    /// its scheduled rounds (`watch --probe-every`).
    ProxiesDead,
}

impl Rule {
    pub const ALL: [Rule; 12] = [
        Rule::CreditLow,
        Rule::ServiceDue,
        Rule::ServiceStatus,
        Rule::ServersInError,
        Rule::RateLimit,
        Rule::RateForecast,
        Rule::UnpaidInvoice,
        Rule::ApiUnreachable,
        Rule::ApiFailing,
        Rule::ApiUnauthorized,
        Rule::DatumFailing,
        Rule::ProxiesDead,
    ];

    /// Whether the rule watches the connection or the health of a kind of data
    /// (`api_unreachable`, `api_failing`, `api_unauthorized`, `datum_failing`): the state
    /// it reads waited its own time before it was reached, so the alert opens and resolves
    /// at once, and it is evaluated in every sweep (it needs no new data).
    pub fn reads_the_connection(self) -> bool {
        matches!(
            self,
            Rule::ApiUnreachable | Rule::ApiFailing | Rule::ApiUnauthorized | Rule::DatumFailing
        )
    }

    /// Whether the rule reads a record the server keeps (a service's status, its due
    /// date, an invoice's state) rather than a measurement: a record does not blip, so
    /// its alert opens and resolves at the first sweep that sees it (no debounce), and a
    /// sweep runs as soon as the services list or the invoices arrive, not after a whole
    /// round of reads.
    pub fn reads_a_record(self) -> bool {
        matches!(
            self,
            Rule::ServiceStatus | Rule::ServiceDue | Rule::UnpaidInvoice
        )
    }

    /// Whether the rule reads proxydash's own probe rounds (`proxies_dead`): it counts a
    /// sighting once per round, not per sweep, and waits for no round to call the first
    /// full picture in (rounds are off unless `--probe-every` asks for them).
    pub fn reads_probe_rounds(self) -> bool {
        self == Rule::ProxiesDead
    }

    /// The levels the rule raises (the severity table's rows, [`policy`]: each has its
    /// Prometheus twin). A service's ending is a notice, not a level of an alert.
    pub fn levels(self) -> &'static [Level] {
        use Level::{Critical, Info, Warn};
        match self {
            Rule::ServiceDue => &[Info, Warn, Critical],
            Rule::CreditLow
            | Rule::ServersInError
            | Rule::RateLimit
            | Rule::UnpaidInvoice
            | Rule::ProxiesDead => &[Warn, Critical],
            Rule::RateForecast | Rule::DatumFailing => &[Warn],
            Rule::ServiceStatus
            | Rule::ApiUnreachable
            | Rule::ApiFailing
            | Rule::ApiUnauthorized => &[Critical],
        }
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
            Rule::ApiUnauthorized => "api_unauthorized",
            Rule::DatumFailing => "datum_failing",
            Rule::ProxiesDead => "proxies_dead",
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
    /// One kind of the account's data (`datum_failing`).
    Data(crate::api::Kind),
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Subject::Account => write!(f, "account"),
            Subject::Service(id) => write!(f, "service {id}"),
            Subject::Invoice(id) => write!(f, "invoice {id}"),
            Subject::Data(kind) => write!(f, "{}", kind.as_str()),
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
    /// whatever the debounce, with `message` saying why. Ended is not a problem: an
    /// ending seen while watched (the key was seen live before) is one info notice
    /// ([`Change::Notice`]) that needs no resolving; one already ended when first seen
    /// raises nothing.
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

/// Where a sweep's deliverable transitions go: every transition for machines (`watch`'s
/// JSON lines, a test's recorder), and the notices for people ([`herald`]: the bell, the
/// `on_alert` command).
pub trait AlertSink {
    /// One transition, as it happened.
    fn record(&mut self, _transition: &Transition) {}
    /// One announcement for people.
    fn announce(&mut self, _notice: &Notice) {}
}

/// A sink that keeps every transition and every notice, for tests and for counting.
#[derive(Clone, Debug, Default)]
pub struct Recording {
    pub transitions: std::sync::Arc<std::sync::Mutex<Vec<Transition>>>,
    pub notices: std::sync::Arc<std::sync::Mutex<Vec<Notice>>>,
}

impl AlertSink for Recording {
    fn record(&mut self, transition: &Transition) {
        if let Ok(mut v) = self.transitions.lock() {
            v.push(transition.clone());
        }
    }

    fn announce(&mut self, notice: &Notice) {
        if let Ok(mut v) = self.notices.lock() {
            v.push(notice.clone());
        }
    }
}

impl Recording {
    pub fn taken(&self) -> Vec<Transition> {
        self.transitions
            .lock()
            .map(|v| v.clone())
            .unwrap_or_default()
    }

    pub fn announced(&self) -> Vec<Notice> {
        self.notices.lock().map(|v| v.clone()).unwrap_or_default()
    }
}
