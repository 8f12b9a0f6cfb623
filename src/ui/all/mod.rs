//! The dashboard over several accounts: the top line naming each account with its
//! connection state, and the All view (one tab's rows of every account, merged), drawn
//! from what the desk prepared ([`Accounts`], [`AllScreen`]). The desk, above, gathers the
//! accounts and their merged rows and calls this once; this reads each account's
//! [`App`] for its part and never calls back up.

mod lines;

pub use lines::{Account, Accounts, draw_account_line, link_words};

use super::layout;
use super::theme::Theme;
use crate::app::App;
use crate::app::geometry::Geometry;
use crate::app::keymap;
use crate::app::tabs::{Merged, Rows};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Span;
use ratatui::widgets::Paragraph;

/// What the All view shows, prepared by the desk: the tab's merged rows, and whose keys
/// and popups are on screen.
pub struct AllScreen<'a> {
    pub merged: Merged<'a>,
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
    All(AllScreen<'a>),
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
            draw_account_line(frame, accounts, theme, top);
            if let Some(account) = accounts.list.get(*k) {
                super::draw_in(account.app, frame, theme, rest, view);
            }
        }
        Shown::All(all) => {
            draw_account_line(frame, accounts, theme, top);
            draw(frame, accounts, all, theme, rest, view);
        }
    }
}

/// Where the All view's table of `merged`'s tab goes in `area` (as `app`, the first
/// account, lays it out), or `None` on a screen too small: the desk works out the rows it
/// shows from this before it draws.
pub fn table_pane(app: &App, area: Rect, merged: &Merged) -> Option<layout::Pane> {
    let body = layout::screen(area)?.body;
    Some(app.tab_areas(merged.tab, body, &Rows::Merged(merged)).table)
}

/// The All view in `area`: the tab the first account draws over every account's rows;
/// what the popups open over it measure goes into `view`.
pub fn draw(
    frame: &mut Frame,
    accounts: &Accounts,
    all: &AllScreen,
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
    let tab = all.merged.tab;
    lines::draw_tabs(frame, accounts, tab, theme, screen.tabs);
    lines::draw_info(frame, accounts, theme, screen.info);
    if let Some(first) = accounts.list.first() {
        let rows = Rows::Merged(&all.merged);
        first
            .app
            .render_tab((tab, &rows), frame, screen.body, theme);
    }
    lines::draw_status(frame, accounts, theme, screen.status);
    match all.over.and_then(|k| accounts.list.get(k)) {
        Some(account) => {
            super::draw_footer(frame, account.app, theme, screen.footer);
            for i in 0..account.app.popups().len() {
                super::popups::draw(frame, account.app, theme, screen.body, i, view);
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
