//! The look kit: what every part of the dashboard draws with, over plain data — the
//! colours ([`theme`]), a bordered table's areas ([`pane`]), a table drawn from its
//! columns and cells ([`columns`]), and the pieces every view shares ([`widgets`]: the
//! pane block with its freshness, placeholders, detail lists). It sits in the app, below
//! its parts, so that a tab, a popup or a form draws itself in its own file (its
//! `render`); the ui (the shell's lines, the popups' frames, the All view) draws with it
//! too. It reads nothing but what it is given: the time and the settings through
//! [`Seen`], which the app and a tab's [`TabData`](super::data::TabData) both are.

pub mod columns;
pub mod pane;
pub mod theme;
pub mod widgets;

use super::AppSettings;
use chrono::{DateTime, FixedOffset, Utc};
use ratatui::layout::Rect;

/// What a look needs to know besides its data: the time, the offset times are shown in,
/// and the settings (how often data is reread, the account's name over several).
pub trait Seen {
    fn now(&self) -> DateTime<Utc>;
    fn offset(&self) -> FixedOffset;
    fn settings(&self) -> &AppSettings;
}

/// A `w`×`h` box in the middle of `area` (a popup's), no larger than it.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}
