//! The send log's lines and names: one line per send, `<unix ms> <writer> <seq> <lane>
//! <METHOD> <path pattern>`, and the file's name for an account.

use super::super::bucket::Lane;
use crate::api::Request;
use crate::api::gate::Route;
use std::path::Path;

/// One line of the file, read.
pub(super) struct Entry<'a> {
    pub(super) ms: i64,
    pub(super) writer: &'a str,
    pub(super) seq: u64,
    pub(super) lane: Lane,
    pub(super) route: Option<Route>,
}

pub(super) fn parse(line: &str) -> Option<Entry<'_>> {
    let mut words = line.split(' ');
    let ms = words.next()?.parse().ok()?;
    let writer = words.next()?;
    let seq = words.next()?.parse().ok()?;
    let lane = match words.next()? {
        "person" => Lane::Person,
        "screen" => Lane::Screen,
        "background" => Lane::Background,
        _ => return None,
    };
    let (method, path) = (words.next()?, words.next()?);
    let route = Request::ROUTES
        .iter()
        .find(|r| r.method == method && r.path == path)
        .copied();
    Some(Entry {
        ms,
        writer,
        seq,
        lane,
        route,
    })
}

pub(super) fn lane_word(lane: Lane) -> &'static str {
    match lane {
        Lane::Person => "person",
        Lane::Screen => "screen",
        Lane::Background => "background",
    }
}

/// The file's name for an account: the profile's name as far as it is plain (for people
/// looking in the folder) and a hash of the whole key (profile and base URL), stable
/// across versions and processes (FNV-1a).
pub(super) fn file_name(profile: &str, account: &str) -> String {
    let plain: String = profile
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .take(40)
        .collect();
    let hash = account.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{plain}-{hash:016x}.log")
}

pub(super) fn meta_identity(meta: &std::fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        (0, 0)
    }
}

/// The identity of the file at `path` now (not following a link).
pub(super) fn identity(path: &Path) -> Option<(u64, u64)> {
    std::fs::symlink_metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| meta_identity(&m))
}

/// Removes the logs in `dir` nobody has written for [`super::STALE`] (regular files named
/// `*.log` only: nothing else in the folder is touched, no link followed).
pub(super) fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten().take(10_000) {
        let path = entry.path();
        let stale = std::fs::symlink_metadata(&path).is_ok_and(|m| {
            m.is_file()
                && m.modified()
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > super::STALE)
        });
        if stale && path.extension().is_some_and(|e| e == "log") {
            let _ = std::fs::remove_file(&path);
        }
    }
}
