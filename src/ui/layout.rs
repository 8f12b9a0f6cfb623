//! Where everything goes, as pure functions of the screen size. The views draw into these
//! areas, and the draw writes the same areas into the view's state ([`geometry`], passed
//! `&mut` to [`super::draw_in`]), by which the app pages its tables and hit-tests mouse
//! clicks, so a click lands on the row that is drawn there.

use crate::app::App;
use crate::app::geometry::Geometry;
use crate::app::tabs::{DetailPane, Tab};
use ratatui::layout::{Constraint, Layout, Rect};

/// Named here too: the dashboard over several accounts draws into `layout::Pane`.
pub use super::pane::Pane;

/// The smallest screen anything useful fits on: the tab line, one line of a table under
/// its header, the status and the footer. The layout is made for 80×24 and up; below it
/// what fits is drawn (narrower tables drop columns, a detail pane gives way to the list)
/// rather than refusing a 160×20 terminal.
pub const MIN_WIDTH: u16 = 40;
pub const MIN_HEIGHT: u16 = 8;

pub use crate::app::look::pane::WIDE;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Screen {
    /// App name and tab titles.
    pub tabs: Rect,
    /// Profile, host, DEMO badge, activity.
    pub info: Rect,
    pub body: Rect,
    pub status: Rect,
    pub footer: Rect,
}

/// The screen's areas, or `None` when it is smaller than [`MIN_WIDTH`]×[`MIN_HEIGHT`] (40×8).
pub fn screen(area: Rect) -> Option<Screen> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let [tabs, info, body, status, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    Some(Screen {
        tabs,
        info,
        body,
        status,
        footer,
    })
}

/// The app name at the start of the tab line.
pub const APP_TITLE: &str = " proxydash ";

/// A tab's title as drawn: ` 1 Services `; the Alerts tab adds how many are open
/// (` 6 Alerts 3 `, at most `99+`).
pub fn tab_title(tab: Tab, open_alerts: usize) -> String {
    match (tab, open_alerts) {
        (Tab::Alerts, 1..=99) => format!(" {} {} {open_alerts} ", tab.number(), tab.title()),
        (Tab::Alerts, 100..) => format!(" {} {} 99+ ", tab.number(), tab.title()),
        _ => format!(" {} {} ", tab.number(), tab.title()),
    }
}

/// How the tab line is laid out: whether the app name comes first, and the columns
/// between titles. Tried in order until it fits: name and a column between titles, the
/// name and no column (titles carry their own padding), then without the name.
fn tab_line(line: Rect, open_alerts: usize) -> (bool, u16) {
    let titles: usize = Tab::ALL
        .iter()
        .map(|t| tab_title(*t, open_alerts).chars().count())
        .sum();
    let name = APP_TITLE.chars().count() + 1;
    let gaps = Tab::ALL.len() - 1;
    let width = usize::from(line.width);
    [(true, 1u16), (true, 0), (false, 1), (false, 0)]
        .into_iter()
        .find(|(named, gap)| {
            usize::from(*named) * name + titles + gaps * usize::from(*gap) <= width
        })
        .unwrap_or((false, 0))
}

/// Whether the app name is drawn before the titles.
pub fn shows_app_title(line: Rect, open_alerts: usize) -> bool {
    tab_line(line, open_alerts).0
}

/// Each tab title's area on the tab line.
pub fn tab_titles(line: Rect, open_alerts: usize) -> Vec<(Tab, Rect)> {
    let (named, gap) = tab_line(line, open_alerts);
    let mut x = line.x;
    if named {
        x += APP_TITLE.chars().count() as u16 + 1;
    }
    let mut out = Vec::new();
    for tab in Tab::ALL {
        let w = tab_title(tab, open_alerts).chars().count() as u16;
        let r = Rect::new(x, line.y, w, 1).intersection(line);
        out.push((tab, r));
        x = x.saturating_add(w + gap);
    }
    out
}

pub use crate::app::look::pane::table_and_detail;

/// Services: the table, and the selected service's detail (the tab's own).
pub use crate::app::tabs::services::look::areas as services;

/// Products: the table, and the selected product's detail (the tab's own).
pub use crate::app::tabs::products::look::areas as products;

/// Billing: the credit, the money ahead and the invoices (the tab's own).
pub use crate::app::tabs::billing::look::areas as billing;

/// Network: the summary line above the table (the tab's own).
pub use crate::app::tabs::network::look::areas as network;

/// Usage: the list of ppr services, the chart and the gauge (the tab's own).
pub use crate::app::tabs::usage::look::areas as usage;

/// Alerts: the table, and the selected alert's whole message (the tab's own).
pub use crate::app::tabs::alerts::look::areas as alerts;

/// A tab drawn as a plain list (see [`super::list`]): the table takes the body.
pub fn list(body: Rect) -> Pane {
    Pane::with_header(body)
}

/// The data rows of a tab's main table on a screen of `area`, the table wanting `wants`
/// columns (see [`table_and_detail`]), with or without the `history` lines of a detail.
pub fn table_rows(
    tab: Tab,
    area: Rect,
    wants: u16,
    history: bool,
    mode: DetailPane,
) -> Option<Rect> {
    let body = screen(area)?.body;
    Some(match tab {
        Tab::Services => services(body, wants, history, mode).0.rows,
        Tab::Products => products(body, wants, mode).0.rows,
        Tab::Billing => billing(body).2.rows,
        Tab::Network => network(body).1.rows,
        Tab::Usage => usage(body, wants).0.rows,
        Tab::Alerts => alerts(body).0.rows,
        // A tab the ui has no pane of its own for (unreachable while every tab has one).
        #[allow(unreachable_patterns)]
        _ => list(body).rows,
    })
}

/// The IP-list view and the probe's (the look kit's: the probe's view draws itself).
pub use crate::app::look::pane::{iplist_lines, iplist_view};

/// A popup of at most `w`×`h`, centred in `area` (the look kit's, which the components
/// draw with).
pub use crate::app::look::centered;

/// The natural width of a tab's table (0 when it has no column spec): the layout puts a
/// detail pane beside it only when the table fits whole.
pub fn table_wants(app: &App, tab: Tab) -> u16 {
    match tab {
        Tab::Services | Tab::Products | Tab::Usage => {
            super::columns::table_width(app.tab_natural(tab))
        }
        _ => 0,
    }
}

/// The detail pane's mode of a tab (shown for the tabs without one).
pub fn detail_pane(app: &App, tab: Tab) -> DetailPane {
    match tab {
        Tab::Services => app.services().detail_pane,
        Tab::Products => app.products().detail_pane,
        _ => DetailPane::Shown,
    }
}

/// What the app needs to know of the layout of `app` on a screen of `area`: every tab's
/// table rows (the tab shown draws its table in these; the others page by them until
/// shown), the tab titles and the IP-list view's lines.
pub fn geometry(app: &App, area: Rect) -> Geometry {
    let history = app.history().is_on();
    let rows = Tab::ALL.map(|tab| {
        table_rows(
            tab,
            area,
            table_wants(app, tab),
            history,
            detail_pane(app, tab),
        )
    });
    match screen(area) {
        Some(s) => Geometry {
            rows,
            tabs: tab_titles(s.tabs, app.alerts().open_count()),
            iplist_lines: iplist_lines(s.body).height,
            service_last: 0,
        },
        None => Geometry::default(),
    }
}
