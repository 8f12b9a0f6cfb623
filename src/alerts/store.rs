//! Open alerts kept across restarts: `alerts.json` in the state directory, keyed by
//! account like the refresh countdowns, so a restart does not announce them again.
//!
//! Only open alerts are kept; the history of transitions is the history store's job. A
//! missing, unreadable or corrupt file gives no alerts (they are then announced again,
//! which is harmless) and never stops the dashboard.

use super::Alert;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// The most alerts kept per account, so a hostile server cannot grow the file without end.
const MAX_KEPT: usize = 10_000;

#[derive(Clone, Debug)]
pub struct AlertFile {
    path: PathBuf,
}

#[derive(Default, Serialize, Deserialize)]
struct Body {
    #[serde(default)]
    accounts: BTreeMap<String, Vec<Alert>>,
}

impl AlertFile {
    pub fn new(path: PathBuf) -> Self {
        Self { path }
    }

    /// `alerts.json` in the XDG state directory.
    pub fn default_location() -> Option<Self> {
        crate::files::state_dir().map(|d| Self::new(d.join("alerts.json")))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn load(&self, account: &str) -> Vec<Alert> {
        self.read().accounts.remove(account).unwrap_or_default()
    }

    /// The open alerts of every account of `profile` (the key is the base URL, a space
    /// and the profile; `proxydash alerts` resolves no base URL, which may need a secret).
    pub fn load_profile(&self, profile: &str) -> Vec<Alert> {
        let suffix = format!(" {profile}");
        self.read()
            .accounts
            .into_iter()
            .filter(|(k, _)| k.ends_with(&suffix) && !k[..k.len() - suffix.len()].contains(' '))
            .flat_map(|(_, v)| v)
            .collect()
    }

    pub fn save(&self, account: &str, open: &[Alert]) -> io::Result<()> {
        let mut body = self.read();
        if open.is_empty() {
            body.accounts.remove(account);
        } else {
            let kept = open.iter().take(MAX_KEPT).cloned().collect();
            body.accounts.insert(account.to_owned(), kept);
        }
        let json = serde_json::to_vec_pretty(&body).map_err(io::Error::other)?;
        crate::files::replace(&self.path, &json)
    }

    fn read(&self) -> Body {
        std::fs::read(&self.path)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }
}
