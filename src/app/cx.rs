//! [`Cx`]: the context the app's routing works through (a popup's keys, the probe, the
//! command log, the answers, the redraw's bookkeeping): the shell (time, settings, status
//! line, popup stack), the data the engine's answers filled (the tabs and the mirror),
//! the record of writes ([`Work`]), and the commands to run. The parts get narrower ones
//! made from it: a tab its `TabCx`, a form its `FormCx`; neither sees the other parts'
//! state (the probes, the palette's proxies), and what they ask of the rest comes back as
//! intents that the app carries out through this one.
//!
//! Every `impl Cx` is here (but the tabs' views over the answers, with the tabs): what
//! the context can do, in one file; the parts' own steps are functions of their modules
//! that take it (`loaded::on_loaded`, the forms' routing).

use super::{Command, Mirror, Popup, Shell, Tab, Tabs, cmdlog, orders};
use crate::account::{Focus, Kind};
use crate::api::Request;
use crate::app::shell::Outward;
use chrono::{DateTime, Utc};

/// What the forms' writes leave behind, whichever form is open.
#[derive(Debug, Default)]
pub struct Work {
    /// The orders on their way and those whose outcome is unknown (see [`orders`]).
    pub(in crate::app) orders: orders::Orders,
    /// The last ticket given to a form's request (see [`super::forms`]).
    pub(in crate::app) last_ticket: u64,
    /// What was run or copied, as commands to run again (`L`).
    pub(in crate::app) cmdlog: cmdlog::CommandLog,
}

/// See the module docs.
pub struct Cx<'a> {
    pub(in crate::app) shell: &'a mut Shell,
    pub(in crate::app) tabs: &'a mut Tabs,
    pub(in crate::app) account: &'a mut Mirror,
    pub(in crate::app) work: &'a mut Work,
    pub(in crate::app) out: &'a mut Vec<Command>,
}

impl Cx<'_> {
    /// One of your actions, ready (`app::user_actions`): to the effects to run off the
    /// screen, or to the run loop to give it the terminal; the status line says what runs.
    pub fn hand_over(&mut self, run: crate::config::actions::Run) {
        self.shell.notify(format!(
            "{}: running {}",
            run.name,
            crate::text::sanitize(&crate::config::actions::shown_command(&run.argv))
        ));
        if run.background {
            self.out.push(Command::RunAction(run));
        } else {
            self.shell.send_out(Outward::Foreground(run));
        }
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.shell.now()
    }

    /// Asks the engine for `request` (a one-off) unless it is already in flight, and marks
    /// what it loads as loading.
    pub(in crate::app) fn fetch(&mut self, request: Request) {
        if self.account.store.ask(&request, self.now()) {
            self.out.push(Command::Fetch(request));
        }
    }

    /// Lists a line in the command log (`L`).
    pub(super) fn log_command(&mut self, line: String) {
        let now = self.now();
        self.work.cmdlog.push(now, line);
    }

    /// A write was answered: its command line is listed when it was carried out (or may
    /// have been: then as a comment).
    pub(super) fn log_write(
        &mut self,
        request: &crate::api::Request,
        result: &Result<crate::api::Response, crate::api::ApiError>,
    ) {
        if !request.is_write() {
            return;
        }
        let Some(line) = super::cmdline::of_request(&self.shell.settings.cli_args, request) else {
            return;
        };
        match result {
            Ok(_) => self.log_command(line),
            Err(e) if e.outcome_unknown() => self.log_command(format!(
                "# {line}   (outcome unknown: check before running it again)"
            )),
            Err(_) => {}
        }
    }

    /// The clipboard took (or refused) the copy called `what`.
    pub(super) fn log_copied(&mut self, what: &str, ok: bool) {
        if let Some(line) = self.work.cmdlog.take_copy(what)
            && ok
        {
            self.log_command(line);
        }
    }

    /// Asks the engine for one group now (`r`, after an order), with what the app itself
    /// shows of it (the selected product's detail).
    pub(in crate::app) fn refresh_group(&mut self, group: RefreshGroup) {
        use crate::account::Kind;
        match group {
            RefreshGroup::Services => {
                self.out
                    .push(Command::Refresh(vec![Kind::Services, Kind::ServiceDetail]));
            }
            RefreshGroup::Products => {
                self.out.push(Command::Refresh(vec![Kind::Products]));
                self.fetch(self.tabs.products.list_request());
                if self.shell.tab == Tab::Products
                    && let Some(id) = self.tabs.products.table.selected_id()
                {
                    self.fetch(Request::Product(id));
                }
            }
            RefreshGroup::Billing => {
                self.out.push(Command::Refresh(vec![
                    Kind::Credit,
                    Kind::Invoices,
                    Kind::Invoice,
                ]));
            }
        }
    }

    /// The Services rows rebuilt (their cells read the network status, the usage and
    /// today's date).
    pub(in crate::app) fn rebuild_services(&mut self) {
        let today = self.shell.today();
        self.tabs
            .rebuild_services(&self.account.store, today, &self.shell.geometry);
    }

    /// Shows `tab` with the row `id` selected (clearing a filter or `!` that hides it):
    /// whether the row is there to select.
    pub(in crate::app) fn go_to(&mut self, tab: Tab, id: u64) -> bool {
        self.shell.tab = tab;
        if tab == Tab::Services && self.tabs.services_dirty {
            self.rebuild_services();
        }
        let table = tab.table_mut(self.tabs);
        if table.select_id(id) {
            return true;
        }
        table.clear_filter();
        if table.problems_only() {
            table.toggle_problems();
        }
        table.select_id(id)
    }
}

/// What the app does through the context for the tab on screen and the engine: `r`, `R`,
/// the countdowns' ends, the focus told, the selection's reads, the rows rebuilt, and
/// what the frame measured.
impl Cx<'_> {
    /// `r`: the current tab's data.
    pub(in crate::app) fn refresh_tab(&mut self) {
        let tab = self.shell.tab;
        tab.refresh(self);
    }

    /// `R`: everything.
    pub(in crate::app) fn refresh_all(&mut self) {
        self.out.push(Command::Refresh(Kind::ALL.to_vec()));
    }

    pub(in crate::app) fn on_tick(&mut self) {
        self.account
            .expire_countdowns(self.shell.now(), &mut self.shell.status, self.out);
    }

    /// What the screen shows, for the engine: the tab's whole kinds and the selection's
    /// reads. Told when it changed.
    pub(in crate::app) fn tell_focus(&mut self) {
        let mut focus = Focus::default();
        self.shell.tab.focus(self.tabs, &mut focus);
        for popup in &self.shell.popups {
            if let Popup::Invoice(viewer) = popup {
                focus.requests.push(Request::Invoice(viewer.0));
            }
        }
        if self.account.focus.as_ref() != Some(&focus) {
            self.account.focus = Some(focus.clone());
            self.out.push(Command::Focus(focus));
        }
    }

    /// Fetches what the selection of the current tab shows but was never asked for.
    pub(in crate::app) fn fetch_for_selection(&mut self) {
        let tab = self.shell.tab;
        tab.fetch_for_selection(self);
    }

    /// What the view measured while drawing the frame just shown (see [`super::geometry`]):
    /// the tables page by it, clicks hit it, and the engine is told the rows now on screen
    /// when they are not the ones it was told. The frame already showed these pages (a
    /// table clamps its window to the rows it measured), so this asks for no redraw.
    pub(in crate::app) fn measured(&mut self, geometry: super::geometry::Geometry) {
        if geometry != self.shell.geometry {
            self.shell.geometry = geometry;
            self.tabs.set_pages(&self.shell.geometry);
            self.tell_focus();
        }
    }

    /// Rebuilds the derived rows of the tab on screen, if they changed.
    pub(in crate::app) fn rebuild_shown(&mut self) {
        let today = self.shell.today();
        // In the All view a digit shows every account's rows of a tab at once: the Usage
        // rows are kept built as each account's answers come, rather than ten accounts'
        // built on that key (a row kept in `RowMemo` makes a rebuild cheap).
        let usage_ahead = self.shell.accounts == super::keymap::Accounts::All;
        self.tabs.rebuild_shown(
            (self.shell.tab, usage_ahead),
            self.shell.settings.eager_rows,
            self.account,
            today,
            &self.shell.geometry,
        );
    }

    /// Before `/`, `!`, `s` or `S` on Services: the keys they read are brought up to date.
    pub(in crate::app) fn rebuild_if_read(&mut self) {
        if self.shell.tab == Tab::Services && self.tabs.services_dirty {
            self.rebuild_services();
        }
    }

    /// The service an action on the Services tab is for: the open service popup's, else
    /// the selected row's.
    pub(in crate::app) fn target_service(&self) -> Option<u64> {
        match self.shell.popups.last() {
            Some(Popup::Service(viewer)) => Some(viewer.id),
            _ => self.tabs.services.table.selected_id(),
        }
    }

    /// Looks up this machine's IP the first time something on screen would use it (the
    /// Services tab showing an fpr service with a bound IP asks, through its intent).
    pub(in crate::app) fn look_up_my_ip(&mut self) {
        if self.account.my_ip.start_on_first_need() {
            self.out.push(Command::LookupMyIp);
        }
    }
}

/// Groups of data that refresh together (`r` on a tab, after an order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefreshGroup {
    /// Services, and through them the per-service data of Network and Usage.
    Services,
    Products,
    Billing,
}
