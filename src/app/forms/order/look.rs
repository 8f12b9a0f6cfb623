//! The order form: the product, the credit before and after, the client picker and (fpr)
//! the IP field; then the confirmation; then the result.

use super::{OrderField, OrderForm, done_message};
use crate::api::{Client, ProductType, Response};
use crate::app::Answer;
use crate::app::forms::look::{
    LABEL, draw_field, draw_message, framed, inline_error, row, rows_from, state_line, value_line,
};
use crate::app::forms::{FormData, FormState};
use crate::app::look::theme::Theme;
use crate::app::look::widgets;
use crate::text::{self, MISSING};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Client rows the picker shows at once.
const PICKER_ROWS: usize = 5;

/// What a placed order's answer says.
pub(super) fn ordered(answer: &Response) -> String {
    match answer {
        Response::Order(r) => done_message(r),
        _ => String::new(),
    }
}

/// The popup's frame, its title saying the step: the inside, to draw the step in.
pub(super) fn framed_for(
    form: &OrderForm,
    frame: &mut Frame,
    body: Rect,
    data: &FormData<'_>,
    theme: &Theme,
) -> Rect {
    let title = match form.core.state {
        FormState::Confirming | FormState::Submitting => {
            format!("Order product {} · confirm", form.product_id)
        }
        _ => format!("Order product {}", form.product_id),
    };
    // Room for the doubt's lines and the product ID field.
    let h = if data.orders.doubt(form.product_id).is_some() {
        25
    } else {
        20
    };
    framed(frame, data, theme, body, (70, h), title)
}

pub(super) fn product_type(data: &FormData<'_>, form: &OrderForm) -> Option<ProductType> {
    data.store
        .product_answer(form.product_id)
        .value()
        .map(|p| p.product_type.clone())
}

/// `$250.00 → $238.00 after this order`, or why it cannot be said.
pub(super) fn credit_span(data: &FormData<'_>, theme: &Theme, price: f64) -> Span<'static> {
    let credit = data.store.credit_answer();
    match credit.value() {
        // A price the server did not send (NaN, see `text::format`): no "after" to work out.
        Some(c) if price.is_nan() => Span::styled(
            format!("{} (the price is unknown)", text::money(c.credit)),
            theme.warn,
        ),
        Some(c) if c.credit + 0.005 < price => Span::styled(
            format!(
                "{} (short of the price by {})",
                text::money(c.credit),
                text::money(price - c.credit)
            ),
            theme.warn,
        ),
        Some(c) => Span::raw(format!(
            "{} → {} after this order",
            text::money(c.credit),
            text::money(c.credit - price)
        )),
        None if credit.is_loading() => Span::styled("loading…", theme.dim),
        None => Span::styled("unknown", theme.dim),
    }
}

/// The price, or that the server sent none (never `$0.00` for a missing one).
pub(super) fn price_text(price: f64) -> String {
    if price.is_nan() {
        "price unknown".to_owned()
    } else {
        text::money(price)
    }
}

fn product_line(data: &FormData<'_>, theme: &Theme, form: &OrderForm) -> Line<'static> {
    let kind = match product_type(data, form) {
        Some(t) => t.label(),
        None if data.store.product_answer(form.product_id).error().is_some() => {
            "type unknown".to_owned()
        }
        None => "type loading…".to_owned(),
    };
    value_line(
        theme,
        "Product",
        Span::raw(format!(
            "{} · {kind} · {}",
            text::or_missing(&form.product_name),
            price_text(form.price)
        )),
    )
}

pub(super) fn draw_editing(
    frame: &mut Frame,
    data: &FormData<'_>,
    theme: &Theme,
    area: Rect,
    form: &OrderForm,
) {
    let typing = form.core.state.is_editable();
    frame.render_widget(
        Paragraph::new(widgets::fitted(
            vec![
                product_line(data, theme, form),
                value_line(theme, "Credit", credit_span(data, theme, form.price)),
            ],
            area.width,
        )),
        area,
    );
    draw_field(
        frame,
        theme,
        row(area, 3),
        "Client",
        &form.client_filter,
        form.focus == OrderField::Client,
        typing,
    );
    let picker = picker_lines(data, theme, form);
    let picker_area = Rect {
        height: (PICKER_ROWS + 1) as u16,
        ..row(area, 4)
    };
    frame.render_widget(Paragraph::new(picker), picker_area.intersection(area));
    let ip_row = 4 + PICKER_ROWS as u16 + 2;
    draw_ip(frame, data, theme, (area, ip_row), form);
    if form.discard_asked {
        let msg = "Esc again throws away what was typed; any other key keeps editing.";
        draw_message(frame, rows_from(area, ip_row + 3), msg, theme.warn);
    } else if let Some((msg, style)) = state_line(theme, &form.core.state, "", ordered) {
        draw_message(frame, rows_from(area, ip_row + 3), &msg, style);
    }
}

/// The IP field of an fpr product (with its inline error or what it is for), or why
/// there is none.
fn draw_ip(
    frame: &mut Frame,
    data: &FormData<'_>,
    theme: &Theme,
    (area, at): (Rect, u16),
    form: &OrderForm,
) {
    let typing = form.core.state.is_editable();
    match product_type(data, form) {
        Some(ProductType::Fpr) => {
            draw_field(
                frame,
                theme,
                row(area, at),
                "Bind IP",
                &form.setip,
                form.focus == OrderField::SetIp,
                typing,
            );
            let below = match &form.ip_error {
                Some(_) => inline_error(theme, form.ip_error.as_deref()),
                None => Line::from(Span::styled(
                    format!(
                        "{:w$}optional: an IPv4 to bind to the new service",
                        "",
                        w = LABEL + 3
                    ),
                    theme.dim,
                )),
            };
            frame.render_widget(Paragraph::new(below), row(area, at + 1));
        }
        Some(_) => frame.render_widget(
            Paragraph::new(value_line(
                theme,
                " Bind IP",
                Span::styled("— (only static products bind an IP)", theme.dim),
            )),
            row(area, at),
        ),
        None => {
            let why = if data.store.product_answer(form.product_id).error().is_some() {
                "— (the product's type could not be read)"
            } else {
                "waiting for the product's type…"
            };
            frame.render_widget(
                Paragraph::new(value_line(theme, " Bind IP", Span::styled(why, theme.dim))),
                row(area, at),
            )
        }
    }
}

/// The count or the error under the client field, then the matching clients around the
/// chosen one.
fn picker_lines(data: &FormData<'_>, theme: &Theme, form: &OrderForm) -> Vec<Line<'static>> {
    let indent = " ".repeat(LABEL + 3);
    let answer = data.store.clients_answer();
    let clients: &[Client] = match answer {
        Answer::Failed { error, .. } if answer.value().is_none() => {
            let line = crate::app::status::error_line(
                &crate::api::Request::Clients,
                error,
                &data.settings.profile,
            );
            return vec![Line::from(vec![
                Span::raw(indent),
                Span::styled(format!("✗ {line}"), theme.bad),
            ])];
        }
        r => match r.value() {
            Some(list) => list,
            None => {
                return vec![Line::from(vec![
                    Span::raw(indent),
                    Span::styled("Loading clients…", theme.dim),
                ])];
            }
        },
    };
    let matching = form.matching(clients);
    let head = match &form.client_error {
        Some(e) => inline_error(theme, Some(e)),
        None => Line::from(Span::styled(
            format!(
                "{indent}{} of {} clients · type to filter, ↑↓ to choose",
                matching.len(),
                clients.len()
            ),
            theme.dim,
        )),
    };
    let mut lines = vec![head];
    let first = form
        .client_pos
        .saturating_sub(PICKER_ROWS - 1)
        .min(matching.len().saturating_sub(PICKER_ROWS));
    for (i, c) in matching.iter().enumerate().skip(first).take(PICKER_ROWS) {
        let chosen = i == form.client_pos;
        let marker = if chosen { "▶ " } else { "  " };
        let style = if chosen { theme.selected } else { theme.base };
        lines.push(Line::from(vec![
            Span::raw(" ".repeat(LABEL + 1)),
            Span::styled(
                format!("{marker}{:<6} {}", c.id, text::or_missing(&c.email)),
                style,
            ),
        ]));
    }
    lines
}

pub(super) fn draw_done(frame: &mut Frame, theme: &Theme, area: Rect, form: &OrderForm) {
    let Some(r) = form.result() else {
        return;
    };
    let ip =
        r.ip.as_deref()
            .filter(|ip| !ip.is_empty())
            .map_or_else(|| MISSING.to_owned(), |ip| text::sanitize(ip).into_owned());
    let lines = vec![
        Line::from(Span::styled(
            format!("✓ Ordered {}", text::or_missing(&form.product_name)),
            theme.good,
        )),
        Line::from(""),
        value_line(
            theme,
            "Service",
            Span::styled(r.service_id.to_string(), theme.title),
        ),
        value_line(theme, "Order", Span::raw(text::id(r.order_id))),
        value_line(theme, "Invoice", Span::raw(text::id(r.invoice_id))),
        value_line(theme, "Amount", Span::raw(text::money(r.amount))),
        value_line(theme, "IP", Span::raw(ip)),
        Line::from(""),
        Line::from(Span::styled(
            "Services, credit and invoices are being refreshed.",
            theme.dim,
        )),
    ];
    frame.render_widget(Paragraph::new(widgets::fitted(lines, area.width)), area);
}
