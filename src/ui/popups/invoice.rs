//! An invoice's popup (Enter on Billing, `#` there): its fields as the Billing pane words
//! them, loading, or the failure of its read.

use crate::api::Request;
use crate::app::Answer;
use crate::app::App;
use crate::app::tabs::billing::look as billing;
use crate::ui::theme::Theme;
use crate::ui::{layout, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Paragraph};

/// The invoice popup: its fields, or why they are not there.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, id: u64) {
    let remote = app.billing().invoice(id);
    let r = layout::centered(area, 64, 11);
    frame.render_widget(Clear, r);
    let block = widgets::pane(
        theme,
        widgets::of_account(app, format!("Invoice {id}")),
        widgets::freshness(app, theme, remote.freshness()),
    );
    let inner = block.inner(r);
    frame.render_widget(block, r);
    match (remote.value(), remote) {
        (Some(list), _) => match list.first() {
            Some(inv) => {
                frame.render_widget(Paragraph::new(billing::invoice_lines(inv, theme)), inner)
            }
            None => widgets::message(
                frame,
                inner,
                "The server returned no such invoice.",
                theme.dim,
            ),
        },
        (None, Answer::Failed { error, .. }) => {
            let line = crate::app::status::error_line(
                &Request::Invoice(id),
                error,
                &app.settings().profile,
            );
            widgets::message(frame, inner, &line, theme.bad);
        }
        (None, _) => widgets::message(frame, inner, "Loading the invoice…", theme.dim),
    }
}
