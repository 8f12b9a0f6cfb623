//! A profile's `colour`: the account's colour beside other accounts in the dashboard.

/// The colours an account can have beside others, by name, in the order of the theme's
/// own (`ui::theme`).
pub const ACCOUNT_COLOURS: [&str; 8] = [
    "cyan",
    "magenta",
    "yellow",
    "green",
    "blue",
    "red",
    "light-cyan",
    "light-magenta",
];

/// A profile's `colour`: its place in [`ACCOUNT_COLOURS`].
pub fn account_colour(name: &str) -> Result<u8, String> {
    let wanted = name.trim().to_ascii_lowercase().replace(['_', ' '], "-");
    ACCOUNT_COLOURS
        .iter()
        .position(|c| *c == wanted)
        .map(|i| i as u8)
        .ok_or_else(|| format!("{name:?} is not one of {}", ACCOUNT_COLOURS.join(", ")))
}
