//! Server text made safe to show: on the dashboard, in every scripting command's text
//! output and in the log.
//!
//! What goes, and why:
//! - **Escape sequences** (CSI `ESC [ … final`, OSC `ESC ] … BEL/ST`, DCS/PM/APC, two-char
//!   `ESC x`) are dropped whole, and so are their one-character C1 forms (`U+009B` CSI,
//!   `U+009D` OSC, `U+0090` DCS, `U+009E` PM, `U+009F` APC) that some terminals still obey:
//!   dropping only the ESC would leave `[2J` or a base64 clipboard payload on screen.
//! - **Other controls** (C0, DEL, C1) are dropped; tab, line feed, carriage return and the
//!   Unicode line and paragraph separators become a space, so a value never breaks a row.
//! - **Bidi controls** (`U+061C`, `U+200E`/`U+200F`, `U+202A`–`U+202E`, `U+2066`–`U+2069`)
//!   are dropped: an override can show a name reversed (`exe.txt` as `txt.exe`), and an
//!   unclosed one reorders the rest of the line.
//! - **Zero-width and invisible format characters** are dropped: `U+200B`–`U+200D`
//!   (ZWSP, ZWNJ, ZWJ), `U+2060`–`U+2064` and `U+206A`–`U+206F`, `U+FEFF`, the soft hyphen
//!   `U+00AD`, `U+034F`, `U+115F`/`U+1160`/`U+3164`/`U+FFA0` (Hangul fillers), `U+17B4`/
//!   `U+17B5`, `U+180B`–`U+180F`, `U+FFF9`–`U+FFFB`, `U+1BCA0`–`U+1BCA3`,
//!   `U+1D173`–`U+1D17A`, the variation selectors (`U+FE00`–`U+FE0F`, `U+E0100`–`U+E01EF`)
//!   and the tag characters (`U+E0000`–`U+E007F`). They hide text (two names that look the
//!   same are not), and ZWJ and VS16 join characters into one glyph whose width ratatui
//!   and the terminal measure differently, which leaves stale cells behind.
//! - **What is left is measured one character at a time**: the width of the result is the
//!   sum of its characters' widths (`unicode-width`), which is how a terminal advances the
//!   cursor. With ZWJ and the selectors gone an emoji sequence falls apart into its emoji,
//!   each measured alone. Any other sequence `unicode-width` measures as a whole
//!   (an Arabic lam-alef ligature, an emoji with a skin-tone modifier) loses the character
//!   that would change the width of what came before it.

use std::borrow::Cow;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Past this many characters, text whose width depends on sequences is cut (with `…`)
/// before it is checked character by character, so the check stays cheap.
const CHECKED_CHARS: usize = 2048;

/// `s` safe to show: see the module docs.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if s.chars().all(is_plain) {
        return Cow::Borrowed(s);
    }
    let stripped = strip(s);
    let sum: usize = stripped.chars().map(char_width).sum();
    if stripped.width() == sum {
        return Cow::Owned(stripped);
    }
    Cow::Owned(measured_alone(&stripped))
}

/// True for a character no rule of this module touches and that never combines with a
/// neighbour into a width of its own (the common case: printable ASCII and most text).
fn is_plain(c: char) -> bool {
    (' '..='~').contains(&c) || (c > '\u{a0}' && c < '\u{300}' && c != '\u{ad}')
}

/// Characters dropped everywhere (besides controls): bidi controls, zero-width and
/// invisible format characters, variation selectors, tags.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e007f}'
            | '\u{e0100}'..='\u{e01ef}'
    )
}

fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Escape sequences, controls and invisible characters out; breaks become spaces.
fn strip(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let introducer = match c {
            '\u{1b}' => match chars.next() {
                Some('[') => '\u{9b}',
                Some(']') => '\u{9d}',
                Some('P') | Some('_') | Some('^') => '\u{90}',
                _ => continue,
            },
            c => c,
        };
        match introducer {
            '\u{9b}' => {
                // CSI: parameters and intermediates, then one final byte @..~
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            '\u{9d}' | '\u{90}' | '\u{9e}' | '\u{9f}' => {
                // OSC/DCS/PM/APC: up to BEL or ST (ESC backslash, or U+009C)
                while let Some(c) = chars.next() {
                    if c == '\u{7}' || c == '\u{9c}' {
                        break;
                    }
                    if c == '\u{1b}' {
                        if chars.peek() == Some(&'\\') {
                            chars.next();
                        }
                        break;
                    }
                }
            }
            '\t' | '\n' | '\r' | '\u{2028}' | '\u{2029}' => out.push(' '),
            c if c.is_control() || is_invisible(c) => {}
            c => out.push(c),
        }
    }
    out
}

/// `s` without the characters that would change the width of what precedes them, so each
/// character adds exactly its own width. Rare (hostile or exotic text only), and
/// quadratic, hence [`CHECKED_CHARS`].
fn measured_alone(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut width = 0;
    for (i, c) in s.chars().enumerate() {
        if i == CHECKED_CHARS {
            out.push('…');
            if out.width() != width + 1 {
                out.pop();
            }
            break;
        }
        out.push(c);
        let grown = out.width();
        if grown == width + char_width(c) {
            width = grown;
        } else {
            out.pop();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_controls_go_whole() {
        assert_eq!(sanitize("plain"), "plain");
        assert_eq!(sanitize("a\u{1b}[31mred\u{1b}[0m"), "ared");
        assert_eq!(sanitize("x\u{1b}]0;title\u{7}y"), "xy");
        assert_eq!(sanitize("x\u{1b}]8;;http://e\u{1b}\\y"), "xy");
        assert_eq!(sanitize("a\tb\nc\u{0}d\u{9c}e"), "a b cde");
        // The one-character C1 forms of CSI and OSC go whole too.
        assert_eq!(sanitize("a\u{9b}31mb"), "ab");
        assert_eq!(sanitize("a\u{9d}52;c;cHc=\u{9c}b"), "ab");
        assert_eq!(sanitize("a\u{1b}]0;t\u{9c}b"), "ab");
    }

    #[test]
    fn bidi_and_zero_width_characters_go() {
        // "txt.exe" written reversed with an override, as the issue showed.
        assert_eq!(sanitize("\u{202e}exe.txt\u{202c}"), "exe.txt");
        assert_eq!(sanitize("pay\u{200b}pal"), "paypal");
        assert_eq!(
            sanitize("a\u{2066}b\u{2069}\u{200e}\u{200f}\u{61c}\u{feff}c"),
            "abc"
        );
        // ZWJ and VS16 gone: a family emoji falls apart into its people, each 2 wide.
        let family = sanitize("\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}");
        assert_eq!(family, "\u{1f468}\u{1f469}\u{1f467}");
        assert_eq!(family.width(), 6);
        let heart = sanitize("\u{2764}\u{fe0f}!");
        assert_eq!(heart, "\u{2764}!");
        assert_eq!(heart.width(), 2);
    }

    #[test]
    fn sequences_measured_as_a_whole_are_broken_up() {
        for s in [
            "\u{644}\u{627}",
            "\u{1f44d}\u{1f3fd}",
            "x\u{644}\u{64e}\u{627}y",
        ] {
            let out = sanitize(s);
            let sum: usize = out.chars().map(char_width).sum();
            assert_eq!(out.width(), sum, "{s:?} → {out:?}");
        }
    }
}
