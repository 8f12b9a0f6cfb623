//! The command palette (`:`, Ctrl-P): the query on top (the terminal cursor in it), then the matches best first,
//! each with its kind, its text, a note (an action's key, a service's status) and, for an
//! action, its `proxydash …` command line; the highlighted match's command line is repeated
//! whole on the last line, where a narrow screen cannot cut it short.

use crate::app::palette::Palette;
use crate::app::palette::candidates::{Candidate, Kind};
use crate::ui::theme::Theme;
use crate::ui::{layout, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// The palette's widest, as wide as a long command line needs.
pub(super) const WIDEST: u16 = 120;

pub fn draw(frame: &mut Frame, app: &crate::app::App, theme: &Theme, area: Rect, p: &Palette) {
    // The query, the matches (at least a few), the command line: borders and all.
    let list_rows = (p.shown().len() as u16).clamp(3, 30);
    let r = layout::centered(
        area,
        area.width.saturating_sub(2).min(WIDEST),
        list_rows + 4,
    );
    frame.render_widget(Clear, r);
    let count = p.match_count();
    let title = match (p.service, p.product) {
        (Some(s), Some(pr)) => format!("Palette · service {s}, product {pr}"),
        (Some(s), None) => format!("Palette · service {s}"),
        (None, Some(pr)) => format!("Palette · product {pr}"),
        (None, None) => "Palette".to_owned(),
    };
    let block = widgets::pane(theme, widgets::of_account(app, title), Span::raw("")).title_bottom(
        Line::from(Span::styled(
            format!(
                " {} match{} ",
                crate::text::count(count as u64),
                if count == 1 { "" } else { "es" }
            ),
            theme.dim,
        ))
        .right_aligned(),
    );
    let inner = block.inner(r);
    frame.render_widget(block, r);
    if inner.height < 3 || inner.width < 10 {
        return;
    }
    let query = Rect { height: 1, ..inner };
    crate::app::forms::look::draw_field(frame, theme, query, "find", &p.query, true, true);
    let list = Rect {
        y: inner.y + 1,
        height: inner.height - 2,
        ..inner
    };
    let width = usize::from(list.width);
    let rows = usize::from(list.height);
    let first = (p.selected + 1).saturating_sub(rows);
    // The texts in one column as wide as the longest shown (at most half the width), so
    // the keys and command lines line up.
    let column = p
        .shown()
        .skip(first)
        .take(rows)
        .map(|c| c.text.chars().count())
        .max()
        .unwrap_or(0)
        .min(width / 2);
    let lines: Vec<Line> = p
        .shown()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, c)| widgets::fit_line(row(theme, c, i == p.selected, column), width))
        .collect();
    if lines.is_empty() {
        let none = "Nothing matches: services by ID, product name or IP; products; invoices; tabs; actions";
        widgets::message(frame, list, none, theme.dim);
    } else {
        frame.render_widget(Paragraph::new(lines), list);
    }
    let bottom = Rect {
        y: inner.bottom() - 1,
        height: 1,
        ..inner
    };
    let hint = hint(theme, p);
    frame.render_widget(Paragraph::new(widgets::fit_line(hint, width)), bottom);
}

/// The last line: the highlighted match's command line whole, or what Enter does.
fn hint<'a>(theme: &Theme, p: &'a Palette) -> Line<'a> {
    match p.selected() {
        Some(Candidate {
            command: Some(command),
            ..
        }) => Line::from(vec![
            Span::styled("$ ", theme.dim),
            Span::styled(command.clone(), theme.key),
        ]),
        Some(c) if matches!(c.kind, Kind::Service | Kind::Product) => Line::from(Span::styled(
            "Enter goes to it · Tab lists its actions",
            theme.dim,
        )),
        Some(c) if c.kind == Kind::Verb => Line::from(Span::styled(
            "Enter runs it · ↑ the queries run before",
            theme.dim,
        )),
        Some(_) if p.query.value().trim().is_empty() => Line::from(Span::styled(
            format!("verbs: {}", crate::app::palette::verbs::summary()),
            theme.dim,
        )),
        Some(_) => Line::from(Span::styled("Enter goes there", theme.dim)),
        None => Line::from(""),
    }
}

/// One match: `▶ action   bind IP · service 1001 Static US 25   b   $ proxydash bind 1001 <IP>`.
fn row<'a>(theme: &Theme, c: &'a Candidate, selected: bool, column: usize) -> Line<'a> {
    let style = if selected { theme.selected } else { theme.base };
    let mut spans = vec![
        Span::styled(if selected { "▶ " } else { "  " }, style),
        Span::styled(format!("{:<8} ", c.kind.label()), theme.dim),
        Span::styled(format!("{:<column$}", c.text), style),
    ];
    if !c.note.is_empty() {
        spans.push(Span::styled(format!("  {:<5}", c.note), theme.key));
    }
    if let Some(command) = &c.command {
        spans.push(Span::styled(format!("   $ {command}"), theme.dim));
    }
    Line::from(spans)
}
