//! What the evaluator sees: the account's data as plain values, gathered by the app (or
//! by a future `watch` mode) from whatever it has loaded. `None` means "not known", which
//! the evaluator never mistakes for "fine".

use crate::api::{InvoiceStatus, Kind, ServiceStatus};
use chrono::{DateTime, NaiveDate, Utc};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// The date "due in N days" counts from (the user's local date).
    pub today: NaiveDate,
    /// When `today` began (local midnight): a date's day starts `(date - today)` days
    /// after it. The metrics count to the same instants, so a rule over them agrees.
    pub today_start: DateTime<Utc>,
    pub credit: Option<f64>,
    /// The money ahead, as `credit_low` reads it; `None` while any input of it is not
    /// known (never taken as "nothing owed").
    pub ahead: Option<Ahead>,
    /// The listed services; `None` until the list has arrived.
    pub services: Option<Vec<ServiceFacts>>,
    /// The invoices; `None` until they have arrived.
    pub invoices: Option<Vec<InvoiceFacts>>,
    /// Since when the API has not answered at all, while it does not (the
    /// `api_unreachable` rule); with the last answer's time and the API's address.
    pub unreachable: Option<Unreachable>,
    /// Since when the API has answered nothing of use, while it does not (the
    /// `api_failing` rule); `last_answer` is then the last success.
    pub failing: Option<Unreachable>,
    /// Since when the API has rejected the credentials, while it does (the
    /// `api_unauthorized` rule); `last_answer` is then the last success.
    pub unauthorized: Option<Unreachable>,
    /// The health of each watched kind of data while the API answers (the
    /// `datum_failing` rule); `None` while the account itself is down (its own alert says
    /// so) or nothing was asked yet.
    pub data: Option<Vec<DatumHealth>>,
    /// The last probe round read every live service's list: a service without
    /// [`ServiceFacts::probe`] then has nothing to probe (the `proxies_dead` rule is
    /// checked in full).
    pub probes_complete: bool,
}

impl Snapshot {
    /// When `date` begins in the user's time zone (the day the date rules count).
    pub fn start_of(&self, date: NaiveDate) -> DateTime<Utc> {
        let days = date.signed_duration_since(self.today).num_days();
        self.today_start
            .checked_add_signed(chrono::Duration::days(days))
            .unwrap_or(self.today_start)
    }
}

/// The health of one kind of data.
#[derive(Clone, Debug, PartialEq)]
pub struct DatumHealth {
    pub kind: Kind,
    /// Since when its reads keep failing (none succeeding between), while they do.
    pub failing_since: Option<DateTime<Utc>>,
    /// The last failure, in the status line's words (sanitised).
    pub error: String,
}

/// The money ahead as the `credit_low` rule reads it (from [`crate::billing::Runway`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Ahead {
    pub credit: f64,
    /// The first day the credit does not cover what is owed by then; `None` when it
    /// covers everything the runway's horizon holds.
    pub short_on: Option<NaiveDate>,
    /// What is owed up to and including `short_on` (unpaid invoices and renewals).
    pub owed: f64,
    /// How many renewals and unpaid invoices that is.
    pub renewals: usize,
    pub invoices: usize,
    /// Live services whose renewal has no known price (left out of the sums).
    pub unknown_prices: usize,
    /// Some amounts owed could not be read: `short_on` is the latest the day can be.
    pub at_the_latest: bool,
}

/// The API is not answering.
#[derive(Clone, Debug, PartialEq)]
pub struct Unreachable {
    pub since: chrono::DateTime<chrono::Utc>,
    pub last_answer: Option<chrono::DateTime<chrono::Utc>>,
    pub base_url: String,
}

/// One service and what is known of it.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceFacts {
    pub id: u64,
    /// Sanitised and shortened for messages.
    pub product_name: String,
    pub status: ServiceStatus,
    pub nextduedate: Option<NaiveDate>,
    /// How many proxy servers it has (`ip_count` of its detail), when known.
    pub servers: Option<u64>,
    /// Its proxy servers in error (sanitised addresses), once the list arrived.
    pub errors: Option<Vec<String>>,
    /// The server answered its network status with its word instead of a list (`ClientID
    /// not found`): checked, though nothing can be listed.
    pub network_answered: bool,
    /// How many of its proxy servers are inactive, once the list arrived.
    pub inactive: Option<usize>,
    /// Rotating services: use and limit in the current period.
    pub rate: Option<(f64, f64)>,
    /// Rotating services: daily use, oldest first; `None` until the statistics arrived
    /// (read hourly when nothing shows them: the forecast waits for them, it never
    /// takes their absence for a pace of nothing).
    pub daily: Option<Vec<f64>>,
    /// Its usage is known: `rate` arrived, or it is known to be static (fpr, no usage),
    /// or it has ended (Terminated, Cancelled, Fraud: no usage to watch).
    pub usage_known: bool,
    /// Static or rotating, once known (which IP list the probe's rounds read).
    pub product_type: Option<crate::api::ProductType>,
    /// What the last scheduled probe round found of its proxies (`watch --probe-every`);
    /// `None` while none of them was checked.
    pub probe: Option<ProbeFacts>,
}

/// One service's last probe round as the `proxies_dead` rule reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeFacts {
    /// Proxies checked (alive or dead; at least one).
    pub checked: u32,
    pub alive: u32,
    /// The reason most of the dead died of (`refused`, `auth failed`, …).
    pub main_reason: Option<&'static str>,
    /// The first few dead, `host:port` (sanitised).
    pub dead: Vec<String>,
    /// Of the dead, how many the provider's network status lists as fine (in neither its
    /// error nor its inactive list); `None` while its network status is not known.
    pub dead_listed_fine: Option<u32>,
}

impl ServiceFacts {
    pub fn new(id: u64, status: ServiceStatus) -> Self {
        Self {
            id,
            product_name: String::new(),
            status,
            nextduedate: None,
            servers: None,
            errors: None,
            network_answered: false,
            inactive: None,
            rate: None,
            daily: None,
            usage_known: false,
            product_type: None,
            probe: None,
        }
    }

    /// Whether the service has ended (Terminated, Cancelled, Fraud): it raises no usage
    /// alert, and its open ones resolve as "service ended".
    pub fn has_ended(&self) -> bool {
        self.status.has_ended()
    }

    /// `service 1001 (Datacenter US 10)`, or without the name when there is none.
    pub fn label(&self) -> String {
        if self.product_name.trim().is_empty() {
            format!("Service {}", self.id)
        } else {
            format!("Service {} ({})", self.id, self.product_name)
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct InvoiceFacts {
    pub id: u64,
    /// Sanitised and shortened for messages.
    pub description: String,
    pub status: InvoiceStatus,
    pub amount: f64,
    pub created_at: Option<NaiveDate>,
}
