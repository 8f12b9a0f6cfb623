//! The dashboard without a terminal: the same [`App`], [`Effects`], driver
//! ([`crate::effects::drive`]) and [`ui::draw_in`] as the real loop, driven step by step
//! on ratatui's `TestBackend`: after a message that changed something visible it hands
//! the app what a frame measures, as the real loop does (drawing only while a popup is
//! open: the tables' pages come from the layout alone). Tests script
//! whole sessions with it (keys → requests → screen), and benchmarks measure with it.

pub mod desk;

use crate::api::ApiClient;
use crate::app::{App, AppSettings, Clock, Msg};
use crate::clipboard::Clipboard;
use crate::effects::{self, Effects};
use crate::ui;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;
use std::time::Duration;

/// Where a headless session looks up this machine's IP unless told otherwise: a loopback
/// port nothing listens on, so the lookup the Services tab makes on first need fails at
/// once instead of reaching a public service from a test.
pub const OFFLINE_MY_IP_URL: &str = "http://127.0.0.1:9/";

/// The longest [`Session::settle`] waits: a bound on a hang, never a timing.
pub const SETTLE_LIMIT: Duration = Duration::from_secs(60);

/// Requests a minute of [`loopback_budget`].
pub const LOOPBACK_RPM: u32 = 60_000;

/// The budget of a session against the tests' own sandbox on loopback: the user's figure
/// ([`LOOPBACK_RPM`], a request a millisecond, spread as ever), so a session's sweeps are
/// done in moments. A client that brings its own budget (the rate-limit tests) keeps it;
/// the real program always brings the account's (60 a minute until the server says).
pub fn loopback_budget() -> crate::scheduler::Budget {
    crate::scheduler::Budget::new(crate::scheduler::Bucket::new(Some(LOOPBACK_RPM)))
}

/// `client` with [`loopback_budget`] (a test that needs a budget of its own makes its
/// [`crate::scheduler::Door`] itself).
pub fn on_loopback(client: ApiClient) -> crate::scheduler::Door {
    crate::scheduler::Door::new(client, loopback_budget())
}

pub struct Session {
    pub app: App,
    pub effects: Effects,
    terminal: Terminal<TestBackend>,
}

impl Session {
    /// A session on `client` with [`loopback_budget`], started (its first requests are on
    /// their way). Call inside a tokio runtime. This machine's IP is looked up at
    /// [`OFFLINE_MY_IP_URL`], so a test never leaves loopback; pass another URL through
    /// [`Session::with`].
    pub fn start(
        settings: AppSettings,
        client: ApiClient,
        clipboard: Box<dyn Clipboard>,
        size: (u16, u16),
    ) -> Self {
        Self::start_on(settings, on_loopback(client), clipboard, size)
    }

    /// [`Session::start`] on a door of the caller's (a budget of its own).
    pub fn start_on(
        settings: AppSettings,
        door: crate::scheduler::Door,
        clipboard: Box<dyn Clipboard>,
        size: (u16, u16),
    ) -> Self {
        let clock: Clock = Arc::new(chrono::Utc::now);
        let app = App::new(settings, clock.clone());
        let effects = Effects::new(
            crate::account::start(app.engine_config(), door, clock),
            clipboard,
            OFFLINE_MY_IP_URL.into(),
            None,
        );
        Self::with(app, effects, size)
    }

    /// A session from parts made by the caller (a fake clock, a state file, a my-IP URL).
    pub fn with(mut app: App, mut effects: Effects, (w, h): (u16, u16)) -> Self {
        let terminal = Terminal::new(TestBackend::new(w, h)).expect("a test backend never fails");
        effects::feed(&mut app, &mut effects, vec![Msg::Resize(w, h)]);
        let commands = app.start();
        effects::drive(&mut app, &mut effects, commands);
        let mut session = Self {
            app,
            effects,
            terminal,
        };
        session.draw();
        session
    }

    /// Feeds `msg` to the app, then, when something visible changed, hands it what a frame
    /// measures, as the real loop does after drawing (`screen` draws the frame itself).
    pub fn send(&mut self, msg: Msg) {
        effects::feed(&mut self.app, &mut self.effects, vec![msg]);
        if self.app.take_redraw() {
            self.measure();
        }
    }

    /// What a frame measures ([`ui::measure`]), handed to the app.
    fn measure(&mut self) {
        let area = self.terminal.backend().buffer().area;
        let view = ui::measure(&self.app, area);
        let commands = self.app.measured(view);
        effects::drive(&mut self.app, &mut self.effects, commands);
    }

    /// Draws a frame and hands what it measured to the app, as the real loop does.
    fn draw(&mut self) {
        let mut view = crate::app::geometry::Geometry::default();
        let theme = ui::theme::Theme::of(self.app.settings());
        self.terminal
            .draw(|frame| ui::draw_in(&self.app, frame, &theme, frame.area(), &mut view))
            .expect("a test backend never fails");
        let commands = self.app.measured(view);
        effects::drive(&mut self.app, &mut self.effects, commands);
    }

    /// Presses one key.
    pub fn press(&mut self, code: KeyCode) {
        self.send(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    /// Types each character of `text` as a key.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.press(KeyCode::Char(c));
        }
    }

    /// Feeds every outcome until nothing is left to come: the engine idle (nothing in
    /// flight, nothing due), nothing in flight for the app, and no outcome of the effects
    /// pending (a file write, a copy, a lookup). A named state, not a stretch of quiet;
    /// [`SETTLE_LIMIT`] only bounds a hang.
    pub async fn settle(&mut self) {
        let give_up = tokio::time::Instant::now() + SETTLE_LIMIT;
        let mut idle = self.effects.account().idle();
        loop {
            while let Some(msg) = self.effects.try_next_msg() {
                self.send(msg);
            }
            idle.borrow_and_update();
            if self.effects.account().is_settled()
                && self.app.in_flight() == 0
                && self.effects.outstanding() == 0
            {
                return;
            }
            tokio::select! {
                msg = self.effects.next_msg() => match msg {
                    Some(msg) => self.send(msg),
                    None => return,
                },
                _ = idle.changed() => {}
                () = tokio::time::sleep_until(give_up) => return,
            }
        }
    }

    /// Feeds outcomes until `holds` is true of the app; panics naming `what` when it is
    /// not within [`SETTLE_LIMIT`] (a bound on a hang, not a timing).
    pub async fn until(&mut self, what: &str, holds: impl Fn(&App) -> bool) {
        let give_up = tokio::time::Instant::now() + SETTLE_LIMIT;
        loop {
            while let Some(msg) = self.effects.try_next_msg() {
                self.send(msg);
            }
            if holds(&self.app) {
                return;
            }
            tokio::select! {
                msg = self.effects.next_msg() => match msg {
                    Some(msg) => self.send(msg),
                    None => panic!("nothing more can come, and still not {what}"),
                },
                () = tokio::time::sleep_until(give_up) => {
                    panic!("not {what} after {SETTLE_LIMIT:?}:\n{}", self.screen())
                }
            }
        }
    }

    /// Draws the app and returns the screen as text, one line per row.
    pub fn screen(&mut self) -> String {
        self.draw();
        text_of(self.terminal.backend().buffer())
    }
}

/// A drawn buffer as text, one line per row, each without its trailing blanks.
pub fn text_of(buffer: &ratatui::buffer::Buffer) -> String {
    let width = buffer.area.width as usize;
    buffer
        .content
        .chunks(width)
        .map(|row| {
            row.iter()
                .map(|cell| cell.symbol())
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
