//! `proxydash alerts` over several profiles (`--all-profiles`, `--profile` repeated before
//! `alerts`), and `alerts unsilence ID` with no profile named, which looks in each.

use super::list::list;
use super::{AlertsCommand, Failed, ack, done, open_alerts, silence, target, unsilence};
use crate::alerts::Alert;
use crate::alerts::marks::{MarkChange, Marks, alert_id, parse_alert_id};
use crate::config::selection::{self, Unnamed};
use crate::history::marks::MarksDb;
use crate::options::Options;
use crate::script::Form;
use crate::script::output::clean_lines;
use chrono::{DateTime, Utc};

/// One profile's marks, from its history file when it has one (`None`: it has none, so
/// nothing of it is acknowledged or silenced; no file is made to say so).
fn marks_of(profile: &str) -> Result<Option<(MarksDb, Marks)>, Failed> {
    let path = crate::history::file_for(profile)
        .ok_or_else(|| Failed::File("no state directory (set XDG_STATE_HOME or HOME)".into()))?;
    if !path.exists() {
        return Ok(None);
    }
    let file_error =
        |e: rusqlite::Error| Failed::File(format!("profile {profile}: {}: {e}", path.display()));
    let db = MarksDb::open(&path).map_err(file_error)?;
    let marks = db.load().map_err(file_error)?;
    Ok(Some((db, marks)))
}

/// `alerts unsilence ID` with no profile named: the silence is ended in the one profile
/// of the config file that holds it; several holding that ID are named, and nothing is
/// ended (a silence must not end on an account the user did not mean).
pub(super) fn unsilence_anywhere(cli: &Options, id: &str, json: bool) -> Result<String, Failed> {
    let mut every = cli.clone();
    every.connection.all_profiles = true;
    let names: Vec<String> = match selection::profiles(&every, Unnamed::DefaultProfile) {
        Ok(names) => names.into_iter().flatten().collect(),
        // No profiles in the file: the one profile a command would use.
        Err(_) => vec![
            crate::config::profile_name(cli)
                .map_err(|e| Failed::Usage(e.to_string()))?
                .0,
        ],
    };
    let mut holding = Vec::new();
    for name in &names {
        if let Some((db, marks)) = marks_of(name)?
            && marks.find(id).is_some()
        {
            holding.push((name, db, marks));
        }
    }
    match holding.as_mut_slice() {
        [] => Err(Failed::NotFound(format!(
            "no silence {id:?} in {} (proxydash alerts --all-profiles lists them)",
            match names.as_slice() {
                [one] => format!("profile {one}"),
                _ => format!("any profile ({})", names.join(", ")),
            }
        ))),
        [(name, db, marks)] => {
            let (change, said) = unsilence(marks, id)?;
            db.apply(&change)
                .map_err(|e| Failed::File(format!("profile {name}: {e}")))?;
            Ok(done(
                &change,
                format!("{said} in profile {name}"),
                None,
                json,
            ))
        }
        several => Err(Failed::Usage(format!(
            "silence {id:?} is held by profiles {}: name one with --profile NAME, or end it in \
             each with --all-profiles",
            several
                .iter()
                .map(|(n, _, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// `alerts --all-profiles` (or `--profile` repeated before `alerts`): the list over every
/// profile with a PROFILE column (a `"profile"` member in JSON); an acknowledgement in
/// each profile where that alert is open; a silence (one ID) in each profile; an
/// unsilence in each profile that holds it. A profile whose file fails is named on
/// standard error and the others are done.
pub(super) fn several(
    names: &[String],
    command: AlertsCommand,
    form: Form,
    now: DateTime<Utc>,
) -> Result<String, Failed> {
    let json = form == Form::Json;
    let mut read = Vec::new();
    let mut failed = false;
    for name in names {
        match marks_of(name) {
            Ok(m) => read.push((name, open_alerts(name), m)),
            Err(
                Failed::File(w)
                | Failed::Usage(w)
                | Failed::NotFound(w)
                | Failed::Partly { why: w, .. },
            ) => {
                eprintln!("proxydash alerts: {}", clean_lines(&w, false));
                failed = true;
            }
        }
    }
    // What was done is printed all the same; the status says not all of it was.
    let fail_after = |failed: bool, text: String| -> Result<String, Failed> {
        if failed {
            return Err(Failed::Partly {
                text,
                why: "not every profile's history file could be used".into(),
            });
        }
        Ok(text)
    };
    let command = match command {
        AlertsCommand::List => None,
        other => Some(other),
    };
    let Some(command) = command else {
        let empty = Marks::default();
        let rows: Vec<(&str, &[Alert], &Marks)> = read
            .iter()
            .map(|(n, open, m)| {
                (
                    n.as_str(),
                    open.as_slice(),
                    m.as_ref().map_or(&empty, |(_, m)| m),
                )
            })
            .collect();
        return fail_after(failed, list(&rows, now, form));
    };
    // The change, and the profiles it is made in.
    let (change, said, within): (MarkChange, String, Vec<usize>) = match command {
        // Answered before any profile is read (`mod.rs`).
        AlertsCommand::List | AlertsCommand::Rules => return Ok(String::new()),
        AlertsCommand::Ack { id, by } => {
            let key = parse_alert_id(&id).map_err(Failed::Usage)?;
            let within: Vec<usize> = (0..read.len())
                .filter(|i| {
                    read[*i]
                        .1
                        .iter()
                        .any(|a| a.key == key && a.resolved.is_none())
                })
                .collect();
            let Some(first) = within.first() else {
                return Err(Failed::NotFound(format!(
                    "no open alert {} in any profile ({}) (proxydash alerts --all-profiles lists them)",
                    alert_id(&key),
                    names.join(", ")
                )));
            };
            let (change, said) = ack(&read[*first].1, &id, by, now)?;
            (change, said, within)
        }
        AlertsCommand::Silence {
            rule,
            service,
            length,
            reason,
            edit,
            by,
        } => {
            let target = target(rule, service)?;
            let within: Vec<usize> = match &edit {
                Some(id) => (0..read.len())
                    .filter(|i| {
                        read[*i]
                            .2
                            .as_ref()
                            .is_some_and(|(_, m)| m.find(id).is_some())
                    })
                    .collect(),
                None => (0..read.len()).collect(),
            };
            let marks = within
                .first()
                .and_then(|i| read[*i].2.as_ref().map(|(_, m)| m.clone()))
                .unwrap_or_default();
            let (change, said) = silence(&marks, target, &length, &reason, edit, by, now)?;
            (change, said, within)
        }
        AlertsCommand::Unsilence { id } => {
            let within: Vec<usize> = (0..read.len())
                .filter(|i| {
                    read[*i]
                        .2
                        .as_ref()
                        .is_some_and(|(_, m)| m.find(&id).is_some())
                })
                .collect();
            let Some(first) = within.first() else {
                return Err(Failed::NotFound(format!(
                    "no silence {id:?} in any profile ({}) (proxydash alerts --all-profiles lists them)",
                    names.join(", ")
                )));
            };
            let marks = read[*first].2.as_ref().map(|(_, m)| m.clone());
            let (change, said) = unsilence(&marks.unwrap_or_default(), &id)?;
            (change, said, within)
        }
    };
    let mut made = Vec::new();
    for i in within {
        let (name, _, m) = &mut read[i];
        let applied = match m {
            Some((db, _)) => db.apply(&change),
            // A profile never run has no history file yet: a silence made beforehand
            // makes it.
            None => crate::history::file_for(name)
                .ok_or(rusqlite::Error::InvalidQuery)
                .and_then(|p| MarksDb::open(&p))
                .and_then(|mut db| db.apply(&change)),
        };
        match applied {
            Ok(()) => made.push((*name).clone()),
            Err(e) => {
                let said = format!("profile {name}: {e}");
                eprintln!("proxydash alerts: {}", clean_lines(&said, false));
                failed = true;
            }
        }
    }
    let said = format!("{said} in profiles {}", made.join(", "));
    fail_after(failed, done(&change, said, Some(&made), json))
}
