//! The 429 countdowns of IP-list refreshes (spec section 8), kept in one
//! [`Throttles`](crate::iplist_throttle::Throttles) map per account: the 429's time, read in the
//! server's offset ([`AppSettings::server_zone`](super::AppSettings), UTC unless set),
//! starts one; [`App::next_wakeup`] asks for a tick every second while one is on screen
//! (a service row, its detail, the refresh form) and once more when the soonest ends, so
//! the status line can say the refresh is possible again; every change is saved with
//! [`Command::SaveThrottles`] so countdowns survive a restart.
//!
//! An [`Answer`](crate::account::Answer) has no throttled state for this: the throttle belongs
//! to a service's refresh, not to a piece of data on screen, and one map is what the state
//! file keeps.

use super::status::{NoticeKind, StatusLine};
use super::{Command, Mirror};
use crate::iplist_throttle::{self, Throttles};
use chrono::{DateTime, FixedOffset, Utc};

impl Mirror {
    pub fn throttles(&self) -> &Throttles {
        &self.throttles
    }

    /// When the service's IP list may be refreshed again, while that is in the future.
    pub fn throttled_until(&self, service_id: u64, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.throttles.until(service_id, now)
    }

    /// See [`countdown`].
    pub fn countdown(
        &self,
        service_id: u64,
        now: DateTime<Utc>,
        offset: FixedOffset,
    ) -> Option<String> {
        countdown(&self.throttles, service_id, now, offset)
    }

    /// Ends the countdowns that ran out: the status line says so, the state file forgets.
    pub(super) fn expire_countdowns(
        &mut self,
        now: DateTime<Utc>,
        status: &mut StatusLine,
        out: &mut Vec<Command>,
    ) {
        let done = self.throttles.expire(now);
        if done.is_empty() {
            return;
        }
        let ids = done
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let service = if done.len() == 1 {
            "Service"
        } else {
            "Services"
        };
        status.tell(
            NoticeKind::Done,
            format!("{service} {ids}: the IP list can be refreshed again"),
        );
        out.push(Command::SaveThrottles(self.throttles.clone()));
    }
}

/// `next refresh in 4m 12s (at 14:05:00 local)`, the time in `offset`; a countdown cut to
/// 7 days says what the server named.
pub fn countdown(
    throttles: &Throttles,
    service_id: u64,
    now: DateTime<Utc>,
    offset: FixedOffset,
) -> Option<String> {
    let until = throttles.until(service_id, now)?;
    // The server's 429 names its own wall-clock time; this one is the user's, so say
    // so: `(at 14:07:17 local)`.
    let mut line = iplist_throttle::describe(until, now, &offset);
    if line.ends_with(')') {
        line.insert_str(line.len() - 1, " local");
    }
    Some(match throttles.named(service_id) {
        Some(named) => format!(
            "{line}; the server named {}",
            named.with_timezone(&offset).format("%Y-%m-%d")
        ),
        None => line,
    })
}
