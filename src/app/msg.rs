//! The app's two vocabularies: [`Msg`], everything that can happen to it (carrying its
//! data), and [`Command`], what it asks the run loop to do (each command with an outcome is
//! answered by a `Msg` carrying it).

use crate::api::{Loaded, Request, Ticket};
use crate::clipboard::{ClipboardError, Copied};
use crate::iplist_throttle::Throttles;
use std::net::Ipv4Addr;
use std::path::PathBuf;

/// Everything that can happen to the app.
// `Loaded` is the big one and the common one; boxing it would only move the allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Msg {
    Key(crossterm::event::KeyEvent),
    Mouse(crossterm::event::MouseEvent),
    Paste(String),
    Resize(u16, u16),
    /// A timer set from [`App::next_wakeup`](crate::app::App::next_wakeup) fired.
    Tick,
    /// A request's typed answer (see [`crate::api::Loaded`]), from the account engine,
    /// with the ticket of the write it answers ([`Command::Write`]; `None` for a read, which
    /// is known by its parameters).
    Loaded {
        loaded: Loaded,
        ticket: Option<Ticket>,
    },
    /// The engine sent a read (what it fills is loading).
    Sent(Request),
    /// The account's connection changed (online, throttled, unreachable).
    Connection(crate::account::Connection),
    /// The services' types, as the engine knows them.
    Types(std::collections::HashMap<u64, crate::api::ProductType>),
    /// The engine swept the alert rules: the transitions and the book after them.
    Swept(crate::account::Swept),
    /// The engine's acknowledgements and silences changed.
    Marked(crate::alerts::marks::Marks),
    /// The money ahead changed: the engine's one working out, which every view reads
    /// ([`crate::account::money`]).
    Money(Option<std::sync::Arc<crate::billing::Runway>>),
    /// The answer to [`Command::Copy`]: where the text went, or why it did not.
    Copied {
        what: String,
        result: Result<Copied, ClipboardError>,
    },
    /// The answer to [`Command::WriteFile`]: the full path written, or why not.
    Written {
        path: PathBuf,
        result: Result<PathBuf, String>,
    },
    /// The answer to [`Command::LookupMyIp`]: this machine's public IPv4 address (asked for
    /// on first need, and by Ctrl-L in the bind form).
    MyIp(Result<Ipv4Addr, String>),
    /// A problem of the program's own files (the log cannot be written), said once.
    Diagnostic(String),
    /// The answer to [`Command::WriteFile`] when the file exists: nothing was written;
    /// `free` is a name beside it that is not taken (`list (1).txt`), to offer.
    FileExists {
        path: PathBuf,
        free: Option<PathBuf>,
    },
    /// An alert's `on_alert` command failed (or was dropped), and why.
    AlertDeliveryFailed(String),
    /// The history store's answer to [`Command::AskHistory`] (or its failure).
    History(crate::history::Answer),
    /// The scheduler's request budget changed.
    Budget(crate::scheduler::View),
    /// How one of your actions ended ([`Command::RunAction`], or the run loop's foreground
    /// run): its name, and its exit and last lines of output, or why it did not run.
    ActionDone {
        name: String,
        result: Result<crate::config::actions::Ended, String>,
    },
    /// What a [`Command::Probe`] of a service found, event by event.
    Probe {
        service_id: u64,
        run: u64,
        event: crate::probe::ProbeEvent,
    },
}

/// What the app asks the run loop to do. Each command that has an outcome is answered by
/// a [`Msg`] carrying it.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A one-off read (a detail, an IP list), through the account engine: an identical
    /// read already on its way is not sent again (its one answer serves every asker).
    Fetch(Request),
    /// A write, through the account engine: sent exactly once, whatever else is on its way
    /// (a second identical order is a second order), and answered with `ticket`.
    Write {
        request: Request,
        ticket: Ticket,
    },
    /// What the screen shows now: the engine keeps it fresh first (within its share).
    Focus(crate::account::Focus),
    /// `r`/`R`: these kinds of data now, whatever their age.
    Refresh(Vec<crate::account::Kind>),
    Quit,
    /// Put `text` on the clipboard; `what` names it for the status line ("IP list of 5001").
    Copy {
        what: String,
        text: String,
    },
    /// Write a new file, never overwriting one (created 0600).
    WriteFile {
        path: PathBuf,
        contents: String,
    },
    /// Look up this machine's public IP from the configured URL.
    LookupMyIp,
    /// Keep the 429 countdowns in the state file, so they survive a restart.
    SaveThrottles(Throttles),
    /// Announce alerts (one transition, or a digest of many: see
    /// [`crate::alerts::herald`]): the bell, the `on_alert` command (the status line and
    /// the Alerts tab already show them).
    Alert(crate::alerts::Notice),
    /// Ask the history store; answered by [`Msg::History`].
    AskHistory(crate::history::Query),
    /// Acknowledge an alert or silence alerts, in the account engine (answered by
    /// [`Msg::Marked`]).
    Mark(crate::alerts::marks::MarkChange),
    /// Probe these proxies of a service (index in its list, proxy), off the UI task;
    /// answered by [`Msg::Probe`] events carrying `run`.
    Probe {
        service_id: u64,
        run: u64,
        targets: Vec<(usize, crate::probe::ProxyTarget)>,
    },
    /// Run one of your actions in the background (`config::actions`); answered by
    /// [`Msg::ActionDone`].
    RunAction(crate::config::actions::Run),
    /// Audit the rotation of a ppr gateway: `asks` asks of the judge through it, one after
    /// the other, off the UI task; answered by [`Msg::Probe`] events carrying `run`.
    Rotation {
        service_id: u64,
        run: u64,
        gateway: crate::probe::ProxyTarget,
        asks: usize,
    },
}

impl Msg {
    /// An answer that carries no ticket (a read's).
    pub fn loaded(loaded: Loaded) -> Self {
        Msg::Loaded {
            loaded,
            ticket: None,
        }
    }
}
