//! One line of text a form edits, on top of `tui_input::Input` (cursor, word moves,
//! Ctrl-U/Ctrl-W and friends).
//!
//! A masked field (passwords) shows one `•` per character and never prints its value in
//! `Debug`, so a form in a log line or a failed assertion shows nothing secret.

use crossterm::event::{Event, KeyEvent};
use std::fmt;
use tui_input::backend::crossterm::to_input_request;
use tui_input::{Input, InputRequest};

/// What a masked character shows.
pub const MASK_CHAR: char = '•';

#[derive(Clone, Default)]
pub struct TextField {
    input: Input,
    masked: bool,
}

impl TextField {
    pub fn new(value: impl Into<String>) -> Self {
        Self {
            input: Input::new(value.into()),
            masked: false,
        }
    }

    pub fn masked() -> Self {
        Self {
            input: Input::default(),
            masked: true,
        }
    }

    pub fn value(&self) -> &str {
        self.input.value()
    }

    pub fn is_masked(&self) -> bool {
        self.masked
    }

    /// Replaces the text; the cursor goes to its end.
    pub fn set(&mut self, value: impl Into<String>) {
        self.input = Input::new(value.into());
    }

    pub fn clear(&mut self) {
        self.input = Input::default();
    }

    /// An editing key (a character, Backspace, ←, Home, Ctrl-U…); false when it is not one.
    pub fn key(&mut self, key: &KeyEvent) -> bool {
        match to_input_request(&Event::Key(*key)) {
            Some(request) => {
                self.input.handle(request);
                true
            }
            None => false,
        }
    }

    /// Pasted text: its first non-blank line, without control characters (a pasted
    /// newline must not submit the form, nor an escape sequence reach the screen).
    pub fn paste(&mut self, text: &str) {
        let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        for c in line.chars().filter(|c| !c.is_control()) {
            self.input.handle(InputRequest::InsertChar(c));
        }
    }

    /// The text as drawn (masked or not) and the cursor's column in it.
    pub fn display(&self) -> (String, usize) {
        if self.masked {
            let n = self.input.value().chars().count();
            (MASK_CHAR.to_string().repeat(n), self.input.cursor())
        } else {
            (
                crate::text::sanitize(self.input.value()).into_owned(),
                self.input.visual_cursor(),
            )
        }
    }
}

impl fmt::Debug for TextField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.masked {
            f.write_str("TextField([redacted])")
        } else {
            f.debug_tuple("TextField")
                .field(&self.input.value())
                .finish()
        }
    }
}

impl PartialEq for TextField {
    fn eq(&self, other: &Self) -> bool {
        self.masked == other.masked
            && self.input.value() == other.input.value()
            && self.input.cursor() == other.input.cursor()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyModifiers};

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn typing_editing_and_pasting() {
        let mut f = TextField::new("203.0.113.5");
        assert!(f.key(&key(KeyCode::Backspace)));
        assert!(f.key(&key(KeyCode::Char('9'))));
        assert_eq!(f.value(), "203.0.113.9");
        assert!(!f.key(&key(KeyCode::Enter)), "Enter is the form's");
        f.key(&KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        assert_eq!(f.value(), "");
        f.paste("\n  \n198.51.100.7\u{1b}[31m\r\nsecond line");
        assert_eq!(
            f.value(),
            "198.51.100.7[31m",
            "controls go, the rest is text"
        );
        assert_eq!(f.display(), ("198.51.100.7[31m".into(), 16));
    }

    #[test]
    fn masked_fields_hide_their_value() {
        let mut f = TextField::masked();
        f.paste("hunter2");
        assert_eq!(f.value(), "hunter2");
        assert_eq!(f.display(), ("•••••••".into(), 7));
        assert_eq!(format!("{f:?}"), "TextField([redacted])");
        assert!(!format!("{:?}", TextField::new("x")).contains("redacted"));
    }
}
