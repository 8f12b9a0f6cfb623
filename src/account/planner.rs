//! What to ask next: every read the account watches, with when it is due (from
//! [`super::freshness`] and the store), in the order the budget should spend on it.
//!
//! - **What**: the services list, credit, invoices and the catalogue; for every service
//!   that is not Terminated, Cancelled or Fraud its two network lists, and for every ppr
//!   service its rate and statistics; what the types still need ([`super::types`]); and
//!   what an observer asked once and still shows (a detail, an invoice, the clients).
//! - **Order**: the longest overdue first (never answered counts as overdue since
//!   forever), ties by kind (the services list first, since everything else hangs on it;
//!   then the catalogue and product details, which tell the types; then credit,
//!   invoices, rates, network lists, statistics) and by the services' order, Active
//!   services first.
//! - **Lanes** ([`Pick`]): what is on screen and has never been shown (a first load, or
//!   asked again with `r`/`R`), and a single read on screen (a tab's list, the selected
//!   detail or chart) a whole `refresh` overdue, go in the screen's lane, ahead of the
//!   rest and at once within the budget's burst ([`crate::scheduler::Lane::Screen`]).
//!   Everything else goes by age in the sweep, the visible rows' cells too once shown:
//!   they are what every sweep reads anyway, so the oldest datum anywhere is never older
//!   than about one whole sweep at the budget's pace, whichever tab is open. What is
//!   neither watched nor shown (statistics nobody looks at, the catalogue) gets one pick
//!   in 64 (`queue.rs`) while watched data waits, and everything once it does not. The
//!   screen changes only the order: what is due is decided by the freshness rules.
//! - **Unreachable**: while no answer comes, one request every [`PROBE_EVERY`] (the
//!   first of the plan, so a faulty endpoint does not hide a working one; [`PROBE`]
//!   when nothing is due) finds out when the API is back; nothing else is sent into the
//!   void. The same from the first request that got no answer, before three of them over
//!   ten seconds call it an outage.
//! - **Failing** (answers, none of use) and **unauthorized** (the credentials rejected):
//!   one request at a time, backing off: the wait is half the time the state has lasted,
//!   from [`FAILING_EVERY`] up to [`FAILING_EVERY_MAX`] (failing), from
//!   [`UNAUTHORIZED_EVERY`] up to [`UNAUTHORIZED_EVERY_MAX`] (unauthorized: each rejected
//!   request is one more a provider may count towards a ban). A failing API is not
//!   polled at the full budget, and one that answers again is found out within the wait.
//! - **Throttled**: nothing until the server's pause is over (the scheduler would hold it
//!   anyway).

use super::connection::Link;
use super::freshness::Kind;
/// Named here too for the dashboard (`crate::app::is_swept`); the rule is the freshness
/// table's.
pub use super::freshness::is_swept;
use super::store::Store;
use super::types::Types;
use crate::api::{Request, ServiceStatus};
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// The request that finds out whether an unreachable API is back: the smallest answer.
pub const PROBE: Request = Request::Credit;

/// How often it is sent while the API is unreachable.
pub const PROBE_EVERY: Duration = Duration::from_secs(10);

/// The first wait between two requests while the API is failing, and the longest.
pub const FAILING_EVERY: Duration = Duration::from_secs(10);
pub const FAILING_EVERY_MAX: Duration = Duration::from_secs(120);
/// The first wait between two requests while the credentials are rejected, and the
/// longest.
pub const UNAUTHORIZED_EVERY: Duration = Duration::from_secs(60);
pub const UNAUTHORIZED_EVERY_MAX: Duration = Duration::from_secs(300);

/// The wait between two requests in a state that has lasted since `since`: half of how
/// long it has lasted, from `first` to `max`.
pub fn backoff(
    since: DateTime<Utc>,
    now: DateTime<Utc>,
    first: Duration,
    max: Duration,
) -> Duration {
    let lasted = (now - since).to_std().unwrap_or_default();
    (lasted / 2).clamp(first, max)
}

/// What observers show: whole kinds (the Network tab shows every network list), single
/// reads (a tab's list, the selected service's detail and usage) and the cells of the
/// rows on screen (each visible service's network lists and rate).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Focus {
    pub kinds: Vec<Kind>,
    pub requests: Vec<Request>,
    pub rows: Vec<Request>,
}

impl Focus {
    pub fn shows(&self, request: &Request) -> bool {
        self.requests.contains(request)
            || self.rows.contains(request)
            || Kind::of(request).is_some_and(|k| self.kinds.contains(&k))
    }

    /// On screen as itself: a list, a detail, a chart, a visible row's cell (not only as
    /// one of a whole kind's many).
    pub fn shows_itself(&self, request: &Request) -> bool {
        self.requests.contains(request) || self.rows.contains(request)
    }
}

/// Which of the engine's lines a due read waits in (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// On screen and not shown yet, or a list or detail on screen a whole refresh overdue.
    Screen,
    /// Watched: by age.
    Sweep,
    /// Neither watched nor shown: one pick in 64 while watched data waits (`queue.rs`).
    Slow,
}

/// One read that is due.
#[derive(Clone, Debug, PartialEq)]
pub struct Due {
    pub request: Request,
    pub since: DateTime<Utc>,
    pub pick: Pick,
}

#[derive(Debug, Default)]
pub struct Plan {
    /// What is due now, in order.
    pub due: Vec<Due>,
    /// When the next read not yet due will be.
    pub next: Option<DateTime<Utc>>,
}

pub struct Input<'a> {
    pub store: &'a Store,
    pub types: &'a Types,
    pub focus: &'a Focus,
    pub refresh: Option<Duration>,
    /// Kinds asked for by `r`/`R`, with the store's count of sends at the press: a read
    /// last sent before it is due.
    pub forced: &'a HashMap<Kind, u64>,
    pub link: Link,
    /// Since when requests have got no answer at all, while they do (see
    /// [`super::connection::Connection::no_answer_since`]).
    pub no_answer_since: Option<DateTime<Utc>>,
    pub now: DateTime<Utc>,
}

fn rank(kind: Kind) -> u8 {
    match kind {
        Kind::Services => 0,
        Kind::Products => 1,
        Kind::ProductDetail => 2,
        Kind::Credit => 3,
        Kind::Invoices => 4,
        Kind::Rate => 5,
        Kind::Network => 6,
        Kind::ServiceDetail => 7,
        Kind::Stats => 8,
        Kind::Invoice => 9,
        Kind::Clients => 10,
    }
}

pub fn plan(input: &Input) -> Plan {
    let now = input.now;
    match input.link {
        Link::Throttled { until } if until > now => {
            return Plan {
                due: Vec::new(),
                next: Some(until),
            };
        }
        Link::Unreachable { .. } => {
            let mut plan = plan_all(input);
            return probe(input, plan.due.drain(..).next(), PROBE_EVERY);
        }
        // Not called an outage yet (three failures over ten seconds), but nothing
        // answered since the first: the ten-second check runs from it, not after a
        // whole retry (issue 45).
        Link::Online | Link::Unknown if input.no_answer_since.is_some() => {
            let mut plan = plan_all(input);
            return probe(input, plan.due.drain(..).next(), PROBE_EVERY);
        }
        Link::Failing { since } => {
            let mut plan = plan_all(input);
            let every = backoff(since, now, FAILING_EVERY, FAILING_EVERY_MAX);
            return probe(input, plan.due.drain(..).next(), every);
        }
        // Every request would be rejected alike: the smallest one asks.
        Link::Unauthorized { since } => {
            let every = backoff(since, now, UNAUTHORIZED_EVERY, UNAUTHORIZED_EVERY_MAX);
            return probe(input, None, every);
        }
        _ => {}
    }
    plan_all(input)
}

/// Everything due, in order (see the module docs).
fn plan_all(input: &Input) -> Plan {
    let now = input.now;
    let mut seen = HashSet::new();
    // (since, rank, order, due)
    let mut due: Vec<(DateTime<Utc>, u8, usize, Due)> = Vec::new();
    let mut next: Option<DateTime<Utc>> = None;
    let needs = type_needs_on_screen(input);
    // The focus as sets: looked up several times for each of thousands of reads per plan
    // (scanning the visible rows' requests for each cost ten engines a frame's time).
    let itself: HashSet<&Request> = input
        .focus
        .requests
        .iter()
        .chain(&input.focus.rows)
        .collect();
    let asked: HashSet<&Request> = input.focus.requests.iter().collect();
    // `cadence_override`: a read of the types' needs, asked once and ahead of the slow.
    let refresh = input
        .refresh
        .and_then(|r| chrono::Duration::from_std(r).ok());
    let mut consider = |request: Request,
                        cadence_override: Option<Option<Duration>>,
                        order: usize| {
        if !seen.insert(request.clone()) {
            return;
        }
        let Some(kind) = Kind::of(&request) else {
            return;
        };
        // As `Focus::shows` and `for_the_screen` say, from the sets.
        let shown = itself.contains(&request) || input.focus.kinds.contains(&kind);
        let cadence = cadence_override.unwrap_or_else(|| kind.cadence(input.refresh, shown));
        let entry = input.store.get(&request);
        let forced = entry.is_some_and(|e| {
            input
                .forced
                .get(&kind)
                .is_some_and(|f| !e.is_in_flight(now) && e.asked <= *f)
        });
        let at = match entry {
            None => Some(DateTime::<Utc>::MIN_UTC),
            Some(_) if forced => Some(DateTime::<Utc>::MIN_UTC),
            Some(e) => e.due_at(cadence, input.refresh, now),
        };
        let Some(at) = at else { return };
        if at > now {
            next = Some(next.map_or(at, |n: DateTime<Utc>| n.min(at)));
            return;
        }
        let never_shown = entry.is_none_or(|e| e.answered_at().is_none());
        // A list, a detail or a chart on screen a whole refresh overdue: its pane is
        // about to show its age.
        let single_overdue = asked.contains(&request) && refresh.is_some_and(|r| now - at >= r);
        let on_screen =
            itself.contains(&request) || FIRST_LISTS.contains(&request) || needs.contains(&request);
        let pick = if on_screen && (never_shown || forced || single_overdue) {
            Pick::Screen
        } else if !kind.is_watched() && !shown && cadence_override.is_none() {
            Pick::Slow
        } else {
            Pick::Sweep
        };
        due.push((
            at,
            rank(kind),
            order,
            Due {
                request,
                since: at,
                pick,
            },
        ));
    };
    for request in FIRST_LISTS {
        consider(request, None, 0);
    }
    let listed: Option<HashSet<u64>> = input
        .store
        .services()
        .map(|list| list.iter().map(|s| s.service_id).collect());
    if let Some(services) = input.store.services() {
        let mut order: Vec<(usize, &crate::api::ServiceSummary)> = services
            .iter()
            .filter(|s| is_swept(&s.status))
            .enumerate()
            .collect();
        order.sort_by_key(|(i, s)| (s.status != ServiceStatus::Active, *i));
        for (position, (_, s)) in order.into_iter().enumerate() {
            let id = s.service_id;
            consider(Request::NetworkErrors(id), None, position);
            consider(Request::NetworkInactive(id), None, position);
            if input.types.is_ppr(id) {
                consider(Request::Rate(id), None, position);
                consider(Request::Stats(id), None, position);
            }
        }
        let needed = input.types.needed(input.store);
        // Asked once: a type does not change.
        for pid in needed.products {
            consider(Request::Product(pid), Some(None), 0);
        }
        for id in needed.services {
            consider(Request::Service(id), Some(None), 0);
        }
    }
    // What observers asked once, kept fresh as its kind says (shown or not).
    for (request, _) in input.store.entries() {
        if matches!(Kind::of(request), Some(Kind::Rate | Kind::Stats))
            && let Request::Rate(id) | Request::Stats(id) = request
            && !input.types.is_ppr(*id)
        {
            // An fpr service has no usage; an unknown one waits for its type.
            continue;
        }
        if let Some(id) = super::store::service_of(request)
            && listed.as_ref().is_some_and(|l| !l.contains(&id))
        {
            continue;
        }
        consider(request.clone(), None, usize::MAX);
    }
    due.sort_by_key(|d| (d.0, d.1, d.2));
    Plan {
        due: due.into_iter().map(|(.., d)| d).collect(),
        next,
    }
}

/// The lists every first screen shows (the services list, the catalogue, the credit and
/// the invoices), read in the screen's line until first answered, on any tab: the header,
/// the tab line and the other tabs read them, and the types need the catalogue.
const FIRST_LISTS: [Request; 4] = [
    Request::Services,
    Request::Products,
    Request::Credit,
    Request::Invoices,
];

/// Whether `request` is one the screen waits on (see [`Pick::Screen`]): on screen itself,
/// one of the first screen's lists, or what the visible rows need to learn their types.
/// `needs` is [`type_needs_on_screen`]'s answer.
pub fn for_the_screen(focus: &Focus, needs: &HashSet<Request>, request: &Request) -> bool {
    focus.shows_itself(request) || FIRST_LISTS.contains(request) || needs.contains(request)
}

/// What the rows on screen whose type is unknown need to learn it (the catalogue, their
/// products' details, their own details): the screen waits on these for its rates, so
/// they go in its line while never read.
pub fn type_needs_on_screen(input: &Input) -> HashSet<Request> {
    let mut needs = HashSet::new();
    let Some(services) = input.store.services() else {
        return needs;
    };
    let rows: HashSet<u64> = input
        .focus
        .rows
        .iter()
        .filter_map(super::store::service_of)
        .collect();
    let unknown: Vec<&crate::api::ServiceSummary> = services
        .iter()
        .filter(|s| rows.contains(&s.service_id) && input.types.get(s.service_id).is_none())
        .collect();
    if unknown.is_empty() {
        return needs;
    }
    needs.insert(Request::Products);
    let names: HashSet<&str> = unknown.iter().map(|s| s.product_name.as_str()).collect();
    for p in input.store.products().into_iter().flatten() {
        if names.contains(p.product_name.as_str()) {
            needs.insert(Request::Product(p.product_id));
        }
    }
    needs.extend(unknown.iter().map(|s| Request::Service(s.service_id)));
    needs
}

/// While the API is down: one request every `every`: `first` of the plan, else
/// [`PROBE`].
fn probe(input: &Input, first: Option<Due>, every: Duration) -> Plan {
    if input.store.in_flight() > 0 {
        return Plan {
            due: Vec::new(),
            next: Some(input.now + chrono::Duration::from_std(every).unwrap_or_default()),
        };
    }
    // The last attempt of any read.
    let last = input
        .store
        .entries()
        .filter_map(|(_, e)| e.error.as_ref().map(|(_, at)| *at))
        .max();
    let every = chrono::Duration::from_std(every).unwrap_or_default();
    match last {
        Some(at) if at + every > input.now => Plan {
            due: Vec::new(),
            next: Some(at + every),
        },
        _ => Plan {
            due: vec![first.unwrap_or(Due {
                request: PROBE,
                since: input.now,
                pick: Pick::Sweep,
            })],
            next: Some(input.now + every),
        },
    }
}
