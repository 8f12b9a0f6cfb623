//! The list of `proxydash alerts`: the open alerts and the silences in force of one
//! profile or several, as a table or JSON.

use crate::alerts::marks::{self, Marks, Silence, alert_id};
use crate::alerts::{Alert, Rule};
use crate::script::Form;
use crate::script::output::{Align, Table};
use chrono::{DateTime, Utc};

/// The alert's mark: silenced (by which silence), acknowledged (by whom), or none.
fn mark(a: &Alert, marks: &Marks, now: DateTime<Utc>) -> String {
    match (marks.silence(&a.key, now), marks.ack(&a.key)) {
        (Some(s), _) => format!("silenced ({})", s.id),
        (None, Some(k)) => format!("acked by {}", k.by),
        (None, None) => String::new(),
    }
}

/// The alert's message, with since when it was not checked when it was not.
fn message_of(a: &Alert) -> String {
    match a.not_checked(chrono::FixedOffset::east_opt(0).expect("zero offset")) {
        Some(when) => format!("{} ({when})", a.message),
        None => a.message.clone(),
    }
}

/// The open alerts (most severe first) and the silences in force of each profile, as a
/// table or JSON; over several profiles a PROFILE column first and a `"profile"` member
/// in each JSON row. CSV and TSV hold the open alerts (the table's columns).
pub(super) fn list(
    profiles: &[(&str, &[Alert], &Marks)],
    now: DateTime<Utc>,
    form: Form,
) -> String {
    let json = form == Form::Json;
    let labelled = profiles.len() > 1;
    let mut open: Vec<(&str, &Alert, &Marks)> = profiles
        .iter()
        .flat_map(|(p, open, m)| {
            open.iter()
                .filter(|a| a.resolved.is_none())
                .map(move |a| (*p, a, *m))
        })
        .collect();
    open.sort_by(|(pa, a, _), (pb, b, _)| {
        b.level
            .cmp(&a.level)
            .then(a.key.cmp(&b.key))
            .then(pa.cmp(pb))
    });
    let silences: Vec<(&str, &Silence)> = profiles
        .iter()
        .flat_map(|(p, _, m)| m.active(now).map(move |s| (*p, s)))
        .collect();
    let label = |row: serde_json::Value, profile: &str| match row {
        serde_json::Value::Object(mut o) if labelled => {
            o.insert("profile".into(), profile.into());
            serde_json::Value::Object(o)
        }
        other => other,
    };
    if matches!(form, Form::Csv | Form::Tsv) {
        let columns = [
            ("LEVEL", Align::Left),
            ("ID", Align::Left),
            ("MARK", Align::Left),
        ];
        let profile = [("PROFILE", Align::Left)];
        let message = [("MESSAGE", Align::Left)];
        let both = [&profile[..labelled as usize], &columns, &message].concat();
        let mut t = Table::new(&both);
        for (p, a, marks) in &open {
            let cells = [
                a.level.as_str().to_owned(),
                alert_id(&a.key),
                mark(a, marks, now),
            ];
            let first = labelled.then(|| p.to_string());
            t.row(first.into_iter().chain(cells).chain([message_of(a)]));
        }
        return t.render_as(form);
    }
    if json {
        let alerts: Vec<_> = open
            .iter()
            .map(|(p, a, marks)| {
                label(serde_json::json!({
                    "id": alert_id(&a.key),
                    "rule": a.key.rule.as_str(),
                    "subject": a.key.subject.to_string(),
                    "level": a.level.as_str(),
                    "message": a.message,
                    "first_seen": a.first_seen.to_rfc3339(),
                    "not_checked_since": a.unchecked_since.map(|t| t.to_rfc3339()),
                    "acknowledged": marks.ack(&a.key).map(|k| serde_json::json!({"by": k.by, "at": k.at.to_rfc3339()})),
                    "silenced_by": marks.silence(&a.key, now).map(|s| s.id.clone()),
                }), p)
            })
            .collect();
        let silences: Vec<_> = silences
            .iter()
            .map(|(p, s)| {
                label(
                    serde_json::json!({
                        "id": s.id,
                        "rule": s.target.rule.map(Rule::as_str),
                        "service_id": s.target.service,
                        "until": s.until.to_rfc3339(),
                        "reason": s.reason,
                        "by": s.by,
                        "created": s.created.to_rfc3339(),
                    }),
                    p,
                )
            })
            .collect();
        let doc = serde_json::json!({ "alerts": alerts, "silences": silences });
        return serde_json::to_string_pretty(&doc).unwrap_or_default();
    }
    let width = profiles
        .iter()
        .map(|(p, _, _)| p.chars().count())
        .max()
        .unwrap_or(0)
        .max("PROFILE".len());
    let column = |p: &str| {
        if labelled {
            format!("{p:<width$} ")
        } else {
            String::new()
        }
    };
    let mut out = Vec::new();
    if open.is_empty() {
        out.push(if labelled {
            format!(
                "No open alerts ({}).",
                profiles
                    .iter()
                    .map(|(p, _, _)| *p)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            "No open alerts.".to_owned()
        });
    } else if labelled {
        out.push(format!(
            "{}{:<8} {:<28} {:<20} MESSAGE",
            column("PROFILE"),
            "LEVEL",
            "ID",
            "MARK"
        ));
    }
    for (p, a, marks) in &open {
        let mark = mark(a, marks, now);
        out.push(format!(
            "{}{:<8} {:<28} {:<20} {}",
            column(p),
            a.level.as_str(),
            alert_id(&a.key),
            mark,
            crate::text::sanitize(&message_of(a))
        ));
    }
    if !silences.is_empty() {
        out.push(String::new());
        out.push("Silences:".to_owned());
    }
    for (p, s) in silences {
        out.push(format!(
            "{}{:<8} {:<28} until {} UTC ({} left) · {} · {}",
            column(p),
            s.id,
            s.target.describe(),
            s.until.format("%Y-%m-%d %H:%M"),
            marks::format_duration(s.until - now),
            crate::text::sanitize(&s.reason),
            s.by
        ));
    }
    out.join("\n")
}
