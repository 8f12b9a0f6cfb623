//! The bind-IP form: what is bound now (and whether it is this machine), the field, its
//! inline error, and the outcome.

use super::BindIpForm;
use crate::app::forms::FormData;
use crate::app::forms::cx::MyIp;
use crate::app::forms::look::{
    LABEL, draw_field, draw_message, framed, inline_error, row, rows_from, state_line, value_line,
};
use crate::app::forms::update_message;
use crate::app::look::theme::Theme;
use crate::app::look::widgets;
use crate::text::{self, MISSING};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub(super) fn render(
    form: &BindIpForm,
    frame: &mut Frame,
    body: Rect,
    data: &FormData<'_>,
    theme: &Theme,
) {
    let inner = framed(
        frame,
        data,
        theme,
        body,
        (64, 11),
        format!("Bind IP · service {}", form.service_id),
    );
    frame.render_widget(
        Paragraph::new(widgets::fitted(now_bound(form, data, theme), inner.width)),
        inner,
    );
    draw_field(
        frame,
        theme,
        row(inner, 3),
        "New IP",
        &form.ip,
        true,
        form.core.state.is_editable(),
    );
    // An error (a failed Ctrl-L lookup names the whole URL and cause) wraps onto the
    // empty row below it rather than being cut.
    let below_area = Rect {
        height: 2.min(inner.height.saturating_sub(4)),
        ..row(inner, 4)
    };
    frame.render_widget(
        Paragraph::new(below(form, theme)).wrap(Wrap { trim: false }),
        below_area,
    );
    if let Some((msg, style)) = state_line(theme, &form.core.state, "Binding…", |r| {
        update_message(r, "IP address updated successfully")
    }) {
        draw_message(frame, rows_from(inner, 6), &msg, style);
    }
}

/// What is bound now (and whether it is this machine), and this machine's IP.
fn now_bound(form: &BindIpForm, data: &FormData<'_>, theme: &Theme) -> Vec<Line<'static>> {
    let detail = data.store.service_answer(form.service_id).value();
    let bound = detail
        .and_then(|s| s.bound_ip.clone())
        .filter(|ip| !ip.trim().is_empty());
    let bound_span = match (detail, bound) {
        (_, Some(ip)) => Span::raw(format!("{}{}", text::sanitize(&ip), data.this_machine(&ip))),
        (Some(_), None) => Span::styled(MISSING, theme.dim),
        (None, _) => Span::styled("checking the service…", theme.dim),
    };
    let mine = match data.my_ip {
        MyIp::Known(ip) => Span::raw(ip.to_string()),
        MyIp::LookingUp => Span::styled("looking up…", theme.dim),
        MyIp::Unknown | MyIp::Failed(_) => Span::styled("unknown (Ctrl-L looks it up)", theme.dim),
    };
    vec![
        value_line(theme, "Bound now", bound_span),
        value_line(theme, "This host", mine),
    ]
}

/// The line under the field: the lookup on its way, the inline error, or how to fill in
/// this machine's IP.
fn below(form: &BindIpForm, theme: &Theme) -> Line<'static> {
    if form.looking_up {
        Line::from(Span::styled(
            format!("{:w$}looking up this machine's IP…", "", w = LABEL + 3),
            theme.dim,
        ))
    } else if form.core.error.is_some() {
        inline_error(theme, form.core.error.as_deref())
    } else if form.core.state.is_editable() {
        Line::from(Span::styled(
            format!(
                "{:w$}Ctrl-L: use this machine's public IP",
                "",
                w = LABEL + 3
            ),
            theme.dim,
        ))
    } else {
        Line::from("")
    }
}
