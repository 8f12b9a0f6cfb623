//! Files proxydash writes: exported IP lists, the state file, later the config and logs.
//! All are created `0600` (owner read/write only), since they may hold proxy credentials.
//!
//! State files are read through one door, [`read_state`]: never through a link, never
//! blocking (a FIFO or a device at a state file's name is refused, not opened for a read
//! that waits for a writer or never ends), and never more than a cap. The per-account JSON
//! files (alerts, service types, IP-list countdowns) share one type, [`state::AccountsFile`].

pub mod state;

use std::fs::{self, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The most read of a state file: each is a few hundred kilobytes at most, so anything
/// past this was not written by proxydash (or is `/dev/zero` behind a name).
pub const STATE_CAP: u64 = 8 << 20;

/// Why a state file was not read (or opened). Each names the file, so the line it makes
/// says which file and why.
#[derive(Debug, thiserror::Error)]
pub enum StateFileError {
    #[error(
        "{} is a symbolic link; proxydash does not open its state files through links (remove the link, or point the setting at a real file)",
        .0.display()
    )]
    Link(PathBuf),
    #[error("{} is {kind}, not a regular file", path.display())]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{} is over {} MiB, far more than proxydash writes", path.display(), cap >> 20)]
    TooBig { path: PathBuf, cap: u64 },
    #[error("cannot read {}: {error}", path.display())]
    Io { path: PathBuf, error: io::Error },
}

impl StateFileError {
    /// As an `io::Error`, for callers that report one.
    pub fn into_io(self) -> io::Error {
        match self {
            StateFileError::Io { error, .. } => error,
            other => io::Error::other(other.to_string()),
        }
    }
}

/// What kind of file `meta` says it is, in words; `None` for a regular file.
fn special_kind(meta: &fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if kind.is_char_device() {
            return Some("a character device");
        }
        if kind.is_block_device() {
            return Some("a block device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some(if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    })
}

/// Whether a state file is at `path`: `Ok(false)` when nothing is, `Ok(true)` for a
/// regular file, and the refusal for a link, a FIFO, a device, a folder or a socket
/// (looked at with `lstat`, so nothing is opened: opening a FIFO or a device can block or
/// act). The history database and the log are checked with it before they are opened.
pub fn check_state(path: &Path) -> Result<bool, StateFileError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(StateFileError::Link(path.to_owned())),
        Ok(meta) => match special_kind(&meta) {
            None => Ok(true),
            Some(kind) => Err(StateFileError::NotRegular {
                path: path.to_owned(),
                kind,
            }),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(StateFileError::Io {
            path: path.to_owned(),
            error,
        }),
    }
}

/// Reads the state file at `path`: `None` when there is none; at most `cap` bytes, and a
/// longer file is refused whole (a cut JSON file would only fail to parse later).
///
/// Opened `O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC` after an `lstat` that refuses anything
/// but a regular file, and checked again with `fstat` on what was opened (the name may
/// have been swapped in between): a FIFO never makes the read wait for a writer, a device
/// such as `/dev/zero` is never read, and a link is never followed.
pub fn read_state(path: &Path, cap: u64) -> Result<Option<Vec<u8>>, StateFileError> {
    if !check_state(path)? {
        return Ok(None);
    }
    let io_error = |error: io::Error| StateFileError::Io {
        path: path.to_owned(),
        error,
    };
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    let file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(StateFileError::Link(path.to_owned()));
        }
        Err(e) => return Err(io_error(e)),
    };
    let meta = file.metadata().map_err(io_error)?;
    if let Some(kind) = special_kind(&meta) {
        return Err(StateFileError::NotRegular {
            path: path.to_owned(),
            kind,
        });
    }
    let too_big = || StateFileError::TooBig {
        path: path.to_owned(),
        cap,
    };
    if meta.len() > cap {
        return Err(too_big());
    }
    // One byte past the cap tells a file that grew since `fstat` from one at the cap.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() as u64 > cap {
        return Err(too_big());
    }
    Ok(Some(bytes))
}

#[cfg(unix)]
fn private(options: &mut OpenOptions) -> &mut OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    options.mode(0o600)
}

#[cfg(not(unix))]
fn private(options: &mut OpenOptions) -> &mut OpenOptions {
    options
}

/// Writes a new file; fails with `AlreadyExists` rather than overwrite one.
///
/// The contents go to a temporary file beside it first (`0600`), which then takes the
/// name without replacing anything (a hard link, which fails if the name exists, then
/// the temporary name is removed). So a full disk or any other failure leaves no file
/// at the name (not even an empty one that a retry would call "already exists"), and the
/// temporary file is removed on every failure. Where hard links are not supported (some
/// FUSE or FAT file systems) the name is checked and the file renamed onto it.
pub fn write_new(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_new_with(path, |file| file.write_all(contents))
}

/// [`write_new`] with the writing of the contents given (the tests make it fail as a
/// full disk does).
fn write_new_with(
    path: &Path,
    fill: impl FnOnce(&mut fs::File) -> io::Result<()>,
) -> io::Result<()> {
    if path.exists() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "the file exists",
        ));
    }
    let tmp = temp_beside(path);
    let written = (|| {
        let mut file = private(OpenOptions::new().write(true).create_new(true)).open(&tmp)?;
        fill(&mut file)?;
        file.sync_all()
    })();
    let placed = written.and_then(|()| match fs::hard_link(&tmp, path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(e),
        Err(_) if path.exists() => Err(io::ErrorKind::AlreadyExists.into()),
        Err(_) => fs::rename(&tmp, path),
    });
    let _ = fs::remove_file(&tmp);
    placed
}

/// A temporary name in the same folder as `path` (so the final link or rename stays on
/// one file system), hidden, and unique to this process and call.
fn temp_beside(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

/// What a typed file name means: `~` and `~/…` are the home folder, a relative name is
/// in the current folder. No file system access but `getcwd`.
pub fn resolve_typed(typed: &str) -> Result<PathBuf, String> {
    let typed = typed.trim();
    let home = || {
        std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .ok_or_else(|| "~ cannot be expanded: HOME is not set".to_owned())
    };
    let path = if typed == "~" {
        home()?
    } else if let Some(rest) = typed.strip_prefix("~/") {
        home()?.join(rest)
    } else {
        PathBuf::from(typed)
    };
    if path.is_absolute() {
        return Ok(path);
    }
    std::env::current_dir()
        .map(|d| d.join(path))
        .map_err(|e| format!("cannot tell the current folder: {e}"))
}

/// The first name beside `path` that is not taken: `list.txt` → `list (1).txt`, `list
/// (2).txt`, … `None` after 999 tries.
pub fn free_name(path: &Path) -> Option<PathBuf> {
    let stem = path.file_stem()?.to_string_lossy().into_owned();
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (1..1000)
        .map(|n| path.with_file_name(format!("{stem} ({n}){ext}")))
        .find(|p| !p.exists())
}

/// The name after `written`'s, in the same folder and as a file that exists is offered
/// another ([`free_name`]): `iplist-5001-http-auth.txt` → `… (1).txt` → `… (2).txt`.
/// Worked out from the name alone (the loop does not touch the disk); a name taken all
/// the same is refused by the write, which offers the free one.
pub fn next_name(written: &Path) -> String {
    let stem = written
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let counted = stem
        .strip_suffix(')')
        .and_then(|s| s.rsplit_once(" ("))
        .and_then(|(base, n)| Some((base.to_owned(), n.parse::<u32>().ok()?)));
    let (base, n) = counted.unwrap_or((stem, 0));
    let ext = written
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    written
        .with_file_name(format!("{base} ({}){ext}", n.saturating_add(1)))
        .display()
        .to_string()
}

/// Replaces `path` atomically (a temporary file beside it, then a rename), creating the
/// parent folder (`0700`) if needed.
pub fn replace(path: &Path, contents: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        create_private_dir(dir)?;
        // The state folder is proxydash's own: one left open to others is closed.
        if let Err(e) = tighten(dir, 0o700) {
            tracing::warn!("{e}");
        }
    }
    let tmp = temp_beside(path);
    let written = (|| {
        let mut file = private(OpenOptions::new().write(true).create_new(true)).open(&tmp)?;
        file.write_all(contents)?;
        file.sync_all()
    })();
    // A full disk fails the write, not the open: the empty temporary file goes too.
    let result = written.and_then(|()| fs::rename(&tmp, path));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Creates `dir` and its missing parents `0700` (existing folders are left as they are).
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
    }
    #[cfg(not(unix))]
    {
        fs::create_dir_all(dir)
    }
}

/// Refuses a state file `path` that is a symbolic link (dangling or not): a link planted
/// there would make proxydash create or write a file elsewhere, with its modes.
pub fn refuse_symlink(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(io::Error::other(format!(
            "{} is a symbolic link; proxydash does not open its state files through links              (remove the link, or point the setting at a real file)",
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// Tightens `path` (a file or folder proxydash owns) to `mode` (`0o600`, `0o700`) when
/// group or others have any access; says why when it cannot.
pub fn tighten(path: &Path, mode: u32) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(meta) = fs::symlink_metadata(path) else {
            return Ok(());
        };
        if meta.file_type().is_symlink() || meta.permissions().mode() & 0o077 == 0 {
            return Ok(());
        }
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).map_err(|e| {
            format!(
                "{} is readable by others (mode {:o}) and cannot be made {mode:o}: {e}",
                path.display(),
                meta.permissions().mode() & 0o777
            )
        })
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mode);
        Ok(())
    }
}

/// `path` with the home folder written `~`, for messages that must be short.
pub fn tilde(path: &Path) -> String {
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => match path.strip_prefix(&home) {
            Ok(rest) => format!("~/{}", rest.display()),
            Err(_) => path.display().to_string(),
        },
        None => path.display().to_string(),
    }
}

/// `$XDG_STATE_HOME/proxydash`, or `~/.local/state/proxydash`: etcetera's XDG strategy,
/// used on every unix including macOS (the README promises these paths there too). As the
/// XDG spec says, a relative `XDG_STATE_HOME` is ignored.
pub fn state_dir() -> Option<PathBuf> {
    use etcetera::BaseStrategy;
    let base = etcetera::choose_base_strategy().ok()?.state_dir()?;
    Some(base.join("proxydash"))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod next_name_tests {
    use super::next_name;

    #[test]
    fn the_name_after_a_written_file_is_numbered() {
        use std::path::Path;
        assert_eq!(
            next_name(Path::new("/home/u/iplist-5001-http-auth.txt")),
            "/home/u/iplist-5001-http-auth (1).txt"
        );
        assert_eq!(
            next_name(Path::new("/home/u/iplist-5001-http-auth (1).txt")),
            "/home/u/iplist-5001-http-auth (2).txt"
        );
        assert_eq!(next_name(Path::new("/tmp/list-5001")), "/tmp/list-5001 (1)");
    }
}
