//! One read's answer as a view needs it, borrowed from the [`Store`]: the last good value
//! with the time it came, the failure that followed it, whether it is on its way.
//!
//! The dashboard keeps no copy of the account's answers: it holds a replica of the
//! engine's store, fed by the engine's own events (`Sent`, `Loaded`) through the same
//! [`Store::sent`] and [`Store::answered`], and every tab derives its rows from it through
//! these typed looks. A refresh in flight (`Loading`) and a failed refresh (`Failed`)
//! both keep the last good value, so data already on screen stays there: the view says
//! "loading", "updated 14:03:05" or "stale since 14:03:05" from this alone. Times are
//! absolute, so labels never need a timer to age.

use super::store::Store;
use crate::api::{
    ApiError, Client, Credit, Invoice, Loaded, Product, ProductSummary, RateEntry, Request,
    Service, ServiceSummary, StatEntry,
};
use chrono::{DateTime, Utc};

/// A value and the time it arrived.
pub type Stamped<'a, T> = (&'a T, DateTime<Utc>);

/// One read as the store knows it. `Copy`: it only borrows.
#[derive(Debug, PartialEq)]
pub enum Answer<'a, T> {
    /// Never asked for.
    NotRequested,
    /// A request is in flight; `last_good` is what is still shown meanwhile.
    Loading { last_good: Option<Stamped<'a, T>> },
    /// The last request succeeded at `at`.
    Ready { value: &'a T, at: DateTime<Utc> },
    /// The last request failed at `at`; `last_good` is shown, marked stale. `failures`:
    /// how many in a row (from [`crate::account::health::FAILING_AFTER`] the pane says
    /// it keeps failing, not that one refresh did).
    Failed {
        error: &'a ApiError,
        at: DateTime<Utc>,
        last_good: Option<Stamped<'a, T>>,
        failures: u32,
    },
}

impl<T> Clone for Answer<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Answer<'_, T> {}

/// What a view says about a resource's freshness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freshness {
    NotRequested,
    /// Loading with nothing to show yet.
    Loading,
    /// Loading, showing what arrived at this time.
    Refreshing(DateTime<Utc>),
    Updated(DateTime<Utc>),
    /// The last refresh failed; the value shown arrived at this time.
    Stale(DateTime<Utc>),
    /// The last request failed and there is nothing to show.
    Failed,
    /// Its reads keep failing (this many in a row, the last at `at`); what is shown, if
    /// anything, arrived at `last_good`.
    Failing {
        tries: u32,
        at: DateTime<Utc>,
        last_good: Option<DateTime<Utc>>,
    },
}

impl<'a, T> Answer<'a, T> {
    /// The value to show, if any: the current one or the last good one.
    pub fn value(self) -> Option<&'a T> {
        self.stamped().map(|(v, _)| v)
    }

    /// The value to show and when it arrived.
    pub fn stamped(self) -> Option<Stamped<'a, T>> {
        match self {
            Answer::Ready { value, at } => Some((value, at)),
            Answer::Loading { last_good } | Answer::Failed { last_good, .. } => last_good,
            Answer::NotRequested => None,
        }
    }

    /// When the server last answered, with a value or an error (a refresh in flight keeps
    /// the last good value's time: the failure it follows is not shown).
    pub fn answered_at(self) -> Option<DateTime<Utc>> {
        match self {
            Answer::Failed { at, .. } => Some(at),
            _ => self.stamped().map(|(_, at)| at),
        }
    }

    pub fn error(self) -> Option<&'a ApiError> {
        match self {
            Answer::Failed { error, .. } => Some(error),
            _ => None,
        }
    }

    pub fn is_loading(self) -> bool {
        matches!(self, Answer::Loading { .. })
    }

    pub fn is_ready(self) -> bool {
        matches!(self, Answer::Ready { .. })
    }

    pub fn is_requested(self) -> bool {
        !matches!(self, Answer::NotRequested)
    }

    pub fn freshness(self) -> Freshness {
        match self {
            Answer::NotRequested => Freshness::NotRequested,
            Answer::Loading { last_good: None } => Freshness::Loading,
            Answer::Loading {
                last_good: Some((_, at)),
            } => Freshness::Refreshing(at),
            Answer::Ready { at, .. } => Freshness::Updated(at),
            Answer::Failed {
                failures,
                at,
                last_good,
                ..
            } if failures >= super::health::FAILING_AFTER => Freshness::Failing {
                tries: failures,
                at,
                last_good: last_good.map(|(_, at)| at),
            },
            Answer::Failed {
                last_good: Some((_, at)),
                ..
            } => Freshness::Stale(at),
            Answer::Failed {
                last_good: None, ..
            } => Freshness::Failed,
        }
    }
}

impl Store {
    /// `request`'s answer, its value picked out of the [`Loaded`] kept.
    pub fn answer<'a, T>(
        &'a self,
        request: &Request,
        pick: impl Fn(&'a Loaded) -> Option<&'a T>,
    ) -> Answer<'a, T> {
        let Some(entry) = self.get(request) else {
            return Answer::NotRequested;
        };
        let last_good = entry
            .ok
            .as_ref()
            .and_then(|(loaded, at)| pick(loaded).map(|v| (v, *at)));
        if entry.sent.is_some() {
            return Answer::Loading { last_good };
        }
        match (&entry.error, last_good) {
            (Some((error, at)), last_good) => Answer::Failed {
                error,
                at: *at,
                last_good,
                failures: entry.failures,
            },
            (None, Some((value, at))) => Answer::Ready { value, at },
            // Sent and answered, and nothing kept (an answer that is not kept).
            (None, None) => Answer::NotRequested,
        }
    }

    pub fn services_answer(&self) -> Answer<'_, Vec<ServiceSummary>> {
        self.answer(&Request::Services, |l| match l {
            Loaded::Services(Ok(v)) => Some(v),
            _ => None,
        })
    }

    pub fn service_answer(&self, id: u64) -> Answer<'_, Service> {
        self.answer(&Request::Service(id), |l| match l {
            Loaded::Service(_, Ok(v)) => Some(v),
            _ => None,
        })
    }

    /// A network list of service `id` (`errors`: the servers in error, else inactive).
    pub fn network_answer(&self, id: u64, errors: bool) -> Answer<'_, Vec<String>> {
        let request = if errors {
            Request::NetworkErrors(id)
        } else {
            Request::NetworkInactive(id)
        };
        self.answer(&request, |l| match l {
            Loaded::NetworkErrors(_, Ok(v)) | Loaded::NetworkInactive(_, Ok(v)) => Some(v),
            _ => None,
        })
    }

    pub fn stats_answer(&self, id: u64) -> Answer<'_, Vec<StatEntry>> {
        self.answer(&Request::Stats(id), |l| match l {
            Loaded::Stats(_, Ok(v)) => Some(v),
            _ => None,
        })
    }

    pub fn rate_answer(&self, id: u64) -> Answer<'_, Vec<RateEntry>> {
        self.answer(&Request::Rate(id), |l| match l {
            Loaded::Rate(_, Ok(v)) => Some(v),
            _ => None,
        })
    }

    /// The catalogue as `request` (`Products` or `ProductsOrderedBy`) listed it.
    pub fn products_answer(&self, request: &Request) -> Answer<'_, Vec<ProductSummary>> {
        self.answer(request, |l| match l {
            Loaded::Products(Ok(v)) | Loaded::ProductsOrderedBy(_, Ok(v)) => Some(&v.items),
            _ => None,
        })
    }

    pub fn product_answer(&self, id: u64) -> Answer<'_, Product> {
        self.answer(&Request::Product(id), |l| match l {
            Loaded::Product(_, Ok(v)) => Some(v),
            _ => None,
        })
    }

    pub fn credit_answer(&self) -> Answer<'_, Credit> {
        self.answer(&Request::Credit, |l| match l {
            Loaded::Credit(Ok(v)) => Some(v),
            _ => None,
        })
    }

    pub fn invoices_answer(&self) -> Answer<'_, Vec<Invoice>> {
        self.answer(&Request::Invoices, |l| match l {
            Loaded::Invoices(Ok(v)) => Some(&v.items),
            _ => None,
        })
    }

    pub fn invoice_answer(&self, id: u64) -> Answer<'_, Vec<Invoice>> {
        self.answer(&Request::Invoice(id), |l| match l {
            Loaded::Invoice(_, Ok(v)) => Some(v),
            _ => None,
        })
    }

    pub fn clients_answer(&self) -> Answer<'_, Vec<Client>> {
        self.answer(&Request::Clients, |l| match l {
            Loaded::Clients(Ok(v)) => Some(v),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(s: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, 2, 14, 3, s).unwrap()
    }

    fn credit(amount: f64) -> Loaded {
        Loaded::Credit(Ok(Credit { credit: amount }))
    }

    #[test]
    fn a_failed_refresh_keeps_the_last_good_value() {
        let mut store = Store::default();
        assert_eq!(store.credit_answer().freshness(), Freshness::NotRequested);
        store.sent(&Request::Credit, t(1));
        assert_eq!(store.credit_answer().freshness(), Freshness::Loading);
        store.answered(&credit(7.0), t(5));
        assert_eq!(store.credit_answer().freshness(), Freshness::Updated(t(5)));
        store.sent(&Request::Credit, t(6));
        assert_eq!(store.credit_answer().value().map(|c| c.credit), Some(7.0));
        assert_eq!(
            store.credit_answer().freshness(),
            Freshness::Refreshing(t(5))
        );
        store.answered(&Loaded::Credit(Err(ApiError::Unauthenticated)), t(9));
        let answer = store.credit_answer();
        assert_eq!(answer.value().map(|c| c.credit), Some(7.0));
        assert_eq!(answer.freshness(), Freshness::Stale(t(5)));
        assert_eq!(answer.error(), Some(&ApiError::Unauthenticated));
        assert_eq!(answer.answered_at(), Some(t(9)));
        store.answered(&credit(8.0), t(10));
        assert_eq!(store.credit_answer().value().map(|c| c.credit), Some(8.0));
        assert!(store.credit_answer().error().is_none());
    }

    #[test]
    fn a_first_failure_has_nothing_to_show() {
        let mut store = Store::default();
        store.sent(&Request::Credit, t(0));
        store.answered(&Loaded::Credit(Err(ApiError::Unauthenticated)), t(1));
        assert_eq!(store.credit_answer().value().map(|c| c.credit), None);
        assert_eq!(store.credit_answer().freshness(), Freshness::Failed);
    }
}
