//! The colours the user chose, as a setting: the app keeps it and the view turns it into a
//! theme (`ui::theme::Theme::for_look`), so the state machine needs nothing of the view.

/// Which theme the user chose; `Plain` when `NO_COLOR` is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Look {
    #[default]
    Dark,
    Light,
    /// No colour at all. crossterm turns a colour under `NO_COLOR` into a reset that also
    /// clears bold and reverse, so a coloured theme would lose its emphasis too.
    Plain,
    /// The user's skin at this place of the app's list of skins (`AppSettings::skins`).
    Skin(usize),
}

/// The colour theme asked for, a value of the command line (`--theme`) that a profile's
/// `theme =` is read through too.
pub use crate::options::ThemeName;
