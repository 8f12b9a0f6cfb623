//! The probe view (`h` on a service): progress, then one row per proxy — its measured
//! state beside the provider's network-status mark, a disagreement highlighted — and the
//! export template in use. Only the rows on screen are built.
//! The state is one word (`refused`, `auth failed`, …) in the colour of alive or dead;
//! below 100 columns the Connect column is left out so the exit IP keeps its width.

use super::layout;
use super::text::{self, MISSING};
use super::theme::Theme;
use super::widgets;
use crate::app::App;
use crate::app::probe::{ProbeView, Stage, order};
use crate::probe::report::disagrees;
use crate::probe::{Verdict, report};
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
    let title = format!("Probe · service {id} · {}", run.list_type);
    let right = format!("sorted by {} · template {template}", view.sort.label());
    let block = widgets::pane(theme, title, Span::styled(right, theme.dim));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height < 3 {
        return;
    }
    let head = Rect::new(inner.x, inner.y, inner.width, 1);
    let (line, style) = match &run.stage {
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
    let table_area = Rect::new(inner.x, inner.y + 1, inner.width, inner.height - 1);
    let visible = usize::from(table_area.height.saturating_sub(1));
    let idx = order(run, view.sort);
    let first = view.top.min(idx.len().saturating_sub(visible));
    let wide = table_area.width >= 100;
    let ms = |d: Option<Duration>| {
        d.map_or_else(|| MISSING.to_owned(), |d| format!("{} ms", d.as_millis()))
    };
    let rows: Vec<Row> = idx
        .iter()
        .skip(first)
        .take(visible)
        .map(|&i| {
            let target = &run.targets[i];
            let mark = app.provider_mark(id, &target.host);
            let provider = crate::probe::report::Mark::word(mark);
            let Some(r) = &run.results[i] else {
                let mut cells = vec![
                    Cell::new(text::sanitize(&target.address()).into_owned()),
                    Cell::new("…").style(theme.dim),
                    Cell::new(""),
                    Cell::new(""),
                    Cell::new(""),
                    Cell::new(""),
                    Cell::new(provider),
                ];
                if !wide {
                    cells.remove(3);
                }
                return Row::new(cells);
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
            let mut cells = vec![
                Cell::new(text::sanitize(&target.address()).into_owned()),
                Cell::new(state).style(state_style),
                Cell::new(ms(r.latency)),
                Cell::new(ms(r.connect)),
                Cell::new(
                    r.exit_ip
                        .map_or_else(|| MISSING.to_owned(), |ip| ip.to_string()),
                ),
                Cell::new(r.anonymity.map_or(MISSING, |a| a.as_str())),
                Cell::new(provider).style(provider_style),
            ];
            if !wide {
                cells.remove(3);
            }
            Row::new(cells)
        })
        .collect();
    let mut widths = vec![
        Constraint::Min(16),
        Constraint::Length(11),
        Constraint::Length(8),
        Constraint::Length(8),
        Constraint::Length(15),
        Constraint::Length(11),
        Constraint::Length(10),
    ];
    let mut header = vec![
        "Proxy",
        "State",
        "Latency",
        "Connect",
        "Exit IP",
        "Anonymity",
        "Provider",
    ];
    if !wide {
        widths.remove(3);
        header.remove(3);
    }
    let table = Table::new(rows, widths).header(Row::new(header).style(theme.header_row));
    frame.render_widget(table, table_area);
}
