//! `o` in the All view: which account orders. Each account is listed with its credit and
//! whether it is read-only; the selected product's own account comes preselected, and
//! nothing is ordered here: Enter opens the chosen account's order form, whose
//! confirmation names the account and its credit again before anything is sent.

use crossterm::event::{KeyCode, KeyEvent};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picker {
    /// The account under the cursor.
    pub at: usize,
}

/// What a key did to the picker.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Stay,
    Cancel,
    Chosen(usize),
}

impl Picker {
    pub fn new(at: usize) -> Self {
        Self { at }
    }

    /// A key, among `n` accounts.
    pub fn key(&mut self, key: KeyEvent, n: usize) -> Outcome {
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => Outcome::Cancel,
            KeyCode::Enter => Outcome::Chosen(self.at),
            KeyCode::Char('j') | KeyCode::Down => {
                self.at = (self.at + 1).min(n.saturating_sub(1));
                Outcome::Stay
            }
            KeyCode::Char('k') | KeyCode::Up => {
                self.at = self.at.saturating_sub(1);
                Outcome::Stay
            }
            KeyCode::Char(c @ '1'..='9') => {
                let i = usize::from(c as u8 - b'1');
                if i < n {
                    self.at = i;
                }
                Outcome::Stay
            }
            _ => Outcome::Stay,
        }
    }
}
