//! Rendering: a pure function of the [`App`]'s state. No I/O, no clock but the app's.
//! What the view measures while drawing (each table's rows, the tab titles, how far the
//! service popup scrolls) it writes into a [`Geometry`] passed `&mut`, as ratatui's
//! stateful widgets write their `TableState`: the driver hands it to the app after the
//! frame, and nothing is drawn twice for it.
//!
//! The screen is: the tab line (app name and numbered tabs), the info line (profile, host,
//! DEMO badge, requests in flight), the current tab's body, the status line (the newest
//! error, or activity), and the footer (the most relevant keys, generated from the key
//! bindings). Popups stack on top. Made for 80×24 and up; below 40×8 one line asks for a
//! bigger terminal.

pub mod all;

pub mod layout;
pub mod popups;
pub mod text;

// The look kit the components draw with, below the app's parts (see `app::look`).
pub use crate::app::look::{columns, pane, theme, widgets};
/// The Services look, by its old name (the tests find the password mask there).
pub use crate::app::tabs::services::look as services;

#[cfg(test)]
pub(crate) mod tests;

use crate::app::App;
use crate::app::geometry::Geometry;
use crate::app::keymap;
use crate::app::tabs::{Rows, Tab};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use theme::Theme;

/// What a screen below the minimum shows.
pub const TOO_SMALL: &str = "terminal too small (need 40×8)";

/// Draws the app with the default theme, for a reader that keeps no measurements (a
/// snapshot, a benchmark): the frame is the same either way.
pub fn draw(app: &App, frame: &mut Frame) {
    draw_with(app, frame, &Theme::of(app.settings()));
}

/// [`draw`] with a theme (a light theme and NO_COLOR come through here).
pub fn draw_with(app: &App, frame: &mut Frame, theme: &Theme) {
    draw_in(app, frame, theme, frame.area(), &mut Geometry::default());
}

/// What a frame of `app` on `area` measures, for those who stand in for the run loop (the
/// headless sessions, the tests' harness) and need the measures, not the frame: the
/// tables' pages come from the layout alone, and only a popup's (the service popup's
/// scroll bound) needs a frame drawn, off screen, so one is drawn only while a popup is
/// open (a debug build's draw after every message made the tests several times slower).
pub fn measure(app: &App, area: Rect) -> Geometry {
    if app.popups().is_empty() {
        return layout::geometry(app, area);
    }
    let mut view = Geometry::default();
    let backend = ratatui::backend::TestBackend::new(area.width, area.height);
    let theme = Theme::of(app.settings());
    ratatui::Terminal::new(backend)
        .and_then(|mut t| {
            t.draw(|f| draw_in(app, f, &theme, f.area(), &mut view))
                .map(drop)
        })
        .expect("an off-screen buffer never fails");
    view
}

/// Draws the app in `area` of the frame (the dashboard over several accounts keeps a line
/// above it for the accounts), writing what it lays out into `view` (see
/// [`crate::app::geometry`]).
pub fn draw_in(app: &App, frame: &mut Frame, theme: &Theme, area: Rect, view: &mut Geometry) {
    *view = layout::geometry(app, area);
    let Some(screen) = layout::screen(area) else {
        frame.render_widget(
            Paragraph::new(Span::styled(TOO_SMALL, theme.warn)),
            Rect {
                height: area.height.min(1),
                ..area
            },
        );
        return;
    };
    draw_tabs(frame, app, theme, screen.tabs);
    draw_info(frame, app, theme, screen.info);
    // The tab on screen draws itself (`TabPane::render`).
    app.render_tab((app.tab(), &Rows::One), frame, screen.body, theme);
    draw_status(frame, app, theme, screen.status);
    draw_footer(frame, app, theme, screen.footer);
    for i in 0..app.popups().len() {
        popups::draw(frame, app, theme, screen.body, i, view);
    }
}

fn draw_tabs(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let open = app.alerts().open_count();
    let count = crate::app::tabs::alerts::look::count_style(app.alerts(), theme);
    tab_line(frame, theme, area, (app.tab(), open, count));
}

/// The tab line: the program's name where it fits, each tab's title, the `shown` tab
/// marked, and the Alerts tab's count of `open` alerts in the style `count` while any is
/// open (one account's or every account's).
pub(crate) fn tab_line(
    frame: &mut Frame,
    theme: &Theme,
    area: Rect,
    (shown, open, count): (Tab, usize, ratatui::style::Style),
) {
    if layout::shows_app_title(area, open) {
        frame.render_widget(
            Paragraph::new(Span::styled(layout::APP_TITLE, theme.bar.app_title)),
            area,
        );
    }
    for (tab, r) in layout::tab_titles(area, open) {
        let style = if tab == shown {
            theme.bar.tab_active
        } else if tab == Tab::Alerts && open > 0 {
            count
        } else {
            theme.bar.tab_inactive
        };
        frame.render_widget(
            Paragraph::new(Span::styled(layout::tab_title(tab, open), style)),
            r,
        );
    }
}

/// The host (and port) of the base URL, or the URL as given when it does not parse.
fn host(base_url: &str) -> String {
    match url::Url::parse(base_url) {
        Ok(u) => match (u.host_str(), u.port()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_owned(),
            _ => base_url.to_owned(),
        },
        Err(_) => base_url.to_owned(),
    }
}

fn draw_info(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let s = app.settings();
    let mut spans = vec![
        Span::styled(" profile ", theme.dim),
        Span::styled(text::sanitize(&s.profile).into_owned(), theme.title),
    ];
    if !s.base_url.is_empty() {
        spans.push(Span::styled("  at ", theme.dim));
        spans.push(Span::raw(text::sanitize(&host(&s.base_url)).into_owned()));
    }
    if s.demo {
        spans.push(Span::raw("  "));
        spans.push(Span::styled(" DEMO ", theme.bar.badge));
    }
    // Said where the account is named, so a monitoring screen is never taken for one that
    // can order (issue 16.8).
    if s.read_only {
        spans.push(Span::raw("  "));
        spans.push(Span::styled(" READ-ONLY ", theme.bar.badge));
    }
    if let Some(waiting) = app.waiting() {
        spans.push(Span::styled(
            format!("  ⟳ {}", text::sanitize(waiting)),
            theme.dim,
        ));
    } else if let Some(warning) = s.warnings.first() {
        // The fix leads the text, so what a narrow screen cuts is the explanation.
        spans.push(Span::styled(
            format!("  ⚠ {}", text::sanitize(warning)),
            theme.bad,
        ));
    }
    let busy = app.in_flight();
    let mut right = Vec::new();
    // The connection outranks the budget: a budget is no news while nothing answers.
    if let Some(link) = app.connection_label() {
        // Throttled is a pause, not a failure.
        let (mark, style) = if app.connection().down().is_some() || app.no_answer_since().is_some()
        {
            ("✗", theme.bad)
        } else {
            ("⏸", theme.warn)
        };
        right.push(Span::styled(format!(" {mark} API {link} "), style));
    } else if let Some(budget) = app.budget_label() {
        // Whatever the status line shows, the header says when the budget holds reads.
        match app.budget_next() {
            Some(next) => {
                right.push(Span::styled(format!(" {budget} · "), theme.dim));
                right.push(Span::styled(format!("{next} "), theme.warn));
            }
            None => right.push(Span::styled(format!(" {budget} "), theme.dim)),
        }
    }
    // The reads on their way: sent, or queued for the budget.
    if busy > 0 {
        right.push(Span::styled(
            format!(" ⟳ {} pending ", text::count(busy as u64)),
            theme.dim,
        ));
    }
    // The budget and the activity keep their own room on the right, so they never cover
    // the text.
    let room: u16 = right.iter().map(|s| s.content.chars().count() as u16).sum();
    let left = Rect {
        width: area.width.saturating_sub(room),
        ..area
    };
    frame.render_widget(Paragraph::new(Line::from(spans)), left);
    if !right.is_empty() {
        frame.render_widget(Paragraph::new(Line::from(right).right_aligned()), area);
    }
}

pub fn draw_status(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    use crate::app::status::{NoticeKind, Shown};
    let line = match app.status().shown() {
        Some(Shown::Failure(msg, more)) => {
            // The count goes on the right and the message gives way, so "(+2 more)" is
            // never cut off on a narrow screen; it names the key of the log in full when
            // the message leaves room, in short when not.
            let needs = 3 + msg.chars().count();
            let long = format!("  (+{more} more · m: messages)");
            let more = if more == 0 {
                String::new()
            } else if needs + long.chars().count() <= usize::from(area.width) {
                long
            } else {
                format!("  (+{more} more · m)")
            };
            let room = usize::from(area.width).saturating_sub(3 + more.chars().count());
            let msg = text::truncate(msg, room);
            Line::from(vec![
                Span::styled(format!(" ✗ {msg}"), theme.error_line),
                Span::styled(more, theme.dim),
            ])
        }
        Some(Shown::Notice(n)) => {
            let (mark, style) = match n.kind {
                NoticeKind::Done => ("✓", theme.good),
                NoticeKind::Info => ("•", theme.warn),
                NoticeKind::Warn => ("⚠", theme.warn),
                NoticeKind::Error => ("✗", theme.error_line),
            };
            // Failures hidden behind a notice are still pointed at, as far as the
            // notice's own text leaves room: the notice comes first.
            let pending = app.status().more();
            let width = usize::from(area.width);
            let needs = 3 + n.text.chars().count();
            let more = [
                format!("  (+{pending} more · m: messages)"),
                format!("  (+{pending} · m)"),
            ]
            .into_iter()
            .filter(|_| pending > 0)
            .find(|m| needs + m.chars().count() <= width)
            .unwrap_or_default();
            let room = width.saturating_sub(3 + more.chars().count());
            Line::from(vec![
                Span::styled(format!(" {mark} {}", text::truncate(&n.text, room)), style),
                Span::styled(more, theme.dim),
            ])
        }
        None if app.budget_waiting().is_some() => Line::from(Span::styled(
            format!(" ⏸ {}", app.budget_waiting().unwrap_or_default()),
            theme.warn,
        )),
        None if app.in_flight() > 0 => Line::from(Span::styled(" Loading…", theme.dim)),
        None => Line::from(Span::styled(" ✓ Up to date", theme.dim)),
    };
    frame.render_widget(Paragraph::new(line), area);
}

pub fn draw_footer(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let ctx = app.context();
    // Your actions of the tab, after the built-in keys, where they fit.
    let mine: Vec<(String, String)> = if ctx.popup.is_none() {
        crate::app::user_actions::of_tab(&app.settings().actions, ctx.tab)
            .map(|(_, a)| (a.key.to_string(), a.description.clone()))
            .collect()
    } else {
        Vec::new()
    };
    draw_footer_with(frame, &ctx, &mine, theme, area);
}

/// The footer of the keys of `ctx` (the All view over several accounts has its own
/// context, and the same key map).
pub fn draw_footer_in(frame: &mut Frame, ctx: &keymap::Context, theme: &Theme, area: Rect) {
    draw_footer_with(frame, ctx, &[], theme, area);
}

/// [`draw_footer_in`] with your actions after the built-in keys (only where they all fit
/// with them: the built-in ones keep their room, `?` lists the rest).
fn draw_footer_with(
    frame: &mut Frame,
    ctx: &keymap::Context,
    mine: &[(String, String)],
    theme: &Theme,
    area: Rect,
) {
    let ctx = *ctx;
    let mut spans = vec![Span::raw(" ")];
    let mut used = 1;
    if ctx.editing_filter {
        let lead = "type to filter  ";
        spans.push(Span::styled(lead, theme.dim));
        used += lead.chars().count();
    }
    // When some keys do not fit, the last place says that `?` lists them all.
    const MORE: &str = "…? more";
    let items = keymap::footer(&ctx);
    let width_of =
        |(keys, word): &(String, &str)| keys.chars().count() + 1 + word.chars().count() + 2;
    let all: usize = items.iter().map(width_of).sum();
    let room = if used + all > usize::from(area.width) {
        usize::from(area.width).saturating_sub(MORE.chars().count())
    } else {
        usize::from(area.width)
    };
    let mut cut = false;
    for item in items {
        let w = width_of(&item);
        if used + w > room {
            cut = true;
            break;
        }
        used += w;
        let (keys, word) = item;
        spans.push(Span::styled(keys, theme.key));
        spans.push(Span::raw(format!(" {word}  ")));
    }
    if !cut {
        for (keys, word) in mine {
            let w = keys.chars().count() + 1 + word.chars().count() + 2;
            if used + w > usize::from(area.width) {
                break;
            }
            used += w;
            spans.push(Span::styled(keys.clone(), theme.key));
            spans.push(Span::raw(format!(" {}  ", crate::text::sanitize(word))));
        }
    }
    if cut {
        spans.push(Span::styled(MORE, theme.dim));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
