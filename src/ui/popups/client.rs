//! A client's card (Enter on the Clients tab): the e-mail and ID, then what this session
//! did for the client, newest first: the orders placed (time, new service, product,
//! amount, invoice, IP), those on their way and those in doubt, cut with `… and N more`.

use super::viewer::{capped, section};
use crate::app::App;
use crate::app::orders::{Check, ClientOrders};
use crate::ui::theme::Theme;
use crate::ui::{text, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// The widest the card is drawn.
const WIDEST: u16 = 104;

/// The most lines of orders shown (the rest are counted).
const MAX_ORDERS: usize = 12;

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect, id: u64) {
    let client = app
        .clients()
        .value()
        .and_then(|list| list.iter().find(|c| c.id == id));
    let email = match client {
        Some(c) => text::or_missing(&text::sanitize(&c.email)).into_owned(),
        None if app.clients().value().is_some() => "not listed any more".to_owned(),
        None => "loading…".to_owned(),
    };
    let mut lines = vec![
        Line::from(vec![
            Span::styled("  E-mail  ", theme.dim),
            Span::raw(email.clone()),
        ]),
        Line::from(vec![
            Span::styled("  ID      ", theme.dim),
            Span::raw(id.to_string()),
        ]),
        section(theme, "Orders this session"),
    ];
    let orders = app.orders().for_client(id);
    if orders.is_empty() {
        lines.push(Line::from(Span::styled(
            "  None yet: orders for this client (o on Products) are listed here.",
            theme.dim,
        )));
    } else {
        lines.extend(capped(theme, order_lines(app, theme, &orders), MAX_ORDERS));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "  y copies the e-mail · Esc closes",
        theme.dim,
    )));
    // Wider than the other viewers where the screen allows: an order's line is long.
    let area = crate::ui::layout::centered(
        body,
        body.width.saturating_sub(4).clamp(76, WIDEST),
        lines.len() as u16 + 2,
    );
    frame.render_widget(Clear, area);
    let block = widgets::pane(
        theme,
        format!("Client {id} · {email}"),
        widgets::freshness(app, theme, app.clients().freshness()),
    );
    frame.render_widget(
        Paragraph::new(widgets::fitted(lines, area.width.saturating_sub(2))).block(block),
        area,
    );
}

/// One line per order: those on their way and in doubt first, then those placed.
fn order_lines<'a>(app: &App, theme: &Theme, orders: &ClientOrders<'_>) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    for a in &orders.in_flight {
        lines.push(Line::from(vec![
            Span::styled(
                format!("  {}  ", widgets::clock_time(app, a.sent)),
                theme.dim,
            ),
            Span::styled("on its way  ", theme.warn),
            Span::raw(product(a.product_id, &a.product_name)),
        ]));
    }
    for d in &orders.doubts {
        let check = match &d.check {
            Check::Checking { .. } => "checking whether it went through".to_owned(),
            Check::Found { services, .. } if services.is_empty() => {
                "went through (a new invoice)".to_owned()
            }
            Check::Found { services, .. } => format!(
                "went through: service {}",
                services
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Check::NotFound => "most likely not placed".to_owned(),
            Check::Unknown(why) => format!("cannot tell: {}", text::sanitize(why)),
        };
        lines.push(Line::from(vec![
            Span::styled(
                format!("  {}  ", widgets::clock_time(app, d.attempt.sent)),
                theme.dim,
            ),
            Span::styled("in doubt  ", theme.bad),
            Span::raw(format!(
                "{} · {check}",
                product(d.attempt.product_id, &d.attempt.product_name)
            )),
        ]));
    }
    for p in &orders.placed {
        let r = &p.result;
        let mut spans = vec![
            Span::styled(format!("  {}  ", widgets::clock_time(app, p.at)), theme.dim),
            Span::styled(format!("service {:<6} ", r.service_id), theme.good),
            Span::raw(product(p.product_id, &p.product_name)),
            Span::raw(format!("  {}", text::money(r.amount))),
        ];
        if let Some(invoice) = r.invoice_id {
            spans.push(Span::styled(format!("  invoice {invoice}"), theme.dim));
        }
        if let Some(ip) = r.ip.as_deref().map(str::trim).filter(|ip| !ip.is_empty()) {
            spans.push(Span::styled(
                format!("  IP {}", text::sanitize(ip)),
                theme.dim,
            ));
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// `product 5 Static US 25`, or its ID alone when its name is not known.
fn product(id: u64, name: &str) -> String {
    let name = text::sanitize(name.trim());
    if name.is_empty() {
        format!("product {id}")
    } else {
        format!("product {id} {name}")
    }
}
