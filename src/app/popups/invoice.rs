//! Enter on an invoice (Billing, or `#` there): its full detail, read by its ID
//! (`GET /api/billing/invoice/{id}`) into the account's store, and its look
//! ([`InvoiceViewer::render`]): its fields as the Billing pane words them, loading, or the
//! failure of its read.

use super::PopupPane;
use crate::api::{Invoice, Request};
use crate::app::PopupKind;
use crate::app::columns::Tone;
use crate::app::data::TabData;
use crate::app::keymap::steps::PopupInfo;
use crate::app::look::theme::Theme;
use crate::app::look::{self, columns, widgets};
use crate::text;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// The invoice of this ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvoiceViewer(pub u64);

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "invoice",
    keys: &[],
    item_of: None,
};

impl PopupPane for InvoiceViewer {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }
}

impl InvoiceViewer {
    /// The invoice popup: its fields, or why they are not there.
    pub fn render(&self, frame: &mut Frame, area: Rect, data: &TabData<'_>, theme: &Theme) {
        let id = self.0;
        let remote = data.store.invoice_answer(id);
        let r = look::centered(area, 64, 11);
        frame.render_widget(Clear, r);
        let block = widgets::pane(
            theme,
            widgets::of_account(data, format!("Invoice {id}")),
            widgets::freshness(data, theme, remote.freshness()),
        );
        let inner = block.inner(r);
        frame.render_widget(block, r);
        match remote.value() {
            Some(list) => match list.first() {
                Some(inv) => frame.render_widget(Paragraph::new(invoice_lines(inv, theme)), inner),
                None => widgets::message(
                    frame,
                    inner,
                    "The server returned no such invoice.",
                    theme.dim,
                ),
            },
            None => {
                if let Some((line, style)) = widgets::remote_message(
                    data,
                    theme,
                    remote,
                    &Request::Invoice(id),
                    "the invoice",
                ) {
                    widgets::message(frame, inner, &line, style);
                }
            }
        }
    }
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
                columns::style(theme, Tone::of_invoice(&inv.status)),
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
