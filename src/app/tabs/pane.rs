//! [`TabPane`]: what a tab is to the dashboard. Each tab's file implements it for its
//! state: its table, its rows as words (what is drawn and searched), its look
//! (the `draw_…` methods, in one frame: [`super::frame`]), its keys (`s`, `S`, Enter) and what it shows, for the engine's
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
use crate::app::history::HistoryState;
use crate::app::keymap::Action;
use crate::app::look::columns;
pub use crate::app::look::pane::{Areas, Fit, Pane};
use crate::app::look::theme::Theme;
use crate::app::table::TableView;
use crate::app::{AppSettings, Command, Popup, RefreshGroup, Shell, Tab};
use chrono::{DateTime, NaiveDate, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Block;

/// A tab's look: the parts of the one frame every tab is drawn in (`super::frame`), over
/// one account's rows or the All view's merge of several. Each part has a default, so a
/// plain list tab is its table alone (the Clients tab is); a tab with a look of its own
/// implements it in its `look.rs`.
pub trait TabLook {
    /// How the tab shares its body, for one account: what its table wants, its detail's
    /// mode, whether the detail has history lines.
    fn fit(&self, _data: &TabData<'_>) -> Fit {
        Fit::default()
    }
    /// The tab's areas in `body`: its table, and what it draws above or beside it.
    fn areas(&self, body: Rect, _fit: Fit) -> Areas {
        Areas::list(body)
    }
    /// Instead of everything, when the tab has nothing to show at all (Usage on an account
    /// without ppr services): what it says in its whole body.
    fn nothing_to_show(&self, _props: &Props<'_>) -> Option<(String, Style)> {
        None
    }
    /// The title of the table over one account's rows, and what it says instead of rows;
    /// `None`: a plain list's, from its [`TabPane::listing`].
    fn heading(&self, _props: &Props<'_>) -> Option<Heading> {
        None
    }
    /// Draws the rows in `pane` inside `block` when the tab draws its own (Alerts); `false`:
    /// the frame draws its columns and cells.
    fn own_rows(
        &self,
        _frame: &mut Frame,
        _pane: Pane,
        _block: &Block<'_>,
        _props: &Props<'_>,
    ) -> bool {
        false
    }
    /// What goes above the table (Billing's credit and money ahead, Network's summary): of
    /// one account, or of every account of the All view.
    fn draw_above(&self, _frame: &mut Frame, _areas: &Areas, _props: &Props<'_>, _rows: &Rows) {}
    /// The detail of row `id` (none selected: the empty pane), drawn by the row's account.
    fn draw_detail(
        &self,
        _frame: &mut Frame,
        _areas: &Areas,
        _props: &Props<'_>,
        _id: Option<u64>,
    ) {
    }
    /// What the All view calls the tab's merged table (its title by default).
    fn merged_noun(&self) -> Option<&'static str> {
        None
    }
    /// Words the All view's title adds after the noun, from every account's tab (Alerts:
    /// what is open, acknowledged, silenced).
    fn merged_words(&self, _members: &[Member<'_>]) -> String {
        String::new()
    }
}

/// See the module docs.
pub trait TabPane: TabLook {
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
    /// Where the rows come from, for a tab drawn as a plain list (its title's count and
    /// freshness, and what it says instead of rows): [`TabLook::heading`]'s default.
    fn listing(&self, _data: &TabData<'_>) -> Option<Listing> {
        None
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
    /// A key of the tab's own (Usage's `←`, `→` and `t`, Alerts' `a` and `u`): whether the
    /// tab took it.
    fn key(&mut self, _action: Action, _cx: &mut TabCx<'_>) -> bool {
        false
    }

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

/// The title of a tab's table over one account's rows (see [`TabPane::heading`]).
pub struct Heading {
    pub title: String,
    /// On the right of the top edge: how fresh the rows are.
    pub fresh: ratatui::text::Span<'static>,
    /// On the bottom edge: what the server sent that could not be read.
    pub skipped: Option<String>,
    /// What the pane says instead of rows (loading, the failure, none, nothing matching).
    pub instead: Option<(String, Style)>,
    /// The explanation takes the whole pane (it wraps), not the header line.
    pub wraps: bool,
}

impl Heading {
    pub fn new(title: String, fresh: ratatui::text::Span<'static>) -> Self {
        Self {
            title,
            fresh,
            skipped: None,
            instead: None,
            wraps: false,
        }
    }
}

/// Whose rows a tab draws: one account's (its own table), or the All view's merge of
/// several, each row with its account.
pub enum Rows<'a> {
    One,
    Merged(&'a Merged<'a>),
}

impl Rows<'_> {
    /// How `tab` shares its body over these rows: its own fit over one account's, the All
    /// view's over the merge.
    pub fn fit<T: TabLook + ?Sized>(&self, tab: &T, data: &TabData<'_>) -> Fit {
        match self {
            Rows::One => tab.fit(data),
            Rows::Merged(merged) => merged.fit(),
        }
    }
}

/// The All view's rows of one tab, as the desk merged them: the table with the cells of
/// the rows drawn, and every account (each row names its own).
pub struct Merged<'a> {
    pub tab: Tab,
    pub table: &'a TableView,
    pub columns: Vec<Column>,
    pub natural: &'a [u16],
    /// The cells of the rows drawn: those of `table.visible(rows of the table's pane)`,
    /// in order.
    pub cells: Vec<Vec<CellText>>,
    /// The sort across accounts, said in the title (Services).
    pub sort: Option<String>,
    pub members: Vec<Member<'a>>,
    /// The selected row: its account (an index into `members`) and its ID.
    pub selected: Option<(usize, u64)>,
}

impl Merged<'_> {
    /// The All view's fit: its own table's width, the detail shown, no history lines.
    pub fn fit(&self) -> Fit {
        Fit {
            wants: columns::table_width(self.natural),
            ..Fit::default()
        }
    }
}

/// An account of the All view, as its tab draws it.
pub struct Member<'a> {
    pub name: &'a str,
    /// Its colour's place in the theme's account colours.
    pub colour: u8,
    pub tabs: &'a super::Tabs,
    pub data: TabData<'a>,
    /// Since when it does not answer (its rows are the last it gave).
    pub no_answer_since: Option<DateTime<Utc>>,
    /// Reads on their way.
    pub in_flight: usize,
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
    history: &'a HistoryState,
    out: &'a mut Vec<Command>,
    intents: &'a mut Vec<Intent>,
}

impl<'a> TabCx<'a> {
    pub(in crate::app) fn new(
        (shell, store, history): (&'a mut Shell, &'a mut Store, &'a HistoryState),
        out: &'a mut Vec<Command>,
        intents: &'a mut Vec<Intent>,
    ) -> Self {
        Self {
            shell,
            store,
            history,
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

    /// The offset times on screen are shown in.
    pub fn offset(&self) -> chrono::FixedOffset {
        self.shell.utc_offset
    }

    /// What the history store answered, read-only.
    pub fn history(&self) -> &HistoryState {
        self.history
    }

    /// A line on the status line (and in the message log).
    pub fn notify(&mut self, kind: crate::app::status::NoticeKind, line: String) {
        self.shell.status.notify(kind, line);
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
