//! [`Shell`]: what every part of the dashboard shares, given to each part as its context.

use super::Tab;
use super::status::{self, StatusLine};
use super::{AppSettings, Clock, Popup, geometry};
use chrono::{DateTime, FixedOffset, Utc};

/// What every part of the dashboard shares, and so the context each part gets beside its
/// own state: the time and settings, the tab bar, the popup stack, the status line and
/// message log, the screen's size and layout.
pub struct Shell {
    pub(in crate::app) settings: AppSettings,
    pub(in crate::app) clock: Clock,
    pub(in crate::app) utc_offset: FixedOffset,
    pub(in crate::app) tab: Tab,
    pub(in crate::app) quit: bool,
    pub(in crate::app) size: (u16, u16),
    /// Where the view last laid things out.
    pub(in crate::app) geometry: geometry::Geometry,
    pub(in crate::app) popups: Vec<Popup>,
    pub(in crate::app) status: StatusLine,
    /// What the app leaves for those around it to carry out (the run loop, the desk over
    /// several accounts), until they take it: the one outbox.
    pub(in crate::app) outbox: Vec<Outward>,
    /// Over several accounts: which of them the screen shows (the key map's context).
    pub(in crate::app) accounts: super::keymap::Accounts,
    /// Something the program waits for outside the app (a profile's token_command), shown
    /// in the header until it ends.
    pub(in crate::app) waiting: Option<String>,
    /// Something visible changed since the loop last drew (see [`redraw`]).
    pub(in crate::app) redraw: bool,
    /// The palette's queries run this session, oldest first (`↑` in the palette).
    pub(in crate::app) palette_history: Vec<String>,
}

/// What the app leaves in its outbox ([`Shell::outbox`]).
#[derive(Debug)]
pub enum Outward {
    /// The profile chosen with `P` (or, over several accounts, All): the run loop or the
    /// desk switches.
    Switch(Switch),
    /// The account chosen in the account picker (`o` in All): the desk opens its order.
    OrderOn(usize),
    /// An action of the whole screen chosen in a popup opened over All (the palette's
    /// refresh, messages, command log, help, accounts): the All view carries it out over
    /// every account, as its key does there.
    ForAll(super::keymap::Action),
    /// One of your actions to run in the foreground: the run loop gives it the terminal.
    Foreground(crate::config::actions::Run),
}

impl Shell {
    /// Leaves `what` in the outbox.
    pub(in crate::app) fn send_out(&mut self, what: Outward) {
        self.outbox.push(what);
    }

    /// Takes the first of the outbox that `pick` takes (it hands back what it does not).
    pub(in crate::app) fn take_out<T>(
        &mut self,
        mut pick: impl FnMut(Outward) -> Result<T, Outward>,
    ) -> Option<T> {
        let mut kept = Vec::with_capacity(self.outbox.len());
        let mut taken = None;
        for what in std::mem::take(&mut self.outbox) {
            match taken {
                None => match pick(what) {
                    Ok(t) => taken = Some(t),
                    Err(what) => kept.push(what),
                },
                Some(_) => kept.push(what),
            }
        }
        self.outbox = kept;
        taken
    }
}

/// What `P` chose: a profile, or (over several accounts) every account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Switch {
    Profile(String),
    All,
}

impl Shell {
    /// The shell of a new app: on the Services tab, an 80×24 screen until told its size,
    /// no layout measured yet, UTC until told the local offset.
    pub(in crate::app) fn new(settings: AppSettings, clock: Clock) -> Self {
        Self {
            settings,
            clock,
            utc_offset: FixedOffset::east_opt(0).expect("zero offset"),
            tab: Tab::Services,
            quit: false,
            size: (80, 24),
            geometry: geometry::Geometry::default(),
            popups: Vec::new(),
            status: StatusLine::default(),
            outbox: Vec::new(),
            accounts: Default::default(),
            waiting: None,
            redraw: true,
            palette_history: Vec::new(),
        }
    }

    /// One of your actions to run with the terminal, for the run loop to take.
    pub fn take_foreground(&mut self) -> Option<crate::config::actions::Run> {
        self.take_out(|o| match o {
            Outward::Foreground(run) => Ok(run),
            other => Err(other),
        })
    }

    /// Today, in local time.
    pub fn today(&self) -> chrono::NaiveDate {
        self.now().with_timezone(&self.utc_offset).date_naive()
    }

    pub fn now(&self) -> DateTime<Utc> {
        (self.clock)()
    }

    pub fn settings(&self) -> &AppSettings {
        &self.settings
    }

    /// The person pressed a key (over several accounts, wherever it went): an outcome
    /// no longer holds the status line (see [`StatusLine`]).
    pub fn person_acted(&mut self) {
        self.status.person_acted();
    }

    /// Esc with nothing else to close: the status line's messages go.
    pub fn dismiss_status(&mut self) {
        self.status.dismiss();
    }

    /// Tells the user something that is not a failure of a request, in the status line.
    pub fn notify(&mut self, line: impl AsRef<str>) {
        self.status.set_now(self.now());
        self.status.notify(status::NoticeKind::Info, line);
    }

    /// The context the help at `index` of the popups describes: what is under it (never
    /// a filter or a field taking typing: the help is on top of them).
    pub fn help_context(&self, index: usize) -> super::keymap::Context {
        super::keymap::Context {
            tab: self.tab,
            popup: index.checked_sub(1).map(|i| self.popups[i].kind()),
            editing_filter: false,
            typing: false,
            read_only: self.settings.read_only,
            switchable: self.settings.profiles.names.len() > 1,
            accounts: self.accounts,
        }
    }

    /// Whether data that arrived at `at` (or never) is due again.
    pub(in crate::app) fn is_due(&self, at: Option<DateTime<Utc>>, failed: bool) -> bool {
        let Some(at) = at else { return true };
        let every = self.settings.refresh.unwrap_or(super::DEFAULT_REFRESH);
        failed
            || self.now().signed_duration_since(at)
                >= chrono::Duration::from_std(every).unwrap_or(chrono::Duration::MAX)
    }
}
