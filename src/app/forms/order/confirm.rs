//! The order form's confirmation step: what will be bought, for whom, at what cost, and
//! (after a lost answer) what the check of the order in doubt found.

use super::OrderForm;
use super::look::{credit_span, ordered, price_text, product_type};
use crate::app::forms::look::{draw_field, draw_message, row, rows_from, state_line, value_line};
use crate::app::forms::{FormData, FormState};
use crate::app::look::theme::Theme;
use crate::app::look::widgets;
use crate::app::orders::Check;
use crate::billing::Short;
use crate::text::{self, MISSING};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub(super) fn draw_confirm(
    frame: &mut Frame,
    data: &FormData<'_>,
    theme: &Theme,
    area: Rect,
    form: &OrderForm,
) {
    let mut lines = what(data, theme, form);
    lines.extend(warnings(data, theme, form));
    frame.render_widget(
        Paragraph::new(widgets::fitted(lines.clone(), area.width)),
        area,
    );
    draw_below(frame, data, theme, (area, lines.len() as u16), form);
}

/// What will be bought, for whom (on which account, beside others), and what it costs.
fn what(data: &FormData<'_>, theme: &Theme, form: &OrderForm) -> Vec<Line<'static>> {
    let (client, setip) = match &form.request {
        Some(crate::api::Request::Order { body, .. }) => (body.clientid, body.setip.clone()),
        _ => (0, None),
    };
    let email = form
        .chosen
        .as_ref()
        .map(|c| text::or_missing(&c.email).into_owned())
        .unwrap_or_else(|| MISSING.to_owned());
    let kind = product_type(data, form)
        .map(|t| format!(", {}", t.label()))
        .unwrap_or_default();
    let mut lines = vec![
        value_line(
            theme,
            "Buy",
            Span::styled(
                format!(
                    "{} (product {}{kind})",
                    text::or_missing(&form.product_name),
                    form.product_id
                ),
                theme.title,
            ),
        ),
        value_line(
            theme,
            "For",
            Span::raw(format!("{email} (client {client})")),
        ),
        value_line(
            theme,
            "Bind IP",
            Span::raw(
                setip.map_or_else(|| "none".to_owned(), |ip| text::sanitize(&ip).into_owned()),
            ),
        ),
        value_line(
            theme,
            "Price",
            Span::styled(price_text(form.price), theme.title),
        ),
        value_line(theme, "Credit", credit_span(data, theme, form.price)),
        value_line(theme, "Runway", runway_span(data, theme, form.price)),
        Line::from(""),
    ];
    if data.settings.among.accounts {
        // Beside other accounts, the one that pays is said before anything is sent.
        lines.insert(
            1,
            value_line(
                theme,
                "Account",
                Span::styled(
                    text::sanitize(&data.settings.profile).into_owned(),
                    theme.title,
                ),
            ),
        );
    }
    lines
}

/// What may go wrong, said before anything is sent: no price, a credit short of it, a
/// credit that already does not cover today, an order in doubt.
fn warnings(data: &FormData<'_>, theme: &Theme, form: &OrderForm) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut say = |text: String, style| lines.push(Line::from(Span::styled(text, style)));
    if form.price.is_nan() {
        say(
            "⚠ The server sent no price for this product: the amount it will".into(),
            theme.warn,
        );
        say(
            "  charge is unknown. Enter still sends it; Esc goes back.".into(),
            theme.warn,
        );
    }
    if let Some(c) = data.store.credit_answer().value()
        && c.credit + 0.005 < form.price
    {
        let short = text::money(form.price - c.credit);
        say(
            format!("⚠ The credit shown is {short} short of the price:"),
            theme.warn,
        );
        say(
            "  the server will likely refuse. Enter still sends it (the server".into(),
            theme.warn,
        );
        say(
            "  decides, the credit may have changed); Esc goes back.".into(),
            theme.warn,
        );
    }
    if let Some(r) = data.runway
        && matches!(r.short, Short::On(day) if day <= r.today)
    {
        say(
            "⚠ The credit already does not cover what is owed today (3 shows it).".into(),
            theme.warn,
        );
    }
    if let Some(d) = data.orders.doubt(form.product_id) {
        let sent = data.local_time(d.attempt.sent);
        say(
            format!("⚠ This product's order sent at {sent} has an unknown outcome:"),
            theme.bad,
        );
    } else if data.orders.any_doubt() {
        say(
            "⚠ Another product's last order has an unknown outcome (m shows it).".into(),
            theme.warn,
        );
    }
    lines
}

/// Under the lines, from row `next`: what the check of the order in doubt found, the
/// product ID to type again, why the last Enter sent nothing, and how to go on (or where
/// the order is).
fn draw_below(
    frame: &mut Frame,
    data: &FormData<'_>,
    theme: &Theme,
    (area, mut next): (Rect, u16),
    form: &OrderForm,
) {
    // Two rows from `at`, within the form.
    let two = |at| {
        Rect {
            height: 2,
            ..row(area, at)
        }
        .intersection(area)
    };
    if let Some(d) = data.orders.doubt(form.product_id) {
        draw_message(frame, two(next), &check_summary(&d.check), theme.warn);
        next += 3;
    }
    if let Some(field) = &form.retype {
        let typing = form.core.state == FormState::Confirming;
        draw_field(
            frame,
            theme,
            row(area, next),
            "Product ID",
            field,
            true,
            typing,
        );
        next += 1;
    }
    if let Some(note) = &form.note {
        draw_message(frame, two(next), &format!("✗ {note}"), theme.bad);
        next += 2;
    }
    let rest = rows_from(area, next + 1);
    let hint = if form.retype.is_some() {
        "Type the product ID, then Enter, to order it again. Esc goes back."
    } else {
        "Enter places the order: one request, never repeated by itself. Esc goes back."
    };
    match state_line(theme, &form.core.state, "Placing the order…", ordered) {
        Some((msg, style)) => draw_message(frame, rest, &msg, style),
        None => draw_message(frame, rest, hint, theme.dim),
    }
}

/// What the order does to the money ahead: `covers renewals until 2026-12-12 →
/// 2026-12-09` (the engine's runway, and the same with the order paid today and renewed
/// monthly: [`crate::billing::Runway::after_order`]).
fn runway_span(data: &FormData<'_>, theme: &Theme, price: f64) -> Span<'static> {
    let Some(r) = data.runway else {
        return Span::styled("not known yet", theme.dim);
    };
    let Some(after) = r.after_order(price) else {
        return Span::styled(format!("{} now", r.covers()), theme.dim);
    };
    let (now, then) = (r.covers(), r.covers_with(after));
    let soon = r.today + chrono::Days::new(crate::billing::runway::SOON_DAYS);
    let style = match after {
        Short::On(day) if day <= r.today => theme.bad,
        Short::On(day) if day < soon => theme.warn,
        Short::ByAtLatest(_) | Short::NotKnown => theme.warn,
        _ => theme.base,
    };
    if now == then {
        Span::styled(format!("{now} (unchanged)"), style)
    } else {
        Span::styled(format!("{now} → {}", strip_common(&now, &then)), style)
    }
}

/// `then` without the words it shares with `now` at the start (`covers renewals until
/// 2026-12-12 → 2026-12-09`, not the phrase twice).
fn strip_common<'a>(now: &str, then: &'a str) -> &'a str {
    const UNTIL: &str = "covers renewals until ";
    match (now.strip_prefix(UNTIL), then.strip_prefix(UNTIL)) {
        (Some(_), Some(day)) => day,
        _ => then,
    }
}

/// What the check of an order in doubt found, under the confirmation's warning.
fn check_summary(check: &Check) -> String {
    let ids = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    match check {
        Check::Checking { .. } => {
            "  checking services and invoices… (nothing can be sent meanwhile)".into()
        }
        Check::Found { services, invoices } => {
            let mut found = Vec::new();
            if !services.is_empty() {
                found.push(format!("service {}", ids(services)));
            }
            if !invoices.is_empty() {
                found.push(format!("invoice {}", ids(invoices)));
            }
            format!(
                "  it went through: new {} since. Ordering again buys a second one.",
                found.join(", new ")
            )
        }
        Check::NotFound => "  no new service or invoice since: most likely not carried out.".into(),
        Check::Unknown(why) => format!("  could not tell ({why}): check Services first."),
    }
}
