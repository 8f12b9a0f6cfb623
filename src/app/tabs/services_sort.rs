//! How the Services table sorts (`s`): the choices and the one comparison, for one
//! account and for the All view's rows of several.

use crate::account::store::Store;
use crate::api::{ServiceStatus, ServiceSummary};
use crate::app::columns::SortKey;
use chrono::NaiveDate;

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

/// A service's place in the order of sort choice `by` (with its account's network
/// status): the one place it is decided, for one account and for several. Worked out
/// once per row, not per comparison: a sort compares each row many times, and reading
/// the network lists at each comparison cost the All view's sort of 10,000 rows most of
/// a frame.
pub fn rank(by: ServiceSort, s: &ServiceSummary, store: &Store) -> Rank {
    match by {
        // Soonest first; no date last.
        ServiceSort::DueDate => Rank::Due(s.nextduedate.is_none(), s.nextduedate),
        ServiceSort::Status => Rank::Status(status_rank(&s.status)),
        ServiceSort::Health => Rank::Health(health(store, s.service_id)),
    }
}

/// See [`rank`]; ranks of one sort choice compare among themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    Due(bool, Option<NaiveDate>),
    Status(u8),
    Health((u8, std::cmp::Reverse<usize>, std::cmp::Reverse<usize>)),
}
