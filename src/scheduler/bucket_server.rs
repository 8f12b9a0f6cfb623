//! The server's own count (`X-RateLimit-Remaining`) as the budget keeps it: until when it
//! holds, and whether another program spends the same token.

use super::{Bucket, Hold, Lane, POLITE_CONCURRENCY};
use std::time::Instant;

impl Bucket {
    /// Whether the server's count lets a request of `lane` go now. The count comes back
    /// only when the server's window ends, so a person who found it spent would wait for
    /// that: a person may spend the count to the last; the screen and the sweep leave the
    /// person what they will likely ask until the window ends (at their pace of the last
    /// window, up to half the limit) and a reserve besides (a tenth of the limit). (What
    /// the screen reads is read once, when first shown: no pace to expect of it.) What is
    /// kept is released in the window's last seconds, when what is left goes (it comes
    /// back soon). While another program is seen on the token, the sweep also leaves what
    /// may be on its way from it (its requests only show in the next answer).
    pub(super) fn server_allows(&self, now: Instant, lane: Lane) -> Result<(), (Instant, Hold)> {
        let Some((left, until)) = self.server.left else {
            return Ok(());
        };
        if left == 0 {
            return Err((until, Hold::Paused));
        }
        if lane == Lane::Person {
            return Ok(());
        }
        let reserve = (self.limit / 10).max(1);
        let released = until - (self.interval() * reserve).min(until - now.min(until));
        let left_of_window = until.saturating_duration_since(now).as_secs_f64();
        let expect = |log: &std::collections::VecDeque<Instant>| {
            let pace = (log.len() as u32).min(self.limit / 2);
            (f64::from(pace) * left_of_window / self.span().as_secs_f64()).ceil() as u32
        };
        let kept = if now >= released {
            0
        } else {
            reserve + expect(&self.person)
        };
        let shared = self.server.shared_until.is_some_and(|t| t > now);
        let lag = if shared && lane == Lane::Background {
            POLITE_CONCURRENCY as u32
        } else {
            0
        };
        match left {
            left if left <= lag => Err((until, Hold::Paused)),
            left if left <= kept + lag => Err((released, Hold::Budget)),
            _ => Ok(()),
        }
    }

    /// An answer said the server takes `remaining` more, until `window_end` when it said
    /// when its count resets.
    pub(super) fn server_count(
        &mut self,
        remaining: u32,
        window_end: Option<Instant>,
        now: Instant,
    ) {
        // The window's end is worked out once per window of the server's (a count that
        // went up by more than the requests at once is a new one), so a count others keep
        // spending never holds us past the end first reckoned.
        let known = self
            .server
            .left
            .filter(|(left, until)| *until > now && remaining <= left + POLITE_CONCURRENCY as u32);
        let until = window_end
            .or(known.map(|(_, until)| until))
            .unwrap_or_else(|| self.server_window_end(remaining, now));
        self.server.left = Some((remaining, until));
    }

    /// When the server's window ends, as far as our sends tell, for an answer that said
    /// `remaining` without saying when its count resets. The server has counted
    /// `limit - remaining` requests since its window began. When our own sends explain
    /// them all, the window began no later than the send that many back, and ends a window
    /// after it (kept a whole window from the answer instead, a count of 0 held every
    /// request, the user's too, for up to a minute after the server had started counting
    /// afresh). When they do not, another program spends the same token and nothing tells
    /// when its window began: the count is kept a whole window from now.
    fn server_window_end(&mut self, remaining: u32, now: Instant) -> Instant {
        let counted = self.limit.saturating_sub(remaining) as usize;
        if counted > self.spent.len() {
            self.server.shared_until = Some(now + self.span());
            return now + self.span();
        }
        let began = match counted {
            0 => now,
            n => self.spent[self.spent.len() - n],
        };
        (began + self.span()).max(now)
    }
}
