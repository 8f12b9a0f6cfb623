//! `doctor`'s look at the state files: a link, a FIFO, a device, a folder or a file past
//! the cap at a state file's name is refused by every other command (it goes on without
//! it: no budget kept, alerts announced again after a restart), so `doctor` names each,
//! why, and what to do (issue 46.7: it said nothing of them).

use super::{Check, Mark, check, clean};
use crate::files::{STATE_CAP, StateFileError, check_state};
use std::path::PathBuf;

/// The JSON state files, read whole up to [`STATE_CAP`].
const CAPPED: [&str; 5] = [
    "budget.json",
    "throttle.json",
    "alerts.json",
    "service_types.json",
    "on_alert_pending.json",
];

/// Every state file of `profile` (its history database too, when a profile is known)
/// and the log: a line for each one another command would refuse.
pub(super) fn state_files_check(profile: Option<&str>) -> Check {
    let Some(dir) = crate::files::state_dir() else {
        return check("state files", Mark::Warn, "not looked at: no state directory");
    };
    let mut files: Vec<(PathBuf, bool)> = CAPPED.iter().map(|n| (dir.join(n), true)).collect();
    if let Some(profile) = profile {
        files.push((dir.join(crate::history::file_name(profile)), false));
        files.extend(crate::seen::file_for(profile).map(|f| (f, true)));
    }
    files.push((dir.join("proxydash.log"), false));
    // The send logs each account's processes share (`scheduler::sendlog`), whichever
    // account they are of.
    let sends = dir.join("sends");
    match check_state(&sends) {
        Err(StateFileError::NotRegular { kind: "a folder", .. }) => {
            let entries = std::fs::read_dir(&sends).into_iter().flatten().flatten();
            files.extend(entries.take(1_000).map(|e| (e.path(), false)));
        }
        Ok(false) => {}
        _ => files.push((sends, false)),
    }
    let problems: Vec<String> = files
        .into_iter()
        .filter_map(|(path, capped)| refused(path, capped))
        .map(|e| clean(&e.to_string()))
        .collect();
    if problems.is_empty() {
        return check(
            "state files",
            Mark::Pass,
            "each a regular file (or not made yet)",
        );
    }
    check(
        "state files",
        Mark::Warn,
        format!(
            "{}: every command goes on without {}; remove {} and the next save writes a new one",
            problems.join("; "),
            if problems.len() == 1 { "it" } else { "them" },
            if problems.len() == 1 { "it" } else { "them" },
        ),
    )
}

/// Why another command would not read the state file at `path`, if it would not: looked
/// at with `lstat` only, never opened (a FIFO would block, a device act).
fn refused(path: PathBuf, capped: bool) -> Option<StateFileError> {
    match check_state(&path) {
        Ok(false) => None,
        Ok(true) if capped => {
            let len = std::fs::symlink_metadata(&path).map_or(0, |m| m.len());
            (len > STATE_CAP).then_some(StateFileError::TooBig {
                path,
                cap: STATE_CAP,
            })
        }
        Ok(true) => None,
        Err(e) => Some(e),
    }
}
