//! What a form gets beside its own state: [`FormCx`] to act through (the account's data
//! to read, reads and writes to send with their tickets, the status line, commands, and
//! [`Intent`]s the app carries out once the form's call returned), and [`FormData`] to be
//! drawn from (a tab's [`TabData`] and what only forms show). Never the tabs, never the
//! popup stack, never the whole app: what a form wants of those is an [`Intent`].

use crate::account::store::Store;
use crate::api::{ApiError, Request, Response, ServiceStatus, ServiceSummary, Ticket};
use crate::app::data::TabData;
use crate::app::look::Seen;
use crate::app::orders::Orders;
use crate::app::status::{NoticeKind, StatusLine};
use crate::app::{AppSettings, Command, Cx, Mirror, Shell, Work};
use crate::iplist_throttle::Throttles;
use chrono::{DateTime, FixedOffset, Utc};
use std::net::Ipv4Addr;
use std::path::PathBuf;

/// What a form asks of the rest of the dashboard, carried out by the app once the form's
/// call returned (a form cannot reach a tab or the popup stack itself). An answer that
/// closes the form (`Flow::Close`) gives its place in the stack to what its intents open.
#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    /// Service `id` as Enter on its row shows it: the Services tab with its row selected
    /// (a filter or `!` hiding it cleared), and its detail.
    ShowService(u64),
    /// Invoice `id`'s viewer.
    ShowInvoice(u64),
    /// One of your actions, ready: to the effects or the terminal (`Cx::hand_over`).
    HandOver(Box<crate::config::actions::Run>),
}

/// The answer to a form's request, as the form gets it.
#[derive(Debug)]
pub struct Answered<'a> {
    pub request: &'a Request,
    pub result: Result<Response, ApiError>,
    /// The form is open (false once it was closed while waiting: the app kept it for this
    /// answer, so what the answer implies still happens).
    pub on_screen: bool,
}

/// The answer to a file a form asked to write ([`Command::WriteFile`]).
#[derive(Clone, Debug, PartialEq)]
pub enum FileAnswer {
    /// `path` exists: nothing was written; `free` is a name beside it that does not.
    Exists {
        path: PathBuf,
        free: Option<PathBuf>,
    },
    /// Written to the full path, or why not.
    Written {
        path: PathBuf,
        result: Result<PathBuf, String>,
    },
}

/// This machine's public IPv4, as far as the app knows (the bind form's `Ctrl-L`, the
/// Services detail's "this machine").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum MyIp {
    #[default]
    Unknown,
    LookingUp,
    Known(Ipv4Addr),
    Failed(String),
}

impl MyIp {
    pub fn known(&self) -> Option<Ipv4Addr> {
        match self {
            MyIp::Known(ip) => Some(*ip),
            _ => None,
        }
    }

    /// Marks the lookup made on first need as on its way: whether it must be asked (it
    /// never was).
    pub(in crate::app) fn start_on_first_need(&mut self) -> bool {
        let start = *self == MyIp::Unknown;
        if start {
            *self = MyIp::LookingUp;
        }
        start
    }
}

/// The service a form's key is on (the open service popup's, else the selected row's),
/// with what the dashboard knows of it: read by the app from the tab or popup on screen,
/// so the form names neither.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceOn {
    pub id: u64,
    /// Its status in the Services list, if it is listed.
    pub status: Option<ServiceStatus>,
    /// Its type as far as it is known (its detail, the catalogue, its usage answers).
    pub kind: Option<crate::api::ProductType>,
}

/// The product a form's key is on (the open product popup's, else the selected row's),
/// with its row of the catalogue shown, if it is listed.
#[derive(Clone, Debug, PartialEq)]
pub struct ProductOn {
    pub id: u64,
    pub listed: Option<crate::api::ProductSummary>,
}

/// See the module docs.
pub struct FormCx<'a> {
    shell: &'a mut Shell,
    account: &'a mut Mirror,
    work: &'a mut Work,
    out: &'a mut Vec<Command>,
    intents: Vec<Intent>,
}

impl<'a> FormCx<'a> {
    /// The form's context over the app's: everything but the tabs.
    pub(in crate::app) fn of(cx: &'a mut Cx<'_>) -> Self {
        Self {
            shell: &mut *cx.shell,
            account: &mut *cx.account,
            work: &mut *cx.work,
            out: &mut *cx.out,
            intents: Vec::new(),
        }
    }

    /// What the form asked of the rest of the dashboard, for the app to carry out.
    pub(in crate::app) fn into_intents(self) -> Vec<Intent> {
        self.intents
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.shell.now()
    }

    /// The offset times on screen are shown in.
    pub fn offset(&self) -> FixedOffset {
        self.shell.utc_offset
    }

    pub fn settings(&self) -> &AppSettings {
        self.shell.settings()
    }

    /// The account's answers, read-only (a read is asked through [`FormCx::fetch`]).
    pub fn store(&self) -> &Store {
        &self.account.store
    }

    /// Service `id` as the Services list has it, if it lists it.
    pub fn listed(&self, id: u64) -> Option<&ServiceSummary> {
        listed(self.store(), id)
    }

    /// The orders this session sent, their attempts and doubts.
    pub fn orders(&self) -> &Orders {
        &self.work.orders
    }

    pub(in crate::app) fn orders_mut(&mut self) -> &mut Orders {
        &mut self.work.orders
    }

    /// When each service's IP list may be refreshed again.
    pub fn throttles(&self) -> &Throttles {
        &self.account.throttles
    }

    /// Service `id`'s IP-list countdown in words, while one runs.
    pub fn countdown(&self, id: u64) -> Option<String> {
        self.account.countdown(id, self.now(), self.offset())
    }

    pub(in crate::app) fn throttles_mut(&mut self) -> &mut Throttles {
        &mut self.account.throttles
    }

    /// Lines an IP-list view shows at the current screen size (for paging).
    pub fn iplist_page(&self) -> usize {
        usize::from(self.shell.geometry.iplist_lines).max(1)
    }

    pub fn status(&mut self) -> &mut StatusLine {
        &mut self.shell.status
    }

    /// Asks the engine for `request` (a one-off) unless it is already in flight, and marks
    /// it loading (as `Cx::fetch`).
    pub fn fetch(&mut self, request: Request) {
        if self.account.store.ask(&request, self.shell.now()) {
            self.out.push(Command::Fetch(request));
        }
    }

    /// Sends a write as the attempt `ticket`: exactly once, whatever is in flight (a
    /// second identical order is a second order), counted as in flight so the header shows
    /// activity. Its answer comes back with `ticket`.
    pub(in crate::app) fn send_write(&mut self, request: Request, ticket: Ticket) {
        self.account.writes.insert(ticket, request.clone());
        self.out.push(Command::Write { request, ticket });
    }

    /// A new ticket for a form's request (each send its own: tickets are never reused).
    pub(in crate::app) fn ticket(&mut self) -> Ticket {
        self.work.last_ticket += 1;
        Ticket(self.work.last_ticket)
    }

    /// A command for the effects (a copy, a file to write, a silence, a countdown saved).
    pub fn send(&mut self, command: Command) {
        self.out.push(command);
    }

    /// See [`Intent`].
    pub fn intend(&mut self, intent: Intent) {
        self.intents.push(intent);
    }

    /// A copy is on its way to the clipboard as `what`: once it took it, `line` (the
    /// command that gives the same text) is listed in the command log.
    pub fn expect_copy(&mut self, what: String, line: String) {
        self.work.cmdlog.expect_copy(what, line);
    }

    /// Lists a line in the command log (`L`).
    pub fn log_command(&mut self, line: String) {
        let now = self.now();
        self.work.cmdlog.push(now, line);
    }

    /// This machine's IP as far as it was looked up.
    pub fn my_ip(&self) -> &MyIp {
        &self.account.my_ip
    }

    /// `Ctrl-L`: looks this machine's IP up, unless a lookup is on its way (the one made
    /// on first need serves this too); after a failure it is asked again.
    pub fn look_up_my_ip(&mut self) {
        if self.account.my_ip != MyIp::LookingUp {
            self.account.my_ip = MyIp::LookingUp;
            self.out.push(Command::LookupMyIp);
        }
    }

    /// The profile is read-only: says so and returns true.
    pub fn refuse_read_only(&mut self, what: &str) -> bool {
        let settings = &self.shell.settings;
        if settings.read_only {
            let line = format!(
                "Profile {} is read-only: {what} is turned off",
                settings.profile
            );
            self.shell.status.notify(NoticeKind::Info, line);
        }
        settings.read_only
    }

    /// The service a write is for, unless it has ended (Terminated, Cancelled, Fraud):
    /// then the status line says why nothing opens and nothing is sent, rather than a
    /// request that the server can only refuse.
    pub fn writable(&mut self, on: Option<&ServiceOn>, what: &str) -> Option<u64> {
        let on = on?;
        if let Some(
            status @ (ServiceStatus::Terminated | ServiceStatus::Cancelled | ServiceStatus::Fraud),
        ) = &on.status
        {
            let line = format!(
                "Service {} is {}: {what} is not possible, nothing was sent",
                on.id,
                status.as_str()
            );
            self.shell.status.notify(NoticeKind::Info, line);
            return None;
        }
        Some(on.id)
    }
}

/// What the forms say of a service update (a bound IP, a password, an IP-list refresh).
impl FormCx<'_> {
    /// Says a service update's outcome: in the message log when its form shows it
    /// (`on_screen`), else in the status line.
    pub fn update_answered(&mut self, answer: &Answered<'_>) {
        use crate::app::{messages::Level, status};
        let (request, result) = (answer.request, &answer.result);
        let what = self.update_what(request);
        let line = match result {
            Ok(r) => format!("{what}: {}", super::update_message(r, "done")),
            // The error line's own words (the token hint of a 401), under the same head.
            Err(e) => {
                let line = status::error_line(request, e, &self.shell.settings.profile);
                let generic = status::what(request);
                match line.strip_prefix(&generic) {
                    Some(rest) => format!("{what}{rest}"),
                    None => line,
                }
            }
        };
        let line = crate::text::sanitize(&line).into_owned();
        let shown = &mut self.shell.status;
        match (result, answer.on_screen) {
            (Ok(_), true) => shown.log(Level::Success, line),
            (Err(_), true) => shown.log(Level::Error, line),
            (Ok(_), false) => shown.notify(NoticeKind::Done, line),
            (Err(_), false) => shown.report(request, line),
        }
    }

    /// What a service update did, to whom, on which account: `Service 1001 (Static US
    /// 25, account work) · bind IP 203.0.113.5`. Two updates log the same line only when
    /// they did the same thing, so the message log folds only identical events.
    fn update_what(&self, request: &Request) -> String {
        let Request::UpdateService { service_id, update } = request else {
            return crate::app::status::what(request);
        };
        let mut did = Vec::new();
        if let Some(ip) = &update.setip {
            did.push(format!("bind IP {ip}"));
        }
        if update.password.is_some() {
            did.push("password change".to_owned());
        }
        if update.update_list {
            did.push("IP list refresh".to_owned());
        }
        let name = self
            .listed(*service_id)
            .map(|s| s.product_name.trim())
            .filter(|n| !n.is_empty())
            .map_or_else(String::new, |n| format!("{n}, "));
        format!(
            "Service {service_id} ({name}account {}) · {}",
            self.shell.settings.profile,
            did.join(", ")
        )
    }
}

/// Service `id` as the Services list in `store` has it, if it lists it.
fn listed(store: &Store, id: u64) -> Option<&ServiceSummary> {
    store.services()?.iter().find(|s| s.service_id == id)
}

/// What a form is drawn from: the account's data as a tab's ([`TabData`], which it
/// derefs to), and what only forms show: the money ahead (the order's runway) and where
/// the lookup of this machine's IP is (the bind form).
#[derive(Clone, Copy)]
pub struct FormData<'a> {
    pub data: TabData<'a>,
    pub runway: Option<&'a crate::billing::Runway>,
    pub my_ip: &'a MyIp,
}

impl FormData<'_> {
    /// Service `id` as the Services list has it, if it lists it.
    pub fn listed(&self, id: u64) -> Option<&ServiceSummary> {
        listed(self.data.store, id)
    }

    /// `05:41:02` in the offset shown.
    pub fn local_time(&self, at: DateTime<Utc>) -> String {
        at.with_timezone(&self.data.offset)
            .format("%H:%M:%S")
            .to_string()
    }
}

impl<'a> std::ops::Deref for FormData<'a> {
    type Target = TabData<'a>;
    fn deref(&self) -> &TabData<'a> {
        &self.data
    }
}

/// A form draws with the time and settings its data holds.
impl Seen for FormData<'_> {
    fn now(&self) -> DateTime<Utc> {
        self.data.now
    }
    fn offset(&self) -> FixedOffset {
        self.data.offset
    }
    fn settings(&self) -> &AppSettings {
        self.data.settings
    }
}
