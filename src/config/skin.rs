//! Skins: a theme of the user's own, read as configuration (the view applies it:
//! `app::look::theme::Theme::with_skin`), `themes/NAME.toml` beside the config file
//! (`$XDG_CONFIG_HOME/proxydash/themes/NAME.toml`), chosen with `theme = "NAME"` in a
//! profile, `--theme NAME`, or `:theme NAME` in the palette. It gives the colours of the
//! look kit's roles; a role it leaves out is the built-in theme's it names with
//! `inherits` (`dark`, the default, or `light`):
//!
//! ```toml
//! inherits = "dark"
//! title = { fg = "#8ec07c", bold = true }
//! warn = "yellow"
//! selected = { fg = "black", bg = "#d79921" }
//! ```
//!
//! A colour is a name (`red`, `lightblue`, `gray`…), `#rrggbb`, or an index `0`–`255`; a
//! role's table takes `fg`, `bg` and the flags `bold`, `dim`, `italic`, `underlined`,
//! `reversed`. A file that does not read (bad TOML, an unknown role or key, a colour that
//! is none) is refused whole with its line: the built-in theme is used and the header says
//! why. `NO_COLOR` still wins over any skin. Files are read once at start, at most
//! [`MAX_BYTES`] each and [`MAX_SKINS`] of them, never while the screen runs.

use super::Look;
use ratatui::style::{Color, Modifier, Style};
use std::path::{Path, PathBuf};

/// The most bytes of a skin file read.
pub const MAX_BYTES: u64 = 64 * 1024;
/// The most skins offered by `:theme`.
pub const MAX_SKINS: usize = 32;

/// The roles a skin may colour, by the name the file gives them.
pub const ROLES: &[&str] = &[
    "base",
    "dim",
    "border",
    "title",
    "header_row",
    "selected",
    "good",
    "warn",
    "bad",
    "stale",
    "error_line",
    "key",
    "big",
    "app_title",
    "tab_active",
    "tab_inactive",
    "badge",
    "chart_line",
    "gauge",
    "gauge_over",
];

/// A skin as read: the built-in look it inherits (`Dark` or `Light`) and the style of each
/// role it gives, by its place in [`ROLES`] (the view's theme applies them:
/// `Theme::with_skin`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skin {
    pub inherits: Look,
    pub roles: Vec<(usize, Style)>,
}

/// Where the skins of the config file at `config` are: `themes/` beside it.
pub fn dir_of(config: &Path) -> Option<PathBuf> {
    Some(config.parent()?.join("themes"))
}

pub use crate::options::is_skin_name as is_name;

/// The skin `name` of `dir`, or why not (with the file and its line).
pub fn load(dir: &Path, name: &str) -> Result<Skin, String> {
    if !is_name(name) {
        return Err(format!(
            "theme {name:?} is not a name (letters, digits, - and _)"
        ));
    }
    let path = dir.join(format!("{name}.toml"));
    let shown = path.display();
    let text = match crate::files::read_state(&path, MAX_BYTES) {
        Ok(Some(bytes)) => String::from_utf8(bytes).map_err(|_| format!("{shown}: not UTF-8"))?,
        Ok(None) => return Err(format!("no theme {name:?}: {shown} does not exist")),
        Err(e) => return Err(format!("{shown}: {e}")),
    };
    // What is wrong first: a narrow header cuts the folder, not the fix.
    parse(&text)
        .map_err(|(line, why)| format!("{name}.toml line {line}: {why} (in {})", dir.display()))
}

/// Every skin of `dir` that reads, by name (sorted; at most [`MAX_SKINS`]), and what was
/// wrong with the others.
pub fn load_all(dir: &Path) -> (Vec<(String, Skin)>, Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (Vec::new(), Vec::new());
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".toml")?;
            is_name(stem).then(|| stem.to_owned())
        })
        .collect();
    names.sort();
    names.truncate(MAX_SKINS);
    let (mut skins, mut bad) = (Vec::new(), Vec::new());
    for name in names {
        match load(dir, &name) {
            Ok(theme) => skins.push((name, theme)),
            Err(why) => bad.push(why),
        }
    }
    (skins, bad)
}

/// The look the settings ask for and the user's skins (`themes/*.toml` beside the config
/// file, read once here): `NO_COLOR` wins; a skin that does not read is said, with its
/// file and line, and the dark theme is used.
pub fn resolve(settings: &crate::config::Settings) -> (Look, Vec<(String, Skin)>, Option<String>) {
    let dir = settings
        .config_path
        .clone()
        .or_else(crate::config::file::default_path)
        .and_then(|p| dir_of(&p));
    let (mut skins, _) = dir.as_deref().map(load_all).unwrap_or_default();
    if settings.no_color {
        return (Look::Plain, skins, None);
    }
    let look = match &settings.theme {
        super::ThemeName::Dark => Look::Dark,
        super::ThemeName::Light => Look::Light,
        super::ThemeName::Skin(name) => match skins.iter().position(|(n, _)| n == name) {
            Some(i) => Look::Skin(i),
            None => {
                let loaded = match dir.as_deref() {
                    Some(dir) => load(dir, name),
                    None => Err("no config folder to read themes/ from".to_owned()),
                };
                match loaded {
                    // Past the most listed, but asked for by name.
                    Ok(theme) => {
                        skins.push((name.clone(), theme));
                        Look::Skin(skins.len() - 1)
                    }
                    Err(why) => {
                        let said = format!("theme {name} not used (dark instead): {why}");
                        return (Look::Dark, skins, Some(said));
                    }
                }
            }
        },
    };
    (look, skins, None)
}

/// A skin's text, or the line and what is wrong there.
pub fn parse(text: &str) -> Result<Skin, (usize, String)> {
    let line_of_offset = |at: usize| text[..at.min(text.len())].matches('\n').count() + 1;
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let line = e.span().map_or(1, |s| line_of_offset(s.start));
        (line, e.message().to_owned())
    })?;
    // The line a key is written on (the first that starts with it).
    let line_of = |key: &str| {
        text.lines()
            .position(|l| {
                l.trim_start()
                    .strip_prefix(key)
                    .is_some_and(|rest| rest.trim_start().starts_with('='))
            })
            .map_or(1, |i| i + 1)
    };
    let inherits = match table.get("inherits") {
        None => Look::Dark,
        Some(toml::Value::String(s)) if s == "dark" => Look::Dark,
        Some(toml::Value::String(s)) if s == "light" => Look::Light,
        Some(v) => {
            return Err((
                line_of("inherits"),
                format!("inherits is \"dark\" or \"light\", not {v}"),
            ));
        }
    };
    let mut roles = Vec::new();
    for (key, value) in &table {
        if key == "inherits" {
            continue;
        }
        let Some(at) = ROLES.iter().position(|r| r == key) else {
            return Err((
                line_of(key),
                format!("no role {key:?} (the roles: {})", ROLES.join(", ")),
            ));
        };
        let style = style(value).map_err(|why| (line_of(key), format!("{key}: {why}")))?;
        roles.push((at, style));
    }
    Ok(Skin { inherits, roles })
}

/// A role's value: a colour (the foreground), or a table of `fg`, `bg` and flags.
fn style(value: &toml::Value) -> Result<Style, String> {
    match value {
        toml::Value::String(_) | toml::Value::Integer(_) => Ok(Style::new().fg(colour(value)?)),
        toml::Value::Table(t) => {
            let mut s = Style::new();
            for (k, v) in t {
                let flag = |m: Modifier| match v {
                    toml::Value::Boolean(true) => Ok(Some(m)),
                    toml::Value::Boolean(false) => Ok(None),
                    _ => Err(format!("{k} is true or false")),
                };
                let modifier = match k.as_str() {
                    "fg" => {
                        s = s.fg(colour(v)?);
                        None
                    }
                    "bg" => {
                        s = s.bg(colour(v)?);
                        None
                    }
                    "bold" => flag(Modifier::BOLD)?,
                    "dim" => flag(Modifier::DIM)?,
                    "italic" => flag(Modifier::ITALIC)?,
                    "underlined" => flag(Modifier::UNDERLINED)?,
                    "reversed" => flag(Modifier::REVERSED)?,
                    _ => {
                        return Err(format!(
                            "no key {k:?} (fg, bg, bold, dim, italic, underlined, reversed)"
                        ));
                    }
                };
                if let Some(m) = modifier {
                    s = s.add_modifier(m);
                }
            }
            Ok(s)
        }
        other => Err(format!("a colour or a table, not {other}")),
    }
}

/// `red`, `lightblue`, `#rrggbb`, or `0`–`255`.
fn colour(value: &toml::Value) -> Result<Color, String> {
    match value {
        toml::Value::Integer(i) => u8::try_from(*i)
            .map(Color::Indexed)
            .map_err(|_| format!("{i} is no colour index (0-255)")),
        toml::Value::String(s) => s.parse::<Color>().map_err(|_| {
            format!("{s:?} is no colour (a name like red or lightblue, #rrggbb, or 0-255)")
        }),
        other => Err(format!("{other} is no colour")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skin_gives_the_styles_of_its_roles() {
        let s = parse(
            "inherits = \"light\"\ntitle = { fg = \"#8ec07c\", bold = true }\nwarn = \"yellow\"\nbadge = 208\n",
        )
        .unwrap();
        assert_eq!(s.inherits, Look::Light);
        let of = |role: &str| {
            let at = ROLES.iter().position(|r| *r == role).unwrap();
            s.roles.iter().find(|(i, _)| *i == at).map(|(_, st)| *st)
        };
        assert_eq!(
            of("title"),
            Some(
                Style::new()
                    .fg(Color::Rgb(0x8e, 0xc0, 0x7c))
                    .add_modifier(Modifier::BOLD)
            )
        );
        assert_eq!(of("warn"), Some(Style::new().fg(Color::Yellow)));
        assert_eq!(of("badge"), Some(Style::new().fg(Color::Indexed(208))));
        assert_eq!(of("bad"), None, "inherited");
    }

    #[test]
    fn a_bad_file_names_its_line() {
        let line = |text: &str| parse(text).unwrap_err();
        assert_eq!(line("warn = \"red\"\ntitel = \"blue\"\n").0, 2);
        assert!(
            line("warn = \"red\"\ntitel = \"blue\"\n")
                .1
                .contains("no role \"titel\"")
        );
        let (n, why) = line("\n\nwarn = \"blurple\"\n");
        assert_eq!(n, 3);
        assert!(why.contains("\"blurple\" is no colour"), "{why}");
        assert_eq!(line("warn = { fg = \"red\", blink = true }").0, 1);
        assert_eq!(line("a = 1\nwarn = [\n").0, 2, "bad TOML");
        assert!(line("inherits = \"neon\"").1.contains("dark"));
    }

    #[test]
    fn names_are_names_not_paths() {
        assert!(is_name("gruvbox-dark_2"));
        for bad in ["", "../x", "a/b", "a.b", "x y"] {
            assert!(!is_name(bad), "{bad}");
        }
    }
}

#[cfg(test)]
mod files {
    use super::*;

    #[test]
    fn the_skins_of_a_folder_are_read_and_a_bad_one_is_said_with_its_line() {
        let dir = std::env::temp_dir().join(format!("proxydash-skins-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("neon.toml"), "warn = \"#ffff00\"\n").unwrap();
        std::fs::write(dir.join("broken.toml"), "# mine\nwarn = \"blurple\"\n").unwrap();
        std::fs::write(dir.join("not a name.toml"), "").unwrap();
        let (skins, bad) = load_all(&dir);
        assert_eq!(
            skins.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            ["neon"]
        );
        assert_eq!(bad.len(), 1);
        let why = load(&dir, "broken").unwrap_err();
        assert!(why.starts_with("broken.toml line 2: warn: \"blurple\" is no colour (a name like red or lightblue, #rrggbb, or 0-255) (in "), "{why}");
        assert!(
            load(&dir, "gone")
                .unwrap_err()
                .starts_with("no theme \"gone\"")
        );
        assert!(load(&dir, "../etc").unwrap_err().contains("not a name"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
