//! The rules over the account's state rather than its records: the API unreachable,
//! failing or rejecting the credentials, and a kind of data failing alone (levels and
//! waits in the module doc above).

use super::UNREACHABLE_AFTER;
use crate::alerts::snapshot::{Snapshot, Unreachable};
use crate::alerts::{AlertKey, Level, Observation, Rule, Subject};
use chrono::{DateTime, Utc};

pub(super) fn api_unreachable(snapshot: &Snapshot, now: DateTime<Utc>) -> Observation {
    let words = ("is unreachable", "last answer", "no answer since start");
    down(
        Rule::ApiUnreachable,
        snapshot.unreachable.as_ref(),
        now,
        words,
    )
}

pub(super) fn api_failing(snapshot: &Snapshot, now: DateTime<Utc>) -> Observation {
    let words = (
        "answers, but only with errors,",
        "last success",
        "no success since start",
    );
    down(Rule::ApiFailing, snapshot.failing.as_ref(), now, words)
}

/// The API down in a way that waited [`UNREACHABLE_AFTER`]: critical, said with `words`
/// (what it does, what its last good answer was, and what to say when none came).
fn down(
    rule: Rule,
    state: Option<&Unreachable>,
    now: DateTime<Utc>,
    (does, last_was, never): (&str, &str, &str),
) -> Observation {
    let key = AlertKey {
        rule,
        subject: Subject::Account,
    };
    match state {
        Some(u) if now - u.since >= UNREACHABLE_AFTER => {
            let last = match u.last_answer {
                Some(at) => format!("{last_was} {} ago", crate::text::ago(now - at)),
                None => never.into(),
            };
            let message = format!(
                "The API at {} {does} since {} UTC ({last})",
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
