//! [`PopupPane`]: what a popup is to the app (its kind, its own keys' actions), what
//! it makes of a key ([`Reply`]), and a list popup's scrolling. Apart from the popups'
//! folder so that a popup kept with its feature (the probe's view) names this and not
//! the folder, which names the features' data to draw from.

use super::Cx;
use super::PopupKind;
use super::keymap::Action;
use crossterm::event::KeyEvent;

/// What a popup is to the app (see [`popups`](super::popups) for the recipe of a new one).
pub trait PopupPane {
    /// What the key map knows of it: for a popup that is not a form, its `static
    /// PopupInfo` (`PopupKind::Shows(&INFO)`: what the help's title calls it, its own
    /// keys, whose item it shows); a form is at one of its steps.
    fn kind(&self) -> PopupKind;

    /// Whether typed keys go to a field of it (so `q`, `j`, `?` are text).
    fn is_typing(&self) -> bool {
        false
    }

    /// A bound key's action while it is on top. It is off the stack meanwhile, so it may
    /// push another popup through the context, which then goes above it.
    fn action(&mut self, _cx: &mut Cx<'_>, _action: Action) -> Reply {
        Reply::Ignored
    }

    /// A key no binding claimed while it takes typing: whether it took it.
    fn key(&mut self, _key: &KeyEvent) -> bool {
        false
    }

    /// A paste while it takes typing: whether it took it.
    fn paste(&mut self, _text: &str) -> bool {
        false
    }
}

/// What a popup made of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Not its key: it means what it means with any popup on top (`Esc`, `?`, `q`), or
    /// nothing.
    Ignored,
    /// Taken: the popup stays.
    Taken,
    /// Taken: the popup closes.
    Close,
    /// The popup closes, and the app does `action` as if its key were pressed then (the
    /// palette runs an action through exactly its key's path).
    Perform(Action),
    /// The probe runs take it: they outlive the probe's view, so they are the app's, not
    /// the view's ([`Probes`](super::probe::Probes)).
    ToProbes(Action),
}

/// A list popup's movement key: the first line shown, `at`, moved by it, at most to
/// `last` (a page is the screen's height less the popup's frame and the bars); any other
/// key is not the list's.
pub fn scroll(at: &mut usize, action: Action, cx: &Cx<'_>, last: usize) -> Reply {
    let page = usize::from(cx.shell.size.1.saturating_sub(8)).max(1);
    let to = match action {
        Action::Up => at.saturating_sub(1),
        Action::Down => at.saturating_add(1),
        Action::Top => 0,
        Action::Bottom => last,
        Action::PageUp => at.saturating_sub(page),
        Action::PageDown => at.saturating_add(page),
        _ => return Reply::Ignored,
    };
    *at = to.min(last);
    Reply::Taken
}
