//! Colours and emphasis, in one place. Every state is also carried by text or a symbol
//! (status words, `▶` for the selection, `!` for due soon, `⚠` for server trouble, "stale
//! since"), so [`Theme::plain`] (for NO_COLOR) stays readable with bold/reverse alone.

use ratatui::style::{Color, Modifier, Style};

/// The look lives in the settings ([`crate::config::Look`]); the theme is how it is drawn.
pub use crate::config::Look;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub base: Style,
    /// The tab line and the header's badges.
    pub bar: Bar,
    pub dim: Style,
    pub border: Style,
    pub title: Style,
    pub header_row: Style,
    pub selected: Style,
    pub good: Style,
    pub warn: Style,
    pub bad: Style,
    pub stale: Style,
    pub error_line: Style,
    pub key: Style,
    pub big: Style,
    /// The Usage chart and gauge.
    pub chart: Chart,
}

/// The tab line and the header's badges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bar {
    pub app_title: Style,
    pub tab_active: Style,
    pub tab_inactive: Style,
    pub badge: Style,
}

/// The Usage chart's line and its gauge, under and over the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chart {
    pub line: Style,
    pub gauge: Style,
    pub gauge_over: Style,
}

impl Default for Theme {
    fn default() -> Self {
        Self::dark()
    }
}

/// The accounts' colours in the dashboard over several accounts, by their place (one
/// left unset in the config takes the next); bold where there is no colour, and the
/// name says the account anyway.
const ACCOUNT_COLOURS: [Color; 8] = [
    Color::Cyan,
    Color::Magenta,
    Color::Yellow,
    Color::Green,
    Color::LightBlue,
    Color::LightRed,
    Color::LightCyan,
    Color::LightMagenta,
];

impl Theme {
    /// The style of account `n`'s name.
    pub fn account(&self, n: u8) -> Style {
        if *self == Self::plain() {
            return self.title;
        }
        let colour = ACCOUNT_COLOURS[usize::from(n) % ACCOUNT_COLOURS.len()];
        Style::new().fg(colour).add_modifier(Modifier::BOLD)
    }

    pub fn for_look(look: Look) -> Self {
        match look {
            Look::Dark => Self::dark(),
            Look::Light => Self::light(),
            Look::Plain => Self::plain(),
        }
    }

    pub fn dark() -> Self {
        let s = Style::new();
        Self {
            base: s,
            bar: Bar {
                app_title: s
                    .fg(Color::Black)
                    .bg(Color::Cyan)
                    .add_modifier(Modifier::BOLD),
                tab_active: s
                    .fg(Color::Black)
                    .bg(Color::White)
                    .add_modifier(Modifier::BOLD),
                tab_inactive: s.fg(Color::Gray),
                badge: s
                    .fg(Color::Black)
                    .bg(Color::Yellow)
                    .add_modifier(Modifier::BOLD),
            },
            dim: s.fg(Color::DarkGray),
            border: s.fg(Color::DarkGray),
            title: s.add_modifier(Modifier::BOLD),
            header_row: s.fg(Color::Cyan).add_modifier(Modifier::BOLD),
            selected: s.add_modifier(Modifier::REVERSED),
            good: s.fg(Color::Green),
            warn: s.fg(Color::Yellow).add_modifier(Modifier::BOLD),
            bad: s.fg(Color::Red).add_modifier(Modifier::BOLD),
            stale: s.fg(Color::Yellow),
            error_line: s.fg(Color::Red),
            key: s.fg(Color::Cyan).add_modifier(Modifier::BOLD),
            big: s.fg(Color::Green).add_modifier(Modifier::BOLD),
            chart: Chart {
                line: s.fg(Color::Cyan),
                gauge: s.fg(Color::Green),
                gauge_over: s.fg(Color::Red),
            },
        }
    }

    /// For light terminal backgrounds: no yellow or light grey text, which fade on white.
    pub fn light() -> Self {
        let s = Style::new();
        Self {
            base: s,
            bar: Bar {
                app_title: s
                    .fg(Color::White)
                    .bg(Color::Blue)
                    .add_modifier(Modifier::BOLD),
                tab_active: s
                    .fg(Color::White)
                    .bg(Color::Black)
                    .add_modifier(Modifier::BOLD),
                tab_inactive: s.fg(Color::DarkGray),
                badge: s
                    .fg(Color::Black)
                    .bg(Color::LightYellow)
                    .add_modifier(Modifier::BOLD),
            },
            dim: s.fg(Color::DarkGray),
            border: s.fg(Color::DarkGray),
            title: s.add_modifier(Modifier::BOLD),
            header_row: s.fg(Color::Blue).add_modifier(Modifier::BOLD),
            selected: s.add_modifier(Modifier::REVERSED),
            good: s.fg(Color::Green),
            warn: s.fg(Color::Magenta).add_modifier(Modifier::BOLD),
            bad: s.fg(Color::Red).add_modifier(Modifier::BOLD),
            stale: s.fg(Color::Magenta),
            error_line: s.fg(Color::Red),
            key: s.fg(Color::Blue).add_modifier(Modifier::BOLD),
            big: s.fg(Color::Blue).add_modifier(Modifier::BOLD),
            chart: Chart {
                line: s.fg(Color::Blue),
                gauge: s.fg(Color::Green),
                gauge_over: s.fg(Color::Red),
            },
        }
    }

    /// No colour at all: emphasis by modifiers only.
    pub fn plain() -> Self {
        let s = Style::new();
        let bold = s.add_modifier(Modifier::BOLD);
        Self {
            base: s,
            bar: Bar {
                app_title: s.add_modifier(Modifier::REVERSED | Modifier::BOLD),
                tab_active: s.add_modifier(Modifier::REVERSED | Modifier::BOLD),
                tab_inactive: s,
                badge: s.add_modifier(Modifier::REVERSED | Modifier::BOLD),
            },
            dim: s.add_modifier(Modifier::DIM),
            border: s,
            title: bold,
            header_row: s.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            selected: s.add_modifier(Modifier::REVERSED),
            good: s,
            warn: bold,
            bad: s.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            stale: s.add_modifier(Modifier::ITALIC),
            error_line: bold,
            key: bold,
            big: bold,
            chart: Chart {
                line: s,
                gauge: s,
                gauge_over: bold,
            },
        }
    }
}
