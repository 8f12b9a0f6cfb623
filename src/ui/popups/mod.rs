//! Where each popup is drawn: [`draw`] is one match over the popups of the list in
//! `src/app/mod.rs`, so a popup added to the list does not build until it is drawn. The
//! viewers (a service, a product, an invoice, a client) draw themselves, beside their
//! state and keys in `crate::app::popups`, and so does the probe's view (in its feature's
//! folder, `crate::app::probe`); the looks here are the shell's own popups', which read
//! what only the shell holds (the help, the messages, the command log, the profile and
//! account pickers, the palette). A form draws itself too, beside its logic
//! (`crate::app::forms`), from the account's data (`App::form_data`).

pub mod accounts;
pub mod command_log;
pub mod help;
pub mod messages;
pub mod palette;
pub mod profiles;

use super::theme::Theme;
use crate::app::App;
use crate::app::geometry::Geometry;
use crate::app::popups::Popup;
use ratatui::Frame;
use ratatui::layout::Rect;

/// Draws popup `index` of the stack; what it measures goes into `view` (how far the service
/// popup can scroll).
pub fn draw(
    frame: &mut Frame,
    app: &App,
    theme: &Theme,
    area: Rect,
    index: usize,
    view: &mut Geometry,
) {
    match &app.popups()[index] {
        Popup::Help(help) => help::draw(frame, app, theme, area, index, help),
        Popup::Invoice(viewer) => viewer.render(frame, area, &app.tab_data(), theme),
        Popup::Service(viewer) => view.service_last = viewer.render(frame, area, app, theme),
        Popup::Product(viewer) => viewer.render(frame, area, app, theme),
        Popup::Form(form) => form.render(frame, area, &app.form_data(), theme),
        Popup::Profiles(picker) => profiles::draw(frame, app, theme, area, picker),
        Popup::Accounts(picker) => accounts::draw(frame, theme, area, picker),
        Popup::Messages(log) => messages::draw(frame, app, theme, area, log),
        Popup::Probe(view) => view.render(frame, area, app, theme),
        Popup::Palette(p) => palette::draw(frame, app, theme, area, p),
        Popup::CommandLog(log) => command_log::draw(frame, app, theme, area, log),
        Popup::Client(card) => card.render(frame, area, &app.tab_data(), theme),
        Popup::ConfirmRun(c) => confirm_run(frame, theme, area, c),
    }
}

/// `confirm = true`: what will run, whole (wrapped), and the keys.
fn confirm_run(
    frame: &mut Frame,
    theme: &Theme,
    area: Rect,
    c: &crate::app::forms::confirm_run::ConfirmRun,
) {
    use ratatui::text::{Line, Span};
    use ratatui::widgets::{Clear, Paragraph, Wrap};
    let command =
        crate::text::sanitize(&crate::app::user_actions::shown_command(&c.run.argv)).into_owned();
    let how = if c.run.background {
        "in the background (its output to m)"
    } else {
        "in this terminal (the dashboard comes back when it ends)"
    };
    let r = crate::app::look::centered(area, area.width.saturating_sub(4).min(90), 9);
    frame.render_widget(Clear, r);
    let lines = vec![
        Line::from(Span::styled(format!("$ {command}"), theme.key)),
        Line::from(""),
        Line::from(Span::styled(format!("Runs {how}."), theme.dim)),
        Line::from(Span::styled("Enter runs it · Esc does not", theme.dim)),
    ];
    let block = crate::app::look::widgets::pane(
        theme,
        crate::text::sanitize(&c.title()).into_owned(),
        Span::raw(""),
    );
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block),
        r,
    );
}
