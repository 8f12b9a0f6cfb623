//! The dashboard over several accounts without a terminal: the same [`Desk`], effects and
//! drawing as the real loop, driven step by step on ratatui's `TestBackend`, as
//! [`crate::headless::Session`] does for one account. Tests and the benchmark script
//! whole sessions with it and wait on named states, never on quiet.

use super::{OFFLINE_MY_IP_URL, SETTLE_LIMIT};
use crate::app::{App, AppSettings, Clock, Msg};
use crate::clipboard::Recording;
use crate::desk::{Desk, In, Seat};
use crate::effects::Effects;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;

pub struct DeskSession {
    pub desk: Desk,
    terminal: Terminal<TestBackend>,
}

impl DeskSession {
    /// A desk over these accounts (their settings and doors), started. Call inside a
    /// tokio runtime. Each account's my-IP lookup goes to [`OFFLINE_MY_IP_URL`].
    pub fn start(accounts: Vec<(AppSettings, crate::scheduler::Door)>, (w, h): (u16, u16)) -> Self {
        let clock: Clock = Arc::new(chrono::Utc::now);
        let names: Vec<String> = accounts.iter().map(|(s, _)| s.profile.clone()).collect();
        let several = accounts.len() > 1;
        let seats = accounts
            .into_iter()
            .map(|(mut settings, door)| {
                if several {
                    settings.among.accounts = true;
                    settings.profiles.names = names.clone();
                    settings.eager_rows = crate::app::EAGER_ROWS / names.len();
                }
                let app = App::new(settings, clock.clone());
                let effects = Effects::new(
                    crate::account::start(app.engine_config(), door, clock.clone()),
                    Box::new(Recording::default()),
                    OFFLINE_MY_IP_URL.into(),
                    None,
                );
                Seat::new(app, effects)
            })
            .collect();
        let mut desk = Desk::new(seats);
        let terminal = Terminal::new(TestBackend::new(w, h)).expect("a test backend never fails");
        desk.step(vec![In::Ui(Msg::Resize(w, h))]);
        desk.start();
        let mut session = Self { desk, terminal };
        session.draw();
        session
    }

    /// Feeds a terminal message, then draws (and hands the shown account what the frame
    /// measured), as the real loop does.
    pub fn send(&mut self, msg: Msg) {
        self.desk.step(vec![In::Ui(msg)]);
        self.draw();
    }

    pub fn press(&mut self, code: KeyCode) {
        self.send(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.press(KeyCode::Char(c));
        }
    }

    /// Feeds outcomes of every account until `holds` is true of the desk; panics naming
    /// `what` when it is not within [`SETTLE_LIMIT`] (a bound on a hang, not a timing).
    pub async fn until(&mut self, what: &str, holds: impl Fn(&Desk) -> bool) {
        let give_up = tokio::time::Instant::now() + SETTLE_LIMIT;
        loop {
            let mut batch = Vec::new();
            while let Some(more) = self.desk.try_next_msg() {
                batch.push(more);
            }
            if !batch.is_empty() {
                self.desk.step(batch);
                self.draw();
            }
            if holds(&self.desk) {
                return;
            }
            tokio::select! {
                msg = self.desk.next_msg() => {
                    self.desk.step(vec![msg]);
                    self.draw();
                }
                () = tokio::time::sleep_until(give_up) => {
                    panic!("not {what} after {SETTLE_LIMIT:?}:\n{}", self.screen())
                }
            }
        }
    }

    /// Takes what has arrived from the accounts (at most a batch of the real loop's
    /// size), handles it and draws, as one turn of the real loop; whether anything came.
    pub fn pump(&mut self) -> bool {
        let mut batch = Vec::new();
        while batch.len() < 512
            && let Some(more) = self.desk.try_next_msg()
        {
            batch.push(more);
        }
        if batch.is_empty() {
            return false;
        }
        self.desk.step(batch);
        if self.desk.take_redraw() {
            self.draw();
        }
        true
    }

    /// Waits for the next outcome of any account and handles it (a bound on a hang:
    /// [`SETTLE_LIMIT`]); whether one came.
    pub async fn next(&mut self) -> bool {
        tokio::select! {
            msg = self.desk.next_msg() => {
                self.desk.step(vec![msg]);
                true
            }
            () = tokio::time::sleep(SETTLE_LIMIT) => false,
        }
    }

    /// [`DeskSession::until`] the screen shows `text`.
    pub async fn until_shown(&mut self, text: &str) {
        let give_up = tokio::time::Instant::now() + SETTLE_LIMIT;
        while !self.screen().contains(text) {
            tokio::select! {
                msg = self.desk.next_msg() => self.desk.step(vec![msg]),
                () = tokio::time::sleep_until(give_up) => {
                    panic!("{text:?} not shown after {SETTLE_LIMIT:?}:\n{}", self.screen())
                }
            }
        }
    }

    /// Draws a frame and hands what it measured to the account it measured it for, as the
    /// real loop does.
    fn draw(&mut self) {
        let mut measured = crate::desk::draw::Measured::default();
        self.terminal
            .draw(|frame| crate::desk::draw::draw(&self.desk, frame, &mut measured))
            .expect("a test backend never fails");
        self.desk.measured(measured);
    }

    /// Draws the desk and returns the screen as text, one line per row.
    pub fn screen(&mut self) -> String {
        self.draw();
        super::text_of(self.terminal.backend().buffer())
    }
}
