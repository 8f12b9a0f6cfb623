//! The order form's confirmation step: what will be bought, for whom, at what cost, and
//! (after a lost answer) what the check of the order in doubt found.

use super::*;

pub(super) fn draw_confirm(
    frame: &mut Frame,
    app: &App,
    theme: &Theme,
    area: Rect,
    form: &OrderForm,
) {
    let (client, setip) = match &form.request {
        Some(crate::api::Request::Order { body, .. }) => (body.clientid, body.setip.clone()),
        _ => (0, None),
    };
    let email = form
        .chosen
        .as_ref()
        .map(|c| text::or_missing(&c.email).into_owned())
        .unwrap_or_else(|| MISSING.to_owned());
    let kind = product_type(app, form)
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
        value_line(theme, "Credit", credit_span(app, theme, form.price)),
        value_line(theme, "Runway", runway_span(app, theme, form.price)),
        Line::from(""),
    ];
    if app.settings().among.accounts {
        // Beside other accounts, the one that pays is said before anything is sent.
        lines.insert(
            1,
            value_line(
                theme,
                "Account",
                Span::styled(
                    text::sanitize(&app.settings().profile).into_owned(),
                    theme.title,
                ),
            ),
        );
    }
    if form.price.is_nan() {
        lines.push(Line::from(Span::styled(
            "⚠ The server sent no price for this product: the amount it will",
            theme.warn,
        )));
        lines.push(Line::from(Span::styled(
            "  charge is unknown. Enter still sends it; Esc goes back.",
            theme.warn,
        )));
    }
    if let Some(c) = app.billing().credit().value()
        && c.credit + 0.005 < form.price
    {
        lines.push(Line::from(Span::styled(
            format!(
                "⚠ The credit shown is {} short of the price:",
                text::money(form.price - c.credit)
            ),
            theme.warn,
        )));
        lines.push(Line::from(Span::styled(
            "  the server will likely refuse. Enter still sends it (the server",
            theme.warn,
        )));
        lines.push(Line::from(Span::styled(
            "  decides, the credit may have changed); Esc goes back.",
            theme.warn,
        )));
    }
    if let Some(r) = app.runway()
        && matches!(r.short, Short::On(day) if day <= r.today)
    {
        lines.push(Line::from(Span::styled(
            "⚠ The credit already does not cover what is owed today (3 shows it).",
            theme.warn,
        )));
    }
    let doubt = app.order_doubt(form.product_id);
    if let Some(d) = doubt {
        lines.push(Line::from(Span::styled(
            format!(
                "⚠ This product's order sent at {} has an unknown outcome:",
                app.local_time(d.attempt.sent)
            ),
            theme.bad,
        )));
    } else if app.order_in_doubt() {
        lines.push(Line::from(Span::styled(
            "⚠ Another product's last order has an unknown outcome (m shows it).",
            theme.warn,
        )));
    }
    frame.render_widget(
        Paragraph::new(crate::ui::widgets::fitted(lines.clone(), area.width)),
        area,
    );
    let mut next = lines.len() as u16;
    if let Some(d) = doubt {
        let two = Rect {
            height: 2,
            ..row(area, next)
        };
        draw_message(
            frame,
            two.intersection(area),
            &check_summary(&d.check),
            theme.warn,
        );
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
        let two = Rect {
            height: 2,
            ..row(area, next)
        };
        draw_message(
            frame,
            two.intersection(area),
            &format!("✗ {note}"),
            theme.bad,
        );
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
fn runway_span(app: &App, theme: &Theme, price: f64) -> Span<'static> {
    let Some(r) = app.runway() else {
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
