//! The state machine of the dashboard: no I/O, no async, no terminal, no clock but the
//! injected [`Clock`]. [`App::update`] takes a [`Msg`] and returns the [`Command`]s to run;
//! `ui::draw` renders the state. Every rule lives here; nothing here names the view (what
//! the view measured while drawing comes back after the frame through
//! [`App::measured`], see [`geometry`]).
//!
//! # Parts
//!
//! [`App`] holds parts, each a type with its own methods: the [`Shell`] every part shares
//! (time, settings, tab bar, popup stack, status line), the [`Tabs`], the [`Mirror`] of
//! what the engine told, the [`Work`] the writes leave, and the probes. A part acts through
//! a context ([`Cx`]: the shell, the data, the commands out; a tab and a form narrower
//! ones, see [`tabs`] and [`forms`]), never through `&mut App`; `impl App` is the routing
//! between them (messages, keys) and what the view reads ([`view`]).
//!
//! # What is fetched, and when
//!
//! Not here: the account engine ([`crate::account`]) decides what is read and when, from
//! its freshness rules, whichever tab is on screen; its answers arrive as
//! [`Msg::Loaded`], what it sends as [`Msg::Sent`] (marked loading), its connection state
//! as [`Msg::Connection`], the services' types as [`Msg::Types`] and each sweep of the
//! alert rules as [`Msg::Swept`]. The app mirrors what it shows from them.
//!
//! What the app asks:
//! - [`Command::Focus`] after every change of what is on screen (the tab, the selected
//!   service, product or invoice): the engine keeps that fresh first, within its share of
//!   the budget.
//! - One-off reads a person waits on ([`Command::Fetch`]): the selection's detail the
//!   first time it is shown, a form's reads, IP lists.
//! - `r` refreshes the current tab, `R` everything ([`Command::Refresh`]).
//! - Every answer is kept, whichever tab is shown, once, in the account's store
//!   ([`Mirror::store`]: a replica of the engine's, fed by the engine's events through the
//!   same code); the tabs hold what they show (tables, sorts, widths), never a copy of an
//!   answer, and derive their rows from the store. A list for a sort that is no longer
//!   chosen is not shown; per-service data of a service no longer listed is forgotten.
//!
//! # Errors
//!
//! A failed request leaves the last good data on screen (marked stale with its time, see
//! [`crate::account::Answer`]) and puts one line in the status bar via [`status::error_line`]. The line of
//! a request goes away when that request next succeeds, or on Esc.
//!
//! # Writes and forms
//!
//! Forms ([`forms`]) send their reads as [`Command::Fetch`] and their writes as
//! [`Command::Write`], each write with a ticket of its own; the answers come back as
//! [`Msg::Loaded`] (a write's with its ticket) to the form that waits for them, or to the
//! status line when it was closed. With [`AppSettings::read_only`] the writing keys open
//! nothing and say why.
//!
//! Times on screen are wall-clock times in the offset of [`App::set_utc_offset`] (UTC
//! unless the run loop sets the local one); "due in N days" counts from that date.

pub mod cmdline;
pub mod cmdlog;
pub mod columns;
pub mod form_kind;
pub mod forms;
pub mod keymap;
pub mod look;
pub mod messages;
pub mod orders;
pub mod palette;
pub mod popup_pane;
pub mod popups;
pub mod probe;
pub mod profiles;
mod screen;
pub mod status;
pub mod table;
pub mod tabs;
#[cfg(any(test, feature = "testdata"))]
pub mod testdata;
pub mod user_actions;

mod alerting;
mod budget;
mod countdown;
mod cx;
pub mod data;
pub mod geometry;
pub mod history;
mod input;
mod loaded;
mod memo;
mod msg;
mod redraw;
pub mod settings;
mod shell;
mod view;

#[cfg(test)]
mod tests;

pub use crate::account::planner::is_swept;
pub use crate::account::{Answer, Freshness};
use crate::api::Request;
use crate::iplist_throttle::Throttles;
use chrono::{DateTime, Utc};
pub use cx::{Cx, RefreshGroup, Work};
use forms::MyIp;
pub use msg::{Command, Msg};
pub use settings::{AppSettings, EAGER_ROWS};
pub use shell::{Shell, Switch};
use std::collections::HashMap;
use std::time::Duration;
use tabs::alerts::AlertsTab;

/// The source of the current time; tests inject a fake one.
pub use crate::account::Clock;

/// How long a request may stay unanswered before it counts as lost (the engine's rule).
pub const IN_FLIGHT_TIMEOUT: Duration = crate::account::store::IN_FLIGHT_TIMEOUT;

/// The default auto-refresh interval.
pub const DEFAULT_REFRESH: Duration = Duration::from_secs(30);

/// The dashboard's state: the shell everything shares, the tabs, the mirror of the
/// account engine, and the state of the parts that outlive a popup (orders, forms'
/// requests, probes, the command log, the palette's proxies). Each part is a type of its
/// own with its own methods; the app routes messages between them.
pub struct App {
    shell: Shell,
    tabs: Tabs,
    account: Mirror,
    work: Work,
    /// The forms closed while their request was on its way.
    forms: forms::Forms,
    /// Each service's last proxy probe (`h`).
    probes: probe::Probes,
    proxies: palette::Proxies,
}

/// A tab of the dashboard, in the order of the tab line and of the keys `1`, `2`, …; its
/// name is its title. [`Tab::ALL`] and the title are derived from this list (strum), so a
/// new tab is its file in `tabs/`, its line here, and its state in [`Tabs`] with its arm in
/// [`Tabs::pane`] and [`Tabs::pane_mut`] (the recipe: [`tabs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::VariantArray, strum::IntoStaticStr)]
pub enum Tab {
    Services,
    Products,
    Billing,
    Network,
    Usage,
    Alerts,
    Clients,
}

impl Tab {
    /// Every tab, in the enum's order (the tab line's and the digit keys'): strum's list
    /// as an array, so that a table of one entry per tab has the tabs' length.
    pub const ALL: [Tab; <Tab as strum::VariantArray>::VARIANTS.len()] =
        match <Tab as strum::VariantArray>::VARIANTS.first_chunk() {
            Some(all) => *all,
            None => unreachable!(),
        };
}

/// The tabs' state, one field per [`Tab`], and what derives from several of them.
#[derive(Default)]
pub struct Tabs {
    pub(in crate::app) services: tabs::services::ServicesTab,
    pub(in crate::app) products: tabs::products::ProductsTab,
    pub(in crate::app) billing: tabs::billing::BillingTab,
    pub(in crate::app) network: tabs::network::NetworkTab,
    pub(in crate::app) usage: tabs::usage::UsageTab,
    pub(in crate::app) alerts: AlertsTab,
    pub(in crate::app) clients: tabs::clients::ClientsTab,
    /// The Network rows / the Usage list need rebuilding (done when their tab is shown,
    /// so a burst of per-service results costs one rebuild, not one per result; the
    /// Usage list also after each burst in the All view, see `Cx::rebuild_shown`).
    pub(in crate::app) network_dirty: bool,
    pub(in crate::app) usage_dirty: bool,
    /// The Services cells (proxies, over-limit marks) changed with the network or usage.
    pub(in crate::app) services_dirty: bool,
}

/// The popup stack's entries: one variant per popup, holding its state, and the forms.
///
/// A new popup is its file in `popups/` (its state, its `static PopupInfo` and `impl
/// PopupPane`, its look), a variant here, and the arms the compiler asks for:
/// `Popup::pane`, `pane_mut` and `ui::popups::draw` (the recipe: [`popups`]).
#[derive(Debug, PartialEq)]
pub enum Popup {
    Help(popups::help::HelpPopup),
    Invoice(popups::invoice::InvoiceViewer),
    Service(popups::service::ServiceViewer),
    Product(popups::product::ProductViewer),
    Profiles(popups::profiles::ProfilePicker),
    Messages(popups::messages::MessagesPopup),
    Probe(probe::ProbeView),
    Palette(Box<palette::Palette>),
    CommandLog(popups::command_log::CommandLogPopup),
    Client(popups::client::ClientCard),
    Accounts(popups::accounts::AccountPicker),
    /// A form: one variant per form ([`forms::Form`]).
    Form(Box<forms::Form>),
    /// `confirm = true` on one of your actions: its command line, Enter runs it.
    ConfirmRun(Box<forms::confirm_run::ConfirmRun>),
}

/// A popup without its state, for the key bindings: what it is called and its own keys.
/// A form is at one of its steps (each form declares its own, with their keys), or busy,
/// or showing its outcome; any other popup declares its own info beside its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PopupKind {
    /// A popup that is not a form: a viewer, a picker, a log.
    Shows(&'static keymap::steps::PopupInfo),
    /// A form's step: its fields, a confirmation, a list it shows.
    Step(&'static keymap::steps::FormStep),
    /// A form whose request is on its way.
    FormBusy,
    /// A form that shows its outcome.
    FormDone,
}

/// What the account engine told of the account, mirrored for the screen: never a decision
/// of what to send.
#[derive(Default)]
pub struct Mirror {
    /// Every read's answer and what is in flight: a replica of the engine's store, fed by
    /// its events (`Sent`, `Loaded`) and the app's own asks. The one place the dashboard
    /// keeps answers, and its one in-flight set of reads.
    pub(in crate::app) store: crate::account::store::Store,
    pub(in crate::app) my_ip: MyIp,
    /// When each service's IP list may be refreshed again (429 countdowns).
    pub(in crate::app) throttles: Throttles,
    /// The writes on their way, by ticket: two sends of the same write are two.
    pub(in crate::app) writes: HashMap<crate::api::Ticket, Request>,
    /// The account's connection, as the engine last told.
    pub(in crate::app) connection: crate::account::Connection,
    /// The first request that got no answer at all (refused, lost, timed out) since the
    /// last answer: the header says so at once, where the engine waits for a few such
    /// failures over some seconds before it calls the account unreachable.
    pub(in crate::app) no_answer_since: Option<DateTime<Utc>>,
    /// The services' types, as the engine knows them.
    pub(in crate::app) types: HashMap<u64, crate::api::ProductType>,
    /// What the engine was last told the screen shows.
    pub(in crate::app) focus: Option<crate::account::Focus>,
    /// What is recorded for, and was answered by, the history store.
    pub(in crate::app) history: history::HistoryState,
    /// The request budget as the scheduler last published it.
    pub(in crate::app) budget: Option<budget::Shown>,
    /// Whether the status line said this run shares the server's minute with the
    /// profile's other runs.
    pub(in crate::app) elsewhere_said: bool,
}

impl App {
    /// A new app on the Services tab. It assumes an 80×24 screen until the first
    /// [`Msg::Resize`], and knows nothing of the layout until the first frame's
    /// measurements ([`App::measured`]: tables page by a default page, clicks hit
    /// nothing): the run loop sends the size before the first frame and hands the
    /// measurements over right after it.
    pub fn new(settings: AppSettings, clock: Clock) -> Self {
        let throttles = settings.iplist.throttles.clone();
        let alerts = AlertsTab::new(settings.alerts.rules.clone(), settings.alerts.open.clone());
        Self {
            shell: Shell::new(settings, clock),
            tabs: Tabs {
                alerts,
                ..Tabs::default()
            },
            account: Mirror {
                throttles,
                ..Mirror::default()
            },
            work: Work::default(),
            forms: forms::Forms::default(),
            probes: probe::Probes::default(),
            proxies: palette::Proxies::default(),
        }
    }

    /// What the screen shows at first (the engine starts reading by itself), and the state
    /// file forgets countdowns that ended while the program was not running.
    pub fn start(&mut self) -> Vec<Command> {
        let mut out = Vec::new();
        if !self.account.throttles.expire(self.now()).is_empty() {
            out.push(Command::SaveThrottles(self.account.throttles.clone()));
        }
        // The engine reads these first: shown as loading until its events say more.
        let now = self.now();
        for request in [
            Request::Services,
            self.tabs.products.list_request(),
            Request::Credit,
            Request::Invoices,
        ] {
            self.account.store.sent(&request, now);
        }
        // Told at start whatever was told before (the engine may be new).
        self.account.focus = None;
        self.cx(&mut out).tell_focus();
        out
    }

    /// The account engine's configuration for this app's settings (profile, address,
    /// refresh, alert rules and the alerts open when it last ran).
    pub fn engine_config(&self) -> crate::account::Config {
        let mut config = self.shell.settings.engine_config();
        config.offset = self.shell.utc_offset;
        config
    }

    pub fn update(&mut self, msg: Msg) -> Vec<Command> {
        self.update_all([msg])
    }

    /// Several messages at once (a burst of results): each is handled in turn, and what
    /// derives from the whole state (the rows of the tab on screen, the selection's
    /// detail) is worked out once at the end, so 20,000 per-service answers cost one
    /// rebuild of the Network rows rather than 20,000.
    pub fn update_all(&mut self, msgs: impl IntoIterator<Item = Msg>) -> Vec<Command> {
        let mut out = Vec::new();
        let before = redraw::OnScreen::of(&self.shell, &self.tabs, &self.account);
        let (mut loud, mut ticked) = (false, false);
        for msg in msgs {
            loud |= !msg.may_be_invisible();
            ticked |= matches!(msg, Msg::Tick);
            self.handle(msg, &mut out);
        }
        let mut cx = self.cx(&mut out);
        cx.rebuild_shown();
        let tab = cx.shell.tab;
        tab.sync(&mut cx);
        cx.fetch_for_selection();
        cx.tell_focus();
        // The Services detail's 7 days; the Usage chart's 24 hours of use.
        let selected = tab.selected_service(&self.tabs);
        let now = self.now();
        self.account.history.ask(now, selected, &mut out);
        if self.shell.quit && !out.contains(&Command::Quit) {
            out.push(Command::Quit);
        }
        let parts = (&self.tabs, &self.account);
        self.shell.note_redraw(parts, &before, loud, ticked);
        out
    }

    fn handle(&mut self, msg: Msg, out: &mut Vec<Command>) {
        self.shell.status.set_now(self.now());
        match msg {
            Msg::Key(key) => self.on_key(key, out),
            Msg::Mouse(mouse) => self.on_mouse(mouse, out),
            Msg::Paste(text) => self.on_paste(&text),
            Msg::Resize(w, h) => self.shell.size = (w, h),
            Msg::Tick => self.cx(out).on_tick(),
            Msg::Loaded { loaded, ticket } => {
                let (mut cx, aside) = self.parts(out);
                loaded::on_loaded(&mut cx, aside, loaded, ticket);
            }
            Msg::Sent(request) => {
                let now = self.now();
                self.account.store.sent(&request, now);
                // The Network summary counts what is on its way (`checking 3…`).
                if matches!(
                    request,
                    Request::NetworkErrors(_) | Request::NetworkInactive(_)
                ) {
                    self.tabs.network_dirty = true;
                }
            }
            Msg::Connection(c) => self.account.on_connection(&mut self.shell, c),
            Msg::Types(types) => {
                self.account.types = types;
                self.tabs.usage_dirty = true;
                self.tabs.services_dirty = true;
            }
            Msg::Swept(swept) => {
                self.account.history.note_sweep();
                self.tabs.alerts.on_swept(&mut self.shell, swept, out);
            }
            Msg::Marked(marks) => self.tabs.alerts.on_marked(marks),
            Msg::Money(runway) => self.tabs.billing.runway = runway,
            Msg::ActionDone { name, result } => {
                user_actions::on_done(&mut self.shell, &name, result)
            }
            Msg::Copied { what, result } => {
                forms::iplist_files::on_copied(&mut self.cx(out), what, result)
            }
            Msg::Written { path, result } => forms::on_file(
                &mut self.cx(out),
                forms::FileAnswer::Written { path, result },
            ),
            Msg::MyIp(result) => forms::on_my_ip(&mut self.cx(out), result),
            Msg::Diagnostic(text) => self.shell.status.tell(status::NoticeKind::Error, text),
            Msg::FileExists { path, free } => {
                forms::on_file(&mut self.cx(out), forms::FileAnswer::Exists { path, free })
            }
            Msg::AlertDeliveryFailed(why) => self.shell.status.tell(status::NoticeKind::Error, why),
            Msg::History(answer) => self
                .account
                .history
                .on_answer(answer, &mut self.shell.status),
            Msg::Budget(view) => {
                if let Some(words) = self.account.on_budget(view, self.now()) {
                    self.shell.status.tell(status::NoticeKind::Info, words);
                }
            }
            Msg::Probe {
                service_id,
                run,
                event,
            } => {
                let (mut cx, aside) = self.parts(out);
                aside.probes.on_probe_event(&mut cx, service_id, run, event);
            }
        }
    }
}

impl App {
    /// The context the parts get ([`Cx`]), with `out` for the commands they send.
    pub(in crate::app) fn cx<'a>(&'a mut self, out: &'a mut Vec<Command>) -> Cx<'a> {
        self.parts(out).0
    }

    /// The context, and beside it what no context holds (each handed only to what works
    /// on it): the forms out of sight, the probes, the palette's proxies.
    pub(in crate::app) fn parts<'a>(
        &'a mut self,
        out: &'a mut Vec<Command>,
    ) -> (Cx<'a>, NotInContext<'a>) {
        let cx = Cx {
            shell: &mut self.shell,
            tabs: &mut self.tabs,
            account: &mut self.account,
            work: &mut self.work,
            out,
        };
        let aside = NotInContext {
            forms: &mut self.forms,
            probes: &mut self.probes,
            proxies: &mut self.proxies,
        };
        (cx, aside)
    }
}

/// The app's parts no context holds (see [`App::parts`]).
pub(in crate::app) struct NotInContext<'a> {
    pub(in crate::app) forms: &'a mut forms::Forms,
    pub(in crate::app) probes: &'a mut probe::Probes,
    pub(in crate::app) proxies: &'a mut palette::Proxies,
}
