//! [`TabPane`]: what a tab is to the dashboard. Each tab's file implements it for its
//! state: its table, its rows as words (what is drawn and searched), its look
//! ([`TabPane::render`]), its keys (`s`, `S`, Enter) and what it shows, for the engine's
//! order. Everything but the table and the rows has a default ("nothing to do"; the look,
//! a plain list), so a plain list tab says only what is its own.
//!
//! A tab gets its own state (`&self`, `&mut self`) and nothing of another tab's: it reads
//! the account's data through [`TabData`] (the store, the probes, the countdowns, the
//! history, the time) and acts through [`TabCx`] (reads to send, a popup to open, an
//! [`Intent`] the app carries out after the call, such as showing another tab with a row
//! selected). The app asks the tab on screen through [`Tab`](super::Tab)'s methods, in
//! `tabs/mod.rs`, each through `Tabs::pane` (a `&dyn TabPane`).

use crate::account::store::Store;
use crate::account::{Answer, Freshness};
use crate::account::{Focus, Kind};
use crate::api::{ApiError, Request};
use crate::app::columns::{CellText, Column};
pub use crate::app::data::TabData;
use crate::app::keymap::Action;
use crate::app::look::pane::Pane;
use crate::app::look::theme::Theme;
use crate::app::look::{columns, widgets};
use crate::app::table::TableView;
use crate::app::{AppSettings, Command, Popup, RefreshGroup, Shell, Tab};
use chrono::{DateTime, NaiveDate, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;

/// See the module docs.
pub trait TabPane {
    /// The kinds of data the tab shows whole: what `r` refreshes, and what the engine is
    /// told is on screen (which orders its reads, never whether they stay fresh).
    fn kinds(&self) -> &'static [Kind] {
        &[]
    }

    /// The tab's table: what the defaults below read (its natural column widths are the
    /// table's too, `TableView::natural`), and what the keys that move, filter and
    /// scroll change.
    fn table(&self) -> &TableView;
    fn table_mut(&mut self) -> &mut TableView;

    /// The table's columns as the app shows them now.
    fn columns(&self, data: &TabData<'_>) -> Vec<Column>;
    /// The cells of row `i` (an index into the tab's rows); empty when there is none.
    fn cells(&self, data: &TabData<'_>, i: usize) -> Vec<CellText>;
    /// Where the rows come from, for a tab the ui draws as a plain list (its title's
    /// count and freshness, and what it says instead of rows). The tabs with a pane of
    /// their own in the ui say it there.
    fn listing(&self, _data: &TabData<'_>) -> Option<Listing> {
        None
    }
    /// Draws the tab in `area` (the body under the tab line): a plain list from its
    /// columns, cells and [`listing`](TabPane::listing) unless the tab has a look of its
    /// own.
    fn render(&self, frame: &mut Frame, area: Rect, props: &Props<'_>) {
        plain_list(self, frame, area, props);
    }

    /// `s`: the next sort.
    fn cycle_sort(&mut self, _cx: &mut TabCx<'_>) {}
    /// `S`: the sort the other way round.
    fn reverse_sort(&mut self) {}
    /// The rows in their new order after `s` or `S`.
    fn resort(&mut self, _cx: &mut TabCx<'_>) {}
    /// Enter: the selected row's detail, or where it leads.
    fn open(&mut self, _cx: &mut TabCx<'_>) {}
    /// A key that changes only how the tab shows its rows (`z` the detail pane, `v` the
    /// password on Services); one it has no use for does nothing.
    fn toggle(&mut self, _action: Action) {}

    /// `r`: the tab's data, now.
    fn refresh(&mut self, cx: &mut TabCx<'_>) {
        if !self.kinds().is_empty() {
            cx.send(Command::Refresh(self.kinds().to_vec()));
        }
    }
    /// What the tab shows, for the engine: its kinds, its lists, the cells of the rows
    /// on screen ([`on_screen`]) and the selection's reads.
    fn focus(&self, focus: &mut Focus) {
        on_screen(self.kinds(), self.table(), focus);
    }
    /// Reads what the selection shows but was never asked for.
    fn fetch_for_selection(&mut self, _cx: &mut TabCx<'_>) {}
    /// Brings the rows up to date with the data (after every batch of messages, for the
    /// tab on screen).
    fn sync(&mut self, _cx: &mut TabCx<'_>) {}
    /// The service the selection shows, for the history's questions.
    fn selected_service(&self) -> Option<u64> {
        None
    }
    /// The `proxydash` subcommand that reads what `r` reads here, for the palette.
    fn command(&self) -> Option<&'static str> {
        None
    }
}

/// What a tab is drawn with: its data, the colours, and its title (its [`Tab`]'s name).
#[derive(Clone, Copy)]
pub struct Props<'a> {
    pub data: &'a TabData<'a>,
    pub theme: &'a Theme,
    pub title: &'static str,
}

/// What a tab asks of the rest of the dashboard, carried out by the app once the tab's
/// call returned (a tab cannot reach another tab's state itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Show `tab` with the row `id` selected (clearing a filter or `!` that hides it).
    GoTo(Tab, u64),
    /// Show `tab` as it is.
    Show(Tab),
    /// The tab's order changed: its rows, which read other tabs' data, are built again.
    Rebuild(Tab),
    /// Read a group of data now, with what the app shows of it.
    Refresh(RefreshGroup),
    /// This machine's public IP, looked up once (the tab shows an address to compare
    /// with it).
    LookUpMyIp,
}

/// A tab's context for its keys and its upkeep: the shell's time and settings, the
/// account's data to read, and what the tab sends out (reads, commands, popups,
/// [`Intent`]s). It holds no tab.
pub struct TabCx<'a> {
    shell: &'a mut Shell,
    store: &'a mut Store,
    out: &'a mut Vec<Command>,
    intents: &'a mut Vec<Intent>,
}

impl<'a> TabCx<'a> {
    pub(in crate::app) fn new(
        shell: &'a mut Shell,
        store: &'a mut Store,
        out: &'a mut Vec<Command>,
        intents: &'a mut Vec<Intent>,
    ) -> Self {
        Self {
            shell,
            store,
            out,
            intents,
        }
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.shell.now()
    }

    pub fn today(&self) -> NaiveDate {
        self.shell.today()
    }

    pub fn settings(&self) -> &AppSettings {
        self.shell.settings()
    }

    /// The account's answers, read-only (a read is asked through [`TabCx::fetch`]).
    pub fn store(&self) -> &Store {
        self.store
    }

    /// Whether data that arrived at `at` (or never) is due again.
    pub fn is_due(&self, at: Option<DateTime<Utc>>, failed: bool) -> bool {
        self.shell.is_due(at, failed)
    }

    /// Asks the engine for `request` (a one-off) unless it is already in flight, and marks
    /// it loading (as `Cx::fetch`).
    pub fn fetch(&mut self, request: Request) {
        if self.store.ask(&request, self.shell.now()) {
            self.out.push(Command::Fetch(request));
        }
    }

    pub fn send(&mut self, command: Command) {
        self.out.push(command);
    }

    pub fn open_popup(&mut self, popup: Popup) {
        self.shell.popups.push(popup);
    }

    /// See [`Intent`].
    pub fn intend(&mut self, intent: Intent) {
        self.intents.push(intent);
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
        data: &TabData<'_>,
        noun: &'static str,
        remote: Answer<'_, Vec<T>>,
        request: &Request,
    ) -> Self {
        let failed = match remote {
            Answer::Failed { error, .. } if remote.value().is_none() => {
                Some(failure(request, error, data))
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

fn failure(request: &Request, error: &ApiError, data: &TabData<'_>) -> String {
    crate::app::status::error_line(request, error, &data.settings.profile)
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

/// A tab over the account's answers: the tab holds what it shows (its table, its sort),
/// the store what the server said; the rows a view reads are the store's (see
/// [`super::services::ServicesView`]). Derefs to the tab.
pub struct TabView<'a, T> {
    pub tab: &'a T,
    pub store: &'a Store,
}

impl<T> Clone for TabView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for TabView<'_, T> {}

impl<T> std::ops::Deref for TabView<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.tab
    }
}

/// [`TabPane::render`]'s default, so a list tab is its file alone (the Clients tab
/// is): `tab` drawn as a bordered list with its count, freshness and filter in the title.
fn plain_list<P: TabPane + ?Sized>(tab: &P, frame: &mut Frame, body: Rect, props: &Props<'_>) {
    let (data, theme) = (props.data, props.theme);
    let pane = Pane::with_header(body);
    let view = tab.table();
    let listing = tab.listing(data);
    let (loaded, freshness) = listing
        .as_ref()
        .map_or((true, Freshness::NotRequested), |l| {
            (l.loaded.is_some(), l.freshness)
        });
    let block = widgets::pane(
        theme,
        widgets::counted(props.title, loaded, view),
        widgets::freshness(data, theme, freshness),
    );
    let block = widgets::with_filter(block, view, theme);
    if let Some((msg, style)) = placeholder(theme, listing.as_ref(), view) {
        frame.render_widget(block, pane.block);
        widgets::message(frame, pane.header(), &msg, style);
        return;
    }
    columns::draw(
        frame,
        theme,
        pane,
        block,
        (&tab.columns(data), view.natural()),
        view,
        |i| tab.cells(data, i),
    );
}

/// What the pane says instead of rows: nothing asked yet, loading, the failure, none, or
/// nothing matching the filter.
fn placeholder(
    theme: &Theme,
    listing: Option<&Listing>,
    view: &TableView,
) -> Option<(String, Style)> {
    let listing = listing?;
    let noun = listing.noun;
    match (&listing.failed, listing.loaded) {
        (Some(failed), None) => Some((failed.clone(), theme.bad)),
        (None, None) if listing.freshness == Freshness::NotRequested => {
            Some((String::new(), theme.dim))
        }
        (_, None) => Some((format!("Loading {noun}…"), theme.dim)),
        (_, Some(0)) => Some((format!("No {noun}."), theme.dim)),
        (_, Some(_)) if view.is_empty() => Some(widgets::no_match(theme, view, noun)),
        (_, Some(_)) => None,
    }
}
