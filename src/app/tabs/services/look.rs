//! The Services tab's look: the services table and the selected service's detail (its
//! fields, the bound IP's "this machine", the IP-list countdown, the history's lines),
//! which the service popup shows too.

use super::{ServicesTab, ServicesView};
use crate::api::{Request, Service, ServiceStatus};
use crate::app::columns::Tone;
use crate::app::data::TabData;
use crate::app::look::pane::table_and_detail;
use crate::app::look::theme::Theme;
use crate::app::look::{columns, widgets};
use crate::app::tabs::{Areas, Fit, Heading, Props, TabLook};
use crate::text::{self, MISSING, spark_counts};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// What a hidden password shows.
pub const MASK: &str = "••••••••";

/// The table, and the selected service's detail (13 fields and the countdown: one column
/// beside, two columns below; with `history`, up to four lines more, the last one the
/// probe rounds that `watch --probe-every` wrote).
impl TabLook for ServicesTab {
    fn fit(&self, data: &TabData<'_>) -> Fit {
        Fit {
            wants: columns::table_width(self.table.natural()),
            detail: self.detail_pane,
            history: data.history.is_on(),
        }
    }

    fn areas(&self, body: Rect, fit: Fit) -> Areas {
        let below = if fit.history { 11 } else { 9 };
        Areas::with_detail(table_and_detail(body, (46, below), fit.wants, fit.detail))
    }

    fn heading(&self, props: &Props<'_>) -> Option<Heading> {
        let (data, theme) = (props.data, props.theme);
        let tab = self.view(data.store);
        let loaded = tab.list().value().is_some();
        let title = widgets::titled("Services", loaded, &self.table, &tab.sort.label());
        let mut heading = Heading::new(
            title,
            widgets::freshness(data, theme, tab.list().freshness()),
        );
        heading.instead = widgets::placeholder(
            data,
            theme,
            tab.list(),
            &self.table,
            &Request::Services,
            "services",
        );
        Some(heading)
    }

    fn draw_detail(&self, frame: &mut Frame, areas: &Areas, props: &Props<'_>, id: Option<u64>) {
        let area = areas.detail[0];
        match id {
            Some(id) => draw_detail(
                frame,
                self.view(props.data.store),
                props.data,
                props.theme,
                area,
                id,
            ),
            None => super::super::frame::empty(frame, props, area, "Service"),
        }
    }
}

pub fn status_style(status: &ServiceStatus, theme: &Theme) -> Style {
    columns::style(theme, Tone::of_service(status))
}

/// Service `id`'s detail pane (the tab's, and the All view's).
pub fn draw_detail(
    frame: &mut Frame,
    tab: ServicesView<'_>,
    data: &TabData<'_>,
    theme: &Theme,
    area: Rect,
    id: u64,
) {
    let remote = tab.detail(id);
    // Among several accounts the pane names whose service it is.
    let title = if data.settings.among.accounts {
        format!("Service {id} · {}", data.settings.profile)
    } else {
        format!("Service {id}")
    };
    let block = widgets::pane_fit(
        theme,
        title,
        widgets::freshness(data, theme, remote.freshness()),
        area.width,
    );
    // The countdown goes on the bottom edge: the whole width, whatever the columns.
    let block = match data.countdown(id) {
        Some(countdown) => block.title_bottom(Line::from(Span::styled(
            format!(" {countdown} "),
            theme.stale,
        ))),
        None => block,
    };
    let inner = block.inner(area);
    frame.render_widget(block, area);
    match remote.value() {
        Some(s) => {
            let mut lines = detail_lines(s, tab.show_password, theme);
            note_this_machine(data, theme, s, &mut lines);
            // `columns` splits the lines in two halves when they do not fit in one.
            let split = lines.len() + 3 > usize::from(inner.height) && inner.width >= 60;
            let width = usize::from(if split { inner.width / 2 } else { inner.width });
            lines.extend(history_lines(data, theme, id, width));
            widgets::columns(frame, inner, lines);
        }
        None => {
            if let Some((line, style)) =
                widgets::remote_message(data, theme, remote, &Request::Service(id), "the service")
            {
                widgets::message(frame, inner, &line, style);
            }
        }
    }
}

/// Says after the bound IP of `lines` whether it is this machine's.
pub fn note_this_machine(
    data: &TabData<'_>,
    theme: &Theme,
    s: &Service,
    lines: &mut [Line<'static>],
) {
    if let Some(bound) = s.bound_ip.as_deref().filter(|ip| !ip.trim().is_empty()) {
        let note = data.this_machine(bound);
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

fn percent(x: Option<f64>) -> String {
    match x {
        Some(x) if x >= 0.9995 => "100%".into(),
        Some(x) => format!("{:.1}%", x * 100.0),
        None => "—".into(),
    }
}

/// `24h 99.2% · 7d 97.1%`; a window watched only in part says how much of it the share
/// covers (an uptime over a few minutes watched is not one over a day):
/// `24h 0.0% · 7d 0.0% (both of 5 min watched)`, `… · 7d 97.1% (7d of 2 days watched)`.
fn uptime(o: &crate::history::ServiceOverview) -> String {
    const DAY: i64 = 86_400;
    // Within a minute of the whole window, the share covers it.
    let partial = |watched: i64, window: i64| watched + 60 < window;
    let shares = format!(
        "24h {} · 7d {}",
        percent(o.uptime_24h),
        percent(o.uptime_7d)
    );
    let words = |watched: i64| text::span_words(watched.max(0).unsigned_abs());
    if o.uptime_24h.is_some() && partial(o.watched_24h, DAY) {
        // Less than a day watched: both windows hold the same watched span.
        format!("{shares} (both of {} watched)", words(o.watched_7d))
    } else if o.uptime_7d.is_some() && partial(o.watched_7d, 7 * DAY) {
        format!("{shares} (7d of {} watched)", words(o.watched_7d))
    } else {
        shares
    }
}

/// The lines of a service's history for its detail pane: uptime, errors per hour over
/// 24 h (or 7 days when asked and answered), since when it is in error, and the alive
/// share of `watch`'s probe rounds when it probed the service; nothing with history off.
pub fn history_lines(
    data: &TabData<'_>,
    theme: &Theme,
    id: u64,
    width: usize,
) -> Vec<Line<'static>> {
    let h = data.history;
    if !h.is_on() {
        return Vec::new();
    }
    let w = 13;
    let label = |l: &str| Span::styled(format!("{l:<w$} "), theme.dim);
    let overview = h
        .service(id)
        .map(|s| &s.overview)
        .or_else(|| h.overview().and_then(|o| o.services.get(&id)));
    let Some(o) = overview else {
        return vec![Line::from(vec![
            label("History"),
            Span::styled("none yet", theme.dim),
        ])];
    };
    let mut lines = vec![Line::from(vec![label("Uptime"), Span::raw(uptime(o))])];
    let room = width.saturating_sub(w + 1 + 6).clamp(8, 48);
    let (errors, span) = match h.service(id) {
        Some(s) if room >= 28 => (spark_counts(&s.errors_7d, room), "7d"),
        _ => (spark_counts(&o.errors_24h, room.min(24)), "24h"),
    };
    let worst = o.errors_24h.iter().max().copied().unwrap_or(0);
    lines.push(Line::from(vec![
        label("Errors"),
        Span::styled(errors, if worst > 0 { theme.bad } else { theme.good }),
        Span::styled(format!(" {span}"), theme.dim),
    ]));
    if let Some(at) = o.in_error_since {
        lines.push(Line::from(vec![
            label("In error"),
            Span::styled(text::since(data.now, data.offset, at), theme.bad),
        ]));
    }
    if let Some(line) = h
        .service(id)
        .and_then(|s| probe_rounds(data, theme, s, width))
    {
        lines.push(line);
    }
    lines
}

/// `Probe rounds  ██▇▁▁█ 18/20 alive · p50 84 ms`: the alive share of the service's last
/// rounds of `watch --probe-every` (from the history), beside the provider's errors; the
/// last round's counts after it, in the alert's colour when under `probe_alive_percent`.
/// Nothing when no round was kept.
fn probe_rounds(
    data: &TabData<'_>,
    theme: &Theme,
    s: &crate::history::ServiceHistory,
    width: usize,
) -> Option<Line<'static>> {
    let last = s.probe_rounds.last()?;
    let w = 13;
    let mut said = format!(" {}/{} alive", last.alive, last.checked);
    if let Some(ms) = last.p50_ms {
        said.push_str(&format!(" · p50 {ms} ms"));
    }
    let room = width
        .saturating_sub(w + 1 + said.chars().count())
        .clamp(4, 48);
    let shares: Vec<f64> = s.probe_rounds.iter().map(|r| r.share()).collect();
    let under = last.share() * 100.0 < data.settings.alerts.rules.probe_alive_percent;
    let tone = if under { theme.bad } else { theme.good };
    Some(Line::from(vec![
        Span::styled(format!("{:<w$} ", "Probe rounds"), theme.dim),
        Span::styled(text::spark_share(&shares, room), tone),
        Span::styled(said, if under { theme.bad } else { Style::default() }),
    ]))
}

#[cfg(test)]
mod tests {
    use super::uptime;
    use crate::history::ServiceOverview;

    #[test]
    fn an_uptime_says_how_much_of_its_window_was_watched() {
        let day = 86_400;
        let o = |watched_24h, watched_7d| ServiceOverview {
            uptime_24h: Some(0.992),
            uptime_7d: Some(0.971),
            watched_24h,
            watched_7d,
            ..Default::default()
        };
        assert_eq!(uptime(&o(day, 7 * day)), "24h 99.2% · 7d 97.1%");
        assert_eq!(
            uptime(&o(day, 2 * day)),
            "24h 99.2% · 7d 97.1% (7d of 2 days watched)"
        );
        assert_eq!(
            uptime(&o(300, 300)),
            "24h 99.2% · 7d 97.1% (both of 5 min watched)"
        );
        // Nothing watched: no share, nothing to qualify.
        assert_eq!(uptime(&ServiceOverview::default()), "24h — · 7d —");
    }
}
