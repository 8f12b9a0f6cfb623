//! Styled snapshots: one screen per tab in the dark, light and plain (`NO_COLOR`) looks,
//! with the colours and modifiers of every cell, so a colour regression or a colour
//! leaking into the plain look fails (the text snapshots elsewhere pass on both).
//!
//! The serialisation is [`styled`]: each row's text, then, indented under it, the runs of
//! cells that share a style other than the terminal's default, as
//! `columns fg/bg MODIFIERS` (`·` is the terminal's default colour). 80×24, the smallest
//! size the dashboard supports, keeps the files short.

use crate::app::App;
use crate::app::Msg;
use crate::testkit::{Harness, settings};
use crate::ui::theme::Look;
use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use std::fmt::Write;

const LOOKS: [(Look, &str); 3] = [
    (Look::Dark, "dark"),
    (Look::Light, "light"),
    (Look::Plain, "plain"),
];

/// The key that opens each tab, and its name in the snapshot files.
const TABS: [(char, &str); 6] = [
    ('1', "services"),
    ('2', "products"),
    ('3', "billing"),
    ('4', "network"),
    ('5', "usage"),
    ('6', "alerts"),
];

/// The standard account in `look`, loaded, refreshed once 30 s later (so the Alerts tab
/// has open alerts), on the tab of `key`.
fn on_tab(look: Look, key: char) -> Harness {
    let mut h = Harness::with(crate::app::AppSettings { look, ..settings() });
    let cmds = h.app.start();
    h.settle(cmds);
    h.advance(30);
    let cmds = h.key('R');
    h.settle(cmds);
    let cmds = h.key(key);
    h.settle(cmds);
    h
}

fn draw(app: &mut App, w: u16, h: u16) -> Buffer {
    let _ = app.update(Msg::Resize(w, h));
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| super::super::draw(app, f)).unwrap();
    terminal.backend().buffer().clone()
}

fn colour(c: Color) -> String {
    match c {
        Color::Reset => "·".into(),
        other => format!("{other:?}"),
    }
}

/// A cell's style as written in the snapshot; `None` for the terminal's default.
fn style_of(cell: &ratatui::buffer::Cell) -> Option<String> {
    if cell.fg == Color::Reset && cell.bg == Color::Reset && cell.modifier.is_empty() {
        return None;
    }
    let mut s = format!("{}/{}", colour(cell.fg), colour(cell.bg));
    if !cell.modifier.is_empty() {
        let names: Vec<&str> = cell.modifier.iter_names().map(|(n, _)| n).collect();
        write!(s, " {}", names.join("|")).unwrap();
    }
    Some(s)
}

/// The buffer as text, each row followed by its style runs (see the module docs).
pub fn styled(buffer: &Buffer) -> String {
    let width = buffer.area.width as usize;
    let mut out = String::new();
    for row in buffer.content.chunks(width) {
        let text: String = row.iter().map(|c| c.symbol()).collect();
        out.push_str(text.trim_end());
        out.push('\n');
        let mut runs = Vec::new();
        let mut x = 0;
        while x < row.len() {
            let style = style_of(&row[x]);
            let start = x;
            while x < row.len() && style_of(&row[x]) == style {
                x += 1;
            }
            if let Some(style) = style {
                runs.push(format!("{start}-{} {style}", x - 1));
            }
        }
        if !runs.is_empty() {
            writeln!(out, "    {}", runs.join("; ")).unwrap();
        }
    }
    out
}

#[test]
fn every_tab_in_every_look() {
    for (look, look_name) in LOOKS {
        for (key, tab) in TABS {
            let mut h = on_tab(look, key);
            let buffer = draw(&mut h.app, 80, 24);
            insta::with_settings!({ snapshot_suffix => format!("{tab}_{look_name}") }, {
                assert_snapshot!(styled(&buffer));
            });
        }
    }
}

/// Independent of the stored files: the plain look has no colour in any cell of any tab
/// (bold and reverse carry its emphasis), and the coloured looks do colour something.
#[test]
fn the_plain_look_has_no_colour_and_keeps_its_emphasis() {
    for (key, tab) in TABS {
        let mut h = on_tab(Look::Plain, key);
        let buffer = draw(&mut h.app, 80, 24);
        let coloured: Vec<_> = buffer
            .content
            .iter()
            .filter(|c| c.fg != Color::Reset || c.bg != Color::Reset)
            .map(|c| (c.symbol().to_owned(), c.fg, c.bg))
            .take(3)
            .collect();
        assert!(coloured.is_empty(), "{tab}: coloured cells {coloured:?}");
        assert!(
            buffer
                .content
                .iter()
                .any(|c| c.modifier.intersects(Modifier::BOLD | Modifier::REVERSED)),
            "{tab}: no emphasis left in the plain look"
        );
        for look in [Look::Dark, Look::Light] {
            let mut h = on_tab(look, key);
            let buffer = draw(&mut h.app, 80, 24);
            assert!(
                buffer.content.iter().any(|c| c.fg != Color::Reset),
                "{tab} {look:?}: nothing coloured"
            );
        }
    }
}

/// The dark and light looks differ where it matters: somewhere on every tab.
#[test]
fn dark_and_light_differ_on_every_tab() {
    for (key, tab) in TABS {
        let dark = draw(&mut on_tab(Look::Dark, key).app, 80, 24);
        let light = draw(&mut on_tab(Look::Light, key).app, 80, 24);
        assert_ne!(styled(&dark), styled(&light), "{tab}");
    }
}

/// Issue 47.5: a skin of the user's colours the screen (its roles; the rest its built-in
/// theme's), and `:theme` switches looks at once.
#[test]
fn a_skin_colours_the_screen_and_theme_switches_at_once() {
    let skin = crate::config::skin::parse(
        "inherits = \"dark\"\nborder = \"#ff00ff\"\nbadge = { fg = \"black\", bg = \"#00ff00\" }\n",
    )
    .unwrap();
    let mut h = Harness::with(crate::app::AppSettings {
        look: Look::Skin(0),
        skins: vec![("neon".into(), skin)],
        ..settings()
    });
    let cmds = h.app.start();
    h.settle(cmds);
    let buffer = draw(&mut h.app, 80, 24);
    // The Services pane's top-left corner is a border.
    let corner = buffer
        .content
        .iter()
        .find(|c| c.symbol() == "╭")
        .expect("a pane");
    assert_eq!(corner.fg, Color::Rgb(0xff, 0, 0xff));
    // `:theme light`, then `:theme neon` again.
    h.key(':');
    h.keys("theme light");
    h.code(crossterm::event::KeyCode::Enter);
    let buffer = draw(&mut h.app, 80, 24);
    let corner = buffer.content.iter().find(|c| c.symbol() == "╭").unwrap();
    assert_ne!(corner.fg, Color::Rgb(0xff, 0, 0xff));
    h.key(':');
    h.keys("theme neon");
    h.code(crossterm::event::KeyCode::Enter);
    assert_eq!(h.app.settings().look, Look::Skin(0));
    assert_eq!(
        h.status_text(),
        "Theme neon for this run (`theme =` in the profile keeps it)"
    );
}
