//! The Services tab: the services table and the selected service's detail.

use super::layout;
use super::text::{self, MISSING};
use super::theme::Theme;
use super::widgets;
use crate::api::{ProductType, Request, Service, ServiceStatus};
use crate::app::App;
use crate::app::remote::Remote;
use chrono::NaiveDate;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Row};

/// What a hidden password shows.
pub const MASK: &str = "••••••••";

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect) {
    let (pane, detail_area) = layout::services(body);
    let tab = app.services();
    let view = &tab.table;
    let block = widgets::pane(
        theme,
        widgets::counted("Services", tab.list.value().is_some(), view),
        widgets::freshness(app, theme, tab.list.freshness()),
    );
    let block = widgets::with_filter(block, view, theme);
    if let Some((msg, style)) =
        widgets::placeholder(app, theme, &tab.list, view, &Request::Services, "services")
    {
        frame.render_widget(block, pane.block);
        widgets::message(frame, pane.header(), &msg, style);
    } else {
        let today = app.now().with_timezone(&app.utc_offset()).date_naive();
        let rows = tab.rows();
        // The Health column appears once a service was probed (`h`).
        let health = !app.probes().is_empty();
        let fixed = FIXED_COLUMNS
            + if health {
                usize::from(HEALTH_WIDTH) + 1
            } else {
                0
            };
        let product_width = usize::from(pane.rows.width).saturating_sub(2 + fixed);
        let headers = [
            "ID", "Product", "Status", "Next due", "Order", "Proxies", "Health",
        ];
        let widths = [
            Constraint::Length(7),
            Constraint::Min(12),
            Constraint::Length(10),
            Constraint::Length(19),
            Constraint::Length(7),
            Constraint::Length(10),
            Constraint::Length(HEALTH_WIDTH),
        ];
        let shown = if health { 7 } else { 6 };
        widgets::table(
            frame,
            theme,
            pane,
            block,
            (&headers[..shown], &widths[..shown]),
            view,
            |i| {
                let s = &rows[i];
                let (due, due_style) = due_cell(s.nextduedate, today, theme);
                let (net, net_style) = proxies_cell(app, s.service_id, theme);
                let mut cells = vec![
                    Cell::new(s.service_id.to_string()),
                    product_cell(app, theme, s, product_width),
                    Cell::new(text::sanitize(s.status.as_str()).into_owned())
                        .style(status_style(&s.status, theme)),
                    Cell::new(due).style(due_style),
                    Cell::new(text::id(s.orderid)),
                    Cell::new(net).style(net_style),
                ];
                if health {
                    cells.push(health_cell(app, s.service_id, theme));
                }
                Row::new(cells)
            },
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

/// The widths of the columns other than Product and Health, with the gaps between the six.
const FIXED_COLUMNS: usize = 7 + 10 + 19 + 7 + 10 + 5;

/// `7/10 · p50 21 ms`.
const HEALTH_WIDTH: u16 = 16;

/// The last probe (`h`) of the service: working of probed and the p50 latency, or its
/// progress; empty when it was never probed.
fn health_cell<'a>(app: &App, id: u64, theme: &Theme) -> Cell<'a> {
    use crate::app::probe::Stage;
    let Some(run) = app.probes().get(id) else {
        return Cell::new("");
    };
    let results = run.finished();
    let alive = results.iter().filter(|r| r.verdict.is_alive()).count();
    let dead = results.iter().filter(|r| r.verdict.is_dead()).count();
    let style = match &run.stage {
        Stage::Failed(_) => theme.bad,
        Stage::FetchingList(_) | Stage::Running => theme.dim,
        Stage::Done if dead == 0 => theme.good,
        Stage::Done if alive == 0 => theme.bad,
        Stage::Done => theme.warn,
    };
    Cell::new(run.health()).style(style)
}

/// The product's name, and the IP-list refresh countdown when one runs: in full after the
/// name where it fits, else in full alone, else as short as `refresh in 4m 12s` (the
/// detail always has it in full).
fn product_cell<'a>(
    app: &App,
    theme: &Theme,
    s: &crate::api::ServiceSummary,
    width: usize,
) -> Cell<'a> {
    let name = text::or_missing(&s.product_name).into_owned();
    let (Some(countdown), Some(until)) = (
        app.countdown(s.service_id),
        app.throttled_until(s.service_id),
    ) else {
        return Cell::new(name);
    };
    let fits = |t: &str| t.chars().count() <= width;
    let both = format!("{name} · {countdown}");
    let tail = if fits(&both) {
        return Cell::new(Line::from(vec![
            Span::raw(format!("{name} · ")),
            Span::styled(countdown, theme.stale),
        ]));
    } else if fits(&countdown) {
        countdown
    } else {
        format!(
            "refresh in {}",
            crate::throttle::format_remaining(until, app.now())
        )
    };
    Cell::new(Line::from(Span::styled(tail, theme.stale)))
}

pub fn status_style(status: &ServiceStatus, theme: &Theme) -> Style {
    match status {
        ServiceStatus::Active => theme.good,
        ServiceStatus::Pending => theme.warn,
        ServiceStatus::Suspended | ServiceStatus::Fraud => theme.bad,
        ServiceStatus::Terminated | ServiceStatus::Cancelled => theme.dim,
        ServiceStatus::Other(_) => theme.base,
    }
}

/// `2026-01-05 in 3d!`: the date and the days left; due within 7 days or overdue is
/// marked with `!` and highlighted.
pub fn due_cell(due: Option<NaiveDate>, today: NaiveDate, theme: &Theme) -> (String, Style) {
    let Some(due) = due else {
        return (MISSING.to_owned(), theme.dim);
    };
    let days = due.signed_duration_since(today).num_days();
    let (rel, style) = match days {
        d if d < 0 => (format!("{}d late!", -d), theme.bad),
        0 => ("today!".to_owned(), theme.warn),
        d if d <= 7 => (format!("in {d}d!"), theme.warn),
        d => (format!("in {d}d"), theme.base),
    };
    (format!("{} {rel}", due.format("%Y-%m-%d")), style)
}

/// The marker of a service with proxy servers in error or inactive.
fn proxies_cell(app: &App, id: u64, theme: &Theme) -> (String, Style) {
    match app.network().counts(id) {
        // Terminated, Cancelled and Fraud services are not checked (see app/sweep.rs).
        None if app
            .services()
            .get(id)
            .is_some_and(|s| !crate::app::is_swept(&s.status)) =>
        {
            (MISSING.to_owned(), theme.dim)
        }
        None => ("…".to_owned(), theme.dim),
        Some((0, 0)) => ("ok".to_owned(), theme.dim),
        Some((e, 0)) => (format!("⚠ {e} err"), theme.bad),
        Some((0, i)) => (format!("⚠ {i} inact"), theme.warn),
        Some((e, i)) => (format!("⚠ {e}e {i}i"), theme.bad),
    }
}

pub fn draw_detail(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, id: u64) {
    let remote = app.services().detail(id);
    let block = widgets::pane(
        theme,
        format!("Service {id}"),
        widgets::freshness(app, theme, remote.freshness()),
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    match (remote.value(), remote) {
        (Some(s), _) => {
            let mut lines = detail_lines(s, app.services().show_password, theme);
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
            if let Some(countdown) = app.countdown(id) {
                // No label: the phrase says what it is, and fits a half column of an
                // 80-column screen only alone.
                lines.push(Line::from(Span::styled(countdown, theme.stale)));
            }
            // `columns` splits the lines in two halves when they do not fit in one.
            let split = lines.len() + 3 > usize::from(inner.height) && inner.width >= 60;
            let width = usize::from(if split { inner.width / 2 } else { inner.width });
            lines.extend(super::history::detail_lines(app, theme, id, width));
            widgets::columns(frame, inner, lines);
        }
        (None, Remote::Failed { error, .. }) => {
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

pub fn product_type_label(t: &ProductType) -> String {
    match t {
        ProductType::Fpr => "fpr (static)".to_owned(),
        ProductType::Ppr => "ppr (rotating)".to_owned(),
        ProductType::Other(s) => text::or_missing(s).into_owned(),
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
        widgets::field(theme, "Type", w, v(product_type_label(&s.product_type))),
        widgets::field(
            theme,
            "IP count",
            w,
            v(s.ip_count.map_or_else(|| MISSING.to_owned(), text::count)),
        ),
        widgets::field(theme, "Price", w, v(text::money(s.price))),
    ]
}
