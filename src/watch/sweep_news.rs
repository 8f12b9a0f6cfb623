//! Which sweeps `watch --verbose` writes a line for: one when what the line says changes
//! (services, servers in error, credit, alerts open, requests failing, the API's state),
//! and the same line again after [`HEARTBEAT`] without a change, so a quiet log still
//! shows the watcher alive. The budget left is not news (it moves with every request);
//! it is in the line written. `-vv` writes every sweep's line.
//!
//! At `refresh = 15` a line per sweep was 147 identical lines in six minutes.

use chrono::{DateTime, Utc};

/// The longest `--verbose` stays quiet while sweeps go on.
pub const HEARTBEAT: chrono::Duration = chrono::Duration::minutes(10);

#[derive(Debug, Default)]
pub struct SweepNews {
    /// What the last line written said (without the budget), and when.
    last: Option<(String, DateTime<Utc>)>,
}

impl SweepNews {
    /// Whether a sweep whose line says `news` (its words that count) is written now.
    pub fn worth_a_line(&mut self, news: &str, now: DateTime<Utc>) -> bool {
        let due = match &self.last {
            Some((said, at)) => said != news || now - *at >= HEARTBEAT,
            None => true,
        };
        if due {
            self.last = Some((news.to_owned(), now));
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    /// Issue 37 item 9: a sweep every 2.5 s for six minutes with nothing new is one line
    /// (and no heartbeat yet); a change is one more; ten quiet minutes give a heartbeat.
    #[test]
    fn one_line_per_change_and_a_heartbeat() {
        let t0 = Utc.with_ymd_and_hms(2026, 11, 28, 12, 0, 0).unwrap();
        let at = |ms: i64| t0 + chrono::Duration::milliseconds(ms);
        let mut news = SweepNews::default();
        let same = "shop: 30 services (30 active), 0 servers in error, 2 alerts open";
        let written = (0..147)
            .filter(|i| news.worth_a_line(same, at(i * 2_500)))
            .count();
        assert_eq!(written, 1);
        assert!(news.worth_a_line("shop: 1 servers in error", at(370_000)));
        assert!(!news.worth_a_line("shop: 1 servers in error", at(372_500)));
        assert!(news.worth_a_line("shop: 1 servers in error", at(370_000 + 600_000)));
    }
}
