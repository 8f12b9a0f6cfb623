//! The event loop: one `tokio::select!` that owns the terminal.
//!
//! It merges terminal input, results from the fetcher and the one timer the app asks for
//! ([`App::next_wakeup`]), feeds each as a [`Msg`] to [`App::update`], hands the commands
//! that come back to the fetcher, and redraws only after something arrived. With nothing
//! arriving it sleeps: no fixed frame rate, no polling.
//!
//! Input is any stream of [`Input`], so tests can script a whole session (keys → requests →
//! screen) on a `TestBackend` without a terminal.

use crate::app::{App, Clock, Command, Msg};
use crate::fetcher::{Fetched, FetcherHandle};
use crate::ui;
use crossterm::event::{Event, KeyEventKind};
use futures::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use std::io;
use tokio::sync::mpsc;

/// What the loop can be told from outside the app.
#[derive(Debug)]
pub enum Input {
    Terminal(Event),
    /// A signal asking the program to end (SIGINT, SIGTERM, SIGHUP), by number.
    Signal(i32),
}

/// How the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The user quit.
    Quit,
    /// The input stream ended.
    InputClosed,
    /// A signal asked us to end; the process should exit with 128 + the number.
    Signal(i32),
}

pub async fn run<B, I>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    mut input: I,
    fetcher: &FetcherHandle,
    results: &mut mpsc::UnboundedReceiver<Fetched>,
    clock: &Clock,
) -> io::Result<Exit>
where
    B: Backend,
    B::Error: Into<io::Error>,
    I: Stream<Item = io::Result<Input>> + Unpin,
{
    dispatch(app.start(), fetcher);
    let mut dirty = true;
    loop {
        if dirty {
            terminal.draw(|frame| ui::draw(app, frame)).map_err(Into::into)?;
            dirty = false;
        }
        if app.should_quit() {
            return Ok(Exit::Quit);
        }
        let wake = app.next_wakeup().map(|at| (at - clock()).to_std().unwrap_or_default());
        let timer = async {
            match wake {
                Some(after) => tokio::time::sleep(after).await,
                None => std::future::pending().await,
            }
        };
        let msg = tokio::select! {
            event = input.next() => match event {
                None => return Ok(Exit::InputClosed),
                Some(Err(e)) => return Err(e),
                Some(Ok(Input::Signal(n))) => return Ok(Exit::Signal(n)),
                Some(Ok(Input::Terminal(event))) => match to_msg(event) {
                    Some(msg) => msg,
                    None => continue,
                },
            },
            Some((request, result)) = results.recv() => Msg::Loaded(request, result),
            _ = timer => Msg::Tick,
        };
        dispatch(app.update(msg), fetcher);
        dirty = true;
    }
}

fn dispatch(commands: Vec<Command>, fetcher: &FetcherHandle) {
    for command in commands {
        match command {
            Command::Fetch(request) => fetcher.fetch(request),
            // The app remembers that it wants to quit; the loop checks should_quit().
            Command::Quit => {}
        }
    }
}

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
