//! `?`: the keys of the context under the help, from the key bindings; a window of them
//! that `j`/`k`/`PgUp`/`PgDn` move when they do not fit, with the position on the edge.

use crate::app::App;
use crate::app::keymap;
use crate::app::popups::help::HelpPopup;
use crate::ui::theme::Theme;
use crate::ui::{layout, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// Help for the context under the help popup, generated from the key bindings.
pub fn draw(
    frame: &mut Frame,
    app: &App,
    theme: &Theme,
    area: Rect,
    index: usize,
    help: &HelpPopup,
) {
    let ctx = app.help_context(index);
    let entries = keymap::help(&ctx);
    let key_width = entries
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line> = entries
        .into_iter()
        .map(|(keys, help)| {
            Line::from(vec![
                Span::styled(format!(" {keys:>key_width$}  "), theme.key),
                Span::raw(help),
            ])
        })
        .collect();
    if ctx.popup.is_none() {
        lines.extend(your_actions(app, ctx.tab, theme, key_width));
    }
    let title = match ctx.popup {
        Some(kind) => format!("Keys · {}", kind.title()),
        None => format!("Keys · {}", ctx.tab.title()),
    };
    // Everything fits, with the closing hint; or a window of it that j/k/PgUp/PgDn move,
    // the position and the keys on the bottom edge.
    let room = usize::from(area.height.saturating_sub(2));
    let total = lines.len();
    let (shown, bottom) = if total + 2 <= room {
        let mut lines = lines;
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(
            " Esc or ? closes this help",
            theme.dim,
        )));
        (lines, None)
    } else {
        let first = help.scroll.min(total.saturating_sub(room));
        let last = (first + room).min(total);
        let bottom = format!(
            " {}–{} of {total} · j/k PgUp/PgDn scroll · Esc closes ",
            first + 1,
            last
        );
        (lines[first..last].to_vec(), Some(bottom))
    };
    let h = (shown.len() as u16 + 2).min(area.height);
    // As wide as the screen allows (up to 88): a long help line is not cut.
    let r = layout::centered(area, 88, h);
    frame.render_widget(Clear, r);
    let mut block = widgets::pane(theme, title, Span::raw(""));
    if let Some(bottom) = bottom {
        block = block.title_bottom(Line::from(Span::styled(bottom, theme.key)).right_aligned());
    }
    frame.render_widget(Paragraph::new(shown).block(block), r);
}

/// Your actions of `tab` (`config::actions`), with what they run, under their heading.
fn your_actions(
    app: &App,
    tab: crate::app::tabs::Tab,
    theme: &Theme,
    key_width: usize,
) -> Vec<Line<'static>> {
    let mine: Vec<_> = crate::app::user_actions::of_tab(&app.settings().actions, tab).collect();
    let mut lines = Vec::new();
    if !mine.is_empty() {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(" Your actions", theme.title)));
    }
    for (_, a) in mine {
        let how = match (a.confirm, a.background) {
            (true, true) => " (asks first)",
            (true, false) => " (asks first; in this terminal)",
            (false, true) => "",
            (false, false) => " (in this terminal)",
        };
        let command = crate::app::user_actions::shown_command(&a.command);
        lines.push(Line::from(vec![
            Span::styled(format!(" {:>key_width$}  ", a.key.to_string()), theme.key),
            Span::raw(format!("{}{how}  ", crate::text::sanitize(&a.description))),
            Span::styled(format!("$ {}", crate::text::sanitize(&command)), theme.dim),
        ]));
    }
    lines
}
