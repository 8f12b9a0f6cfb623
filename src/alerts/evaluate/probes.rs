//! `proxies_dead`: proxydash's own probe rounds (`watch --probe-every`) find fewer of a
//! service's proxies alive than `probe_alive_percent` (a warning), or none (critical).
//!
//! - Read per round, not per sweep (the sweeper counts a sighting only when a round came
//!   in, [`crate::alerts::Rule::reads_probe_rounds`]), so the debounce's two sightings are
//!   two rounds.
//! - A service none of whose proxies was checked (never probed, every entry skipped) has
//!   no observation: unknown is not fine. The rule is checked in full when the last round
//!   read every live service's list.
//! - The message names the service, the share, the reason most died of, the first dead
//!   entries and, when its network status is known, how many of the dead the provider
//!   lists as fine: a disagreement with the provider is said where it is seen.

use super::super::snapshot::{ProbeFacts, ServiceFacts};
use super::super::{Level, Observation, Rule, Rules};
use super::{ended, key};
use crate::text::count;

/// Dead entries a message names.
const NAMED: usize = 3;

pub(super) fn proxies_dead(s: &ServiceFacts, rules: &Rules) -> Option<Observation> {
    if let Some(o) = ended(Rule::ProxiesDead, s) {
        return Some(o);
    }
    let p = s.probe.as_ref().filter(|p| p.checked > 0)?;
    let k = key(Rule::ProxiesDead, s);
    let share = f64::from(p.alive) * 100.0 / f64::from(p.checked);
    let level = if p.alive == 0 {
        Level::Critical
    } else if share < rules.probe_alive_percent {
        Level::Warn
    } else {
        return Some(Observation::fine(k));
    };
    Some(Observation::problem(k, level, message(s, p, share)))
}

fn message(s: &ServiceFacts, p: &ProbeFacts, share: f64) -> String {
    let alive = if p.alive == 0 {
        format!(
            "none of {} proxies checked is alive",
            count(u64::from(p.checked))
        )
    } else {
        format!(
            "{} of {} proxies checked are alive ({}%)",
            count(u64::from(p.alive)),
            count(u64::from(p.checked)),
            share.round()
        )
    };
    let dead_count = p.checked - p.alive;
    let reason = p
        .main_reason
        .map(|r| format!(", most dead {r}"))
        .unwrap_or_default();
    let mut named: Vec<&str> = p.dead.iter().take(NAMED).map(String::as_str).collect();
    if dead_count as usize > named.len() {
        named.push("…");
    }
    let provider = match p.dead_listed_fine {
        Some(0) => "; the provider lists them in error or inactive too".to_owned(),
        Some(n) if n == dead_count => format!(
            "; the provider's network status lists {} as fine",
            if n == 1 {
                "it".to_owned()
            } else {
                format!("all {}", count(u64::from(n)))
            }
        ),
        Some(n) => format!(
            "; the provider's network status lists {} of them as fine",
            count(u64::from(n))
        ),
        None => String::new(),
    };
    format!(
        "{}: {alive} in proxydash's probe{reason} ({}){provider}",
        s.label(),
        named.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ServiceStatus;

    fn service(checked: u32, alive: u32, fine: Option<u32>) -> ServiceFacts {
        let mut s = ServiceFacts::new(1001, ServiceStatus::Active);
        s.product_name = "Static DE".into();
        s.probe = Some(ProbeFacts {
            checked,
            alive,
            main_reason: Some("refused"),
            dead: (0..checked - alive)
                .map(|i| format!("127.0.0.{}:8080", 10 + i))
                .collect(),
            dead_listed_fine: fine,
        });
        s
    }

    fn level(o: &Observation) -> Option<Level> {
        match o {
            Observation::Seen { level, .. } => *level,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn under_the_share_warns_none_alive_is_critical_and_unknown_says_nothing() {
        let rules = Rules::default();
        let o = proxies_dead(&service(10, 2, Some(8)), &rules).unwrap();
        assert_eq!(level(&o), Some(Level::Warn));
        let Observation::Seen { message, .. } = &o else {
            unreachable!()
        };
        assert_eq!(
            message,
            "Service 1001 (Static DE): 2 of 10 proxies checked are alive (20%) in proxydash's probe, most dead refused (127.0.0.10:8080, 127.0.0.11:8080, 127.0.0.12:8080, …); the provider's network status lists all 8 as fine"
        );
        let none = proxies_dead(&service(4, 0, Some(1)), &rules).unwrap();
        assert_eq!(level(&none), Some(Level::Critical));
        let Observation::Seen { message, .. } = &none else {
            unreachable!()
        };
        assert!(
            message.contains("none of 4 proxies checked is alive"),
            "{message}"
        );
        assert!(message.ends_with("lists 1 of them as fine"), "{message}");
        assert_eq!(
            level(&proxies_dead(&service(10, 5, None), &rules).unwrap()),
            None
        );
        let mut unknown = service(1, 1, None);
        unknown.probe = None;
        assert_eq!(proxies_dead(&unknown, &rules), None);
        let mut ended = service(10, 0, None);
        ended.status = ServiceStatus::Terminated;
        assert!(matches!(
            proxies_dead(&ended, &rules),
            Some(Observation::Ended { .. })
        ));
    }
}
