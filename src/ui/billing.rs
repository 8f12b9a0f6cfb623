//! The Billing tab: the credit, large, above the invoices; and the invoice popup.

use super::columns;
use super::layout;
use super::text;
use super::theme::Theme;
use super::widgets;
use crate::api::{Invoice, InvoiceStatus, Request};
use crate::app::Answer;
use crate::app::App;
use crate::app::tabs::billing::{COLUMNS, status_tone};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect) {
    let (credit_area, ahead, pane) = layout::billing(body);
    let tab = app.billing();
    draw_credit(frame, app, theme, credit_area);
    super::ahead::draw(frame, theme, ahead, app.runway());

    let view = &tab.table;
    let block = widgets::pane(
        theme,
        widgets::titled(
            "Invoices",
            tab.invoices().value().is_some(),
            view,
            &tab.sort.label(),
        ),
        widgets::freshness(app, theme, tab.invoices().freshness()),
    );
    let block = widgets::with_filter(block, view, theme);
    if let Some((msg, style)) = widgets::placeholder(
        app,
        theme,
        tab.invoices(),
        view,
        &Request::Invoices,
        "invoices",
    ) {
        frame.render_widget(block, pane.block);
        widgets::message(frame, pane.header(), &msg, style);
        return;
    }
    columns::draw(
        frame,
        theme,
        pane,
        block,
        (&COLUMNS, tab.table.natural()),
        view,
        |i| app.tab_cells(crate::app::tabs::Tab::Billing, i),
    );
}

fn draw_credit(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let credit = &app.billing().credit();
    let block = widgets::pane(
        theme,
        "Billing".into(),
        widgets::freshness(app, theme, credit.freshness()),
    );
    let line = match (credit.value(), credit) {
        (Some(c), _) => {
            let mut spans = vec![
                Span::styled(" Credit  ", theme.title),
                Span::styled(text::money(c.credit), theme.big),
            ];
            spans.extend(credit_trend(app, theme));
            spans.extend(unpaid_spans(app, theme));
            Line::from(spans)
        }
        (None, Answer::Failed { error, .. }) => Line::from(Span::styled(
            crate::app::status::error_line(&Request::Credit, error, &app.settings().profile),
            theme.bad,
        )),
        (None, Answer::NotRequested) => Line::from(""),
        (None, _) => Line::from(Span::styled(" Credit  loading…", theme.dim)),
    };
    frame.render_widget(Paragraph::new(line).block(block), area);
}

/// The credit over the last 30 days from the history store: a sparkline of each day's
/// lowest (a drop within a day shows even when topped up before midnight) and the range.
fn credit_trend(app: &App, theme: &Theme) -> Vec<Span<'static>> {
    let Some(o) = app.history().overview() else {
        return Vec::new();
    };
    let known: Vec<f64> = o
        .credit_30d
        .iter()
        .chain(&o.credit_30d_low)
        .flatten()
        .copied()
        .collect();
    let (Some(lo), Some(hi)) = (
        known.iter().copied().reduce(f64::min),
        known.iter().copied().reduce(f64::max),
    ) else {
        return Vec::new();
    };
    vec![
        Span::styled("    30 days ", theme.dim),
        Span::styled(super::history::spark(&o.credit_30d_low, 30), theme.title),
        Span::styled(
            format!(" {}–{}", text::money(lo), text::money(hi)),
            theme.dim,
        ),
    ]
}

/// `   Unpaid  $45.00 in 3 invoices` once the invoices are known.
fn unpaid_spans(app: &App, theme: &Theme) -> Vec<Span<'static>> {
    if app.billing().invoices().value().is_none() {
        return Vec::new();
    }
    let (n, total) = app.billing().unpaid();
    if n == 0 {
        return vec![Span::styled("   No unpaid invoices", theme.dim)];
    }
    let noun = if n == 1 { "invoice" } else { "invoices" };
    vec![
        Span::styled("   Unpaid  ", theme.title),
        Span::styled(text::money(total), theme.warn),
        Span::styled(format!(" in {} {noun}", text::count(n as u64)), theme.dim),
    ]
}

pub fn status_style(status: &InvoiceStatus, theme: &Theme) -> Style {
    columns::style(theme, status_tone(status))
}

/// Every field of spec 2.6.
pub fn invoice_lines(inv: &Invoice, theme: &Theme) -> Vec<Line<'static>> {
    let w = 14;
    let v = |x: String| Span::raw(x);
    vec![
        widgets::field(theme, "Invoice ID", w, v(inv.id.to_string())),
        widgets::field(
            theme,
            "Description",
            w,
            v(text::or_missing(&inv.description).into_owned()),
        ),
        widgets::field(
            theme,
            "Status",
            w,
            Span::styled(
                text::sanitize(inv.status.as_str()).into_owned(),
                status_style(&inv.status, theme),
            ),
        ),
        widgets::field(theme, "Amount", w, v(text::money(inv.amount))),
        widgets::field(theme, "Created", w, v(text::date(inv.created_at))),
        widgets::field(theme, "Paid", w, v(text::date(inv.date_paid))),
        widgets::field(theme, "Refunded", w, v(text::date(inv.date_refunded))),
        widgets::field(
            theme,
            "Payment method",
            w,
            v(text::or_missing(&inv.payment_method).into_owned()),
        ),
        widgets::field(theme, "Service ID", w, v(text::id(inv.service_id))),
    ]
}
