//! The one frame every tab is drawn in, over one account's rows or the All view's merge
//! of several ([`Rows`]): the tab's areas, what goes above its table, the table pane
//! (title, freshness, filter, what it says instead of rows, the rows) and the selected
//! row's detail, drawn by the row's own account. A tab supplies the parts
//! ([`TabLook`]'s `fit`, `areas`, `heading`, `draw_rows`, `draw_above`, `draw_detail`);
//! the frame is written once, here.

use super::pane::{Heading, Listing, Member, Merged, Props, Rows, TabPane};
use super::{Areas, Tab};
use crate::account::Freshness;
use crate::app::App;
use crate::app::look::pane::Pane;
use crate::app::look::theme::Theme;
use crate::app::look::{columns, widgets};
use crate::app::table::TableView;
use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::Block;

/// Draws `tab` in `body` over `rows`.
pub fn draw(tab: &dyn TabPane, frame: &mut Frame, body: Rect, props: &Props<'_>, rows: &Rows) {
    let theme = props.theme;
    if let (Rows::One, Some((msg, style))) = (rows, tab.nothing_to_show(props)) {
        let block = widgets::pane(theme, props.title.into(), Span::raw(""));
        let inner = block.inner(body);
        frame.render_widget(block, body);
        widgets::message(frame, inner, &msg, style);
        return;
    }
    let areas = tab.areas(body, rows.fit(tab, props.data));
    tab.draw_above(frame, &areas, props, rows);
    match rows {
        Rows::One => {
            let heading = tab.heading(props).unwrap_or_else(|| listed(tab, props));
            let table = tab.table();
            if let Some(block) = table_pane(frame, areas.table, heading, table, props)
                && !tab.own_rows(frame, areas.table, &block, props)
            {
                let (data, columns) = (props.data, tab.columns(props.data));
                let columns = (columns.as_slice(), table.natural());
                let cells = |i| tab.cells(data, i);
                columns::draw(frame, theme, areas.table, block, columns, table, cells);
            }
            tab.draw_detail(frame, &areas, props, table.selected_id());
        }
        Rows::Merged(merged) => {
            merged_table(tab, frame, areas.table, props, merged);
            // The selected row's detail, as its own account shows it.
            let member = merged
                .selected
                .and_then(|(k, id)| Some((merged.members.get(k)?, id)));
            if let Some((member, id)) = member {
                let props = Props {
                    data: &member.data,
                    ..*props
                };
                let pane = member.tabs.pane(merged.tab);
                pane.draw_detail(frame, &areas, &props, Some(id));
            }
        }
    }
}

/// How the app draws its tabs in the frame.
impl App {
    /// Draws `tab` in `area` over `rows` (this account's, or the All view's merge), in the
    /// one frame of every tab (this module).
    pub fn render_tab(
        &self,
        (tab, rows): (Tab, &Rows),
        frame: &mut Frame,
        area: Rect,
        theme: &Theme,
    ) {
        let data = self.tab_data();
        let props = Props {
            data: &data,
            theme,
            title: tab.title(),
        };
        draw(self.tabs.pane(tab), frame, area, &props, rows);
    }

    /// `tab`'s areas in `body` over `rows` (the frame's, for the layout's measures).
    pub fn tab_areas(&self, tab: Tab, body: Rect, rows: &Rows) -> Areas {
        let pane = self.tabs.pane(tab);
        pane.areas(body, rows.fit(pane, &self.tab_data()))
    }

    /// This account as a member of the All view, named `name` in its `colour`.
    pub fn as_member<'a>(&'a self, name: &'a str, colour: u8) -> Member<'a> {
        Member {
            name,
            colour,
            tabs: &self.tabs,
            data: self.tab_data(),
            no_answer_since: self.no_answer_since(),
            in_flight: self.in_flight(),
        }
    }
}

/// An empty pane titled `noun`: a detail while no row is selected.
pub fn empty(frame: &mut Frame, props: &Props<'_>, area: Rect, noun: &str) {
    frame.render_widget(widgets::pane(props.theme, noun.into(), Span::raw("")), area);
}

/// The table's block with its `heading` drawn in `pane`; the block to draw the rows in,
/// or `None` when the pane says why there are none (it is drawn then).
fn table_pane<'a>(
    frame: &mut Frame,
    pane: Pane,
    heading: Heading,
    table: &TableView,
    props: &Props<'_>,
) -> Option<Block<'a>> {
    let theme = props.theme;
    let block = widgets::pane(theme, heading.title, heading.fresh);
    let block = widgets::with_filter(block, table, theme);
    let block = widgets::with_skipped(block, heading.skipped, theme);
    let Some((msg, style)) = heading.instead else {
        return Some(block);
    };
    frame.render_widget(block, pane.block);
    let area = if heading.wraps {
        pane.block.inner(Margin::new(1, 1))
    } else {
        pane.header()
    };
    widgets::message(frame, area, &msg, style);
    None
}

/// The All view's table: the merged rows with their account first, titled for every
/// account (and naming an account that does not answer).
fn merged_table(
    tab: &dyn TabPane,
    frame: &mut Frame,
    pane: Pane,
    props: &Props<'_>,
    merged: &Merged<'_>,
) {
    let (theme, table) = (props.theme, merged.table);
    let noun = tab.merged_noun().unwrap_or(props.title);
    let mut title = format!("{noun} · all accounts · ");
    let words = tab.merged_words(&merged.members);
    if !words.is_empty() {
        title.push_str(&format!("{words} · "));
    }
    title.push_str(&widgets::count_label(table));
    if let Some(sort) = &merged.sort {
        title.push_str(" · ");
        title.push_str(sort);
    }
    if table.problems_only() {
        title.push_str(" · problems only (!)");
    }
    // An account that does not answer: its rows are the last it gave, said so here as one
    // account's pane says its age.
    let stale: Vec<String> = (merged.members.iter())
        .filter_map(|m| {
            let since = m.no_answer_since?;
            let at = widgets::clock_time(&m.data, since);
            Some(format!("{} ✗ no answer since {at}", m.name))
        })
        .collect();
    let mut heading = Heading::new(title, Span::styled(stale.join(" · "), theme.bad));
    if table.is_empty() {
        heading.instead = Some(if table.total() == 0 {
            let loading = merged.members.iter().any(|m| m.in_flight > 0);
            let word = if loading {
                "Loading…"
            } else {
                "Nothing here."
            };
            (word.to_owned(), theme.dim)
        } else {
            widgets::no_match(theme, table, "rows")
        });
    }
    let Some(block) = table_pane(frame, pane, heading, table, props) else {
        return;
    };
    // The desk made the cells of the rows this pane shows, in order.
    let (_, visible) = table.visible(usize::from(pane.rows.height));
    let cells = |i: usize| {
        let at = visible.iter().position(|&r| r == i);
        at.and_then(|k| merged.cells.get(k).cloned())
            .unwrap_or_default()
    };
    let columns = (merged.columns.as_slice(), merged.natural);
    columns::draw(frame, theme, pane, block, columns, table, cells);
}

/// A plain list's heading (see [`TabLook::heading`]): its count, freshness and what it says
/// instead of rows, from its [`Listing`].
fn listed(tab: &dyn TabPane, props: &Props<'_>) -> Heading {
    let (data, theme) = (props.data, props.theme);
    let view = tab.table();
    let listing = tab.listing(data);
    let (loaded, freshness) = listing
        .as_ref()
        .map_or((true, Freshness::NotRequested), |l| {
            (l.loaded.is_some(), l.freshness)
        });
    let mut heading = Heading::new(
        widgets::counted(props.title, loaded, view),
        widgets::freshness(data, theme, freshness),
    );
    heading.instead = placeholder(props, listing.as_ref(), view);
    heading
}

/// What a plain list says instead of rows: nothing asked yet, loading, the failure, none,
/// or nothing matching the filter.
fn placeholder(
    props: &Props<'_>,
    listing: Option<&Listing>,
    view: &TableView,
) -> Option<(String, Style)> {
    let theme = props.theme;
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
