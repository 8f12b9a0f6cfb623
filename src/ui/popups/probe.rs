//! The probe view (`h` on a service): progress, then one row per proxy — its measured
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

use crate::app::App;
use crate::app::probe::{ProbeRun, ProbeView, Stage, order};
use crate::history::{ProbePoint, ProbeTrends};
use crate::probe::report::disagrees;
use crate::probe::{Verdict, report};
use crate::ui::layout;
use crate::ui::text::{self, MISSING};
use crate::ui::theme::Theme;
use crate::ui::widgets;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Clear, Paragraph, Row, Table};
use std::time::Duration;

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect, view: &ProbeView) {
    let area = layout::iplist_view(body);
    frame.render_widget(Clear, area);
    let id = view.service_id;
    let Some(run) = app.probes().get(id) else {
        return;
    };
    let templates = app.probe_templates();
    let template = templates.get(view.template).map_or("", |t| t.name.as_str());
    let types: Vec<String> = run.list_types.iter().map(|t| t.to_string()).collect();
    let title = format!("Probe · service {id} · {}", types.join(" + "));
    let right = format!("sorted by {} · template {template}", view.sort.label());
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
    frame.render_widget(Paragraph::new(Line::from(spans)), head);
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
    let visible = usize::from(table_area.height.saturating_sub(1));
    let idx = order(run, view.sort);
    let first = view.top.min(idx.len().saturating_sub(visible));
    let wide = table_area.width >= 100;
    let ms = |d: Option<Duration>| {
        d.map_or_else(|| MISSING.to_owned(), |d| format!("{} ms", d.as_millis()))
    };
    let points = if wide {
        crate::history::TREND_POINTS
    } else {
        5
    };
    // Connect and Anonymity give way below 100 columns (module docs).
    let keep = |cells: Vec<Cell<'static>>| -> Vec<Cell<'static>> {
        cells
            .into_iter()
            .enumerate()
            .filter(|(i, _)| wide || !matches!(i, 4 | 6))
            .map(|(_, c)| c)
            .collect()
    };
    let rows: Vec<Row> = idx
        .iter()
        .skip(first)
        .take(visible)
        .map(|&i| {
            let target = &run.targets[i];
            let mark = app.provider_mark(id, &target.host);
            let provider = crate::probe::report::Mark::word(mark);
            let name = proxy_name(run, i, wide);
            let trend = trend_of(trends, run, i, points);
            let Some(r) = &run.results[i] else {
                let cells = vec![
                    Cell::new(name),
                    Cell::new("…").style(theme.dim),
                    Cell::new(""),
                    Cell::new(trend).style(theme.dim),
                    Cell::new(""),
                    Cell::new(""),
                    Cell::new(""),
                    Cell::new(provider),
                ];
                return Row::new(keep(cells));
            };
            let state_style = match &r.verdict {
                Verdict::Alive => theme.good,
                Verdict::Dead(..) => theme.bad,
                Verdict::Skipped(_) | Verdict::NotChecked(_) => theme.dim,
            };
            let differs = disagrees(&r.verdict, mark);
            let (provider, provider_style) = if differs {
                (
                    format!("{provider} ≠"),
                    theme.warn.add_modifier(ratatui::style::Modifier::REVERSED),
                )
            } else {
                (provider.to_owned(), theme.dim)
            };
            let state = match &r.verdict {
                Verdict::Dead(reason, _) => reason.as_str(),
                Verdict::Alive => "alive",
                Verdict::Skipped(_) => "skipped",
                Verdict::NotChecked(_) => "not checked",
            };
            let cells = vec![
                Cell::new(name),
                Cell::new(state).style(state_style),
                Cell::new(ms(r.latency)),
                Cell::new(trend).style(theme.dim),
                Cell::new(ms(r.connect)),
                Cell::new(
                    r.exit_ip
                        .map_or_else(|| MISSING.to_owned(), |ip| ip.to_string()),
                ),
                Cell::new(r.anonymity.map_or(MISSING, |a| a.as_str())),
                Cell::new(provider).style(provider_style),
            ];
            Row::new(keep(cells))
        })
        .collect();
    let proxy_min = match (run.both(), wide) {
        (true, true) => 23,
        (true, false) => 18,
        (false, _) => 16,
    };
    let mut widths = vec![
        Constraint::Min(proxy_min),
        Constraint::Length(11),
        Constraint::Length(8),
        Constraint::Length(points as u16 + 3),
        Constraint::Length(8),
        Constraint::Length(15),
        Constraint::Length(11),
        Constraint::Length(10),
    ];
    let mut header = vec![
        "Proxy",
        "State",
        "Latency",
        "Trend",
        "Connect",
        "Exit IP",
        "Anonymity",
        "Provider",
    ];
    if !wide {
        for i in [6, 4] {
            widths.remove(i);
            header.remove(i);
        }
    }
    let table = Table::new(rows, widths).header(Row::new(header).style(theme.header_row));
    frame.render_widget(table, table_area);
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
