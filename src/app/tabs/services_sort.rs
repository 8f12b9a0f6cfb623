//! How the Services table sorts (`s`): the choices and the one comparison, for one
//! account and for the All view's rows of several.

use crate::account::store::Store;
use crate::api::{ServiceStatus, ServiceSummary};
use crate::app::columns::SortKey;
use chrono::NaiveDate;
use std::cmp::Ordering;

/// What `s` sorts the Services table by, in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServiceSort {
    DueDate,
    Status,
    /// The service's proxies: in error first.
    Health,
}

impl SortKey for ServiceSort {
    const ALL: &'static [Self] = &[Self::DueDate, Self::Status, Self::Health];
    fn name(self) -> &'static str {
        match self {
            Self::DueDate => "due date",
            Self::Status => "status",
            Self::Health => "health",
        }
    }
}

/// The health order: most servers in error first, then inactive, then unknown, then ok.
fn health(network: &Store, id: u64) -> (u8, std::cmp::Reverse<usize>, std::cmp::Reverse<usize>) {
    use std::cmp::Reverse;
    match super::network::counts(network, id) {
        Some((e, i)) if e + i > 0 => (0, Reverse(e), Reverse(i)),
        Some(_) => (2, Reverse(0), Reverse(0)),
        None => (1, Reverse(0), Reverse(0)),
    }
}

/// Troubled statuses first.
fn status_rank(status: &ServiceStatus) -> u8 {
    match status {
        ServiceStatus::Fraud => 0,
        ServiceStatus::Suspended => 1,
        ServiceStatus::Pending => 2,
        ServiceStatus::Other(_) => 3,
        ServiceStatus::Active => 4,
        ServiceStatus::Cancelled => 5,
        ServiceStatus::Terminated => 6,
    }
}

/// Two services (each with its account's network status) in the order of sort choice
/// `by`: the one place it is decided, for one account and for several.
pub fn compare(
    by: ServiceSort,
    (a, a_network): (&ServiceSummary, &Store),
    (b, b_network): (&ServiceSummary, &Store),
) -> Ordering {
    match by {
        ServiceSort::DueDate => cmp_due(a.nextduedate, b.nextduedate),
        ServiceSort::Status => status_rank(&a.status).cmp(&status_rank(&b.status)),
        ServiceSort::Health => {
            health(a_network, a.service_id).cmp(&health(b_network, b.service_id))
        }
    }
}

/// Soonest first; no date last.
fn cmp_due(a: Option<NaiveDate>, b: Option<NaiveDate>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => a.cmp(&b),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}
