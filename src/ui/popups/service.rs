//! The service popup (Enter on a service): its detail, then its proxy servers in error
//! or inactive (from the network status), its rate against its limit (ppr), its invoices
//! (those naming its ID) and its recent events (`ui::events`). One column that scrolls,
//! so it can hold every field; lists are cut with `… and N more`.

use super::viewer::{capped, popup_area, section};
use crate::app::App;
use crate::app::popups::service::ServiceViewer;
use crate::app::tabs::billing::look as billing;
use crate::app::tabs::services::look as services;
use crate::app::tabs::services::proxies_cell;
use crate::ui::theme::Theme;
use crate::ui::{columns, text, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// The service popup: the whole detail (every field, the username and "in error since"
/// that the pane may not hold), what the other tabs know, and the service's recent
/// events; one column that scrolls (`j`/`k`) when it is longer than the screen. Returns
/// how far it can scroll on this screen (the popup stops `j` there).
pub fn draw(
    frame: &mut Frame,
    app: &App,
    theme: &Theme,
    body: Rect,
    viewer: &ServiceViewer,
) -> u16 {
    let id = viewer.id;
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
    let store = app.store();
    let swept = app
        .services()
        .get(id)
        .is_none_or(|s| crate::app::is_swept(&s.status));
    let proxies = proxies_cell(store, id, swept);
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
        lines.push(Line::from(Span::styled(
            format!("  {}", proxies.text),
            columns::style(theme, proxies.tone),
        )));
    } else {
        lines.extend(capped(theme, servers, 6));
    }
    if let Some(rate) = app.store().rate(id).and_then(|v| v.first()) {
        let (_, label, over) = crate::app::tabs::usage::look::rate_gauge(rate);
        lines.push(section(
            theme,
            &format!("Usage ({})", crate::app::tabs::usage::look::UNIT),
        ));
        let style = if over { theme.bad } else { theme.base };
        lines.push(Line::from(Span::styled(format!("  {label}"), style)));
    }
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
                    billing::status_style(&i.status, theme),
                ),
                Span::raw(format!("{:>12}  ", text::money(i.amount))),
                Span::styled(text::date(i.created_at), theme.dim),
            ])
        })
        .collect();
    lines.push(section(theme, "Invoices"));
    if invoices.is_empty() {
        lines.push(Line::from(Span::styled(
            "  none naming this service",
            theme.dim,
        )));
    } else {
        lines.extend(capped(theme, invoices, 5));
    }
    lines.push(section(theme, "Recent events"));
    lines.extend(crate::ui::events::service_events(app, theme, id));
    let area = popup_area(body, lines.len() as u16);
    let inner_height = area.height.saturating_sub(2);
    // Scrolled at most to where the last line is at the bottom.
    let last = (lines.len() as u16).saturating_sub(inner_height);
    let scroll = u16::try_from(viewer.scroll).unwrap_or(u16::MAX).min(last);
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
