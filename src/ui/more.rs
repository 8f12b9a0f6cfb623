//! What Enter opens on Services and Products: the detail the pane shows, and what only
//! other tabs know about the same item (so the popup is worth opening).
//!
//! - A service: its detail, then its proxy servers in error or inactive (from the network
//!   status), its rate against its limit (ppr), and its invoices (those naming its ID).
//! - A product: its detail, then the account's services of that product. The services
//!   list names the product but not its ID, so they are matched by name.
//!
//! Lists are cut to the popup's height with `… and N more`.

use super::theme::Theme;
use super::{billing, columns, layout, products, services, text, widgets};
use crate::app::App;
use crate::app::tabs::services::{proxies_cell, status_tone};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// The service popup: the detail (two columns) above what the other tabs know.
pub fn draw_service(frame: &mut Frame, app: &App, theme: &Theme, body: Rect, id: u64) {
    let mut extra = vec![section(theme, "Proxy servers")];
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
        extra.push(Line::from(Span::styled(
            format!("  {}", proxies.text),
            columns::style(theme, proxies.tone),
        )));
    } else {
        extra.extend(capped(theme, servers, 6));
    }
    if let Some(rate) = app.usage().rate_of(id).value().and_then(|v| v.first()) {
        let (_, label, over) = super::usage::rate_gauge(rate);
        extra.push(section(theme, &format!("Usage ({})", super::usage::UNIT)));
        let style = if over { theme.bad } else { theme.base };
        extra.push(Line::from(Span::styled(format!("  {label}"), style)));
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
    extra.push(section(theme, "Invoices"));
    if invoices.is_empty() {
        extra.push(Line::from(Span::styled(
            "  none naming this service",
            theme.dim,
        )));
    } else {
        extra.extend(capped(theme, invoices, 5));
    }
    let area = popup_area(body, 9 + extra.len() as u16);
    let [detail, rest] = Layout::vertical([Constraint::Length(9), Constraint::Min(0)]).areas(area);
    frame.render_widget(Clear, area);
    services::draw_detail(frame, app, theme, detail, id);
    draw_rest(frame, theme, rest, extra);
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
