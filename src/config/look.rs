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
}

/// The colour theme asked for: `--theme` (clap's own parsing) or `theme =` in a profile
/// (read through the same names, any case).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ThemeName {
    #[default]
    #[value(alias = "default")]
    Dark,
    Light,
}

impl std::str::FromStr for ThemeName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        <Self as clap::ValueEnum>::from_str(s.trim(), true)
            .map_err(|_| format!("unknown theme {:?} (dark, light)", s.trim()))
    }
}
