//! Where each popup is drawn: [`draw`] is one match over the popups of the list in
//! `src/app/mod.rs`, so a popup added to the list does not build until it is drawn. The
//! viewers (a service, a product, an invoice, a client) draw themselves, beside their
//! state and keys in `crate::app::popups`, and so does the probe's view (in its feature's
//! folder, `crate::app::probe`); the looks here are the shell's own popups', which read
//! what only the shell holds (the help, the messages, the command log, the profile and
//! account pickers, the palette), and the forms' ([`forms`]).

pub mod accounts;
pub mod command_log;
pub mod help;
pub mod messages;
pub mod palette;
pub mod profiles;

use super::forms;
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
        Popup::Form(form) => forms::draw(frame, app, theme, area, form),
        Popup::Profiles(picker) => profiles::draw(frame, app, theme, area, picker),
        Popup::Accounts(picker) => accounts::draw(frame, theme, area, picker),
        Popup::Messages(log) => messages::draw(frame, app, theme, area, log),
        Popup::Probe(view) => view.render(frame, area, app, theme),
        Popup::Palette(p) => palette::draw(frame, app, theme, area, p),
        Popup::CommandLog(log) => command_log::draw(frame, app, theme, area, log),
        Popup::Client(card) => card.render(frame, area, &app.tab_data(), theme),
    }
}
