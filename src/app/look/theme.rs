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

    /// The built-in theme of `look` (a skin's place says nothing here: dark).
    pub fn for_look(look: Look) -> Self {
        match look {
            Look::Dark | Look::Skin(_) => Self::dark(),
            Look::Light => Self::light(),
            Look::Plain => Self::plain(),
        }
    }

    /// The theme the settings ask for: a built-in one, or the user's skin.
    pub fn of(settings: &super::super::AppSettings) -> Self {
        match settings.look {
            Look::Skin(i) => settings
                .skins
                .get(i)
                .map_or_else(Self::dark, |(_, skin)| Self::with_skin(skin)),
            look => Self::for_look(look),
        }
    }

    /// A skin's roles over the built-in theme it inherits.
    pub fn with_skin(skin: &crate::config::skin::Skin) -> Self {
        let mut t = Self::for_look(skin.inherits);
        for &(at, style) in &skin.roles {
            if let Some(slot) = crate::config::skin::ROLES
                .get(at)
                .and_then(|role| t.role_mut(role))
            {
                *slot = style;
            }
        }
        t
    }

    /// The style of the role a skin names `role` (see `config::skin::ROLES`).
    fn role_mut(&mut self, role: &str) -> Option<&mut Style> {
        Some(match role {
            "base" => &mut self.base,
            "dim" => &mut self.dim,
            "border" => &mut self.border,
            "title" => &mut self.title,
            "header_row" => &mut self.header_row,
            "selected" => &mut self.selected,
            "good" => &mut self.good,
            "warn" => &mut self.warn,
            "bad" => &mut self.bad,
            "stale" => &mut self.stale,
            "error_line" => &mut self.error_line,
            "key" => &mut self.key,
            "big" => &mut self.big,
            "app_title" => &mut self.bar.app_title,
            "tab_active" => &mut self.bar.tab_active,
            "tab_inactive" => &mut self.bar.tab_inactive,
            "badge" => &mut self.bar.badge,
            "chart_line" => &mut self.chart.line,
            "gauge" => &mut self.chart.gauge,
            "gauge_over" => &mut self.chart.gauge_over,
            _ => return None,
        })
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
