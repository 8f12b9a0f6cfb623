//! The rules over the account's state rather than its records: the API unreachable,
//! failing or rejecting the credentials, and a kind of data failing alone (levels and
//! waits in the module doc above).

use super::UNREACHABLE_AFTER;
use crate::alerts::snapshot::Snapshot;
use crate::alerts::{AlertKey, Level, Observation, Rule, Subject};
use chrono::{DateTime, Utc};

pub(super) fn api_unreachable(snapshot: &Snapshot, now: DateTime<Utc>) -> Observation {
    let key = AlertKey {
        rule: Rule::ApiUnreachable,
        subject: Subject::Account,
    };
    match &snapshot.unreachable {
        Some(u) if now - u.since >= UNREACHABLE_AFTER => {
            let last = match u.last_answer {
                Some(at) => format!("last answer {} ago", crate::text::ago(now - at)),
                None => "no answer since start".into(),
            };
            let message = format!(
                "The API at {} is unreachable since {} UTC ({last})",
                crate::text::sanitize(&u.base_url),
                u.since.format("%H:%M:%S")
            );
            Observation::problem(key, Level::Critical, message)
        }
        _ => Observation::fine(key),
    }
}

pub(super) fn api_failing(snapshot: &Snapshot, now: DateTime<Utc>) -> Observation {
    let key = AlertKey {
        rule: Rule::ApiFailing,
        subject: Subject::Account,
    };
    match &snapshot.failing {
        Some(u) if now - u.since >= UNREACHABLE_AFTER => {
            let last = match u.last_answer {
                Some(at) => format!("last success {} ago", crate::text::ago(now - at)),
                None => "no success since start".into(),
            };
            let message = format!(
                "The API at {} answers, but only with errors, since {} UTC ({last})",
                crate::text::sanitize(&u.base_url),
                u.since.format("%H:%M:%S")
            );
            Observation::problem(key, Level::Critical, message)
        }
        _ => Observation::fine(key),
    }
}

pub(super) fn api_unauthorized(snapshot: &Snapshot) -> Observation {
    let key = AlertKey {
        rule: Rule::ApiUnauthorized,
        subject: Subject::Account,
    };
    match &snapshot.unauthorized {
        Some(u) => {
            let message = format!(
                "The API at {} rejects the credentials since {} UTC: check the token (requests slowed to one every few minutes)",
                crate::text::sanitize(&u.base_url),
                u.since.format("%H:%M:%S")
            );
            Observation::problem(key, Level::Critical, message)
        }
        None => Observation::fine(key),
    }
}

pub(super) fn datum_failing(snapshot: &Snapshot) -> Vec<Observation> {
    let Some(data) = &snapshot.data else {
        return Vec::new();
    };
    data.iter()
        .map(|d| {
            let key = AlertKey {
                rule: Rule::DatumFailing,
                subject: Subject::Data(d.kind),
            };
            match d.failing_since {
                Some(since) => Observation::problem(
                    key,
                    Level::Warn,
                    format!(
                        "The {} keep failing since {} UTC while the API answers other reads: {}",
                        d.kind.as_str().replace('_', " "),
                        since.format("%H:%M:%S"),
                        d.error
                    ),
                ),
                None => Observation::fine(key),
            }
        })
        .collect()
}
