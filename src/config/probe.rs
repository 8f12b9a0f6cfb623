//! The proxy probe's settings of a profile, and the schedule of `watch`'s rounds.

use std::time::Duration;

/// The cadence the shipped Prometheus rules assume for `watch --probe-every` when a profile
/// sets none (rounds are off by default).
pub const RULES_PROBE_EVERY: Duration = Duration::from_secs(300);
/// Proxies of one service checked in one round unless the profile says otherwise
/// (`probe_sample`); a longer list is sampled, in turn.
pub const DEFAULT_SAMPLE: usize = 20;

/// How the proxy probe runs (see [`crate::probe`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeSettings {
    /// The target asked through each proxy; `""` checks TCP connects only.
    pub url: String,
    pub concurrency: usize,
    /// The user's export templates, by name.
    pub templates: Vec<(String, String)>,
    /// Contact loopback only (the demo, whose sandbox lists must never leave the machine).
    pub loopback_only: bool,
    /// Contact loopback, private… proxies too (`probe_allow_private`).
    pub allow_private: bool,
    /// Asks of a rotation audit (`probe_rotation`; `R`, `--rotation` without N).
    pub rotation_asks: usize,
    /// The whole check of one proxy (`probe_timeout`, seconds).
    pub timeout: Duration,
    /// `watch`'s probe rounds (`probe_every`, `--probe-every`); `None`: off.
    pub every: Option<Duration>,
    /// Proxies of a service checked per round (`probe_sample`).
    pub sample: usize,
}

impl ProbeSettings {
    pub fn config(&self) -> crate::probe::ProbeConfig {
        crate::probe::ProbeConfig {
            concurrency: self.concurrency,
            timeout: self.timeout,
            loopback_only: self.loopback_only,
            allow_private: self.allow_private,
            ..crate::probe::ProbeConfig::default()
        }
        .with_url(&self.url)
    }

    /// The demo's: the sandbox's judge, loopback only.
    pub fn demo(judge_url: Option<String>) -> Self {
        Self {
            url: judge_url.unwrap_or_default(),
            concurrency: crate::probe::DEFAULT_CONCURRENCY,
            templates: Vec::new(),
            loopback_only: true,
            allow_private: false,
            rotation_asks: crate::probe::rotation::DEFAULT_ASKS,
            timeout: crate::probe::DEFAULT_TIMEOUT,
            every: None,
            sample: DEFAULT_SAMPLE,
        }
    }
}

/// A round's distance as written (`--probe-every 30s`, `probe_every = "5m"`): a number of
/// seconds, or numbers with units `s`, `m`, `h` (`90s`, `5m`, `1h30m`); from 1 s to a day.
pub fn parse_every(text: &str) -> Result<Duration, String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let example = "30s, 5m, 1h30m";
    if let Ok(secs) = compact.parse::<u64>() {
        return within(Duration::from_secs(secs));
    }
    let mut total: u64 = 0;
    let mut digits = String::new();
    for c in compact.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let unit = match c.to_ascii_lowercase() {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            _ => return Err(format!("{text:?}: \"{c}\" is not a unit ({example})")),
        };
        let n: u64 = digits
            .parse()
            .map_err(|_| format!("{text:?}: a number before each unit ({example})"))?;
        digits.clear();
        total = n
            .checked_mul(unit)
            .and_then(|s| total.checked_add(s))
            .ok_or_else(|| format!("{text:?}: at most a day"))?;
    }
    if !digits.is_empty() || compact.is_empty() {
        return Err(format!("{text:?}: say the unit ({example})"));
    }
    within(Duration::from_secs(total))
}

fn within(every: Duration) -> Result<Duration, String> {
    if every < Duration::from_secs(1) || every > Duration::from_secs(86_400) {
        return Err(format!(
            "{} s: from 1 second to a day (30s, 5m, 1h)",
            every.as_secs()
        ));
    }
    Ok(every)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rounds_distance_reads_as_written_and_is_bounded() {
        assert_eq!(parse_every("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_every("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_every("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_every("45"), Ok(Duration::from_secs(45)));
        for bad in ["", "0s", "5x", "m", "2d", "25h", "10"] {
            let ok = parse_every(bad).is_ok();
            assert_eq!(ok, bad == "10", "{bad:?}");
        }
    }
}
