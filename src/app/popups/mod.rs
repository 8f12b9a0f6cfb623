//! The popups: one file per popup (its state, its keys and what they do), the
//! [`PopupPane`] each implements, and the macro that turns the one list of them
//! (`popup_parts!` in the app's root, `src/app/mod.rs`) into [`Popup`] (the popup stack's
//! entries), [`PopupKind`] (a popup as the key map sees it) and each question the app asks
//! the popup on top, one match over the list.
//!
//! A popup is a stack entry above the tabs; the top one gets the keys. A viewer (an
//! invoice, a service, a product, a client) only names what it shows: the data stays in
//! the tabs' caches and the mirror, so a result that arrives while one is open (or after
//! it closed) lands in one place. A form ([`Form`](super::forms::Form)) is a popup too,
//! with a list of its own ([`form_list`](super::form_list)): what the app asks of it is in
//! [`super::forms`].
//!
//! **Adding a popup** (the one place this recipe is written): a file here (or in the
//! folder of the feature it belongs to, as the probe's view and the palette are) with the
//! popup's state and its `impl PopupPane`: its title, its keys (`KEYS`, made with
//! [`step_key`](super::keymap::steps::step_key): the footer and the help list them while it
//! is on top, and [`action_for`](super::keymap::action_for) matches them), what they do
//! (`action`, through the context, never the whole app), and the function that opens it;
//! its line in the list; and its `mod` line here, which `cargo fmt` needs to find the file.
//! Its look is `src/ui/popups/<name>.rs`, and its arm in `ui::popups::draw`, which the
//! compiler holds to the list (the match is exhaustive). The keys every popup shares (`?`
//! help, `Esc` and `q` on one that only shows something, `Ctrl-C`) are the key map's.
//! Built this way: [`client`] (Enter on the Clients tab).

pub mod accounts;
pub mod client;
pub mod command_log;
pub mod help;
pub mod invoice;
pub mod messages;
pub mod product;
pub mod profiles;
pub mod service;

pub use super::{Popup, PopupKind};

use super::Cx;
use super::keymap::{Action, Binding};
use crossterm::event::KeyEvent;

/// See the module docs.
pub trait PopupPane {
    /// What the help's title calls it: `Keys · command log`.
    const TITLE: &'static str;
    /// Its own keys, in the order the footer and the help list them (their scopes are not
    /// read: they apply while it is on top).
    const KEYS: &'static [Binding] = &[];

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

/// A boxed popup (the palette: large beside the others) is the popup it holds.
impl<T: PopupPane> PopupPane for Box<T> {
    const TITLE: &'static str = T::TITLE;
    const KEYS: &'static [Binding] = T::KEYS;

    fn is_typing(&self) -> bool {
        (**self).is_typing()
    }
    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        (**self).action(cx, action)
    }
    fn key(&mut self, key: &KeyEvent) -> bool {
        (**self).key(key)
    }
    fn paste(&mut self, text: &str) -> bool {
        (**self).paste(text)
    }
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

/// The one list of the popups: `Form(Type); Variant(State), …`. Writes [`Popup`] (with
/// the forms' variant, `Form`), [`PopupKind`] and the questions the app asks the popup on
/// top, each one match over the list. (The form's type is given by the list, so that the
/// popups name no form: the palette and the forms name the popups.)
macro_rules! popup_parts {
    (Form($form:ty); $($variant:ident($state:ty)),* $(,)?) => {
        /// The popup stack's entries: one variant per popup, holding its state, and the
        /// forms (see [`popups`]).
        #[derive(Debug)]
        pub enum Popup {
            $($variant($state),)*
            /// A form (boxed: the forms are large beside the other popups).
            Form($form),
        }

        /// A popup without its state, for the key bindings. A form is at one of its steps
        /// (each form declares its own, with their keys), or busy, or showing its outcome.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum PopupKind {
            $($variant,)*
            /// A form's step: its fields, a confirmation, a list it shows.
            Step(&'static $crate::app::keymap::steps::FormStep),
            /// A form whose request is on its way.
            FormBusy,
            /// A form that shows its outcome.
            FormDone,
        }

        impl PopupKind {
            /// What the help's title calls it: `Keys · IP list`.
            pub fn title(self) -> &'static str {
                use $crate::app::popups::PopupPane;
                match self {
                    $(PopupKind::$variant => <$state as PopupPane>::TITLE,)*
                    PopupKind::Step(step) => step.title,
                    PopupKind::FormBusy => "sending",
                    PopupKind::FormDone => "result",
                }
            }

            /// Its own keys: the popup's, or the form step's.
            pub fn keys(self) -> &'static [$crate::app::keymap::Binding] {
                use $crate::app::popups::PopupPane;
                match self {
                    $(PopupKind::$variant => <$state as PopupPane>::KEYS,)*
                    PopupKind::Step(step) => step.bindings,
                    PopupKind::FormBusy | PopupKind::FormDone => &[],
                }
            }

            pub fn is_form(self) -> bool {
                matches!(
                    self,
                    PopupKind::Step(_) | PopupKind::FormBusy | PopupKind::FormDone
                )
            }

            /// The form step, if this is one.
            pub fn step(self) -> Option<&'static $crate::app::keymap::steps::FormStep> {
                match self {
                    PopupKind::Step(step) => Some(step),
                    _ => None,
                }
            }
        }

        /// Popups are equal when their states are; a form only equals itself (forms are
        /// not compared field by field).
        impl PartialEq for Popup {
            fn eq(&self, other: &Self) -> bool {
                match (self, other) {
                    $((Popup::$variant(a), Popup::$variant(b)) => a == b,)*
                    (Popup::Form(a), Popup::Form(b)) => std::ptr::eq(a.as_ref(), b.as_ref()),
                    _ => false,
                }
            }
        }

        impl Popup {
            /// What decides the keys: the popup, and for a form the step it is at.
            pub fn kind(&self) -> PopupKind {
                match self {
                    $(Popup::$variant(_) => PopupKind::$variant,)*
                    Popup::Form(f) => f.kind(),
                }
            }

            /// Whether typed keys go to a field (so `q`, `j`, `?` are text).
            pub fn is_typing(&self) -> bool {
                use $crate::app::popups::PopupPane;
                match self {
                    $(Popup::$variant(p) => p.is_typing(),)*
                    Popup::Form(f) => f.is_typing(),
                }
            }

            /// A bound key's action, to a popup that is not a form (a form's are routed
            /// by [`forms`]).
            pub(in crate::app) fn action(
                &mut self,
                cx: &mut $crate::app::Cx<'_>,
                action: $crate::app::keymap::Action,
            ) -> $crate::app::popups::Reply {
                use $crate::app::popups::PopupPane;
                match self {
                    $(Popup::$variant(p) => p.action(cx, action),)*
                    Popup::Form(_) => $crate::app::popups::Reply::Ignored,
                }
            }

            /// A typed key no binding claimed, to a popup that is not a form.
            pub(in crate::app) fn key(&mut self, key: &crossterm::event::KeyEvent) -> bool {
                use $crate::app::popups::PopupPane;
                match self {
                    $(Popup::$variant(p) => p.key(key),)*
                    Popup::Form(_) => false,
                }
            }

            /// A paste, to a popup that is not a form.
            pub(in crate::app) fn paste(&mut self, text: &str) -> bool {
                use $crate::app::popups::PopupPane;
                match self {
                    $(Popup::$variant(p) => p.paste(text),)*
                    Popup::Form(_) => false,
                }
            }
        }
    };
}
pub(super) use popup_parts;
