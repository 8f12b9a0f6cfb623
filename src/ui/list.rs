//! A tab drawn as a plain list: the pane a tab gets when the ui has no pane of its own
//! for it, from what the tab says of itself (its columns, cells and
//! [`Listing`](crate::app::tabs::Listing)): a new tab needs no file here.

use super::columns;
use super::layout;
use super::theme::Theme;
use super::widgets;
use crate::app::App;
use crate::app::Freshness;
use crate::app::table::TableView;
use crate::app::tabs::{Listing, Tab};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect, tab: Tab) {
    let pane = layout::list(body);
    let view = app.table(tab);
    let listing = app.tab_listing(tab);
    let (loaded, freshness) = listing
        .as_ref()
        .map_or((true, Freshness::NotRequested), |l| {
            (l.loaded.is_some(), l.freshness)
        });
    let block = widgets::pane(
        theme,
        widgets::counted(tab.title(), loaded, view),
        widgets::freshness(app, theme, freshness),
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
        (&app.tab_columns(tab), app.tab_natural(tab)),
        view,
        |i| app.tab_cells(tab, i),
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
