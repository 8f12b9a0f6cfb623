//! Enter on a client (the Clients tab): the client's card. Their ID and e-mail, and what
//! this session did for them: the orders placed (the new service, its invoice and
//! amount), on their way, or whose outcome is in doubt ([`crate::app::orders`]; the
//! server's services name no client, so this is the only place that says which service
//! was ordered for whom). `y` copies the e-mail. Its look is here too ([`ClientCard::render`]).

use super::{PopupPane, Reply};
use crate::app::PopupKind;
use crate::app::data::TabData;
use crate::app::keymap::steps::PopupInfo;
use crate::app::keymap::steps::step_key;
use crate::app::keymap::{Action, k};
use crate::app::look::theme::Theme;
use crate::app::look::{self, widgets};
use crate::app::orders::{Check, ClientOrders};
use crate::app::{Command, Cx};
use crate::text;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// The client of this ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientCard(pub u64);

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "client",
    keys: &[step_key(
        &[k('y')],
        Action::Copy,
        Some("copy e-mail"),
        "Copy the client's e-mail address",
    )],
    item_of: None,
};

impl PopupPane for ClientCard {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        if action != Action::Copy {
            return Reply::Ignored;
        }
        let id = self.0;
        let email = cx
            .account
            .store
            .clients_answer()
            .value()
            .and_then(|list| list.iter().find(|c| c.id == id))
            .map(|c| c.email.trim().to_owned())
            .filter(|e| !e.is_empty());
        match email {
            Some(text) => cx.out.push(Command::Copy {
                what: format!("E-mail of client {id}"),
                text,
            }),
            None => cx.shell.notify(format!(
                "Client {id} has no e-mail listed: nothing was copied"
            )),
        }
        Reply::Taken
    }
}

/// The widest the card is drawn.
const WIDEST: u16 = 104;

/// The most orders shown (the rest are counted).
const MAX_ORDERS: usize = 8;

impl ClientCard {
    /// Draws the card over `body`.
    pub fn render(&self, frame: &mut Frame, body: Rect, data: &TabData<'_>, theme: &Theme) {
        let id = self.0;
        let clients = data.store.clients_answer();
        let client = clients
            .value()
            .and_then(|list| list.iter().find(|c| c.id == id));
        let email = match client {
            Some(c) => text::or_missing(&text::sanitize(&c.email)).into_owned(),
            None if clients.value().is_some() => "not listed any more".to_owned(),
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
            widgets::section(theme, "Orders this session"),
        ];
        let orders = data.orders.for_client(id);
        if orders.is_empty() {
            lines.push(Line::from(Span::styled(
                "  None yet: orders for this client (o on Products) are listed here.",
                theme.dim,
            )));
        } else {
            // As many as the screen holds (at most MAX_ORDERS) beside the card's other
            // lines: its frame, the three above, the count of the rest, the two below.
            let mut room = usize::from(body.height).saturating_sub(2 + 3 + 1 + 2);
            let each = order_lines(data, theme, &orders);
            let total = each.len();
            let mut shown = 0;
            for order in each.into_iter().take(MAX_ORDERS) {
                if order.len() > room {
                    break;
                }
                room -= order.len();
                lines.extend(order);
                shown += 1;
            }
            let more = total - shown;
            if more > 0 {
                lines.push(Line::from(Span::styled(
                    format!("  … and {} more", text::count(more as u64)),
                    theme.dim,
                )));
            }
        }
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(
            "  y copies the e-mail · Esc closes",
            theme.dim,
        )));
        // Wider than the other viewers where the screen allows: an order's line is long.
        let area = look::centered(
            body,
            body.width.saturating_sub(4).clamp(76, WIDEST),
            lines.len() as u16 + 2,
        );
        frame.render_widget(Clear, area);
        let block = widgets::pane(
            theme,
            widgets::of_account(data, format!("Client {id} · {email}")),
            widgets::freshness_of(
                data,
                theme,
                clients.freshness(),
                crate::account::Kind::Clients,
            ),
        );
        frame.render_widget(
            Paragraph::new(widgets::fitted(lines, area.width.saturating_sub(2))).block(block),
            area,
        );
    }
}

/// The orders, each as its lines: those on their way and in doubt first (a line each),
/// then those placed (a line, and one for the invoice and IP).
fn order_lines<'a>(
    data: &TabData<'_>,
    theme: &Theme,
    orders: &ClientOrders<'_>,
) -> Vec<Vec<Line<'a>>> {
    let at = |t| Span::styled(format!("  {}  ", widgets::clock_time(data, t)), theme.dim);
    let mut out = Vec::new();
    for a in &orders.in_flight {
        out.push(vec![Line::from(vec![
            at(a.sent),
            Span::styled("on its way  ", theme.warn),
            Span::raw(product(a.product_id, &a.product_name)),
        ])]);
    }
    for d in &orders.doubts {
        let what = product(d.attempt.product_id, &d.attempt.product_name);
        out.push(vec![Line::from(vec![
            at(d.attempt.sent),
            Span::styled("in doubt  ", theme.bad),
            Span::raw(format!("{what} · {}", check(&d.check))),
        ])]);
    }
    for p in &orders.placed {
        let r = &p.result;
        let mut lines = vec![Line::from(vec![
            at(p.at),
            Span::styled(format!("service {}  ", r.service_id), theme.good),
            Span::raw(product(p.product_id, &p.product_name)),
            Span::raw(format!("  {}", text::money(r.amount))),
        ])];
        // The invoice and the IP under it, so an 80-column card cuts neither.
        let mut more = Vec::new();
        if let Some(invoice) = r.invoice_id {
            more.push(format!("invoice {invoice}"));
        }
        if let Some(ip) = r.ip.as_deref().map(str::trim).filter(|ip| !ip.is_empty()) {
            more.push(format!("IP {}", text::sanitize(ip)));
        }
        if !more.is_empty() {
            let indent = " ".repeat(widgets::clock_time(data, p.at).chars().count() + 4);
            lines.push(Line::from(Span::styled(
                format!("{indent}{}", more.join(" · ")),
                theme.dim,
            )));
        }
        out.push(lines);
    }
    out
}

/// What the check of an order in doubt found, in a few words.
fn check(check: &Check) -> String {
    match check {
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
    }
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
