//! Diagnostics to a log file, never to the terminal the dashboard draws on.
//!
//! `--log-file PATH`, or `proxydash.log` in the state directory; the level comes from
//! `PROXYDASH_LOG` (`info` by default; `debug`, `trace`, or any `tracing` filter such as
//! `proxydash=debug`). The file is created `0600` (an existing one is tightened to that)
//! in a folder created `0700`, and appended to.
//!
//! What is logged is chosen so that no secret can appear: each request as method, path,
//! status and duration (never headers or bodies, which carry the token and passwords), and
//! errors through their `Display`, which holds no credentials.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use tracing_subscriber::EnvFilter;

/// The log file when none is named.
pub fn default_path() -> Option<PathBuf> {
    crate::files::state_dir().map(|d| d.join("proxydash.log"))
}

/// Starts logging to `path` at the level `PROXYDASH_LOG` names (`info` by default).
/// Fails quietly (returning why) so that a read-only state directory does not stop the
/// dashboard.
pub fn init(path: &Path) -> Result<(), String> {
    let filter = std::env::var("PROXYDASH_LOG").unwrap_or_else(|_| "info".into());
    init_with(path, &filter)
}

/// Starts logging to `path` with a `tracing` filter (`debug`, `proxydash=trace`, …).
pub fn init_with(path: &Path, filter: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::files::create_private_dir(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = options
        .open(path)
        .map_err(|e| format!("cannot open the log file {}: {e}", path.display()))?;
    // A log file left readable by others (made by hand, or by an older version) is
    // tightened: `mode` above only applies when the file is created.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = file.metadata()
            && meta.permissions().mode() & 0o077 != 0
        {
            let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
        }
    }
    let filter = EnvFilter::try_new(filter).map_err(|e| format!("log filter {filter:?}: {e}"))?;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .try_init()
        .map_err(|e| format!("cannot start logging: {e}"))
}
