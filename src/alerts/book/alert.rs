//! An alert, what can happen to it, and the notification of that.

use crate::alerts::{AlertKey, Level};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// One alert, open or resolved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Alert {
    pub key: AlertKey,
    pub level: Level,
    pub message: String,
    /// The first sweep that saw the problem (before the debounce confirmed it).
    pub first_seen: DateTime<Utc>,
    pub last_seen: DateTime<Utc>,
    pub resolved: Option<DateTime<Utc>>,
    /// How many times it was announced again while critical.
    #[serde(default)]
    pub repeats: u32,
    #[serde(default)]
    pub next_repeat: Option<DateTime<Utc>>,
    /// Restored from a file whose record of its level could not be read: it was announced
    /// then, so the first sweep that sees it gives it its level without a notification.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub level_unsure: bool,
    /// Open, but the last full sweep could not check it (its data has not come since):
    /// since when it was last checked. Absence of data never resolves an alert; it is
    /// said as "not checked since …" instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unchecked_since: Option<DateTime<Utc>>,
}

impl Alert {
    /// `not checked since 14:05` (in `offset`), when the last full sweep could not check
    /// it.
    pub fn not_checked(&self, offset: chrono::FixedOffset) -> Option<String> {
        let since = self.unchecked_since?;
        let zone = if offset.local_minus_utc() == 0 {
            " UTC"
        } else {
            ""
        };
        Some(format!(
            "not checked since {}{zone}",
            since.with_timezone(&offset).format("%Y-%m-%d %H:%M")
        ))
    }
}

/// What happened to an alert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    Opened,
    Escalated {
        from: Level,
    },
    Repeated,
    Resolved,
    /// Something worth knowing that needs no action and no resolving: a service seen
    /// ending while watched. Its alert is never open.
    Notice,
}

impl Change {
    /// The word of `PROXYDASH_ALERT_STATE` and of the JSON's `state`.
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Opened => "opened",
            Change::Escalated { .. } => "escalated",
            Change::Repeated => "repeated",
            Change::Resolved => "resolved",
            Change::Notice => "notice",
        }
    }
}

/// One notification: the change and the alert as it is after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transition {
    pub change: Change,
    pub alert: Alert,
    pub at: DateTime<Utc>,
    /// Part of the baseline: it opens an alert whose problem was already there the first
    /// time its data was read (what was true when watching started), not a change seen
    /// while watching. See [`AlertBook`]'s doc.
    pub baseline: bool,
}
