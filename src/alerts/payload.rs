//! What a transition or a notice looks like to machines and to the `on_alert` command:
//! one JSON object each (`watch`'s lines, the command's standard input), and the same as
//! `PROXYDASH_ALERT_*` environment variables.
//!
//! - **A transition** is one JSON object ([`payload`]): `state` (`opened`, `escalated`,
//!   `repeated`, `resolved`, `notice`), `level`, `rule`, `subject`, `service_id`,
//!   `invoice_id`, `message`, `profile`, `first_seen`, `resolved`, `at`, `repeats`, and
//!   `baseline` (true when it was already so the first time its data was read).
//! - **A digest** (the baseline's summary, or many changes at once:
//!   [`super::herald`]) is one object of the same shape, so a command written for one
//!   alert still reads it: `state` `baseline` or `digest`, `level` the worst open,
//!   `rule` the rules' names joined by commas, `subject` `account`, `message` one line
//!   (counts by level and rule, the worst named), plus `count` (transitions gathered),
//!   `counts` (open alerts by level), `rules` (transitions by rule) and `alerts` (the
//!   most severe ones, each a transition's object, at most [`super::herald::KEPT`]).
//! - The variables ([`notice_env`]) let `notify-send`, a mail command or `curl` to a chat
//!   webhook do without JSON; `PROXYDASH_ALERT_COUNT` is how many alerts a notice speaks
//!   for.

use super::Transition;
use super::herald::{Digest, Notice};

/// A transition as the command's standard input and `watch`'s JSON lines see it.
pub fn payload(t: &Transition, profile: &str) -> serde_json::Value {
    let a = &t.alert;
    let (service_id, invoice_id) = match a.key.subject {
        super::Subject::Service(id) => (Some(id), None),
        super::Subject::Invoice(id) => (None, Some(id)),
        super::Subject::Account | super::Subject::Data(_) => (None, None),
    };
    serde_json::json!({
        "state": t.change.as_str(),
        "level": a.level.as_str(),
        "rule": a.key.rule.as_str(),
        "subject": a.key.subject.to_string(),
        "service_id": service_id,
        "invoice_id": invoice_id,
        "message": a.message,
        "profile": profile,
        "first_seen": a.first_seen.to_rfc3339(),
        "resolved": a.resolved.map(|t| t.to_rfc3339()),
        "at": t.at.to_rfc3339(),
        "repeats": a.repeats,
        "baseline": t.baseline,
    })
}

/// A notice as the command's standard input sees it (see the module docs).
pub fn notice_payload(n: &Notice, profile: &str) -> serde_json::Value {
    match n {
        Notice::One(t) => payload(t, profile),
        Notice::Digest(d) => digest_payload(d, profile),
    }
}

fn rules_of(d: &Digest) -> String {
    d.rules
        .keys()
        .map(|r| r.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

fn digest_payload(d: &Digest, profile: &str) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> = d
        .open
        .iter()
        .map(|(level, n)| (level.as_str().to_owned(), (*n).into()))
        .collect();
    let rules: serde_json::Map<String, serde_json::Value> = d
        .rules
        .iter()
        .map(|(rule, n)| (rule.as_str().to_owned(), (*n).into()))
        .collect();
    let alerts: Vec<serde_json::Value> = d.worst().iter().map(|t| payload(t, profile)).collect();
    serde_json::json!({
        "state": d.kind.as_str(),
        "level": d.worst_level().as_str(),
        "rule": rules_of(d),
        "subject": "account",
        "service_id": null,
        "invoice_id": null,
        "message": d.message(profile),
        "profile": profile,
        "first_seen": null,
        "resolved": null,
        "at": d.at.to_rfc3339(),
        "repeats": 0,
        "baseline": d.kind == super::DigestKind::Baseline,
        "count": d.total,
        "counts": counts,
        "rules": rules,
        "alerts": alerts,
    })
}

/// A notice as environment variables.
pub fn notice_env(n: &Notice, profile: &str) -> Vec<(&'static str, String)> {
    let clean = |s: String| s.replace('\0', "");
    match n {
        Notice::One(t) => {
            let a = &t.alert;
            vec![
                ("PROXYDASH_ALERT_STATE", t.change.as_str().to_owned()),
                ("PROXYDASH_ALERT_LEVEL", a.level.as_str().to_owned()),
                ("PROXYDASH_ALERT_RULE", a.key.rule.as_str().to_owned()),
                ("PROXYDASH_ALERT_SUBJECT", a.key.subject.to_string()),
                ("PROXYDASH_ALERT_MESSAGE", clean(a.message.clone())),
                ("PROXYDASH_ALERT_PROFILE", clean(profile.to_owned())),
                ("PROXYDASH_ALERT_FIRST_SEEN", a.first_seen.to_rfc3339()),
                (
                    "PROXYDASH_ALERT_RESOLVED",
                    a.resolved.map(|t| t.to_rfc3339()).unwrap_or_default(),
                ),
                ("PROXYDASH_ALERT_AT", t.at.to_rfc3339()),
                ("PROXYDASH_ALERT_BASELINE", t.baseline.to_string()),
                ("PROXYDASH_ALERT_COUNT", "1".to_owned()),
            ]
        }
        Notice::Digest(d) => vec![
            ("PROXYDASH_ALERT_STATE", d.kind.as_str().to_owned()),
            ("PROXYDASH_ALERT_LEVEL", d.worst_level().as_str().to_owned()),
            ("PROXYDASH_ALERT_RULE", rules_of(d)),
            ("PROXYDASH_ALERT_SUBJECT", "account".to_owned()),
            ("PROXYDASH_ALERT_MESSAGE", clean(d.message(profile))),
            ("PROXYDASH_ALERT_PROFILE", clean(profile.to_owned())),
            ("PROXYDASH_ALERT_FIRST_SEEN", String::new()),
            ("PROXYDASH_ALERT_RESOLVED", String::new()),
            ("PROXYDASH_ALERT_AT", d.at.to_rfc3339()),
            (
                "PROXYDASH_ALERT_BASELINE",
                (d.kind == super::DigestKind::Baseline).to_string(),
            ),
            ("PROXYDASH_ALERT_COUNT", d.total.to_string()),
        ],
    }
}
