//! [`TabPane`]: what a tab is to the dashboard. Each tab's file implements it for its
//! state: its table, its rows as words (the view model the ui draws), its keys (`s`, `S`,
//! Enter) and what it shows, for the engine's order. Everything but the table and the
//! rows has a default ("nothing to do"), so a plain list tab says only what is its own.
//!
//! The app asks the tab on screen through [`Tab`](super::Tab)'s methods, in `tabs/mod.rs`
//! (one plain match per question, over every tab). A tab acts through the context
//! ([`Cx`]): a read, a popup, a switch of tab.

use crate::account::{Answer, Freshness};
use crate::account::{Focus, Kind};
use crate::api::{ApiError, Request};
use crate::app::columns::{CellText, Column};
use crate::app::table::TableView;
use crate::app::{App, Command, Cx};

/// See the module docs.
pub trait TabPane {
    /// The title on the tab line, in the palette and the help.
    const TITLE: &'static str;
    /// The kinds of data the tab shows whole: what `r` refreshes, and what the engine is
    /// told is on screen (which orders its reads, never whether they stay fresh).
    const KINDS: &'static [Kind] = &[];

    /// The tab's table, kept in a field named `table`: the one accessor the defaults
    /// below read it through ([`Tab`](super::Tab)'s match reaches the field itself to
    /// change it). Its natural column widths are the table's too (`TableView::natural`).
    fn table(&self) -> &TableView;

    /// The table's columns as the app shows them now.
    fn columns(app: &App) -> Vec<Column>;
    /// The cells of row `i` (an index into the tab's rows); empty when there is none.
    fn cells(app: &App, i: usize) -> Vec<CellText>;
    /// Where the rows come from, for a tab the ui draws as a plain list (its title's
    /// count and freshness, and what it says instead of rows). The tabs with a pane of
    /// their own in the ui say it there.
    fn listing(_app: &App) -> Option<Listing> {
        None
    }

    /// `s`: the next sort.
    fn cycle_sort(_cx: &mut Cx<'_>) {}
    /// `S`: the sort the other way round.
    fn reverse_sort(&mut self) {}
    /// The rows in their new order after `s` or `S`.
    fn resort(_cx: &mut Cx<'_>) {}
    /// Enter: the selected row's detail, or where it leads.
    fn open(_cx: &mut Cx<'_>) {}

    /// `r`: the tab's data, now.
    fn refresh(cx: &mut Cx<'_>) {
        if !Self::KINDS.is_empty() {
            cx.out.push(Command::Refresh(Self::KINDS.to_vec()));
        }
    }
    /// What the tab shows, for the engine: its kinds, its lists, the cells of the rows
    /// on screen ([`on_screen`]) and the selection's reads.
    fn focus(&self, focus: &mut Focus) {
        on_screen(Self::KINDS, self.table(), focus);
    }
    /// Reads what the selection shows but was never asked for.
    fn fetch_for_selection(_cx: &mut Cx<'_>) {}
    /// Brings the rows up to date with the data (after every batch of messages, for the
    /// tab on screen).
    fn sync(_cx: &mut Cx<'_>) {}
    /// The service the selection shows, for the history's questions.
    fn selected_service(&self) -> Option<u64> {
        None
    }
    /// The `proxydash` subcommand that reads what `r` reads here, for the palette.
    fn command() -> Option<&'static str> {
        None
    }
}

/// Where a plain list tab's rows come from (see [`TabPane::listing`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// What the rows are, in the plural: `clients`.
    pub noun: &'static str,
    pub freshness: Freshness,
    /// Whether the list was ever answered (an empty answer is "No clients.").
    pub loaded: Option<usize>,
    /// The last failure in words, when there is nothing to show.
    pub failed: Option<String>,
}

impl Listing {
    /// The listing of a list read by `request`.
    pub fn of<T>(
        app: &App,
        noun: &'static str,
        remote: Answer<'_, Vec<T>>,
        request: &Request,
    ) -> Self {
        let failed = match remote {
            Answer::Failed { error, .. } if remote.value().is_none() => {
                Some(failure(request, error, app))
            }
            _ => None,
        };
        Self {
            noun,
            freshness: remote.freshness(),
            loaded: remote.value().map(Vec::len),
            failed,
        }
    }
}

fn failure(request: &Request, error: &ApiError, app: &App) -> String {
    crate::app::status::error_line(request, error, &app.settings().profile)
}

/// What a table of `kinds` shows, for the engine: the kinds whole, the lists among them,
/// and the cells of the rows on screen (a row's ID is its service's): each visible
/// service's network lists where the tab shows them, its rate where it shows that.
pub fn on_screen(kinds: &[Kind], table: &TableView, focus: &mut Focus) {
    focus.kinds = kinds.to_vec();
    for kind in kinds {
        match kind {
            Kind::Services => focus.requests.push(Request::Services),
            Kind::Credit => focus.requests.push(Request::Credit),
            Kind::Invoices => focus.requests.push(Request::Invoices),
            Kind::Clients => focus.requests.push(Request::Clients),
            Kind::Network => focus.rows.extend(
                table
                    .on_screen()
                    .flat_map(|id| [Request::NetworkErrors(id), Request::NetworkInactive(id)]),
            ),
            Kind::Rate => focus.rows.extend(table.on_screen().map(Request::Rate)),
            _ => {}
        }
    }
}
