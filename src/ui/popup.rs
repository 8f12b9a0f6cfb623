//! The popups: key help, an invoice, a service's or a product's full detail, and the
//! forms (each drawn by its registered widget, see [`forms`]).

use super::layout;
use super::theme::Theme;
use super::widgets;
use super::{billing, forms, text};
use crate::api::Request;
use crate::app::App;
use crate::app::keymap;
use crate::app::popup::Popup;
use crate::app::remote::Remote;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, index: usize) {
    match &app.popups()[index] {
        Popup::Help => draw_help(frame, app, theme, area, index),
        Popup::Invoice(id) => draw_invoice(frame, app, theme, area, *id),
        Popup::Service(id) => super::more::draw_service(frame, app, theme, area, *id),
        Popup::Product(id) => super::more::draw_product(frame, app, theme, area, *id),
        Popup::Form(form) => forms::draw(frame, app, theme, area, form),
        Popup::Profiles(picker) => draw_profiles(frame, app, theme, area, picker.selected),
        Popup::Messages(scroll) => super::messages::draw(frame, app, theme, area, *scroll),
        Popup::Probe(view) => super::probe::draw(frame, app, theme, area, view),
        Popup::Palette(p) => super::palette::draw(frame, theme, area, p),
        Popup::CommandLog(scroll) => {
            super::palette::draw_command_log(frame, app, theme, area, *scroll)
        }
    }
}

/// `P`: the profiles of the config file, the current one marked.
/// Each with its base URL and whether it is read-only.
fn draw_profiles(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, selected: usize) {
    let settings = app.settings();
    let name_width = settings
        .profiles
        .names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0);
    let lines: Vec<Line> = settings
        .profiles
        .names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let cursor = if i == selected { "▶ " } else { "  " };
            let current = if *name == settings.profile {
                "  (current)"
            } else {
                ""
            };
            let style = if i == selected {
                theme.selected
            } else {
                theme.base
            };
            let card = settings.profiles.cards.iter().find(|c| c.name == *name);
            let url = card.and_then(|c| c.base_url.as_deref()).map_or_else(
                || "no base URL".to_owned(),
                |u| text::sanitize(u).into_owned(),
            );
            let mut spans = vec![
                Span::styled(format!("{cursor}{name:<width$}", width = name_width), style),
                Span::styled(format!("  {url}"), theme.dim),
            ];
            if card.is_some_and(|c| c.read_only) {
                spans.push(Span::styled("  read-only", theme.warn));
            }
            spans.push(Span::styled(current, theme.dim));
            Line::from(spans)
        })
        .collect();
    let h = (lines.len() as u16 + 2).min(area.height);
    let widest = lines.iter().map(Line::width).max().unwrap_or(0) as u16;
    let r = layout::centered(area, (widest + 2).clamp(40, area.width), h);
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(widgets::fitted(lines, r.width.saturating_sub(2))).block(widgets::pane(
            theme,
            "Switch profile".into(),
            Span::raw(""),
        )),
        r,
    );
}

/// Help for the context under the help popup, generated from the key bindings.
fn draw_help(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, index: usize) {
    let ctx = app.help_context(index);
    let entries = keymap::help(&ctx);
    let key_width = entries
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let lines: Vec<Line> = entries
        .into_iter()
        .map(|(keys, help)| {
            Line::from(vec![
                Span::styled(format!(" {keys:>key_width$}  "), theme.key),
                Span::raw(help),
            ])
        })
        .collect();
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
        let first = app.help_scroll().min(total.saturating_sub(room));
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

fn draw_invoice(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, id: u64) {
    let remote = app.billing().invoice(id);
    let r = layout::centered(area, 64, 11);
    frame.render_widget(Clear, r);
    let block = widgets::pane(
        theme,
        format!("Invoice {id}"),
        widgets::freshness(app, theme, remote.freshness()),
    );
    let inner = block.inner(r);
    frame.render_widget(block, r);
    match (remote.value(), remote) {
        (Some(list), _) => match list.first() {
            Some(inv) => {
                frame.render_widget(Paragraph::new(billing::invoice_lines(inv, theme)), inner)
            }
            None => widgets::message(
                frame,
                inner,
                "The server returned no such invoice.",
                theme.dim,
            ),
        },
        (None, Remote::Failed { error, .. }) => {
            let line = crate::app::status::error_line(
                &Request::Invoice(id),
                error,
                &app.settings().profile,
            );
            widgets::message(frame, inner, &line, theme.bad);
        }
        (None, _) => widgets::message(frame, inner, "Loading the invoice…", theme.dim),
    }
}
