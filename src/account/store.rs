//! The engine's store: every answer of a read, keyed by its [`Request`]: the last good
//! value and when it came, the last failure and when, and whether it is in flight. This
//! is the one in-flight set of the account: observers mirror it from the engine's
//! events, and nothing else decides whether a read is on its way.
//!
//! Writes and IP lists are not kept (they are a person's one-off, answered to the
//! observer that asked); their in-flight mark is, so a repeated key press cannot send the
//! same IP-list read twice.

use super::freshness::{Kind, RETRY, RETRY_FLOOR, RETRY_MAX};
use crate::api::{
    ApiError, Credit, Invoice, Listed, Loaded, Product, ProductSummary, RateEntry, Request,
    Service, ServiceSummary, StatEntry,
};
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// How long a request may stay unanswered before it counts as lost and may be sent again
/// (the client's own timeouts end every request well before this).
pub const IN_FLIGHT_TIMEOUT: Duration = Duration::from_secs(120);

/// What is known of one read.
#[derive(Clone, Debug, Default)]
pub struct Entry {
    /// The last successful answer and when it came.
    pub ok: Option<(Loaded, DateTime<Utc>)>,
    /// The last failure and when, when it came after `ok`.
    pub error: Option<(Box<ApiError>, DateTime<Utc>)>,
    /// When it was sent, while it is in flight.
    pub sent: Option<DateTime<Utc>>,
    /// The store's count of sends when it was last sent: `r`/`R` ask again what was sent
    /// before the press (a count, not a time: a press in the same instant as a send is
    /// still after it).
    pub asked: u64,
    /// Failed attempts since the last success: a failure that says nothing is asked
    /// again later each time (see [`Entry::due_at`]).
    pub failures: u32,
    /// Its last attempt got no answer and the API answers again: due now, whatever its
    /// cadence (what the person asked for during the outage is asked again at its end).
    pub retry_now: bool,
}

impl Entry {
    /// When the server last answered it, with a value or with an error about it.
    pub fn answered_at(&self) -> Option<DateTime<Utc>> {
        let ok = self.ok.as_ref().map(|(_, at)| *at);
        let err = self
            .error
            .as_ref()
            .filter(|(e, _)| !says_nothing(e))
            .map(|(_, at)| *at);
        ok.max(err)
    }

    /// When an answer last delivered the datum: a value, or the server's word about it
    /// (its client is gone, it is not a rotating service). A failure never does (a 401,
    /// a 500, no answer): the datum's age counts on from its last delivery, and there is
    /// none while it never came.
    pub fn delivered_at(&self) -> Option<DateTime<Utc>> {
        let ok = self.ok.as_ref().map(|(_, at)| *at);
        let word = self
            .error
            .as_ref()
            .filter(|(e, _)| {
                matches!(
                    **e,
                    ApiError::ClientIdNotFound { .. } | ApiError::Unprocessable { .. }
                )
            })
            .map(|(_, at)| *at);
        ok.max(word)
    }

    /// When it is due again at `cadence` (`None` in it: never by itself); `None` while in
    /// flight or never due. A read never answered is due since forever.
    /// A failure that says nothing is asked again after `retry` (at most [`RETRY`]).
    pub fn due_at(
        &self,
        cadence: Option<Duration>,
        retry: Option<Duration>,
        now: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        if self.is_in_flight(now) {
            return None;
        }
        if self.retry_now {
            return Some(DateTime::<Utc>::MIN_UTC);
        }
        let step = |d: Duration| chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX);
        let last_ok = self.answered_at();
        match &self.error {
            // A failure that says nothing about the datum: soon again, whatever the cadence,
            // then twice as late after each failure in a row (at most [`RETRY_MAX`]): an
            // endpoint that keeps failing is not polled at the full budget.
            // (An answer of no use, that is: a request that got no answer is the
            // connection's to ask again, every ten seconds while nothing answers.)
            Some((e, at)) if says_nothing(e) && last_ok.is_none_or(|ok| ok < *at) => {
                let first = retry.map_or(RETRY, |r| r.clamp(RETRY_FLOOR, RETRY));
                let times = if e.status().is_some() {
                    self.failures
                } else {
                    1
                };
                let doubled = first.saturating_mul(1 << times.saturating_sub(1).min(8));
                Some(*at + step(doubled.min(RETRY_MAX.max(first))))
            }
            _ => match last_ok {
                None => Some(DateTime::<Utc>::MIN_UTC),
                Some(at) => cadence.map(|c| at.checked_add_signed(step(c)).unwrap_or(at)),
            },
        }
    }

    pub fn is_in_flight(&self, now: DateTime<Utc>) -> bool {
        self.sent.is_some_and(|sent| {
            now.signed_duration_since(sent).to_std().unwrap_or_default() < IN_FLIGHT_TIMEOUT
        })
    }
}

/// A failure that tells nothing about the datum: no answer came, or the server failed
/// (5xx), or its answer could not be read.
pub fn says_nothing(e: &ApiError) -> bool {
    match e.status() {
        None => true,
        Some(s) => s >= 500 || s == 429 || matches!(e, ApiError::Decode { .. }),
    }
}

#[derive(Debug, Default)]
pub struct Store {
    entries: HashMap<Request, Entry>,
    in_flight: HashSet<Request>,
    /// Reads sent so far.
    sends: u64,
}

impl Store {
    pub fn get(&self, request: &Request) -> Option<&Entry> {
        self.entries.get(request)
    }

    pub fn entries(&self) -> impl Iterator<Item = (&Request, &Entry)> {
        self.entries.iter()
    }

    /// Whether `request` may be sent now (not already on its way).
    pub fn may_send(&self, request: &Request, now: DateTime<Utc>) -> bool {
        request.is_write()
            || !self
                .entries
                .get(request)
                .is_some_and(|e| e.is_in_flight(now))
    }

    /// A one-off ask of `request` at `now`: marked sent unless it is already on its way.
    /// Whether it is to be sent (one GET however often it is asked).
    pub fn ask(&mut self, request: &Request, now: DateTime<Utc>) -> bool {
        let send = self.may_send(request, now);
        if send {
            self.sent(request, now);
        }
        send
    }

    /// `request` went out at `now`.
    pub fn sent(&mut self, request: &Request, now: DateTime<Utc>) {
        if request.is_write() {
            return;
        }
        self.sends += 1;
        let entry = self.entries.entry(request.clone()).or_default();
        entry.sent = Some(now);
        entry.retry_now = false;
        entry.asked = self.sends;
        self.in_flight.insert(request.clone());
    }

    /// An answer came at `now`.
    pub fn answered(&mut self, loaded: &Loaded, now: DateTime<Utc>) {
        // Only a kept read's value is worth a copy (a write's or an IP list's is not kept).
        if Kind::of(&loaded.request()).is_some() {
            self.keep(loaded.clone(), now);
        } else {
            self.not_kept(&loaded.request());
        }
    }

    /// [`Store::answered`] for an observer done with the answer: kept without a copy
    /// (the dashboard's replica takes each answer whole, lists of thousands included).
    pub fn keep(&mut self, loaded: Loaded, now: DateTime<Utc>) {
        let request = loaded.request();
        if Kind::of(&request).is_none() {
            return self.not_kept(&request);
        }
        self.in_flight.remove(&request);
        let entry = self.entries.entry(request).or_default();
        entry.sent = None;
        match loaded.error().cloned() {
            None => {
                entry.ok = Some((loaded, now));
                entry.error = None;
                entry.failures = 0;
            }
            Some(e) => {
                entry.failures = entry.failures.saturating_add(1);
                entry.error = Some((Box::new(e), now));
            }
        }
    }

    /// An answer nothing is kept of: a write's (never marked sent) or an IP list's (no
    /// longer on its way).
    fn not_kept(&mut self, request: &Request) {
        self.in_flight.remove(request);
        if let Some(entry) = self.entries.get_mut(request) {
            entry.sent = None;
        }
    }

    /// The API answers again after requests got no answer: what failed so is due now (its
    /// last good value and its failure stay, said as stale until it is read again), so
    /// the next plan reads it, what is on screen first.
    pub fn forgive_silence(&mut self) {
        for entry in self.entries.values_mut() {
            if entry
                .error
                .as_ref()
                .is_some_and(|(e, _)| e.status().is_none())
            {
                entry.failures = 0;
                entry.retry_now = true;
            }
        }
    }

    /// Forgets what is known of `request` (an answer no longer wanted), unless it is on
    /// its way again.
    pub fn forget(&mut self, request: &Request) {
        if self.entries.get(request).is_some_and(|e| e.sent.is_none()) {
            self.entries.remove(request);
        }
    }

    /// Reads sent so far (see [`Entry::asked`]).
    pub fn sends(&self) -> u64 {
        self.sends
    }

    /// Requests on their way.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    pub fn in_flight_requests(&self) -> impl Iterator<Item = &Request> {
        self.in_flight.iter()
    }

    /// Forgets what was asked of services no longer listed.
    pub fn retain_services(&mut self, listed: &HashSet<u64>) {
        self.entries.retain(|request, entry| {
            service_of(request).is_none_or(|id| listed.contains(&id)) || entry.sent.is_some()
        });
    }

    fn value(&self, request: &Request) -> Option<&Loaded> {
        self.entries.get(request)?.ok.as_ref().map(|(l, _)| l)
    }

    pub fn services(&self) -> Option<&[ServiceSummary]> {
        match self.value(&Request::Services)? {
            Loaded::Services(Ok(v)) => Some(v),
            _ => None,
        }
    }

    pub fn credit(&self) -> Option<&Credit> {
        match self.value(&Request::Credit)? {
            Loaded::Credit(Ok(c)) => Some(c),
            _ => None,
        }
    }

    pub fn invoices(&self) -> Option<&[Invoice]> {
        self.invoices_listed().map(|l| l.as_slice())
    }

    pub fn products(&self) -> Option<&[ProductSummary]> {
        self.products_listed(&Request::Products)
            .map(|l| l.as_slice())
    }

    /// The catalogue as `request` (`Products` or `ProductsOrderedBy`) listed it, with the
    /// products that could not be read.
    pub fn products_listed(&self, request: &Request) -> Option<&Listed<ProductSummary>> {
        match self.value(request)? {
            Loaded::Products(Ok(v)) | Loaded::ProductsOrderedBy(_, Ok(v)) => Some(v),
            _ => None,
        }
    }

    /// The invoices with those that could not be read.
    pub fn invoices_listed(&self) -> Option<&Listed<Invoice>> {
        match self.value(&Request::Invoices)? {
            Loaded::Invoices(Ok(v)) => Some(v),
            _ => None,
        }
    }

    pub fn product(&self, id: u64) -> Option<&Product> {
        match self.value(&Request::Product(id))? {
            Loaded::Product(_, Ok(p)) => Some(p),
            _ => None,
        }
    }

    pub fn service(&self, id: u64) -> Option<&Service> {
        match self.value(&Request::Service(id))? {
            Loaded::Service(_, Ok(s)) => Some(s),
            _ => None,
        }
    }

    pub fn rate(&self, id: u64) -> Option<&[RateEntry]> {
        match self.value(&Request::Rate(id))? {
            Loaded::Rate(_, Ok(v)) => Some(v),
            _ => None,
        }
    }

    pub fn stats(&self, id: u64) -> Option<&[StatEntry]> {
        match self.value(&Request::Stats(id))? {
            Loaded::Stats(_, Ok(v)) => Some(v),
            _ => None,
        }
    }

    /// A network list of service `id` (`errors`: the servers in error, else inactive).
    pub fn network(&self, id: u64, errors: bool) -> Option<&[String]> {
        let request = if errors {
            Request::NetworkErrors(id)
        } else {
            Request::NetworkInactive(id)
        };
        match self.value(&request)? {
            Loaded::NetworkErrors(_, Ok(v)) | Loaded::NetworkInactive(_, Ok(v)) => Some(v),
            _ => None,
        }
    }
}

/// The service a per-service read is about.
pub fn service_of(request: &Request) -> Option<u64> {
    match request {
        Request::NetworkErrors(id)
        | Request::NetworkInactive(id)
        | Request::Rate(id)
        | Request::Stats(id)
        | Request::Service(id) => Some(*id),
        _ => None,
    }
}

impl crate::billing::runway::Details for Store {
    fn detail(&self, id: u64) -> Option<&Service> {
        self.service(id)
    }
}
