//! The dashboard over one account or several: one [`Seat`] per account (its own [`App`],
//! [`Effects`] and so its own account engine, credentials, request budget, throttle state,
//! history file and read-only flag), and what the screen shares between them.
//!
//! With one account the desk is transparent: every message goes to the account's app and
//! the screen is the app's, exactly as without it.
//!
//! With several (`--all-profiles`, `--profile a --profile b`, or `dashboard_profiles` in
//! the config file), the top line names every account with its connection state, and the
//! scope is either one account (that account's dashboard, whole) or **All**: Services,
//! Network, Usage, Billing and Alerts list every account's rows with an Account column
//! ([`all`]), Products every account's catalogue apart (prices differ per account), and
//! the info line the credit of each and their total. `A` switches between All and one
//! account, `P` picks the account to focus. Nothing of an account is lost when another is
//! shown: each seat's app keeps its tabs, its message log and its forms.
//!
//! # Where a key goes in All
//!
//! A key means what the one key map says in the All view's context
//! ([`Desk::all_context`]: the tab shown, `accounts: All`); the desk decides who does it.
//!
//! - The tabs, moving, `/` filtering and `!` (per tab, as in one account) are the All
//!   view's own, on its merged rows.
//! - `s` `S` `r` `R` go to every account (each sorts or refreshes its own rows; the All
//!   view merges them; Services sort across accounts in the All view itself).
//! - `m`, `L`, `?` and `P` open a popup over every account: every account's messages or
//!   command lines, the All view's keys, the accounts to show ([`popups`]).
//! - `o` on Products asks which account orders (each account's own product of that name
//!   and group with its own price, or that it does not sell it; its credit and read-only
//!   state), preselecting the row's, then opens that account's order form on its own
//!   product.
//! - Every other key acts on the highlighted row (its `Reach::Row`, in the key map): the row carries
//!   its account and its ID ([`all::RowRef`]), the account selects that ID in its own tab
//!   (or refuses when it no longer lists it) and does the key there: binding, passwords,
//!   refreshes, IP lists, probes, acknowledging and silencing alerts, the detail. A popup
//!   it opens is drawn over the All view, and keys go to it until it closes. A read-only
//!   account refuses its writes there, before anything is sent; the others still allow
//!   theirs.
//!
//! Every popup is a popup of the one enum (`crate::app::Popup`) on the stack of an
//! account's app, so the footer, `?` and the keys follow the one key map in All too.
//!
//! The seats' messages (answers, connection changes, timers) arrive tagged with their
//! seat ([`In::Seat`]); terminal input arrives untagged ([`In::Ui`]) and is routed here.
//! A batch takes the outcomes of at most [`SEATS_PER_BATCH`] accounts (each works out
//! its rows again once per batch), so a key never waits behind all of them at once.

pub mod all;
mod all_sort;
mod batch;
pub mod draw;
pub mod keys;
mod popups;

use crate::app::{App, Command, Msg};
use crate::effects::{self, Effects};
use chrono::{DateTime, Utc};

/// One account of the desk.
pub struct Seat {
    pub app: App,
    pub effects: Effects,
    /// Its short name: the Account column, the top line, before each of its events.
    pub name: String,
    /// Its colour's place in the theme's account colours.
    pub colour: u8,
}

impl Seat {
    pub fn new(app: App, effects: Effects) -> Self {
        let name = app.settings().profile.clone();
        Self {
            app,
            effects,
            name,
            colour: 0,
        }
    }
}

/// What the screen shows of the accounts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every account's rows in one view.
    All,
    /// One account's dashboard.
    One(usize),
}

/// Something for the desk: from the terminal (or the loop's timer), or from a seat.
#[derive(Debug)]
pub enum In {
    Ui(Msg),
    Seat(usize, Msg),
}

/// The most accounts whose outcomes go in one batch (see [`Desk::try_next_msg`]).
const SEATS_PER_BATCH: usize = 2;

/// The longest short name of an account on screen.
const NAME_MAX: usize = 12;

pub struct Desk {
    seats: Vec<Seat>,
    scope: Scope,
    all: all::MergedRows,
    /// The seat whose popup is open over the All view (keys go to it while it is).
    owner: Option<usize>,
    /// The All rows must be merged again before the next frame (once per batch, however
    /// many keys and answers asked for it).
    stale: bool,
    /// The account whose deferred rows were last brought up to date ([`Desk::warm`]).
    warm_next: usize,
    /// The accounts in the batch being gathered, and the one asked first for the next.
    gathering: Vec<usize>,
    first: usize,
    quit: bool,
    redraw: bool,
    /// The screen's size, as the terminal last said.
    size: (u16, u16),
}

impl Desk {
    /// A desk over these accounts (at least one), showing the first alone when there is
    /// one and All when there are several.
    pub fn new(mut seats: Vec<Seat>) -> Self {
        assert!(!seats.is_empty(), "a desk has an account");
        // A colour chosen in the profile is the account's; the others take the next ones
        // not chosen, in order.
        let chosen: Vec<u8> = seats
            .iter()
            .filter_map(|s| s.app.settings().among.colour)
            .collect();
        let mut free = (0..=u8::MAX).filter(|c| !chosen.contains(c));
        for seat in &mut seats {
            seat.colour = match seat.app.settings().among.colour {
                Some(c) => c,
                None => free.next().unwrap_or(0),
            };
            seat.name = short_name(&seat.name);
        }
        let scope = if seats.len() > 1 {
            Scope::All
        } else {
            Scope::One(0)
        };
        Self {
            seats,
            scope,
            all: all::MergedRows::default(),
            owner: None,
            stale: true,
            warm_next: 0,
            gathering: Vec::new(),
            first: 0,
            quit: false,
            redraw: true,
            size: (80, 24),
        }
    }

    /// A desk over one account.
    pub fn single(app: App, effects: Effects) -> Self {
        Self::new(vec![Seat::new(app, effects)])
    }

    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    pub fn seats_mut(&mut self) -> &mut [Seat] {
        &mut self.seats
    }

    pub fn scope(&self) -> Scope {
        self.scope
    }

    pub fn all(&self) -> &all::MergedRows {
        &self.all
    }

    pub fn owner(&self) -> Option<usize> {
        self.owner
    }

    /// Several accounts: the top line names them.
    pub fn is_multi(&self) -> bool {
        self.seats.len() > 1
    }

    /// The one account of a desk over one (the loop's profile switch replaces it).
    pub fn only(&mut self) -> Option<&mut Seat> {
        match self.seats.as_mut_slice() {
            [seat] => Some(seat),
            _ => None,
        }
    }

    /// Tells every account the screen's size and starts them (their first reads are on
    /// their way).
    pub fn start(&mut self) {
        let size = self.size;
        self.resize(size);
        self.set_scope(self.scope);
        for i in 0..self.seats.len() {
            let commands = self.seats[i].app.start();
            self.run(i, commands);
        }
        self.rebuild();
    }

    /// Handles a batch: each seat's messages go to its app in one batch (so a burst of
    /// answers costs one rebuild per account), the terminal's one by one.
    pub fn step(&mut self, batch: Vec<In>) {
        let mut per_seat: Vec<Vec<Msg>> = vec![Vec::new(); self.seats.len()];
        for item in batch {
            match item {
                In::Seat(i, msg) if i < self.seats.len() => per_seat[i].push(msg),
                In::Seat(..) => {}
                In::Ui(msg) => {
                    // What the seats said before a key is handled before it.
                    self.flush(&mut per_seat);
                    self.on_ui(msg);
                }
            }
        }
        self.flush(&mut per_seat);
        self.after();
        self.gathering.clear();
        self.first = (self.first + 1) % self.seats.len();
    }

    fn flush(&mut self, per_seat: &mut [Vec<Msg>]) {
        for (i, msgs) in per_seat.iter_mut().enumerate() {
            if !msgs.is_empty() {
                self.send_all(i, std::mem::take(msgs));
            }
        }
    }

    /// Feeds a seat's app and carries out what it asks, until nothing is left (the one
    /// driver, [`effects::feed`]).
    fn send_all(&mut self, i: usize, msgs: Vec<Msg>) {
        let seat = &mut self.seats[i];
        effects::feed(&mut seat.app, &mut seat.effects, msgs);
    }

    fn send(&mut self, i: usize, msg: Msg) {
        self.send_all(i, vec![msg]);
    }

    /// Carries out commands a seat's app gave outside a batch (at start, for a key the
    /// desk routed to it), by the same driver.
    fn run(&mut self, i: usize, commands: Vec<Command>) {
        let seat = &mut self.seats[i];
        effects::drive(&mut seat.app, &mut seat.effects, commands);
    }

    /// What follows any batch: a seat that quit ends the desk; the All rows are merged
    /// again when a seat's changed.
    fn after(&mut self) {
        if self.seats.iter().any(|s| s.app.should_quit()) {
            self.quit = true;
        }
        let mut changed = false;
        for seat in &mut self.seats {
            changed |= seat.app.take_redraw();
        }
        if changed {
            self.redraw = true;
        }
        if (changed || self.stale) && self.scope == Scope::All {
            self.rebuild();
        }
        self.warm();
        if let Some(k) = self.owner
            && self.seats[k].app.popups().is_empty()
        {
            // A key on marked rows of several accounts may have left popups (a
            // confirmation) in more than one: the next one's come forward.
            self.owner = (self.scope == Scope::All)
                .then(|| self.seats.iter().position(|s| !s.app.popups().is_empty()))
                .flatten();
        }
        self.refresh_over_all();
    }

    /// Shows `scope`, and tells every account what the screen shows (its keys' context:
    /// `A`, and what `P` marks as shown).
    fn set_scope(&mut self, scope: Scope) {
        use crate::app::keymap::Accounts;
        self.scope = scope;
        let multi = self.is_multi();
        for seat in &mut self.seats {
            seat.app.set_accounts(match (multi, scope) {
                (false, _) => Accounts::Alone,
                (true, Scope::All) => Accounts::All,
                (true, Scope::One(_)) => Accounts::OneOfSeveral,
            });
        }
        self.redraw = true;
    }

    /// In All, one account's deferred rows are brought up to date per batch (the next in
    /// turn that needs it), so `/` or `!` later finds most of them ready instead of
    /// rebuilding every account's at that key.
    fn warm(&mut self) {
        if self.scope != Scope::All || !self.is_multi() {
            return;
        }
        let n = self.seats.len();
        self.warm_next = (self.warm_next + 1) % n;
        self.seats[self.warm_next].app.keys_up_to_date();
    }

    fn on_ui(&mut self, msg: Msg) {
        self.redraw = true;
        match msg {
            Msg::Resize(w, h) => self.resize((w, h)),
            Msg::Tick => {
                for i in 0..self.seats.len() {
                    self.send(i, Msg::Tick);
                }
            }
            Msg::Key(key) if self.is_multi() => {
                for seat in &mut self.seats {
                    seat.app.shell_mut().person_acted();
                }
                self.on_key(key);
            }
            Msg::Mouse(mut mouse) if self.is_multi() => {
                // The top line is the desk's: an account's screen starts below it.
                if let (Scope::One(k), Some(row)) = (self.scope, mouse.row.checked_sub(1)) {
                    mouse.row = row;
                    self.send(k, Msg::Mouse(mouse));
                }
            }
            msg => {
                let i = self.target();
                self.send(i, msg);
            }
        }
    }

    fn resize(&mut self, (w, h): (u16, u16)) {
        self.size = (w, h);
        // Below the desk's own top line.
        let h = if self.is_multi() {
            h.saturating_sub(1)
        } else {
            h
        };
        for i in 0..self.seats.len() {
            self.send(i, Msg::Resize(w, h));
        }
        self.all
            .set_page(draw::page_rows(&self.seats[0].app, self.size));
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Something visible changed since the loop last drew.
    pub fn take_redraw(&mut self) -> bool {
        let mut redraw = std::mem::take(&mut self.redraw);
        for seat in &mut self.seats {
            redraw |= seat.app.take_redraw();
        }
        redraw
    }

    /// The profile picked with `P` on a desk over one account (the loop reconnects).
    /// One of your actions to run with the terminal (`foreground = …`), and the account
    /// whose it is (its outcome goes back to it).
    pub fn take_foreground(&mut self) -> Option<(usize, crate::config::actions::Run)> {
        self.seats
            .iter_mut()
            .enumerate()
            .find_map(|(i, s)| Some((i, s.app.shell_mut().take_foreground()?)))
    }

    pub fn take_profile_switch(&mut self) -> Option<String> {
        self.only()
            .and_then(|seat| seat.app.shell_mut().take_profile_switch())
    }

    /// When the loop must send a tick next: the soonest of the accounts'.
    pub fn next_wakeup(&self) -> Option<DateTime<Utc>> {
        self.seats.iter().filter_map(|s| s.app.next_wakeup()).min()
    }

    /// Hands what the frame just drawn measured to the account it measured it for (see
    /// [`crate::app::geometry`]), and carries out what that asks (the engine told the rows
    /// now on screen). Nothing is drawn again for it: the frame already showed these
    /// pages; [`Desk::take_redraw`] says so if something visible did change after all.
    pub fn measured(&mut self, measured: draw::Measured) {
        if let Some(rows) = measured.all_rows {
            self.all.set_page(usize::from(rows));
        }
        let Some(i) = measured.seat.filter(|i| *i < self.seats.len()) else {
            return;
        };
        let commands = self.seats[i].app.measured(measured.geometry);
        self.run(i, commands);
        if self.seats[i].app.take_redraw() {
            self.redraw = true;
        }
    }
}

/// A profile's name cut to [`NAME_MAX`] characters.
fn short_name(name: &str) -> String {
    let clean = crate::text::sanitize(name);
    if clean.chars().count() <= NAME_MAX {
        return clean.into_owned();
    }
    let mut out: String = clean.chars().take(NAME_MAX - 1).collect();
    out.push('…');
    out
}
