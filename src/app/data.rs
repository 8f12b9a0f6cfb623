//! [`TabData`]: the account's data a tab or a popup is drawn from, read-only — the
//! store's answers, the probes, the IP-list countdowns, the history, this session's
//! orders, the settings and the time. Apart from the tabs so that a popup (the client
//! card) reads it without naming the tabs, which open the popups.

use super::AppSettings;
use super::budget::Held;
use super::history::HistoryState;
use super::look::Seen;
use super::orders::Orders;
use super::probe::Probes;
use crate::account::store::Store;
use crate::iplist_throttle::Throttles;
use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use std::net::Ipv4Addr;

/// What a tab's rows are drawn from besides the tab itself: the account's data and the
/// time, read-only.
#[derive(Clone, Copy)]
pub struct TabData<'a> {
    pub store: &'a Store,
    /// Each service's last proxy probe (the Services Health column).
    pub probes: &'a Probes,
    /// When each service's IP list may be refreshed again (the Services countdowns).
    pub throttles: &'a Throttles,
    /// What the history store answered (the Network columns its overview adds, the
    /// Usage chart's kept days and 24 hours).
    pub history: &'a HistoryState,
    pub settings: &'a AppSettings,
    /// The orders this session placed, on their way or in doubt (the client card's).
    pub orders: &'a Orders,
    /// Until when reads are held back by the budget, and why, while they are (the Network
    /// summary's `waiting for the server's limit (next in 23 s)`).
    pub budget_held: Option<Held>,
    /// This machine's public IP, once looked up (the bound IP's "this machine").
    pub my_ip: Option<Ipv4Addr>,
    pub now: DateTime<Utc>,
    /// The offset times on screen are shown in.
    pub offset: FixedOffset,
}

impl TabData<'_> {
    /// Today, in the offset shown.
    pub fn today(&self) -> NaiveDate {
        self.now.with_timezone(&self.offset).date_naive()
    }

    /// When service `id`'s IP list may be refreshed again, while that is ahead.
    pub fn throttled_until(&self, id: u64) -> Option<DateTime<Utc>> {
        self.throttles.until(id, self.now)
    }

    /// What an IP bound to a service is to this machine: ` (this machine)`, ` (not this
    /// machine)`, or nothing while its own IP is not known.
    pub fn this_machine(&self, bound: &str) -> &'static str {
        match self.my_ip {
            Some(mine) if mine.to_string() == bound.trim() => " (this machine)",
            Some(_) => " (not this machine)",
            None => "",
        }
    }

    /// Service `id`'s IP-list countdown in words, while one runs.
    pub fn countdown(&self, id: u64) -> Option<String> {
        super::countdown::countdown(self.throttles, id, self.now, self.offset)
    }
}

/// A tab draws with the time and settings its data holds.
impl Seen for TabData<'_> {
    fn now(&self) -> DateTime<Utc> {
        self.now
    }
    fn offset(&self) -> FixedOffset {
        self.offset
    }
    fn settings(&self) -> &AppSettings {
        self.settings
    }
}
