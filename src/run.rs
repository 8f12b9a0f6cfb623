//! The event loop: one `tokio::select!` that owns the terminal.
//!
//! It merges terminal input, results from the fetcher and the one timer the app asks for
//! ([`App::next_wakeup`]), feeds each as a [`Msg`] to the desk, whose accounts' apps are
//! fed and their commands carried out by the one driver ([`crate::effects::drive`]), and
//! redraws only after something visible changed ([`App::take_redraw`]). What a frame
//! measures (the tables' pages) goes to the app after it, never as a message followed by
//! a second frame. With nothing arriving it sleeps: no fixed frame rate, no polling.
//!
//! Input is any stream of [`Input`], so tests can script a whole session (keys → requests →
//! screen) on a `TestBackend` without a terminal.
//!
//! What only a real terminal has comes in through [`Options`]: Ctrl-Z is caught here,
//! before the app, because suspending is the terminal's business and not the app's state
//! (the loop calls [`Options::suspend`], then tells the app the size again and redraws
//! the whole screen); and a debugging panic after the first frame, which lets the tests
//! prove that a panic leaves the terminal restored (`PROXYDASH_DEBUG_PANIC`, see
//! [`crate::dashboard`]).

use crate::app::{Clock, Msg};
use crate::desk::{Desk, In};
use crossterm::event::{Event, KeyEventKind};
use futures::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use std::io;

#[cfg(doc)]
use crate::app::App;

/// What the loop can be told from outside the app (defined with the terminal's reader,
/// which makes most of it).
pub use crate::term::input::Input;

/// How the loop ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// The user quit.
    Quit,
    /// The input stream ended.
    InputClosed,
    /// A signal asked us to end; the process should exit with 128 + the number.
    Signal(i32),
    /// The user picked another profile: reconnect with it.
    SwitchProfile(String),
}

/// Suspends the program on its terminal and takes the terminal again (see [`Options`]).
pub type Suspend<B> = fn(&mut Terminal<B>) -> io::Result<()>;

/// Gives the terminal to a command (as `suspend` does, without stopping), and takes it
/// again after.
pub type Terminal2<B> = fn(&mut Terminal<B>) -> io::Result<()>;

/// What the loop does beyond the app, on a real terminal.
pub struct Options<B: Backend> {
    /// One of your actions in the foreground: give the terminal to it, and take it back
    /// (then the loop redraws everything). `None` (tests, headless): it is run without the
    /// terminal, its output to `m`, as a background one is.
    pub foreground: Option<(Terminal2<B>, Terminal2<B>)>,
    /// Ctrl-Z: suspend the program as a shell job and come back with the terminal taken
    /// again; the loop then redraws everything. `None`: Ctrl-Z is a key like any other.
    pub suspend: Option<Suspend<B>>,
    /// Panic right after the first frame is drawn (a debugging aid, see the module docs).
    pub panic_after_first_frame: bool,
}

impl<B: Backend> Default for Options<B> {
    fn default() -> Self {
        Self {
            foreground: None,
            suspend: None,
            panic_after_first_frame: false,
        }
    }
}

/// The loop with default [`Options`]: what tests and the headless session use.
pub async fn run<B, I>(
    terminal: &mut Terminal<B>,
    desk: &mut Desk,
    input: I,
    clock: &Clock,
) -> io::Result<Exit>
where
    B: Backend,
    B::Error: std::error::Error + Send + Sync + 'static,
    I: Stream<Item = io::Result<Input>> + Unpin,
{
    run_with(terminal, desk, input, clock, &Options::default()).await
}

pub async fn run_with<B, I>(
    terminal: &mut Terminal<B>,
    desk: &mut Desk,
    mut input: I,
    clock: &Clock,
    options: &Options<B>,
) -> io::Result<Exit>
where
    B: Backend,
    B::Error: std::error::Error + Send + Sync + 'static,
    I: Stream<Item = io::Result<Input>> + Unpin,
{
    if let Ok(size) = terminal.size() {
        desk.step(vec![In::Ui(Msg::Resize(size.width, size.height))]);
    }
    desk.start();
    let mut dirty = true;
    loop {
        if dirty {
            let mut measured = crate::desk::draw::Measured::default();
            // What is drawn now is up to date, whatever the accounts had noted.
            desk.take_redraw();
            terminal
                .draw(|frame| crate::desk::draw::draw(desk, frame, &mut measured))
                .map_err(into_io)?;
            if options.panic_after_first_frame {
                panic!("PROXYDASH_DEBUG_PANIC: a deliberate panic after the first frame");
            }
            // The frame is already right for what it measured; the app learns it so its
            // keys page by it and the engine hears of the rows now on screen.
            desk.measured(measured);
            dirty = desk.take_redraw();
            if dirty {
                continue;
            }
        }
        if desk.should_quit() {
            return Ok(Exit::Quit);
        }
        if let Some(profile) = desk.take_profile_switch() {
            return Ok(Exit::SwitchProfile(profile));
        }
        if let Some((seat, run)) = desk.take_foreground() {
            let name = run.name.clone();
            let result = match options.foreground {
                Some((give, take)) => {
                    give(terminal)?;
                    let ended = crate::effects::user_action::foreground(run).await;
                    take(terminal)?;
                    ended
                }
                None => crate::effects::user_action::background(run).await,
            };
            let mut batch = vec![In::Seat(seat, Msg::ActionDone { name, result })];
            if let Ok(size) = terminal.size() {
                batch.push(In::Ui(Msg::Resize(size.width, size.height)));
            }
            desk.step(batch);
            dirty = true;
            continue;
        }
        let wake = desk
            .next_wakeup()
            .map(|at| (at - clock()).to_std().unwrap_or_default());
        let timer = async {
            match wake {
                Some(after) => tokio::time::sleep(after).await,
                None => std::future::pending().await,
            }
        };
        let msg = tokio::select! {
            event = input.next() => In::Ui(match event {
                None => return Ok(Exit::InputClosed),
                Some(Err(e)) => return Err(e),
                Some(Ok(Input::Signal(n))) => return Ok(Exit::Signal(n)),
                Some(Ok(Input::Suspend)) => match options.suspend {
                    Some(suspend) => suspended(terminal, suspend)?,
                    None => continue,
                },
                Some(Ok(Input::Terminal(Event::Key(key))))
                    if key.kind != KeyEventKind::Release && crate::term::is_suspend_key(&key) =>
                {
                    match options.suspend {
                        Some(suspend) => suspended(terminal, suspend)?,
                        None => Msg::Key(key),
                    }
                }
                Some(Ok(Input::Terminal(event))) => match to_msg(event) {
                    Some(msg) => msg,
                    None => continue,
                },
            }),
            msg = desk.next_msg() => msg,
            _ = timer => In::Ui(Msg::Tick),
        };
        // Whatever else has already arrived goes in the same batch and the same frame.
        let mut batch = vec![msg];
        while batch.len() < BATCH
            && let Some(more) = desk.try_next_msg()
        {
            batch.push(more);
        }
        desk.step(batch);
        // A batch that changed nothing visible (a tick before anything is due, a budget
        // report reading the same) leaves the frame as it is.
        dirty = desk.take_redraw();
    }
}

/// Suspends; on return, the message that tells the app the terminal's size, which may
/// have changed meanwhile. (The whole screen is redrawn either way: `suspend` made the
/// terminal forget its last frame.)
fn suspended<B: Backend>(terminal: &mut Terminal<B>, suspend: Suspend<B>) -> io::Result<Msg> {
    suspend(terminal)?;
    Ok(match terminal.size() {
        Ok(size) => Msg::Resize(size.width, size.height),
        Err(_) => Msg::Tick,
    })
}

/// The most outcomes handled between two frames: a burst of thousands of answers is taken
/// in batches, so keys are still answered (and the screen redrawn) in between.
const BATCH: usize = 512;

/// The messages the app takes from a terminal event; key releases and focus changes are
/// dropped here so they cause no redraw.
fn to_msg(event: Event) -> Option<Msg> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => Some(Msg::Key(key)),
        Event::Mouse(mouse) => Some(Msg::Mouse(mouse)),
        Event::Paste(text) => Some(Msg::Paste(text)),
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}

/// A backend's error as an `io::Error`, keeping an `io::Error` as it is: the caller tells
/// a terminal that hung up by its OS error code.
fn into_io<E: std::error::Error + Send + Sync + 'static>(e: E) -> io::Error {
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(e);
    match boxed.downcast::<io::Error>() {
        Ok(io) => *io,
        Err(other) => io::Error::other(other),
    }
}
