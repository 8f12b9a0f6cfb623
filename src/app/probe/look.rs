//! The probe view's look (`h` on a service): progress, then one row per proxy — its measured
//! state beside the provider's network-status mark, a disagreement highlighted — and the
//! export template in use. Only the rows on screen are built.
//! The state is one word (`refused`, `auth failed`, …) in the colour of alive or dead;
//! below 100 columns the Connect and Anonymity columns are left out so the exit IP, the
//! trend and the provider's mark keep their widths (the CLI and a wider screen have them).
//! The Trend column is each proxy's last results from the history, oldest first: a bar
//! per answer as high as its latency among them, `✗` for a failure, and `↻N` when the
//! exit IP took N values (fewer points below 100 columns). When both protocols are
//! probed the Proxy cell starts with the protocol (`H`/`S` below 100 columns). A rotation audit (`R`) is a line under
//! the progress, with the distinct exits of the earlier audits kept in the history.

use super::view::{ProbeView, order};
use super::{ProbeRun, Stage};
use crate::app::App;
use crate::app::look::theme::Theme;
use crate::app::look::{pane, widgets};
use crate::history::{ProbePoint, ProbeTrends};
use crate::probe::report::{Mark, disagrees};
use crate::probe::{ProbeResult, Verdict, report};
use crate::text::{self, MISSING};
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Clear, Paragraph, Row, Table};
use std::time::Duration;

/// The columns, in the order drawn; Connect and Anonymity (4 and 6) give way below
/// 100 columns (module docs).
const HEADER: [&str; 8] = [
    "Proxy",
    "State",
    "Latency",
    "Trend",
    "Connect",
    "Exit IP",
    "Anonymity",
    "Provider",
];
const NARROW_DROPS: [usize; 2] = [6, 4];

impl ProbeView {
    /// Its look: the run's progress (and the rotation audit's), then the rows on screen.
    pub fn render(&self, frame: &mut Frame, body: Rect, app: &App, theme: &Theme) {
        let area = pane::iplist_view(body);
        frame.render_widget(Clear, area);
        let id = self.service_id;
        let Some(run) = app.probes().get(id) else {
            return;
        };
        let templates = app.probe_templates();
        let template = templates.get(self.template).map_or("", |t| t.name.as_str());
        let types: Vec<String> = run.list_types.iter().map(|t| t.to_string()).collect();
        let title = format!("Probe · service {id} · {}", types.join(" + "));
        let right = format!("sorted by {} · template {template}", self.sort.label());
        let block = widgets::pane(
            theme,
            widgets::of_account(app, title),
            Span::styled(right, theme.dim),
        );
        let inner = block.inner(area);
        frame.render_widget(block, area);
        if inner.height < 3 {
            return;
        }
        let head = Rect::new(inner.x, inner.y, inner.width, 1);
        frame.render_widget(Paragraph::new(progress_line(run, theme)), head);
        let trends = app.history().probes(id);
        let mut top = inner.y + 1;
        if let Some(line) = audit_line(app, theme, id, trends)
            && inner.height >= 4
        {
            let area = Rect::new(inner.x, top, inner.width, 1);
            frame.render_widget(
                Paragraph::new(widgets::fit_line(line, usize::from(inner.width))),
                area,
            );
            top += 1;
        }
        let table_area = Rect::new(inner.x, top, inner.width, inner.bottom() - top);
        self.draw_table(frame, table_area, app, theme, run, trends);
    }

    /// The rows on screen, from the view's first one, in its order.
    fn draw_table(
        &self,
        frame: &mut Frame,
        area: Rect,
        app: &App,
        theme: &Theme,
        run: &ProbeRun,
        trends: Option<&ProbeTrends>,
    ) {
        let visible = usize::from(area.height.saturating_sub(1));
        let idx = order(run, self.sort);
        let first = self.top.min(idx.len().saturating_sub(visible));
        let wide = area.width >= 100;
        let points = if wide {
            crate::history::TREND_POINTS
        } else {
            5
        };
        let rows: Vec<Row> = idx
            .iter()
            .skip(first)
            .take(visible)
            .map(|&i| {
                let mark = app.provider_mark(self.service_id, &run.targets[i].host);
                let cells = Cells {
                    name: proxy_name(run, i, wide),
                    trend: trend_of(trends, run, i, points),
                    mark,
                };
                Row::new(keep(wide, cells.of(run.results[i].as_ref(), theme)))
            })
            .collect();
        let proxy_min = match (run.both(), wide) {
            (true, true) => 23,
            (true, false) => 18,
            (false, _) => 16,
        };
        let widths = vec![
            Constraint::Min(proxy_min),
            Constraint::Length(11),
            Constraint::Length(8),
            Constraint::Length(points as u16 + 3),
            Constraint::Length(8),
            Constraint::Length(15),
            Constraint::Length(11),
            Constraint::Length(10),
        ];
        let header = Row::new(keep(wide, HEADER.to_vec())).style(theme.header_row);
        let table = Table::new(rows, keep(wide, widths)).header(header);
        frame.render_widget(table, area);
    }
}

/// The columns kept at this width (Connect and Anonymity give way below 100).
fn keep<T>(wide: bool, cells: Vec<T>) -> Vec<T> {
    cells
        .into_iter()
        .enumerate()
        .filter(|(i, _)| wide || !NARROW_DROPS.contains(i))
        .map(|(_, c)| c)
        .collect()
}

/// The run's stage in a line: fetching, probing with its health so far, done or failed,
/// with its note.
fn progress_line(run: &ProbeRun, theme: &Theme) -> Line<'static> {
    let (line, style) = match &run.stage {
        Stage::FetchingList(_) if run.both() => ("⟳ Fetching the IP lists…".to_owned(), theme.warn),
        Stage::FetchingList(_) => ("⟳ Fetching the IP list…".to_owned(), theme.warn),
        Stage::Running => {
            let done = run.checked();
            let total = run.targets.len();
            (
                format!(
                    "⟳ Probing {done}/{total} · {} so far",
                    report::health(&run.finished())
                ),
                theme.warn,
            )
        }
        Stage::Done => (format!("✓ {}", report::health(&run.finished())), theme.good),
        Stage::Failed(why) => (format!("✗ {}", text::sanitize(why)), theme.bad),
    };
    let mut spans = vec![Span::styled(line, style)];
    if let Some(note) = &run.note {
        spans.push(Span::styled(
            format!("  ({})", text::sanitize(note)),
            theme.dim,
        ));
    }
    Line::from(spans)
}

/// What a proxy's row shows beside its result: its name, its trend and the provider's
/// mark.
struct Cells {
    name: String,
    trend: String,
    mark: Option<Mark>,
}

impl Cells {
    /// The row's eight cells: `…` while the proxy waits; its state, latency, connect time,
    /// exit IP and anonymity once checked, the provider's mark reversed where it
    /// disagrees.
    fn of(self, result: Option<&ProbeResult>, theme: &Theme) -> Vec<Cell<'static>> {
        let provider = Mark::word(self.mark);
        let Some(r) = result else {
            return vec![
                Cell::new(self.name),
                Cell::new("…").style(theme.dim),
                Cell::new(""),
                Cell::new(self.trend).style(theme.dim),
                Cell::new(""),
                Cell::new(""),
                Cell::new(""),
                Cell::new(provider),
            ];
        };
        let (state, state_style) = match &r.verdict {
            Verdict::Dead(reason, _) => (reason.as_str(), theme.bad),
            Verdict::Alive => ("alive", theme.good),
            Verdict::Skipped(_) => ("skipped", theme.dim),
            Verdict::NotChecked(_) => ("not checked", theme.dim),
        };
        let (provider, provider_style) = if disagrees(&r.verdict, self.mark) {
            (
                format!("{provider} ≠"),
                theme.warn.add_modifier(Modifier::REVERSED),
            )
        } else {
            (provider.to_owned(), theme.dim)
        };
        let ms = |d: Option<Duration>| {
            d.map_or_else(|| MISSING.to_owned(), |d| format!("{} ms", d.as_millis()))
        };
        vec![
            Cell::new(self.name),
            Cell::new(state.to_owned()).style(state_style),
            Cell::new(ms(r.latency)),
            Cell::new(self.trend).style(theme.dim),
            Cell::new(ms(r.connect)),
            Cell::new(
                r.exit_ip
                    .map_or_else(|| MISSING.to_owned(), |ip| ip.to_string()),
            ),
            Cell::new(r.anonymity.map_or(MISSING, |a| a.as_str())),
            Cell::new(provider).style(provider_style),
        ]
    }
}

/// The Proxy cell: `host:port`, after its protocol when both are probed (`http`,
/// `socks5`; `H`, `S` when narrow).
fn proxy_name(run: &ProbeRun, i: usize, wide: bool) -> String {
    let target = &run.targets[i];
    let address = text::sanitize(&target.address()).into_owned();
    match (run.both(), wide, target.scheme) {
        (false, ..) => address,
        (true, true, scheme) => format!("{:<6} {address}", scheme.as_str()),
        (true, false, crate::probe::Scheme::Http) => format!("H {address}"),
        (true, false, crate::probe::Scheme::Socks5) => format!("S {address}"),
    }
}

/// The Trend cell of proxy `i` (module docs): its last `points` results in the history.
fn trend_of(trends: Option<&ProbeTrends>, run: &ProbeRun, i: usize, points: usize) -> String {
    let target = &run.targets[i];
    let key = format!(
        "{}://{}:{}",
        target.scheme.as_str(),
        target.host,
        target.port
    );
    trends
        .and_then(|t| t.proxies.get(&key))
        .map(|p| trend(&p[p.len().saturating_sub(points)..]))
        .unwrap_or_default()
}

/// `▂▅✗▃ ↻2`: a bar per result as high as its latency among them, `✗` a failure, and the
/// number of exit IPs seen when more than one.
pub fn trend(points: &[ProbePoint]) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let max = points
        .iter()
        .filter_map(|p| p.latency_ms)
        .max()
        .unwrap_or(0)
        .max(1);
    let mut line: String = points
        .iter()
        .map(|p| match (p.ok, p.latency_ms) {
            (false, _) => '✗',
            (true, None) => '·',
            (true, Some(ms)) => BARS[(ms as usize * (BARS.len() - 1) / max as usize).min(7)],
        })
        .collect();
    let mut exits: Vec<&str> = points.iter().filter_map(|p| p.exit_ip.as_deref()).collect();
    exits.sort_unstable();
    exits.dedup();
    if exits.len() > 1 {
        line += &format!(" ↻{}", exits.len());
    }
    line
}

/// The rotation audit's line: its progress or finding, and the earlier audits' exits.
fn audit_line<'a>(
    app: &App,
    theme: &Theme,
    id: u64,
    trends: Option<&ProbeTrends>,
) -> Option<Line<'a>> {
    let audit = app.probes().audit(id)?;
    let summary = audit.summary();
    let via = text::sanitize(&format!(
        "{}://{}",
        audit.gateway.scheme.as_str(),
        audit.gateway.address()
    ))
    .into_owned();
    let (line, style) = if audit.done {
        (
            format!("✓ Rotation via {via}: {}", summary.summary()),
            theme.good,
        )
    } else {
        let line = format!(
            "⟳ Rotation via {via}: asked {}/{} · {} exit IPs so far",
            audit.results.len(),
            audit.asks,
            summary.distinct
        );
        (line, theme.warn)
    };
    let mut spans = vec![Span::styled(line, style)];
    if let Some(note) = &audit.note {
        spans.push(Span::styled(
            format!("  ({})", text::sanitize(note)),
            theme.dim,
        ));
    }
    // The audits before this one (the last row is this one once it is written).
    let earlier: Vec<String> = trends
        .map(|t| t.rotations.iter().map(|r| r.distinct.to_string()).collect())
        .unwrap_or_default();
    if earlier.len() > 1 {
        let text = format!("  · exits per audit: {}", earlier.join(" "));
        spans.push(Span::styled(text, theme.dim));
    }
    Some(Line::from(spans))
}
