//! One line of text a form edits, on top of `tui_input::Input` (cursor, word moves,
//! Ctrl-U/Ctrl-W and friends).
//!
//! A masked field (passwords) shows one `•` per character and never prints its value in
//! `Debug`, so a form in a log line or a failed assertion shows nothing secret.
//!
//! Every field holds at most [`TextField::max`] characters (256 unless its form says less:
//! an IPv4 address needs 15, a file path 1,024). Typing past it does nothing; a paste is
//! cut there, in one splice (the whole paste costs O(n), not a character-by-character
//! insert into the string, which was quadratic: 1 MB froze the loop for minutes), and the
//! form says it was cut.
//!
//! A prefilled value (a form's default, the address already bound, a silence's length) is
//! *selected*, as a selected field is everywhere else: typing or pasting replaces it,
//! Backspace or Delete clears it, and moving into it with the arrow keys (or Home, End)
//! edits it from there.

use crossterm::event::{Event, KeyEvent};
use std::fmt;
use tui_input::backend::crossterm::to_input_request;
use tui_input::{Input, InputRequest};

/// What a masked character shows.
pub const MASK_CHAR: char = '•';

/// The longest text a field holds unless its form says otherwise.
pub const DEFAULT_MAX: usize = 256;

/// An IPv4 address in dotted-quad form: `255.255.255.255`.
pub const IPV4_MAX: usize = 15;

/// The most digits an ID typed in a field has (`u64::MAX` has 20).
pub const ID_DIGITS: usize = 20;

/// The ID typed (an invoice number, a service ID), or why it is none: `what` names it in
/// the messages ("invoice number"), `zero` says why 0 is none.
pub fn parse_id(text: &str, what: &str, zero: &str) -> Result<u64, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("Type the {what}."));
    }
    if let Some(c) = text.chars().find(|c| !c.is_ascii_digit()) {
        return Err(format!("Digits only: \"{c}\" is not one."));
    }
    if text.len() > ID_DIGITS {
        return Err(format!("At most {ID_DIGITS} digits."));
    }
    match text.parse::<u64>() {
        Ok(0) => Err(zero.to_owned()),
        Ok(id) => Ok(id),
        // 20 digits above u64::MAX.
        Err(_) => Err(format!("No {what} is that large.")),
    }
}

/// The server's way of saying it has no such ID: a 404, or the API's generic 422 (an ID is
/// all a read by ID has that could be unprocessable).
pub fn is_unknown_id(error: &crate::api::ApiError) -> bool {
    error.status() == Some(404) || error.unprocessable() == Some(crate::api::Unprocessable::Generic)
}

#[derive(Clone)]
pub struct TextField {
    input: Input,
    masked: bool,
    max: usize,
    /// The value is a prefilled one, not typed: what is typed replaces it.
    selected: bool,
}

impl Default for TextField {
    fn default() -> Self {
        Self {
            input: Input::default(),
            masked: false,
            max: DEFAULT_MAX,
            selected: false,
        }
    }
}

impl TextField {
    pub fn new(value: impl Into<String>) -> Self {
        Self {
            input: Input::new(value.into()),
            ..Self::default()
        }
    }

    /// A prefilled value, selected: typing replaces it (see the module docs).
    pub fn prefilled(value: impl Into<String>) -> Self {
        let mut field = Self::new(value);
        field.selected = !field.value().is_empty();
        field
    }

    /// Replaces the text with a prefilled value, selected.
    pub fn set_prefilled(&mut self, value: impl Into<String>) {
        self.set(value);
        self.selected = !self.value().is_empty();
    }

    /// Whether the value is a prefilled one that typing replaces.
    pub fn is_selected(&self) -> bool {
        self.selected
    }

    pub fn masked() -> Self {
        Self {
            masked: true,
            ..Self::default()
        }
    }

    /// At most `max` characters (what is already there is cut to it).
    pub fn with_max(mut self, max: usize) -> Self {
        self.max = max;
        if self.input.value().chars().count() > max {
            self.input = Input::new(self.input.value().chars().take(max).collect());
        }
        self
    }

    pub fn max(&self) -> usize {
        self.max
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
        self.selected = false;
    }

    pub fn clear(&mut self) {
        self.input = Input::default();
        self.selected = false;
    }

    /// An editing key (a character, Backspace, ←, Home, Ctrl-U…); false when it is not one.
    /// A character past [`Self::max`] is taken (so it is not a shortcut) and dropped.
    pub fn key(&mut self, key: &KeyEvent) -> bool {
        let request = to_input_request(&Event::Key(*key));
        if self.selected && request.is_some() {
            self.selected = false;
            match request {
                // Typed over: the prefilled value goes, the character comes in its place.
                Some(InputRequest::InsertChar(_)) => self.input = Input::default(),
                // Deleting a selection deletes it whole.
                Some(
                    InputRequest::DeletePrevChar
                    | InputRequest::DeleteNextChar
                    | InputRequest::DeletePrevWord
                    | InputRequest::DeleteNextWord
                    | InputRequest::DeleteLine
                    | InputRequest::DeleteTillEnd,
                ) => {
                    self.input = Input::default();
                    return true;
                }
                // Moving into it edits it.
                _ => {}
            }
        }
        match request {
            Some(InputRequest::InsertChar(_)) if self.input.value().chars().count() >= self.max => {
                true
            }
            Some(request) => {
                self.input.handle(request);
                true
            }
            None => false,
        }
    }

    /// Pasted text: its first non-blank line, trimmed, without control characters (a
    /// pasted newline must not submit the form, nor an escape sequence reach the screen),
    /// inserted at the cursor in one go. `Some(max)` when it was cut to fit.
    pub fn paste(&mut self, text: &str) -> Option<usize> {
        let line = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim();
        if std::mem::take(&mut self.selected) && !line.is_empty() {
            self.input = Input::default();
        }
        let value = self.input.value();
        let room = self.max.saturating_sub(value.chars().count());
        let mut clean = line.chars().filter(|c| !c.is_control());
        let inserted: String = clean.by_ref().take(room).collect();
        let cut = clean.next().is_some();
        let cursor = self.input.cursor();
        let at = value
            .char_indices()
            .nth(cursor)
            .map_or(value.len(), |(i, _)| i);
        let mut joined = String::with_capacity(value.len() + inserted.len());
        joined.push_str(&value[..at]);
        joined.push_str(&inserted);
        joined.push_str(&value[at..]);
        let cursor = cursor + inserted.chars().count();
        self.input = Input::new(joined).with_cursor(cursor);
        cut.then_some(self.max)
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
        assert_eq!(f.paste("\n  \n198.51.100.7\u{1b}[31m\r\nsecond line"), None);
        assert_eq!(
            f.value(),
            "198.51.100.7[31m",
            "controls go, the rest is text"
        );
        assert_eq!(f.display(), ("198.51.100.7[31m".into(), 16));
    }

    /// Issue 11.4: a megabyte pasted into a field is cut to the field's length in one
    /// splice; typing past the length does nothing.
    #[test]
    fn a_paste_is_cut_to_the_field_length() {
        let mut f = TextField::default().with_max(IPV4_MAX);
        let huge = "1".repeat(1 << 20);
        assert_eq!(f.paste(&huge), Some(IPV4_MAX));
        assert_eq!(f.value().len(), IPV4_MAX);
        assert!(f.key(&key(KeyCode::Char('9'))), "taken");
        assert_eq!(f.value().len(), IPV4_MAX, "and dropped");
        // Inserted at the cursor, the cursor after it.
        let mut f = TextField::new("ad");
        f.key(&key(KeyCode::Left));
        assert_eq!(f.paste("bc"), None);
        assert_eq!((f.value(), f.display().1), ("abcd", 3));
        let mut f = TextField::masked();
        assert_eq!(f.paste(&"é".repeat(300_000)), Some(DEFAULT_MAX));
        assert_eq!(f.value().chars().count(), DEFAULT_MAX);
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

    /// Issue 36.9: typing over a prefilled value replaces it (the silence form's `1h`
    /// and `2h30m` made `1h2h30m`); moving into it with the arrows edits it.
    #[test]
    fn a_prefilled_value_is_replaced_by_typing_and_edited_after_a_move() {
        let mut f = TextField::prefilled("1h");
        assert!(f.is_selected());
        for c in "2h30m".chars() {
            f.key(&key(KeyCode::Char(c)));
        }
        assert_eq!(f.value(), "2h30m");
        let mut f = TextField::prefilled("192.0.2.50");
        f.key(&key(KeyCode::Left));
        f.key(&key(KeyCode::Backspace));
        assert_eq!(f.value(), "192.0.2.0");
        let mut f = TextField::prefilled("192.0.2.50");
        f.key(&key(KeyCode::Backspace));
        assert_eq!(f.value(), "");
        let mut f = TextField::prefilled("192.0.2.50");
        f.paste("45.83.220.10");
        assert_eq!(f.value(), "45.83.220.10");
        assert!(!TextField::prefilled("").is_selected());
    }
}
