//! The popups: key help, an invoice, a service's or a product's full detail.

use super::layout;
use super::theme::Theme;
use super::widgets;
use super::{billing, forms, products, services};
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
        Popup::Service(id) => {
            // One more line while the IP-list refresh counts down.
            let h = 15 + u16::from(app.countdown(*id).is_some());
            let r = layout::centered(area, 60, h);
            frame.render_widget(Clear, r);
            services::draw_detail(frame, app, theme, r, *id);
        }
        Popup::Product(id) => {
            let r = layout::centered(area, 60, 8);
            frame.render_widget(Clear, r);
            products::draw_detail(frame, app, theme, r, *id);
        }
        Popup::Order(form) => forms::order::draw(frame, app, theme, area, form),
        Popup::BindIp(form) => forms::bind_ip::draw(frame, app, theme, area, form),
        Popup::Password(form) => forms::password::draw(frame, app, theme, area, form),
        Popup::Refresh(form) => forms::refresh::draw(frame, app, theme, area, form),
        Popup::IpList(form) => forms::iplist::draw(frame, app, theme, area, form),
        Popup::Profiles(picker) => draw_profiles(frame, app, theme, area, picker.selected),
        Popup::Messages(scroll) => super::messages::draw(frame, app, theme, area, *scroll),
        Popup::Probe(view) => super::probe::draw(frame, app, theme, area, view),
    }
}

/// `P`: the profiles of the config file, the current one marked.
fn draw_profiles(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, selected: usize) {
    let settings = app.settings();
    let lines: Vec<Line> = settings
        .profiles
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
            Line::from(vec![
                Span::styled(format!("{cursor}{name}"), style),
                Span::styled(current, theme.dim),
            ])
        })
        .collect();
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = layout::centered(area, 40, h);
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines).block(widgets::pane(theme, "Switch profile".into(), Span::raw(""))),
        r,
    );
}

/// Help for the context under the help popup, generated from the key bindings.
fn draw_help(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, index: usize) {
    let mut ctx = app.context();
    ctx.popup = index.checked_sub(1).map(|i| app.popups()[i].kind());
    ctx.editing_filter = false;
    ctx.typing = false;
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
    if lines.len() + 4 <= usize::from(area.height) {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(
            " Esc or ? closes this help",
            theme.dim,
        )));
    }
    let title = match ctx.popup {
        Some(kind) if kind.is_form() => "Keys · form".to_owned(),
        Some(_) => "Keys · popup".to_owned(),
        None => format!("Keys · {}", ctx.tab.title()),
    };
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = layout::centered(area, 64, h);
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines).block(widgets::pane(theme, title, Span::raw(""))),
        r,
    );
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
