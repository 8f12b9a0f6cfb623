//! The dashboard over several accounts: the top line naming each account with its
//! connection state, and the All view (one tab's rows of every account, merged), drawn
//! from what the desk prepared ([`Accounts`], [`AllView`]). The desk, above, gathers the
//! accounts and their merged rows and calls this once; this reads each account's
//! [`App`] for its part and never calls back up.

mod lines;

pub use lines::{Account, Accounts, draw_accounts, link_words};

use super::theme::Theme;
use super::{columns, layout, widgets};
use crate::app::columns::{CellText, Column};
use crate::app::geometry::Geometry;
use crate::app::keymap;
use crate::app::table::TableView;
use crate::app::tabs::{DetailPane, Tab};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Span;
use ratatui::widgets::Paragraph;

/// What the All view shows, prepared by the desk: the tab, the merged table with the
/// cells of the rows it draws, the selected row's account and identity, and whose keys
/// and popups are on screen.
pub struct AllView<'a> {
    pub tab: Tab,
    pub table: &'a TableView,
    pub columns: Vec<Column>,
    pub natural: &'a [u16],
    /// The cells of the rows drawn: those of `table.visible(rows of`[`table_pane`]`)`, in
    /// order.
    pub cells: Vec<Vec<CellText>>,
    /// The sort across accounts, said in the title (Services).
    pub sort: Option<String>,
    /// The selected row: its account (an index into [`Accounts::list`]) and its ID.
    pub selected: Option<(usize, u64)>,
    /// The selected alert: its account and its place in that account's alerts.
    pub alert: Option<(usize, usize)>,
    /// The account whose popups are open over the view (its keys are the footer's).
    pub over: Option<usize>,
    /// The keys of the All view, for the footer when no popup is open.
    pub context: keymap::Context,
}

/// What the desk shows: its one account's screen as it is (no top line), one account of
/// several (below the top line), or the All view.
pub enum Shown<'a> {
    Alone,
    One(usize),
    All(AllView<'a>),
}

/// Where the screen of an account, or the All view, goes on a frame of `area` over
/// several accounts: below the top line.
pub fn below_top(area: Rect) -> Rect {
    let [_, rest] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    rest
}

/// The whole screen of the desk: what it `shown`, with the top line naming the accounts
/// when there are several. What the frame measures for the account shown (or whose
/// popups are open over All) goes into `view`.
pub fn draw_desk(
    frame: &mut Frame,
    accounts: &Accounts,
    shown: &Shown,
    theme: &Theme,
    view: &mut Geometry,
) {
    let area = frame.area();
    let rest = below_top(area);
    let top = Rect {
        height: area.height.min(1),
        ..area
    };
    match shown {
        Shown::Alone => {
            if let Some(account) = accounts.list.first() {
                super::draw_in(account.app, frame, theme, area, view);
            }
        }
        Shown::One(k) => {
            draw_accounts(frame, accounts, theme, top);
            if let Some(account) = accounts.list.get(*k) {
                super::draw_in(account.app, frame, theme, rest, view);
            }
        }
        Shown::All(all) => {
            draw_accounts(frame, accounts, theme, top);
            draw(frame, accounts, all, theme, rest, view);
        }
    }
}

/// Where the All view's table of `tab` goes in `area` (its natural width `wants`), or
/// `None` on a screen too small: the desk works out the rows it shows from this before
/// it draws.
pub fn table_pane(area: Rect, tab: Tab, wants: u16) -> Option<layout::Pane> {
    let body = layout::screen(area)?.body;
    Some(match tab {
        Tab::Services => layout::services(body, wants, false, DetailPane::Shown).0,
        Tab::Products => layout::products(body, wants, DetailPane::Shown).0,
        Tab::Billing => layout::billing(body).2,
        Tab::Network => layout::network(body).1,
        Tab::Usage => layout::usage(body, wants).0,
        Tab::Alerts => layout::alerts(body).0,
        // A tab the ui has no pane of its own for (unreachable while every tab has one).
        #[allow(unreachable_patterns)]
        _ => layout::list(body),
    })
}

/// The All view in `area`; what the popups open over it measure goes into `view`.
pub fn draw(
    frame: &mut Frame,
    accounts: &Accounts,
    all: &AllView,
    theme: &Theme,
    area: Rect,
    view: &mut Geometry,
) {
    let Some(screen) = layout::screen(area) else {
        frame.render_widget(
            Paragraph::new(Span::styled(super::TOO_SMALL, theme.warn)),
            area,
        );
        return;
    };
    lines::draw_tabs(frame, accounts, all.tab, theme, screen.tabs);
    lines::draw_info(frame, accounts, theme, screen.info);
    let body = screen.body;
    let wants = columns::table_width(all.natural);
    let app_of = |k: usize| accounts.list.get(k).map(|a| a.app);
    let selected = all.selected.and_then(|(k, id)| Some((app_of(k)?, id)));
    match all.tab {
        Tab::Services => {
            let (pane, detail) = layout::services(body, wants, false, DetailPane::Shown);
            draw_table(frame, accounts, all, theme, pane, "Services");
            if let Some((app, id)) = selected {
                crate::app::tabs::services::look::draw_detail(
                    frame,
                    app.services(),
                    &app.tab_data(),
                    theme,
                    detail,
                    id,
                );
            }
        }
        Tab::Products => {
            let (pane, detail) = layout::products(body, wants, DetailPane::Shown);
            let noun = "Products (each account's own prices)";
            draw_table(frame, accounts, all, theme, pane, noun);
            if let Some((app, id)) = selected {
                crate::app::tabs::products::look::draw_detail(
                    frame,
                    app.products(),
                    &app.tab_data(),
                    theme,
                    detail,
                    id,
                );
            }
        }
        Tab::Billing => {
            let (credit, ahead, pane) = layout::billing(body);
            lines::draw_credit(frame, accounts, theme, credit);
            let runways: Vec<_> = accounts
                .list
                .iter()
                .map(|a| (a.name.to_owned(), a.colour, a.app.runway()))
                .collect();
            crate::app::tabs::billing::ahead::draw_accounts(frame, theme, ahead, &runways);
            draw_table(frame, accounts, all, theme, pane, "Invoices");
        }
        Tab::Network => {
            let (summary, pane) = layout::network(body);
            lines::draw_network_summary(frame, accounts, theme, summary);
            let noun = "Proxy servers in error or inactive";
            draw_table(frame, accounts, all, theme, pane, noun);
        }
        Tab::Usage => {
            let (pane, chart, gauge) = layout::usage(body, wants);
            draw_table(frame, accounts, all, theme, pane, "Rotating (ppr)");
            if let Some((app, id)) = selected {
                crate::app::tabs::usage::look::draw_selected(
                    frame,
                    app.usage(),
                    &app.tab_data(),
                    theme,
                    (chart, gauge),
                    id,
                );
            }
        }
        Tab::Alerts => {
            let (pane, detail) = layout::alerts(body);
            draw_table(frame, accounts, all, theme, pane, "Alerts");
            if let Some((app, row)) = all.alert.and_then(|(k, row)| Some((app_of(k)?, row))) {
                crate::app::tabs::alerts::look::draw_detail(
                    frame,
                    app.alerts(),
                    &app.tab_data(),
                    theme,
                    detail,
                    app.alerts().rows.get(row),
                );
            }
        }
        // A tab the ui has no pane of its own for (unreachable while every tab has one).
        #[allow(unreachable_patterns)]
        tab => draw_table(frame, accounts, all, theme, layout::list(body), tab.title()),
    }
    lines::draw_status(frame, accounts, theme, screen.status);
    match all.over.and_then(app_of) {
        Some(app) => {
            super::draw_footer(frame, app, theme, screen.footer);
            for i in 0..app.popups().len() {
                super::popups::draw(frame, app, theme, body, i, view);
            }
        }
        None => super::draw_footer_in(frame, &all.context, theme, screen.footer),
    }
}

pub(super) fn open_alerts(accounts: &Accounts) -> usize {
    accounts
        .list
        .iter()
        .map(|a| a.app.alerts().open_count())
        .sum()
}

fn draw_table(
    frame: &mut Frame,
    accounts: &Accounts,
    all: &AllView,
    theme: &Theme,
    pane: layout::Pane,
    noun: &str,
) {
    let table = all.table;
    let mut title = format!("{noun} · all accounts · ");
    // As in one account's view: what needs a person apart from what is being handled.
    if all.tab == Tab::Alerts {
        let mut counts = crate::app::tabs::alerts::Counts::default();
        for a in &accounts.list {
            counts += a.app.alerts().counts(a.app.now());
        }
        let words = counts.words();
        if !words.is_empty() {
            title.push_str(&format!("{words} · "));
        }
    }
    title.push_str(&widgets::count_label(table));
    if let Some(sort) = &all.sort {
        title.push_str(" · ");
        title.push_str(sort);
    }
    if table.problems_only() {
        title.push_str(" · problems only (!)");
    }
    // An account that does not answer: its rows are the last it gave, said so here as one
    // account's pane says its age.
    let stale: Vec<String> = accounts
        .list
        .iter()
        .filter_map(|a| {
            let since = a.app.no_answer_since()?;
            let at = widgets::clock_time(a.app, since);
            Some(format!("{} ✗ no answer since {at}", a.name))
        })
        .collect();
    let block = widgets::pane(theme, title, Span::styled(stale.join(" · "), theme.bad));
    let block = widgets::with_filter(block, table, theme);
    if table.is_empty() {
        frame.render_widget(block, pane.block);
        let (msg, style) = if table.total() == 0 {
            let loading = accounts.list.iter().any(|a| a.app.in_flight() > 0);
            let word = if loading {
                "Loading…"
            } else {
                "Nothing here."
            };
            (word.to_owned(), theme.dim)
        } else {
            widgets::no_match(theme, table, "rows")
        };
        widgets::message(frame, pane.header(), &msg, style);
        return;
    }
    // The desk made the cells of the rows this pane shows, in order.
    let (_, visible) = table.visible(usize::from(pane.rows.height));
    let cells = |i: usize| {
        let at = visible.iter().position(|&r| r == i);
        at.and_then(|k| all.cells.get(k).cloned())
            .unwrap_or_default()
    };
    columns::draw(
        frame,
        theme,
        pane,
        block,
        (&all.columns, all.natural),
        table,
        cells,
    );
}
