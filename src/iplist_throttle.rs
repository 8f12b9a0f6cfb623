//! The IP-list refresh throttle (`update_list`'s 429, spec section 8): when the next
//! IP-list refresh of each service is possible, how to say so, and a small state file so
//! the countdowns survive a restart. (Not the request budget: that is the scheduler's.)
//!
//! The 429 names a wall-clock time without a zone. It is read as UTC unless the settings
//! name the server's offset ([`server_time_to_utc`]).
//!
//! Choices (the spec does not say how long the interval is):
//! - A time more than [`BELIEVED_AT_MOST`] (7 days) away is not believed whole: a server
//!   naming `9999-12-31` would otherwise lock the refresh for ever. The countdown runs for
//!   7 days and keeps the time the server named, and both are said; at the end the next
//!   `u` asks the server again.
//! - A countdown whose end is not today (in the user's zone) shows its date.
//! - The user may clear a countdown (`x`): nothing is lost, the server still decides.

use crate::files::state::AccountsFile;
use chrono::{DateTime, FixedOffset, NaiveDateTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// The zone of the server's wall clock: a fixed offset (`UTC`, `+02:00`) or an IANA zone
/// name (`Europe/Berlin`), which follows daylight saving time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerZone {
    Fixed(FixedOffset),
    Named(chrono_tz::Tz),
}

impl Default for ServerZone {
    fn default() -> Self {
        ServerZone::Fixed(FixedOffset::east_opt(0).expect("zero is a valid offset"))
    }
}

impl std::str::FromStr for ServerZone {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("utc") || t.eq_ignore_ascii_case("z") || t.is_empty() {
            return Ok(Self::default());
        }
        if let Ok(offset) = t.parse::<FixedOffset>() {
            return Ok(ServerZone::Fixed(offset));
        }
        t.parse::<chrono_tz::Tz>().map(ServerZone::Named).map_err(|_| {
            format!("unknown time zone {t:?}: use UTC, an offset like +02:00, or a name like Europe/Berlin")
        })
    }
}

impl std::fmt::Display for ServerZone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServerZone::Fixed(o) if o.local_minus_utc() == 0 => f.write_str("UTC"),
            ServerZone::Fixed(o) => write!(f, "{o}"),
            ServerZone::Named(tz) => f.write_str(tz.name()),
        }
    }
}

impl ServerZone {
    /// The server's wall-clock time as a UTC instant. A time that the zone skips or repeats
    /// (a daylight-saving change) takes the earlier reading, which at worst shows a
    /// countdown an hour long that the server then shortens.
    pub fn to_utc(&self, at: NaiveDateTime) -> DateTime<Utc> {
        match self {
            ServerZone::Fixed(offset) => server_time_to_utc(at, *offset),
            ServerZone::Named(tz) => match tz.from_local_datetime(&at).earliest() {
                Some(t) => t.with_timezone(&Utc),
                None => Utc.from_utc_datetime(&at),
            },
        }
    }
}

/// The server's wall-clock time as a UTC instant, given the server's offset from UTC.
pub fn server_time_to_utc(at: NaiveDateTime, server_offset: FixedOffset) -> DateTime<Utc> {
    match server_offset.from_local_datetime(&at).single() {
        Some(t) => t.with_timezone(&Utc),
        None => Utc.from_utc_datetime(&at),
    }
}

/// The longest countdown believed from a 429 (see the module docs).
pub const BELIEVED_AT_MOST: chrono::TimeDelta = chrono::TimeDelta::days(7);

/// `4m 12s`, `1h 02m`, `45s`, `3d 04h`: how long until `until`, rounded up to the second.
pub fn format_remaining(until: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let ms = (until - now).num_milliseconds().max(0);
    let secs = ms.saturating_add(999) / 1000;
    let (d, h, m, s) = (
        secs / 86_400,
        (secs % 86_400) / 3600,
        (secs % 3600) / 60,
        secs % 60,
    );
    if d > 0 {
        format!("{d}d {h:02}h")
    } else if h > 0 {
        format!("{h}h {m:02}m")
    } else if m > 0 {
        format!("{m}m {s:02}s")
    } else {
        format!("{s}s")
    }
}

/// `next refresh in 4m 12s (at 14:05:00)`, the time shown in the user's local zone, with
/// its date when that is not today (`at 2026-11-30 14:05:00`).
pub fn describe<Tz: TimeZone>(until: DateTime<Utc>, now: DateTime<Utc>, local: &Tz) -> String {
    let at = until.with_timezone(local).naive_local();
    let today = now.with_timezone(local).naive_local().date();
    let at = if at.date() == today {
        at.format("%H:%M:%S").to_string()
    } else {
        at.format("%Y-%m-%d %H:%M:%S").to_string()
    };
    format!("next refresh in {} (at {at})", format_remaining(until, now))
}

/// Next possible refresh per service, for one account (base URL + profile).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Throttles {
    #[serde(default)]
    until: BTreeMap<u64, DateTime<Utc>>,
    /// What the server named, for the countdowns cut to [`BELIEVED_AT_MOST`].
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    named: BTreeMap<u64, DateTime<Utc>>,
}

impl Throttles {
    pub fn set(&mut self, service_id: u64, until: DateTime<Utc>) {
        self.until.insert(service_id, until);
        self.named.remove(&service_id);
    }

    /// A countdown to what the server `named`, believed up to [`BELIEVED_AT_MOST`] from
    /// `now`; true when it was cut.
    pub fn set_from_server(
        &mut self,
        service_id: u64,
        named: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> bool {
        let most = now + BELIEVED_AT_MOST;
        self.set(service_id, named.min(most));
        if named > most {
            self.named.insert(service_id, named);
        }
        named > most
    }

    /// The time the server named, when the countdown was cut short of it.
    pub fn named(&self, service_id: u64) -> Option<DateTime<Utc>> {
        self.named.get(&service_id).copied()
    }

    /// Drops the service's countdown; true if there was one.
    pub fn clear(&mut self, service_id: u64) -> bool {
        self.named.remove(&service_id);
        self.until.remove(&service_id).is_some()
    }

    /// The time the service may be refreshed again, if that is still in the future.
    pub fn until(&self, service_id: u64, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.until.get(&service_id).copied().filter(|t| *t > now)
    }

    /// Drops the countdowns that have run out; returns the services they were for.
    pub fn expire(&mut self, now: DateTime<Utc>) -> Vec<u64> {
        let done: Vec<u64> = self
            .until
            .iter()
            .filter(|(_, t)| **t <= now)
            .map(|(id, _)| *id)
            .collect();
        for id in &done {
            self.until.remove(id);
            self.named.remove(id);
        }
        done
    }

    /// The soonest countdown end, for the loop's timer.
    pub fn next_end(&self) -> Option<DateTime<Utc>> {
        self.until.values().min().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.until.is_empty()
    }
}

/// Where countdowns are kept: one JSON file in the state directory, keyed by account
/// (read through [`AccountsFile`]: never a FIFO, a device or a link, at most a few MB).
#[derive(Clone, Debug)]
pub struct StateFile {
    file: AccountsFile<Throttles>,
}

impl StateFile {
    pub fn new(path: PathBuf) -> Self {
        Self {
            file: AccountsFile::new(path),
        }
    }

    /// `throttle.json` in the XDG state directory.
    pub fn default_location() -> Option<Self> {
        crate::files::state_dir().map(|d| Self::new(d.join("throttle.json")))
    }

    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The countdowns of `account`; a missing or unreadable file gives none (a broken state
    /// file must never stop the dashboard), with what was wrong with it if anything was.
    pub fn load(&self, account: &str) -> (Throttles, Option<String>) {
        let (throttles, problem) = self.file.load(account);
        (throttles.unwrap_or_default(), problem)
    }

    pub fn save(&self, account: &str, throttles: &Throttles) -> io::Result<()> {
        self.save_at(account, throttles, Utc::now())
    }

    /// [`StateFile::save`] at `now`: countdowns that ended by then are dropped from every
    /// account of the file, and accounts left without any, so the file holds only what
    /// still counts (an account not opened again would otherwise keep its entries forever).
    pub fn save_at(
        &self,
        account: &str,
        throttles: &Throttles,
        now: DateTime<Utc>,
    ) -> io::Result<()> {
        let mut throttles = throttles.clone();
        throttles.expire(now);
        self.file.update(|accounts| {
            for other in accounts.values_mut() {
                other.expire(now);
            }
            accounts.retain(|_, t| !t.is_empty());
            if throttles.is_empty() {
                accounts.remove(account);
            } else {
                accounts.insert(account.to_owned(), throttles);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        Utc.from_utc_datetime(&NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap())
    }

    #[test]
    fn remaining_is_formatted_and_rounded_up() {
        let now = t("2026-11-22 14:00:48");
        assert_eq!(format_remaining(t("2026-11-22 14:05:00"), now), "4m 12s");
        assert_eq!(format_remaining(t("2026-11-22 14:00:50"), now), "2s");
        assert_eq!(format_remaining(t("2026-11-22 16:00:48"), now), "2h 00m");
        assert_eq!(format_remaining(now, now), "0s");
        let almost = now + chrono::Duration::milliseconds(1500);
        assert_eq!(format_remaining(almost, now), "2s");
        assert_eq!(
            describe(t("2026-11-22 14:05:00"), now, &Utc),
            "next refresh in 4m 12s (at 14:05:00)"
        );
    }

    #[test]
    fn a_far_future_time_is_believed_for_7_days_and_shown_with_its_date() {
        let now = t("2026-11-22 14:00:00");
        let mut th = Throttles::default();
        assert!(th.set_from_server(5, t("9999-12-31 23:59:59"), now));
        assert_eq!(th.until(5, now), Some(t("2026-11-29 14:00:00")));
        assert_eq!(th.named(5), Some(t("9999-12-31 23:59:59")));
        assert_eq!(
            describe(th.until(5, now).unwrap(), now, &Utc),
            "next refresh in 7d 00h (at 2026-11-29 14:00:00)"
        );
        assert!(!th.set_from_server(6, t("2026-11-22 14:05:00"), now));
        assert_eq!(th.named(6), None);
        assert!(th.clear(5));
        assert_eq!(th.until(5, now), None);
        assert!(!th.clear(5));
    }

    #[test]
    fn server_zone_is_applied() {
        let naive =
            NaiveDateTime::parse_from_str("2026-11-22 16:05:00", "%Y-%m-%d %H:%M:%S").unwrap();
        let plus2 = FixedOffset::east_opt(2 * 3600).unwrap();
        assert_eq!(server_time_to_utc(naive, plus2), t("2026-11-22 14:05:00"));
        assert_eq!(
            server_time_to_utc(naive, FixedOffset::east_opt(0).unwrap()),
            t("2026-11-22 16:05:00")
        );
    }

    #[test]
    fn zones_parse_and_convert() {
        let naive =
            NaiveDateTime::parse_from_str("2026-07-01 12:00:00", "%Y-%m-%d %H:%M:%S").unwrap();
        assert_eq!(
            "UTC".parse::<ServerZone>().unwrap().to_utc(naive),
            t("2026-07-01 12:00:00")
        );
        assert_eq!(
            "+03:00".parse::<ServerZone>().unwrap().to_utc(naive),
            t("2026-07-01 09:00:00")
        );
        // Berlin is UTC+2 in summer and UTC+1 in winter.
        let berlin: ServerZone = "Europe/Berlin".parse().unwrap();
        assert_eq!(berlin.to_utc(naive), t("2026-07-01 10:00:00"));
        let winter =
            NaiveDateTime::parse_from_str("2026-12-01 12:00:00", "%Y-%m-%d %H:%M:%S").unwrap();
        assert_eq!(berlin.to_utc(winter), t("2026-12-01 11:00:00"));
        assert!("Mars/Olympus".parse::<ServerZone>().is_err());
    }

    #[test]
    fn countdowns_expire() {
        let mut th = Throttles::default();
        th.set(7, t("2026-11-22 14:05:00"));
        th.set(8, t("2026-11-22 14:10:00"));
        assert_eq!(
            th.until(7, t("2026-11-22 14:00:00")),
            Some(t("2026-11-22 14:05:00"))
        );
        assert_eq!(th.next_end(), Some(t("2026-11-22 14:05:00")));
        assert_eq!(th.expire(t("2026-11-22 14:05:00")), vec![7]);
        assert_eq!(th.until(7, t("2026-11-22 14:05:00")), None);
        assert_eq!(th.next_end(), Some(t("2026-11-22 14:10:00")));
    }

    #[test]
    fn state_file_round_trip_per_account() {
        let dir = std::env::temp_dir().join(format!("proxydash-throttle-{}", std::process::id()));
        let file = StateFile::new(dir.join("throttle.json"));
        let mut a = Throttles::default();
        a.set(5001, t("2026-11-22 14:05:00"));
        let now = t("2026-11-22 14:00:00");
        file.save_at("https://a.example default", &a, now).unwrap();
        file.save_at("https://b.example work", &Throttles::default(), now)
            .unwrap();
        assert_eq!(file.load("https://a.example default").0, a);
        assert!(file.load("https://b.example work").0.is_empty());
        std::fs::write(file.path(), b"{not json").unwrap();
        assert!(file.load("https://a.example default").0.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn saving_prunes_ended_countdowns_of_every_account() {
        let dir = std::env::temp_dir().join(format!("proxydash-prune-{}", std::process::id()));
        let file = StateFile::new(dir.join("throttle.json"));
        let mut old = Throttles::default();
        old.set(1, t("2026-11-22 10:00:00"));
        file.save_at("gone account", &old, t("2026-11-22 09:00:00"))
            .unwrap();
        let mut mine = Throttles::default();
        mine.set(2, t("2026-11-22 11:00:00"));
        mine.set(3, t("2026-11-22 13:00:00"));
        file.save_at("mine", &mine, t("2026-11-22 12:00:00"))
            .unwrap();
        let text = std::fs::read_to_string(file.path()).unwrap();
        assert!(!text.contains("gone account"), "{text}");
        assert_eq!(
            file.load("mine").0.until(3, t("2026-11-22 12:00:00")),
            Some(t("2026-11-22 13:00:00"))
        );
        assert!(
            file.load("mine")
                .0
                .until(2, t("2026-11-22 10:00:00"))
                .is_none(),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
