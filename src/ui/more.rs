//! What Enter opens on Services and Products: the detail the pane shows, and what only
//! other tabs know about the same item (so the popup is worth opening).
//!
//! - A service: its detail, then its proxy servers in error or inactive (from the network
//!   status), its rate against its limit (ppr), and its invoices (those naming its ID).
//! - A product: its detail, then the account's services of that product. The services
//!   list names the product but not its ID, so they are matched by name.
//!
//! Lists are cut with `… and N more`. The service popup is one column that scrolls, so
//! it can hold every field and the service's recent events (`super::events`).

use super::theme::Theme;
use super::{billing, columns, layout, products, services, text, widgets};
use crate::app::App;
use crate::app::tabs::services::{proxies_cell, status_tone};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// The service popup: the whole detail (every field, the username and "in error since"
/// that the pane may not hold), what the other tabs know, and the service's recent
/// events; one column that scrolls (`j`/`k`) when it is longer than the screen.
pub fn draw_service(frame: &mut Frame, app: &App, theme: &Theme, body: Rect, id: u64) {
    let width = usize::from(body.width.min(76).saturating_sub(2));
    let mut lines: Vec<Line> = match app.services().detail(id).value() {
        Some(s) => {
            let mut d = services::detail_lines(s, app.services().show_password, theme);
            services::note_this_machine(app, theme, s, &mut d);
            d.extend(super::history::detail_lines(app, theme, id, width));
            d
        }
        None => vec![Line::from(Span::styled("Loading the service…", theme.dim))],
    };
    lines.push(section(theme, "Proxy servers"));
    let net = app.network();
    let swept = app
        .services()
        .get(id)
        .is_none_or(|s| crate::app::is_swept(&s.status));
    let proxies = proxies_cell(net, id, swept);
    let mut servers: Vec<Line> = Vec::new();
    for (map, mark, style) in [
        (&net.errors, "✗ error   ", theme.bad),
        (&net.inactive, "○ inactive", theme.warn),
    ] {
        if let Some(list) = map.get(&id).and_then(|r| r.value()) {
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
    if let Some(rate) = app.usage().rate_of(id).value().and_then(|v| v.first()) {
        let (_, label, over) = super::usage::rate_gauge(rate);
        lines.push(section(theme, &format!("Usage ({})", super::usage::UNIT)));
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
    lines.extend(super::events::service_events(app, theme, id));
    let area = popup_area(body, lines.len() as u16);
    let inner_height = area.height.saturating_sub(2);
    // Scrolled at most to where the last line is at the bottom.
    let last = (lines.len() as u16).saturating_sub(inner_height);
    let scroll = app.services().popup_scroll.min(last);
    app.services().popup_last.set(last);
    let mut title = format!("Service {id}");
    if last > 0 {
        title.push_str(&format!(" · {}/{} · j/k scroll", scroll + 1, last + 1));
    }
    let block = widgets::pane(
        theme,
        title,
        widgets::freshness(app, theme, app.services().detail(id).freshness()),
    );
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(widgets::fitted(lines, area.width.saturating_sub(2)))
            .block(block)
            .scroll((scroll, 0)),
        area,
    );
}

/// The product popup: the detail above the account's services of that product.
pub fn draw_product(frame: &mut Frame, app: &App, theme: &Theme, body: Rect, id: u64) {
    let name = app
        .products()
        .rows()
        .iter()
        .find(|p| p.product_id == id)
        .map(|p| p.product_name.clone())
        .or_else(|| {
            app.products()
                .detail(id)
                .value()
                .and_then(|p| p.product_name.clone())
        })
        .unwrap_or_default();
    let mut extra = vec![section(theme, "Your services of this product")];
    let mine: Vec<Line> = app
        .services()
        .rows()
        .iter()
        .filter(|s| !name.is_empty() && s.product_name == name)
        .map(|s| {
            Line::from(vec![
                Span::raw(format!("  {:<8} ", s.service_id)),
                Span::styled(
                    format!("{:<12}", text::sanitize(s.status.as_str())),
                    columns::style(theme, status_tone(&s.status)),
                ),
                Span::styled(format!("next due {}", text::date(s.nextduedate)), theme.dim),
            ])
        })
        .collect();
    if mine.is_empty() {
        extra.push(Line::from(Span::styled("  none", theme.dim)));
    } else {
        extra.extend(capped(theme, mine, 8));
    }
    extra.push(Line::from(Span::styled(
        "  o orders this product",
        theme.dim,
    )));
    let area = popup_area(body, 6 + extra.len() as u16);
    let [detail, rest] = Layout::vertical([Constraint::Length(6), Constraint::Min(0)]).areas(area);
    frame.render_widget(Clear, area);
    products::draw_detail(frame, app, theme, detail, id);
    draw_rest(frame, theme, rest, extra);
}

/// A popup as wide as an 80-column screen allows and `h` high at most.
fn popup_area(body: Rect, h: u16) -> Rect {
    layout::centered(body, 76, h.saturating_add(2))
}

fn section(theme: &Theme, title: &str) -> Line<'static> {
    Line::from(Span::styled(title.to_owned(), theme.title))
}

/// At most `max` lines, the rest counted.
fn capped<'a>(theme: &Theme, mut lines: Vec<Line<'a>>, max: usize) -> Vec<Line<'a>> {
    if lines.len() > max {
        let more = lines.len() - (max - 1);
        lines.truncate(max - 1);
        lines.push(Line::from(Span::styled(
            format!("  … and {} more", text::count(more as u64)),
            theme.dim,
        )));
    }
    lines
}

fn draw_rest(frame: &mut Frame, theme: &Theme, area: Rect, lines: Vec<Line>) {
    let block = widgets::pane(theme, "From the other tabs".into(), Span::raw(""));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
