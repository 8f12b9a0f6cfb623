//! What of the request budget an unattended watcher says, one line per change: where the
//! limit comes from, a claim not believed, a limit learned from a 429, a pause and what
//! the server asked for.

use chrono::{DateTime, Utc};

/// What of the budget is worth a line (what an unattended watcher's reader must know:
/// where the limit comes from, a claim not believed, a pause), not its every token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetNews {
    limit: u32,
    source: crate::scheduler::Source,
    claimed: Option<u32>,
    paused: bool,
}

impl BudgetNews {
    /// The assumed figure, not paused: what every watcher starts from, no news.
    pub fn is_the_default(&self) -> bool {
        self.source == crate::scheduler::Source::Assumed && !self.paused
    }

    pub fn of(view: &crate::scheduler::View) -> Self {
        Self {
            limit: view.limit,
            source: view.source,
            claimed: view.claimed,
            paused: view.paused_for.is_some_and(|d| !d.is_zero()),
        }
    }

    /// The line that tells it, `None` when there is nothing to say (the assumed figure
    /// at start).
    pub fn line(&self, view: &crate::scheduler::View, now: DateTime<Utc>) -> Option<String> {
        use crate::scheduler::Source;
        let count = |n: u32| crate::text::count(u64::from(n));
        if self.paused {
            let until = now
                + chrono::Duration::from_std(view.paused_for.unwrap_or_default())
                    .unwrap_or_default();
            let asked = view
                .asked_pause
                .map(|s| {
                    format!(
                        " (the server asked for {}; at most {})",
                        crate::text::span_words(s),
                        crate::text::span_words(crate::api::PAUSE_CAP.as_secs())
                    )
                })
                .unwrap_or_default();
            return Some(format!(
                "request budget: paused by the server until {} UTC{asked}",
                until.format("%H:%M:%S")
            ));
        }
        Some(match (self.source, self.claimed) {
            (Source::Headers, Some(claimed)) => format!(
                "request budget: the server says {}/min; using {}/min (--max-rpm vouches for more)",
                count(claimed),
                count(self.limit)
            ),
            (Source::Headers, None) => format!(
                "request budget: {}/min (the server's X-RateLimit-Limit)",
                count(self.limit)
            ),
            (Source::Learned, _) => format!(
                "request budget: ~{}/min after a 429 (a step back each minute without one)",
                count(self.limit)
            ),
            (Source::Assumed, _) => {
                format!("request budget: ~{}/min assumed", count(self.limit))
            }
        })
    }
}
