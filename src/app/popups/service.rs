//! Enter on a service (Services, Network, Alerts, `#` on Services): its full detail (every
//! field, the username and "in error since" that the pane may not hold), then its proxy
//! servers in error or inactive (from the network status), its rate against its limit
//! (ppr), its invoices (those naming its ID) and its recent events ([`super::events`]).
//! One column that scrolls with `j`/`k`/`PgUp`/`PgDn` when it is taller than the screen,
//! so it can hold every field; lists are cut with `… and N more`. The writes on a service
//! (`b`, `p`, `u`, `i`, `h`, `x`) and `v` take it from here as from its row (its info's
//! `item_of`). Its look is here too ([`ServiceViewer::render`]).

use super::viewer::{capped, popup_area, section};
use super::{PopupPane, Reply, scroll};
use crate::app::PopupKind;
use crate::app::Tab;
use crate::app::columns::Tone;
use crate::app::keymap::Action;
use crate::app::keymap::steps::PopupInfo;
use crate::app::keymap::steps::{MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP};
use crate::app::look::theme::Theme;
use crate::app::look::{columns, widgets};
use crate::app::tabs::services::{look as services, proxies_cell};
use crate::app::tabs::usage::look as usage;
use crate::app::{App, Cx};
use crate::text;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// The service of this ID, and how far it is scrolled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceViewer {
    pub id: u64,
    /// Lines scrolled down by; 0 when it opens. How far it can scroll only the drawing
    /// knows (its lines and the screen): it measures that into the view's state
    /// ([`crate::app::geometry::Geometry::service_last`]), so `j` stops at the end
    /// instead of counting past it.
    pub scroll: usize,
}

impl ServiceViewer {
    pub fn new(id: u64) -> Self {
        Self { id, scroll: 0 }
    }
}

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "service",
    keys: &[MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP],
    item_of: Some(Tab::Services),
};

impl PopupPane for ServiceViewer {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        if action == Action::TogglePassword {
            // The Services tab's `v`, whichever tab the viewer opened over.
            cx.tabs.pane_mut(Tab::Services).toggle(action);
            return Reply::Taken;
        }
        let last = usize::from(cx.shell.geometry.service_last);
        scroll(&mut self.scroll, action, cx, last)
    }
}

impl ServiceViewer {
    /// Its look: every line of what the account knows of the service, scrolled as far as
    /// its lines and the screen allow. Returns how far it can scroll on this screen (the
    /// viewer stops `j` there: the ui keeps it in the view's geometry).
    pub fn render(&self, frame: &mut Frame, body: Rect, app: &App, theme: &Theme) -> u16 {
        let id = self.id;
        let width = usize::from(body.width.min(76).saturating_sub(2));
        let mut lines: Vec<Line> = match app.services().detail(id).value() {
            Some(s) => {
                let data = app.tab_data();
                let mut d = services::detail_lines(s, app.services().show_password, theme);
                services::note_this_machine(&data, theme, s, &mut d);
                d.extend(services::history_lines(&data, theme, id, width));
                d
            }
            None => vec![Line::from(Span::styled("Loading the service…", theme.dim))],
        };
        lines.push(section(theme, "Proxy servers"));
        lines.extend(server_lines(app, theme, id));
        if let Some(rate) = app.store().rate(id).and_then(|v| v.first()) {
            let (_, label, over) = usage::rate_gauge(rate);
            lines.push(section(theme, &format!("Usage ({})", usage::UNIT)));
            let style = if over { theme.bad } else { theme.base };
            lines.push(Line::from(Span::styled(format!("  {label}"), style)));
        }
        lines.push(section(theme, "Invoices"));
        lines.extend(invoice_lines(app, theme, id));
        lines.push(section(theme, "Recent events"));
        lines.extend(super::events::service_events(app, theme, id));
        let area = popup_area(body, lines.len() as u16);
        let inner_height = area.height.saturating_sub(2);
        // Scrolled at most to where the last line is at the bottom.
        let last = (lines.len() as u16).saturating_sub(inner_height);
        let scroll = u16::try_from(self.scroll).unwrap_or(u16::MAX).min(last);
        let mut title = format!("Service {id}");
        if last > 0 {
            title.push_str(&format!(" · {}/{} · j/k scroll", scroll + 1, last + 1));
        }
        let block = widgets::pane(
            theme,
            widgets::of_account(app, title),
            widgets::freshness(app, theme, app.services().detail(id).freshness()),
        );
        frame.render_widget(Clear, area);
        frame.render_widget(
            Paragraph::new(widgets::fitted(lines, area.width.saturating_sub(2)))
                .block(block)
                .scroll((scroll, 0)),
            area,
        );
        last
    }
}

/// The service's proxy servers in error, then inactive; or, with none listed, what its
/// row's Proxies cell says.
fn server_lines(app: &App, theme: &Theme, id: u64) -> Vec<Line<'static>> {
    let store = app.store();
    let swept = app
        .services()
        .get(id)
        .is_none_or(|s| crate::app::is_swept(&s.status));
    let mut servers: Vec<Line> = Vec::new();
    for (errors, mark, style) in [
        (true, "✗ error   ", theme.bad),
        (false, "○ inactive", theme.warn),
    ] {
        if let Some(list) = store.network(id, errors) {
            servers.extend(list.iter().map(|ip| {
                Line::from(vec![
                    Span::styled(format!("  {mark} "), style),
                    Span::raw(text::sanitize(ip).into_owned()),
                ])
            }));
        }
    }
    if servers.is_empty() {
        let proxies = proxies_cell(store, id, swept);
        return vec![Line::from(Span::styled(
            format!("  {}", proxies.text),
            columns::style(theme, proxies.tone),
        ))];
    }
    capped(theme, servers, 6)
}

/// The invoices naming the service.
fn invoice_lines(app: &App, theme: &Theme, id: u64) -> Vec<Line<'static>> {
    let invoices: Vec<Line> = app
        .billing()
        .rows()
        .iter()
        .filter(|i| i.service_id == Some(id))
        .map(|i| {
            Line::from(vec![
                Span::raw(format!("  #{:<8} ", i.id)),
                Span::styled(
                    format!("{:<16}", text::sanitize(i.status.as_str())),
                    columns::style(theme, Tone::of_invoice(&i.status)),
                ),
                Span::raw(format!("{:>12}  ", text::money(i.amount))),
                Span::styled(text::date(i.created_at), theme.dim),
            ])
        })
        .collect();
    if invoices.is_empty() {
        return vec![Line::from(Span::styled(
            "  none naming this service",
            theme.dim,
        ))];
    }
    capped(theme, invoices, 5)
}
