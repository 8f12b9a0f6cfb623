//! What the evaluator sees: the account's data as plain values, gathered by the app (or
//! by a future `watch` mode) from whatever it has loaded. `None` means "not known", which
//! the evaluator never mistakes for "fine".

use crate::api::{InvoiceStatus, ServiceStatus};
use chrono::NaiveDate;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// The date "due in N days" counts from (the user's local date).
    pub today: NaiveDate,
    pub credit: Option<f64>,
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
    /// What its renewal costs, from the best source known (its detail's price, else its
    /// latest invoice, else its product's list price).
    pub price: Option<f64>,
    /// How many proxy servers it has (`ip_count` of its detail), when known.
    pub servers: Option<u64>,
    /// Its proxy servers in error (sanitised addresses), once the list arrived.
    pub errors: Option<Vec<String>>,
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
}

impl ServiceFacts {
    pub fn new(id: u64, status: ServiceStatus) -> Self {
        Self {
            id,
            product_name: String::new(),
            status,
            nextduedate: None,
            price: None,
            servers: None,
            errors: None,
            inactive: None,
            rate: None,
            daily: None,
            usage_known: false,
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
