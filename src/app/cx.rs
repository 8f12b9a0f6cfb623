//! [`Cx`]: what a part of the dashboard (a form, a popup, a tab's action) gets beside its
//! own state: the shell (time, settings, status line, popup stack), the data the engine's
//! answers filled (the tabs and the mirror), the record of writes ([`Work`]), and the
//! commands to run. A part sends intents through it (a read, a write, a popup to open)
//! and never sees the other parts' state (the probes, the palette's proxies).

use super::{Command, Mirror, Shell, Tabs, cmdlog, orders};
use crate::api::{Request, Ticket};
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

    /// Sends a write as the attempt `ticket`: exactly once, whatever is in flight (a
    /// second identical order is a second order), counted as in flight so the header shows
    /// activity. Its answer comes back with `ticket`.
    pub(in crate::app) fn send_write(&mut self, request: Request, ticket: Ticket) {
        self.account.writes.insert(ticket, request.clone());
        self.out.push(Command::Write { request, ticket });
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
                if self.shell.tab == super::Tab::Products
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
    pub(in crate::app) fn go_to(&mut self, tab: super::Tab, id: u64) -> bool {
        self.shell.tab = tab;
        if tab == super::Tab::Services && self.tabs.services_dirty {
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

/// Groups of data that refresh together (`r` on a tab, after an order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefreshGroup {
    /// Services, and through them the per-service data of Network and Usage.
    Services,
    Products,
    Billing,
}
