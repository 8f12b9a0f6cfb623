//! Where everything goes, as pure functions of the screen size. The views draw into these
//! areas, and the draw writes the same areas into the view's state ([`geometry`], passed
//! `&mut` to [`super::draw_in`]), by which the app pages its tables and hit-tests mouse
//! clicks, so a click lands on the row that is drawn there.

use crate::app::App;
use crate::app::geometry::Geometry;
use crate::app::tabs::{Rows, Tab};
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
    let (number, title) = (tab.number(), tab.title());
    match open_alerts {
        0 => format!(" {number} {title} "),
        _ if tab != Tab::Alerts => format!(" {number} {title} "),
        1..=99 => format!(" {number} {title} {open_alerts} "),
        100.. => format!(" {number} {title} 99+ "),
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

/// The data rows of `tab`'s table on a screen of `area`, as `app` lays the tab out (its
/// table's width, its detail pane's mode, the history's lines).
pub fn table_rows(app: &App, tab: Tab, area: Rect) -> Option<Rect> {
    let body = screen(area)?.body;
    Some(app.tab_areas(tab, body, &Rows::One).table.rows)
}

/// The IP-list view and the probe's (the look kit's: the probe's view draws itself).
pub use crate::app::look::pane::{iplist_lines, iplist_view};

/// A popup of at most `w`×`h`, centred in `area` (the look kit's, which the components
/// draw with).
pub use crate::app::look::centered;

/// What the app needs to know of the layout of `app` on a screen of `area`: every tab's
/// table rows (the tab shown draws its table in these; the others page by them until
/// shown), the tab titles and the IP-list view's lines.
pub fn geometry(app: &App, area: Rect) -> Geometry {
    let rows = Tab::ALL.map(|tab| table_rows(app, tab, area));
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
