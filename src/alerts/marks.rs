//! What people said about alerts: acknowledgements and silences ([`Marks`]), and how they
//! hold back a sweep's transitions ([`Marks::deliverable`]).
//!
//! The engine applies them in its alert path, so everything that delivers (the status
//! line, `on_alert`, `watch`'s lines) and everything that shows (the Alerts tab,
//! `/metrics`) agrees. They are kept in the profile's history file
//! ([`crate::history::marks`]), which the dashboard, `watch` and `proxydash alerts` share.
//!
//! # Choices where the issue leaves room
//!
//! - **An alert's ID** is its rule, and for a service or an invoice its number:
//!   `service_status:1001`, `unpaid_invoice:7001`, `credit_low` ([`alert_id`]). It is the
//!   same in every process and across restarts, which a counter would not be.
//! - **Acknowledged**: the alert stays open and listed, marked with who and when; it is
//!   not delivered again (no repeat, no escalation) until it resolves. Its resolution is
//!   delivered (whoever handles it learns it is over) and ends the acknowledgement, so
//!   the next time the problem comes back it is announced. One whose resolution no
//!   process saw (stopped meanwhile) ends at the first sweep that finds it fine and not
//!   open ([`Marks::stale_acks`]).
//! - **Silenced**: a silence names a rule, a service, or a rule on a service, until a time
//!   and with a reason; while it lasts, no transition of an alert it covers is delivered
//!   (the book still moves, so the Alerts tab is true). After its end the next transition
//!   is delivered as usual; one swallowed meanwhile is not replayed.
//! - Silences end by themselves: one past its end covers nothing and is no longer listed.
//! - **Durations** are typed as `90m`, `8h`, `2h30m`, `1d`, at most [`MAX_SILENCE`].

use super::{AlertBook, AlertKey, Change, Observation, Rule, Subject, Transition};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};

/// The longest silence: longer is a rule to turn off (`disabled` in `[alerts]`).
pub const MAX_SILENCE: chrono::Duration = chrono::Duration::days(90);

/// The choices the dashboard offers before a typed one.
pub const PRESETS: [&str; 3] = ["1h", "8h", "24h"];

/// An alert someone has seen to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ack {
    pub key: AlertKey,
    pub by: String,
    pub at: DateTime<Utc>,
}

/// What a silence covers: a rule, a service, or a rule on a service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    pub rule: Option<Rule>,
    pub service: Option<u64>,
}

impl Target {
    pub fn covers(&self, key: &AlertKey) -> bool {
        if self.rule.is_none() && self.service.is_none() {
            return false;
        }
        let rule = self.rule.is_none_or(|r| r == key.rule);
        let service = self
            .service
            .is_none_or(|id| key.subject == Subject::Service(id));
        rule && service
    }

    /// `rate_limit on service 1003`, `service 1003`, `credit_low`.
    pub fn describe(&self) -> String {
        match (self.rule, self.service) {
            (Some(r), Some(s)) => format!("{} on service {s}", r.as_str()),
            (Some(r), None) => r.as_str().to_owned(),
            (None, Some(s)) => format!("service {s}"),
            (None, None) => "nothing".to_owned(),
        }
    }
}

/// Alerts not to be delivered for a while.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Silence {
    /// Short and random, so two processes never pick the same one.
    pub id: String,
    pub target: Target,
    pub until: DateTime<Utc>,
    pub reason: String,
    pub by: String,
    pub created: DateTime<Utc>,
}

impl Silence {
    pub fn is_active(&self, now: DateTime<Utc>) -> bool {
        self.until > now
    }
}

/// Every acknowledgement and silence of an account.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marks {
    pub acks: BTreeMap<AlertKey, Ack>,
    /// By their end, soonest first.
    pub silences: Vec<Silence>,
}

/// One change to the marks: what the dashboard and `proxydash alerts` ask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkChange {
    Ack(Ack),
    /// The alert resolved: its acknowledgement ends with it.
    Unack(AlertKey),
    /// A new silence, or an edit of the one with its ID.
    Silence(Silence),
    Unsilence(String),
}

impl Marks {
    pub fn apply(&mut self, change: MarkChange) {
        match change {
            MarkChange::Ack(ack) => {
                self.acks.insert(ack.key, ack);
            }
            MarkChange::Unack(key) => {
                self.acks.remove(&key);
            }
            MarkChange::Silence(s) => {
                self.silences.retain(|x| x.id != s.id);
                self.silences.push(s);
                self.silences
                    .sort_by(|a, b| a.until.cmp(&b.until).then(a.id.cmp(&b.id)));
            }
            MarkChange::Unsilence(id) => self.silences.retain(|x| x.id != id),
        }
    }

    pub fn ack(&self, key: &AlertKey) -> Option<&Ack> {
        self.acks.get(key)
    }

    /// The silence that covers `key` now (the one lasting longest), if any.
    pub fn silence(&self, key: &AlertKey, now: DateTime<Utc>) -> Option<&Silence> {
        self.active(now)
            .filter(|s| s.target.covers(key))
            .max_by_key(|s| s.until)
    }

    /// The silences not ended yet, soonest end first.
    pub fn active(&self, now: DateTime<Utc>) -> impl Iterator<Item = &Silence> {
        self.silences.iter().filter(move |s| s.is_active(now))
    }

    /// The silence with this ID, ended or not.
    pub fn find(&self, id: &str) -> Option<&Silence> {
        self.silences.iter().find(|s| s.id == id.trim())
    }

    /// Splits a sweep's transitions: those to deliver, and the acknowledgements their
    /// resolutions end (see the module docs).
    pub fn deliverable(
        &self,
        transitions: Vec<Transition>,
        now: DateTime<Utc>,
    ) -> (Vec<Transition>, Vec<AlertKey>) {
        let mut ended = Vec::new();
        let mut out = Vec::new();
        for t in transitions {
            let key = t.alert.key;
            let resolved = t.change == Change::Resolved;
            if resolved && self.acks.contains_key(&key) {
                ended.push(key);
            }
            let acked = !resolved && self.acks.contains_key(&key);
            if acked || self.silence(&key, now).is_some() {
                continue;
            }
            out.push(t);
        }
        (out, ended)
    }
}

impl Marks {
    /// Acknowledgements of alerts that are over though no resolution was seen (the
    /// process that saw it open stopped, the open alerts' file was lost): not open in
    /// `book`, and this sweep found their subject fine. Left alone, one would hold back
    /// the next time the problem comes.
    pub fn stale_acks(&self, book: &AlertBook, observations: &[Observation]) -> Vec<AlertKey> {
        let open: HashSet<AlertKey> = book.open().map(|a| a.key).collect();
        let mut problem = HashSet::new();
        let mut fine = HashSet::new();
        let mut covered = HashSet::new();
        for o in observations {
            match o {
                Observation::Seen {
                    key,
                    level: Some(_),
                    ..
                } => {
                    problem.insert(*key);
                }
                Observation::Seen {
                    key, level: None, ..
                }
                | Observation::Ended { key, .. } => {
                    fine.insert(*key);
                }
                Observation::Covered(rule) => {
                    covered.insert(*rule);
                }
            }
        }
        self.acks
            .keys()
            .filter(|k| !open.contains(k) && !problem.contains(k))
            .filter(|k| fine.contains(k) || covered.contains(&k.rule))
            .copied()
            .collect()
    }
}

/// An alert's ID: its rule, then `:` and the service's or invoice's number.
pub fn alert_id(key: &AlertKey) -> String {
    match key.subject {
        Subject::Account => key.rule.as_str().to_owned(),
        Subject::Service(id) | Subject::Invoice(id) => format!("{}:{id}", key.rule.as_str()),
        Subject::Data(kind) => format!("{}:{}", key.rule.as_str(), kind.as_str()),
    }
}

/// The alert an ID names, or what is wrong with it.
pub fn parse_alert_id(text: &str) -> Result<AlertKey, String> {
    let text = text.trim();
    let (rule, number) = match text.split_once(':') {
        Some((r, n)) => (r, Some(n)),
        None => (text, None),
    };
    let rule: Rule = rule.parse()?;
    let subject = match (rule, number) {
        (Rule::DatumFailing, None) => {
            return Err(format!(
                "{text:?}: add the kind of data it is about (datum_failing:invoices)"
            ));
        }
        (Rule::DatumFailing, Some(kind)) => match crate::api::Kind::parse(kind) {
            Some(kind) => Subject::Data(kind),
            None => {
                return Err(format!(
                    "{kind:?} is not a kind of data (in {text:?}: datum_failing:invoices)"
                ));
            }
        },
        (
            Rule::CreditLow | Rule::ApiUnreachable | Rule::ApiFailing | Rule::ApiUnauthorized,
            None,
        ) => Subject::Account,
        (
            Rule::CreditLow | Rule::ApiUnreachable | Rule::ApiFailing | Rule::ApiUnauthorized,
            Some(_),
        ) => {
            return Err(format!(
                "{} is about the account: no number after it",
                rule.as_str()
            ));
        }
        (_, None) => {
            return Err(format!(
                "{text:?}: add the number it is about ({}:1001)",
                rule.as_str()
            ));
        }
        (rule, Some(n)) => {
            let id: u64 = n
                .trim()
                .parse()
                .map_err(|_| format!("{n:?} is not a number (in {text:?})"))?;
            if rule == Rule::UnpaidInvoice {
                Subject::Invoice(id)
            } else {
                Subject::Service(id)
            }
        }
    };
    Ok(AlertKey { rule, subject })
}

/// A typed length of time: `90m`, `8h`, `2h30m`, `1d`, `1d 12h`; from a minute to
/// [`MAX_SILENCE`].
pub fn parse_duration(text: &str) -> Result<chrono::Duration, String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    // Short: the form shows it under the field, which holds what was typed.
    let example = "90m, 8h, 2h30m, 1d";
    if compact.is_empty() {
        return Err(format!("How long? {example}"));
    }
    let mut total: i64 = 0;
    let mut digits = String::new();
    for c in compact.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let minutes = match c.to_ascii_lowercase() {
            'm' => 1,
            'h' => 60,
            'd' => 24 * 60,
            _ => return Err(format!("\"{c}\" is not a unit: {example}")),
        };
        let n: i64 = digits
            .parse()
            .map_err(|_| format!("A number before each unit: {example}"))?;
        digits.clear();
        total = n
            .checked_mul(minutes)
            .and_then(|m| total.checked_add(m))
            .ok_or_else(|| "Too long: at most 90 days".to_owned())?;
    }
    if !digits.is_empty() {
        return Err(format!("Say the unit: {example}"));
    }
    let length = chrono::Duration::minutes(total);
    if total == 0 {
        return Err("At least a minute".to_owned());
    }
    if length > MAX_SILENCE {
        return Err(format!(
            "At most {} days (turn a rule off with `disabled` in [alerts])",
            MAX_SILENCE.num_days()
        ));
    }
    Ok(length)
}

/// `8h`, `2h30m`, `3d 4h`: a length as [`parse_duration`] reads it.
pub fn format_duration(d: chrono::Duration) -> String {
    let m = d.num_minutes().max(0);
    let (days, hours, minutes) = (m / 1440, m % 1440 / 60, m % 60);
    let mut out = String::new();
    if days > 0 {
        out.push_str(&format!("{days}d"));
    }
    if hours > 0 {
        out.push_str(&format!("{hours}h"));
    }
    if minutes > 0 || out.is_empty() {
        out.push_str(&format!("{minutes}m"));
    }
    out
}

/// A new silence's ID: six hex digits, random.
pub fn new_id() -> String {
    let mut bytes = [0u8; 3];
    if getrandom::fill(&mut bytes).is_err() {
        // No system randomness: a clock-derived one still differs between two people.
        let n = Utc::now().timestamp_subsec_nanos();
        bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Who is acting, for the marks' `by`: the login name, else `someone`.
pub fn who() -> String {
    ["USER", "LOGNAME", "USERNAME"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.trim().is_empty()))
        // A service manager or `env -i` leaves no such variable: the user ID's login name
        // still says who (`uid 1000` when the system has none for it).
        .or_else(login_name)
        .map(|s| crate::text::truncate(&crate::text::sanitize(s.trim()), 32).into_owned())
        .unwrap_or_else(|| "someone".to_owned())
}

/// The login name of this process's user ID, from the password database.
fn login_name() -> Option<String> {
    // SAFETY: getuid cannot fail; getpwuid_r writes only into `entry` and `buf`, whose
    // sizes it is given, and the name it points to lies in `buf`, read before either goes.
    unsafe {
        let uid = libc::getuid();
        let mut entry: libc::passwd = std::mem::zeroed();
        let mut buf = vec![0 as libc::c_char; 4096];
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        let rc = libc::getpwuid_r(uid, &mut entry, buf.as_mut_ptr(), buf.len(), &mut found);
        if rc != 0 || found.is_null() || entry.pw_name.is_null() {
            return Some(format!("uid {uid}"));
        }
        let name = std::ffi::CStr::from_ptr(entry.pw_name)
            .to_string_lossy()
            .into_owned();
        Some(if name.trim().is_empty() {
            format!("uid {uid}")
        } else {
            name
        })
    }
}

/// Issue 36.10: without `$USER` and its kin (a service manager, `env -i`), the marks' `by`
/// is the login name of the user ID (or its number), never `someone`.
#[cfg(test)]
#[test]
fn without_the_user_variables_the_user_ids_login_name_says_who() {
    let name = login_name().expect("a user ID always has a name or a number");
    assert!(!name.trim().is_empty());
    assert_ne!(name, "someone");
}
