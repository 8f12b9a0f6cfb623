//! The popups' looks: one file per popup of the list in `src/app/mod.rs` (the state and
//! keys are `crate::app::popups`), and the forms' ([`forms`]). [`draw`] is one match over
//! every popup, so a popup added to the list does not build until it has a look here.

pub mod accounts;
pub mod command_log;
pub mod help;
pub mod messages;
pub mod palette;
pub mod probe;
pub mod product;
pub mod profiles;
pub mod service;
mod viewer;

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
        Popup::Service(viewer) => {
            view.service_last = service::draw(frame, app, theme, area, viewer);
        }
        Popup::Product(viewer) => product::draw(frame, app, theme, area, viewer.0),
        Popup::Form(form) => forms::draw(frame, app, theme, area, form),
        Popup::Profiles(picker) => profiles::draw(frame, app, theme, area, picker),
        Popup::Accounts(picker) => accounts::draw(frame, theme, area, picker),
        Popup::Messages(log) => messages::draw(frame, app, theme, area, log),
        Popup::Probe(view) => probe::draw(frame, app, theme, area, view),
        Popup::Palette(p) => palette::draw(frame, app, theme, area, p),
        Popup::CommandLog(log) => command_log::draw(frame, app, theme, area, log),
        Popup::Client(card) => card.render(frame, area, &app.tab_data(), theme),
    }
}
