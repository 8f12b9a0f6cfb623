//! `m`: the message log, newest first: the local time (with the date when not today), the
//! level, and the text, wrapped so a long server message can be read whole. A line said
//! several times in a row shows how many times. Scrolls by entry (↑↓, PgUp/PgDn, g/G).

use crate::app::App;
use crate::app::messages::Entry;
use crate::app::messages::Level;
use crate::app::popups::messages::{Among, MessagesPopup};
use crate::ui::layout;
use crate::ui::theme::Theme;
use crate::ui::widgets;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, popup: &MessagesPopup) {
    let scroll = popup.scroll;
    let r = layout::centered(area, area.width.saturating_sub(4).min(110), area.height);
    frame.render_widget(Clear, r);
    if let Some(all) = &popup.all {
        return draw_all(frame, app, theme, r, scroll, all);
    }
    let log = app.status().messages();
    let title = if log.is_empty() {
        "Messages".to_owned()
    } else {
        format!(
            "Messages · {} of {} · newest first",
            (scroll + 1).min(log.len()),
            log.len()
        )
    };
    let mut lines = pending_lines(app, theme);
    lines.extend(
        log.newest_first()
            .skip(scroll)
            .take(usize::from(r.height))
            .map(|e| entry_line(app, theme, e, Vec::new())),
    );
    if log.is_empty() {
        lines.push(Line::from(Span::styled(
            "Nothing yet: failures, notices and order outcomes are listed here.",
            theme.dim,
        )));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(widgets::pane(theme, title, Span::raw(""))),
        r,
    );
}

/// The most requests `m` lists under `⟳ N pending`; the rest are counted.
const PENDING_SHOWN: usize = 6;

/// What the header's `⟳ N pending` stands for, above the log: why it waits (the
/// server's limit, the budget's pace, or the answers on their way) and each request with
/// how long ago it was asked, oldest first. Nothing while nothing waits.
fn pending_lines(app: &App, theme: &Theme) -> Vec<Line<'static>> {
    let pending = app.account().pending();
    if pending.is_empty() {
        return Vec::new();
    }
    let why = app
        .budget_waiting()
        .unwrap_or_else(|| "sent, waiting for the answers".to_owned());
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("⟳ {} pending", crate::text::count(pending.len() as u64)),
            theme.title,
        ),
        Span::styled(format!(" · {why}"), theme.dim),
    ])];
    let now = app.now();
    for (what, asked) in pending.iter().take(PENDING_SHOWN) {
        let when = asked.map_or_else(
            || "a write on its way".to_owned(),
            |at| format!("asked {}", crate::text::age(now, at)),
        );
        lines.push(Line::from(vec![
            Span::raw(format!("  {}", crate::text::sanitize(what))),
            Span::styled(format!("  {when}"), theme.dim),
        ]));
    }
    if pending.len() > PENDING_SHOWN {
        lines.push(Line::from(Span::styled(
            format!(
                "  … and {} more",
                crate::text::count((pending.len() - PENDING_SHOWN) as u64)
            ),
            theme.dim,
        )));
    }
    lines.push(Line::from(""));
    lines
}

/// One entry: its time, level and text (and how many times it was said), after `lead`.
fn entry_line<'a>(app: &App, theme: &Theme, e: &Entry, lead: Vec<Span<'a>>) -> Line<'a> {
    let (mark, style) = match e.level {
        Level::Error => ("✗", theme.error_line),
        Level::Warn => ("⚠", theme.warn),
        Level::Info => ("•", theme.base),
        Level::Success => ("✓", theme.good),
    };
    let times = if e.count > 1 {
        format!("  (×{})", e.count)
    } else {
        String::new()
    };
    let mut spans = vec![Span::styled(
        format!("{} ", widgets::clock_time(app, e.at)),
        theme.dim,
    )];
    spans.extend(lead);
    spans.extend([
        Span::styled(format!("{mark} {:<7} ", e.level.label()), style),
        Span::styled(e.text.clone(), style),
        Span::styled(times, theme.dim),
    ]);
    Line::from(spans)
}

/// `m` in All: every account's entries, newest first, each after its account.
fn draw_all(
    frame: &mut Frame,
    app: &App,
    theme: &Theme,
    r: Rect,
    scroll: usize,
    all: &[Among<Entry>],
) {
    let title = if all.is_empty() {
        "Messages · every account".to_owned()
    } else {
        format!(
            "Messages · every account · {} of {} · newest first",
            (scroll + 1).min(all.len()),
            all.len()
        )
    };
    let width = all
        .iter()
        .map(|a| a.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line> = all
        .iter()
        .skip(scroll)
        .take(usize::from(r.height))
        .map(|a| {
            let lead = vec![Span::styled(
                format!("{:<width$} ", a.name),
                theme.account(a.colour),
            )];
            entry_line(app, theme, &a.entry, lead)
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::from(Span::styled(
            "Nothing yet, in any account: failures, notices and order outcomes are listed here.",
            theme.dim,
        )));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(widgets::pane(theme, title, Span::raw(""))),
        r,
    );
}
