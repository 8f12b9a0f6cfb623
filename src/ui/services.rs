//! The Services tab: the services table and the selected service's detail.

use super::columns;
use super::layout;
use super::text::{self, MISSING};
use super::theme::Theme;
use super::widgets;
use crate::api::{Request, Service, ServiceStatus};
use crate::app::Answer;
use crate::app::App;
use crate::app::tabs::services::status_tone;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// What a hidden password shows.
pub const MASK: &str = "••••••••";

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect) {
    let (pane, detail_area) = layout::services(
        body,
        columns::table_width(app.services().table.natural()),
        app.history().is_on(),
        app.services().detail_pane,
    );
    let tab = app.services();
    let view = &tab.table;
    let block = widgets::pane(
        theme,
        widgets::titled(
            "Services",
            tab.list().value().is_some(),
            view,
            &tab.sort.label(),
        ),
        widgets::freshness(app, theme, tab.list().freshness()),
    );
    let block = widgets::with_filter(block, view, theme);
    if let Some((msg, style)) =
        widgets::placeholder(app, theme, tab.list(), view, &Request::Services, "services")
    {
        frame.render_widget(block, pane.block);
        widgets::message(frame, pane.header(), &msg, style);
    } else {
        let columns = app.tab_columns(crate::app::tabs::Tab::Services);
        columns::draw(
            frame,
            theme,
            pane,
            block,
            (&columns, tab.table.natural()),
            view,
            |i| app.tab_cells(crate::app::tabs::Tab::Services, i),
        );
    }
    match tab.selected() {
        Some(s) => draw_detail(frame, app, theme, detail_area, s.service_id),
        None => frame.render_widget(
            widgets::pane(theme, "Service".into(), Span::raw("")),
            detail_area,
        ),
    }
}

pub fn status_style(status: &ServiceStatus, theme: &Theme) -> Style {
    columns::style(theme, status_tone(status))
}

pub fn draw_detail(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, id: u64) {
    let remote = app.services().detail(id);
    let block = widgets::pane(
        theme,
        format!("Service {id}"),
        widgets::freshness(app, theme, remote.freshness()),
    );
    // The countdown goes on the bottom edge: the whole width, whatever the columns.
    let block = match app.countdown(id) {
        Some(countdown) => block.title_bottom(Line::from(Span::styled(
            format!(" {countdown} "),
            theme.stale,
        ))),
        None => block,
    };
    let inner = block.inner(area);
    frame.render_widget(block, area);
    match (remote.value(), remote) {
        (Some(s), _) => {
            let mut lines = detail_lines(s, app.services().show_password, theme);
            note_this_machine(app, theme, s, &mut lines);
            // `columns` splits the lines in two halves when they do not fit in one.
            let split = lines.len() + 3 > usize::from(inner.height) && inner.width >= 60;
            let width = usize::from(if split { inner.width / 2 } else { inner.width });
            lines.extend(super::history::detail_lines(app, theme, id, width));
            widgets::columns(frame, inner, lines);
        }
        (None, Answer::Failed { error, .. }) => {
            let line = crate::app::status::error_line(
                &Request::Service(id),
                error,
                &app.settings().profile,
            );
            widgets::message(frame, inner, &line, theme.bad);
        }
        (None, _) => widgets::message(frame, inner, "Loading the service…", theme.dim),
    }
}

/// Says after the bound IP of `lines` whether it is this machine's.
pub fn note_this_machine(app: &App, theme: &Theme, s: &Service, lines: &mut [Line<'static>]) {
    if let Some(bound) = s.bound_ip.as_deref().filter(|ip| !ip.trim().is_empty()) {
        let note = super::forms::bind_ip::this_machine(app, bound);
        if !note.is_empty()
            && let Some(line) = lines.iter_mut().find(|l| {
                l.spans
                    .first()
                    .is_some_and(|f| f.content.starts_with("Bound IP"))
            })
        {
            line.spans.push(Span::styled(note, theme.dim));
        }
    }
}

/// Every field of spec 2.4, the password masked unless shown.
pub fn detail_lines(s: &Service, show_password: bool, theme: &Theme) -> Vec<Line<'static>> {
    let w = 13;
    let v = |x: String| Span::raw(x);
    let password = if show_password {
        Span::styled(
            text::or_missing(s.password.expose()).into_owned(),
            theme.warn,
        )
    } else {
        Span::raw(MASK)
    };
    vec![
        widgets::field(theme, "Service ID", w, v(s.service_id.to_string())),
        widgets::field(theme, "Order ID", w, v(text::id(s.orderid))),
        widgets::field(
            theme,
            "Product",
            w,
            v(text::or_missing(&s.product_name).into_owned()),
        ),
        widgets::field(theme, "Registered", w, v(text::date(s.regdate))),
        widgets::field(theme, "Next due", w, v(text::date(s.nextduedate))),
        widgets::field(
            theme,
            "Status",
            w,
            Span::styled(
                text::sanitize(s.status.as_str()).into_owned(),
                status_style(&s.status, theme),
            ),
        ),
        widgets::field(
            theme,
            "Billing cycle",
            w,
            v(text::or_missing(s.billingcycle.as_str()).into_owned()),
        ),
        widgets::field(
            theme,
            "Username",
            w,
            v(text::or_missing(&s.username).into_owned()),
        ),
        widgets::field(theme, "Password", w, password),
        widgets::field(
            theme,
            "Bound IP",
            w,
            v(text::or_missing(s.bound_ip.as_deref().unwrap_or_default()).into_owned()),
        ),
        widgets::field(theme, "Type", w, v(s.product_type.label())),
        widgets::field(
            theme,
            "IP count",
            w,
            v(s.ip_count.map_or_else(|| MISSING.to_owned(), text::count)),
        ),
        widgets::field(theme, "Price", w, v(text::money(s.price))),
    ]
}
