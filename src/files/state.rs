//! [`AccountsFile`]: a JSON state file holding one entry per account,
//! `{"accounts": {"<base URL> <profile>": …}}` (the open alerts, the services' types, the
//! IP-list countdowns), read and written the same way whatever the entry is.
//!
//! Choices:
//! - **State is a hint**: a missing file is nothing known, never an error; a file that
//!   cannot be read (a FIFO, a device, a link, past [`super::STATE_CAP`]) is gone on
//!   without, with a line saying which file and why.
//! - **One bad entry loses nothing else**: each account's entry is read on its own (and
//!   an entry that is a list may read its items one by one, see [`EntryReader`]); what
//!   reads is kept. A file with anything unreadable in it (or that is not JSON at all,
//!   or too big) is first moved aside to `<name>.bad` (replacing an older one) so nothing
//!   is lost for good, and what was read is written back at once, so the next reader (a
//!   `proxydash alerts` beside the dashboard) finds it.
//! - Every problem is logged, and handed to the caller as one line to show where its
//!   user looks (standard error, the dashboard's header).

use super::{STATE_CAP, StateFileError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

/// Reads one account's entry: the value and how many of its parts could not be read
/// (`Err` when none of it could). [`whole`] reads it all or nothing.
pub type EntryReader<T> = fn(Value) -> Result<(T, usize), String>;

/// The entry read as a whole with serde.
pub fn whole<T: DeserializeOwned>(value: Value) -> Result<(T, usize), String> {
    serde_json::from_value(value)
        .map(|t| (t, 0))
        .map_err(|e| e.to_string())
}

/// Every account's entry of one file.
pub struct AccountsFile<T> {
    path: PathBuf,
    read_entry: EntryReader<T>,
    _entry: PhantomData<fn() -> T>,
}

impl<T> Clone for AccountsFile<T> {
    fn clone(&self) -> Self {
        Self {
            path: self.path.clone(),
            read_entry: self.read_entry,
            _entry: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for AccountsFile<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AccountsFile")
            .field("path", &self.path)
            .finish()
    }
}

/// What [`AccountsFile::read`] found.
pub struct Read<T> {
    pub accounts: BTreeMap<String, T>,
    /// What was wrong with the file, in one line naming it, when anything was.
    pub problem: Option<String>,
}

#[derive(Deserialize)]
struct Raw {
    #[serde(default)]
    accounts: BTreeMap<String, Value>,
}

#[derive(Serialize)]
struct Body<'a, T> {
    accounts: &'a BTreeMap<String, T>,
}

impl<T: Serialize + DeserializeOwned> AccountsFile<T> {
    /// A file whose entries are read whole.
    pub fn new(path: PathBuf) -> Self {
        Self::with_reader(path, whole::<T>)
    }

    pub fn with_reader(path: PathBuf, read_entry: EntryReader<T>) -> Self {
        Self {
            path,
            read_entry,
            _entry: PhantomData,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The entry of `account` (none when the file has none), and what was wrong with the
    /// file if anything was.
    pub fn load(&self, account: &str) -> (Option<T>, Option<String>) {
        let mut read = self.read();
        (read.accounts.remove(account), read.problem)
    }

    /// Every account's entry that could be read; see the module doc for what happens to
    /// a file with something unreadable in it.
    pub fn read(&self) -> Read<T> {
        let bytes = match super::read_state(&self.path, STATE_CAP) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return self.found(BTreeMap::new(), None),
            Err(e @ StateFileError::TooBig { .. }) => {
                return self.found(BTreeMap::new(), Some(self.aside(e.to_string())));
            }
            Err(e) => return self.found(BTreeMap::new(), Some(format!("{e}; not read"))),
        };
        let raw: Raw = match serde_json::from_slice(&bytes) {
            Ok(raw) => raw,
            Err(e) => {
                let why = format!("{}: not read: {e}", self.path.display());
                return self.found(BTreeMap::new(), Some(self.aside(why)));
            }
        };
        drop(bytes);
        let mut accounts = BTreeMap::new();
        let (mut unread, mut first) = (0, None);
        for (account, value) in raw.accounts {
            match (self.read_entry)(value) {
                Ok((entry, lost)) => {
                    accounts.insert(account, entry);
                    unread += lost;
                }
                Err(why) => {
                    unread += 1;
                    first.get_or_insert(why);
                }
            }
        }
        if unread == 0 {
            return self.found(accounts, None);
        }
        let why = format!(
            "{}: {unread} {} could not be read{}",
            self.path.display(),
            if unread == 1 { "entry" } else { "entries" },
            first.map(|w| format!(" ({w})")).unwrap_or_default()
        );
        let problem = self.aside(why);
        // Written back at once: the next reader finds what was kept, not an empty name.
        if let Err(e) = self.write(&accounts) {
            tracing::warn!("{}: cannot write what was kept: {e}", self.path.display());
        }
        self.found(accounts, Some(problem))
    }

    /// Reads, lets `change` change the entries, and replaces the file with them.
    pub fn update(&self, change: impl FnOnce(&mut BTreeMap<String, T>)) -> io::Result<()> {
        let mut accounts = self.read().accounts;
        change(&mut accounts);
        self.write(&accounts)
    }

    fn write(&self, accounts: &BTreeMap<String, T>) -> io::Result<()> {
        let json = serde_json::to_vec_pretty(&Body { accounts }).map_err(io::Error::other)?;
        super::replace(&self.path, &json)
    }

    /// Moves the file to `<name>.bad`; answers `why` with where it went.
    fn aside(&self, why: String) -> String {
        let mut bad = self.path.clone().into_os_string();
        bad.push(".bad");
        let bad = PathBuf::from(bad);
        match std::fs::rename(&self.path, &bad) {
            Ok(()) => format!(
                "{why}; the file was moved to {} and the rest kept",
                bad.display()
            ),
            Err(e) => format!("{why}; it could not be moved aside ({e})"),
        }
    }

    fn found(&self, accounts: BTreeMap<String, T>, problem: Option<String>) -> Read<T> {
        if let Some(p) = &problem {
            tracing::warn!("{p}");
        }
        Read { accounts, problem }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("proxydash-state-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn one_bad_account_loses_nothing_else_and_the_file_is_kept_aside() {
        let dir = dir("bad");
        let path = dir.join("types.json");
        let text = r#"{"accounts": {"a": {"1": "fpr"}, "b": "not a map", "c": {"2": "ppr"}}}"#;
        std::fs::write(&path, text).unwrap();
        let file: AccountsFile<BTreeMap<u64, String>> = AccountsFile::new(path.clone());
        let read = file.read();
        assert_eq!(read.accounts.len(), 2);
        let problem = read.problem.unwrap();
        assert!(problem.contains("1 entry could not be read"), "{problem}");
        assert!(problem.contains("types.json.bad"), "{problem}");
        assert_eq!(
            std::fs::read_to_string(dir.join("types.json.bad")).unwrap(),
            text
        );
        // What was kept is in the file again, and reads without a problem.
        let again = file.read();
        assert_eq!(again.accounts.len(), 2);
        assert!(again.problem.is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_fifo_is_refused_at_once_and_replaced_on_write() {
        let dir = dir("fifo");
        let path = dir.join("throttle.json");
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the path given.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let file: AccountsFile<u32> = AccountsFile::new(path.clone());
        let (entry, problem) = file.load("a");
        assert_eq!(entry, None);
        let problem = problem.unwrap();
        assert!(
            problem.contains("FIFO") && problem.contains("throttle.json"),
            "{problem}"
        );
        file.update(|a| {
            a.insert("a".into(), 7);
        })
        .unwrap();
        assert_eq!(file.load("a"), (Some(7), None));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
