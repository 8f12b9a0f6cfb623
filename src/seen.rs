//! What a profile has last seen: the IDs of its services, products, invoices and clients
//! (each with a few words on it), kept for the shell's completion to offer at TAB time
//! without asking the server (`proxydash __complete`, [`crate::cli`]).
//!
//! `seen-<profile>.json` in the state directory (the profile's name reduced as the
//! history file's is), written whenever the command line, the dashboard or `watch` reads
//! one of those lists (not on `--demo`): each list replaces that list's entry. The file
//! is small and bounded: at most [`KEPT`] entries a list, the newest (highest ID) first,
//! each description at most [`WORDS`] characters with no control character in it. It is
//! written atomically (a temporary file renamed over it, `0600`) and only when a list
//! changed. It is a hint: a missing, foreign or broken file offers nothing, and a write
//! that fails is only logged. Two processes writing at once may lose one list's update
//! until that list is read again.

use crate::api::{Client, Invoice, ProductSummary, ServiceSummary};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The most entries kept per list.
pub const KEPT: usize = 1_000;
/// The longest description kept, in characters.
pub const WORDS: usize = 60;
/// The most of the file read.
const CAP: u64 = 1 << 20;

/// The lists kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Services,
    Products,
    Invoices,
    Clients,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::Services,
        Kind::Products,
        Kind::Invoices,
        Kind::Clients,
    ];

    /// Its name, in the file and on `__complete`'s command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Services => "services",
            Kind::Products => "products",
            Kind::Invoices => "invoices",
            Kind::Clients => "clients",
        }
    }

    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One list as kept: each ID with its description.
pub type Entries = Vec<(u64, String)>;

#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    /// The profile it is of (two names may reduce to one file name).
    profile: String,
    #[serde(default)]
    lists: BTreeMap<String, Entries>,
}

/// The file of `profile`: `seen-<profile>.json` in the state directory.
pub fn file_for(profile: &str) -> Option<PathBuf> {
    let history = crate::history::file_name(profile);
    let safe = history
        .strip_prefix("history-")
        .and_then(|n| n.strip_suffix(".sqlite"))
        .unwrap_or("default");
    crate::files::state_dir().map(|d| d.join(format!("seen-{safe}.json")))
}

/// What `profile` last saw of `kind` (nothing when nothing was kept or the file does not
/// read). Quiet: it never says anything, for the shell is waiting.
pub fn read(profile: &str, kind: Kind) -> Entries {
    let Some(path) = file_for(profile) else {
        return Vec::new();
    };
    load(&path, profile)
        .and_then(|mut f| f.lists.remove(kind.name()))
        .unwrap_or_default()
}

fn load(path: &std::path::Path, profile: &str) -> Option<File> {
    let bytes = crate::files::read_state(path, CAP).ok()??;
    let file: File = serde_json::from_slice(&bytes).ok()?;
    (file.profile == profile).then_some(file)
}

/// Keeps `entries` as what `profile` last saw of `kind` (bounded, see the module docs);
/// best effort: a failure is logged, never said.
pub fn keep(profile: &str, kind: Kind, entries: Entries) {
    let Some(path) = file_for(profile) else {
        return;
    };
    let entries = bounded(entries);
    let mut file = load(&path, profile).unwrap_or_else(|| File {
        profile: profile.to_owned(),
        lists: BTreeMap::new(),
    });
    if file.lists.get(kind.name()) == Some(&entries) {
        return;
    }
    file.lists.insert(kind.name().to_owned(), entries);
    let written = serde_json::to_vec(&file)
        .map_err(std::io::Error::other)
        .and_then(|bytes| crate::files::replace(&path, &bytes));
    if let Err(e) = written {
        tracing::warn!("cannot save {}: {e}", path.display());
    }
}

/// The newest [`KEPT`] entries, each ID once, descriptions cleaned and cut.
fn bounded(mut entries: Entries) -> Entries {
    entries.sort_by_key(|e| std::cmp::Reverse(e.0));
    entries.dedup_by_key(|e| e.0);
    entries.truncate(KEPT);
    for (_, words) in &mut entries {
        let clean = crate::text::sanitize(words).replace(['\t', '\n', '\r'], " ");
        *words = crate::text::truncate(clean.trim(), WORDS).into_owned();
    }
    entries
}

/// A list read from the API, as kept.
pub fn services(list: &[ServiceSummary]) -> Entries {
    let words = |v: &ServiceSummary| format!("{} · {}", v.product_name, v.status.as_str());
    list.iter().map(|v| (v.service_id, words(v))).collect()
}

pub fn products(list: &[ProductSummary]) -> Entries {
    let words =
        |p: &ProductSummary| format!("{} · {}", p.product_name, crate::text::money(p.price));
    list.iter().map(|p| (p.product_id, words(p))).collect()
}

pub fn invoices(list: &[Invoice]) -> Entries {
    let words = |i: &Invoice| {
        format!(
            "{} · {} · {}",
            i.status.as_str(),
            crate::text::money(i.amount),
            crate::text::date(i.created_at)
        )
    };
    list.iter().map(|i| (i.id, words(i))).collect()
}

pub fn clients(list: &[Client]) -> Entries {
    list.iter().map(|c| (c.id, c.email.clone())).collect()
}

/// The list a successful read of the API gives, as kept (none for other reads).
pub fn of(loaded: &crate::api::Loaded) -> Option<(Kind, Entries)> {
    use crate::api::Loaded;
    match loaded {
        Loaded::Services(Ok(list)) => Some((Kind::Services, services(list))),
        Loaded::Products(Ok(list)) | Loaded::ProductsOrderedBy(_, Ok(list)) => {
            Some((Kind::Products, products(&list.items)))
        }
        Loaded::Invoices(Ok(list)) => Some((Kind::Invoices, invoices(&list.items))),
        Loaded::Clients(Ok(list)) => Some((Kind::Clients, clients(list))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_bounded_newest_first_and_cleaned() {
        let many: Entries = (0..(KEPT as u64 + 50))
            .map(|i| (i, format!("name\t{i}\u{1b}[31m")))
            .collect();
        let kept = bounded(many);
        assert_eq!(kept.len(), KEPT);
        assert_eq!(kept[0].0, KEPT as u64 + 49);
        assert_eq!(kept[0].1, format!("name {}", KEPT + 49));
        let long = bounded(vec![(1, "x".repeat(500)), (1, "dup".into())]);
        assert_eq!(long.len(), 1);
        assert!(long[0].1.chars().count() <= WORDS, "{}", long[0].1);
    }

    #[test]
    fn kinds_read_back_by_name() {
        for kind in Kind::ALL {
            assert_eq!(Kind::parse(kind.name()), Some(kind));
        }
        assert_eq!(Kind::parse("alerts"), None);
    }
}
