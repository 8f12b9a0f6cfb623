//! The server's own count (`X-RateLimit-Remaining`) as the budget keeps it: until when it
//! holds, and whether another program spends the same token.

use super::{Bucket, POLITE_CONCURRENCY};
use std::time::Instant;

impl Bucket {
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
            .server_left
            .filter(|(left, until)| *until > now && remaining <= left + POLITE_CONCURRENCY as u32);
        let until = window_end
            .or(known.map(|(_, until)| until))
            .unwrap_or_else(|| self.server_window_end(remaining, now));
        self.server_left = Some((remaining, until));
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
            self.shared_until = Some(now + self.span());
            return now + self.span();
        }
        let began = match counted {
            0 => now,
            n => self.spent[self.spent.len() - n],
        };
        (began + self.span()).max(now)
    }
}
