//! Files proxydash writes: exported IP lists, the state file, later the config and logs.
//! All are created `0600` (owner read/write only), since they may hold proxy credentials.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("proxydash-test-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn write_new_refuses_to_overwrite_and_is_private() {
        let dir = temp_dir("files");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("list.txt");
        write_new(&path, b"a").unwrap();
        assert_eq!(
            write_new(&path, b"b").unwrap_err().kind(),
            io::ErrorKind::AlreadyExists
        );
        assert_eq!(fs::read(&path).unwrap(), b"a");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_leaves_no_file_and_a_retry_works() {
        let dir = temp_dir("enospc");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("list.txt");
        let full = |file: &mut fs::File| {
            file.write_all(b"half")?;
            Err(io::Error::from_raw_os_error(28)) // ENOSPC
        };
        let e = write_new_with(&path, full).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(28));
        let left: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert!(left.is_empty(), "no file, no temporary file: {left:?}");
        write_new(&path, b"all of it").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"all of it");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn free_names_and_typed_names() {
        let dir = temp_dir("free");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("list.txt");
        assert_eq!(free_name(&path), Some(dir.join("list (1).txt")));
        write_new(&dir.join("list (1).txt"), b"x").unwrap();
        assert_eq!(free_name(&path), Some(dir.join("list (2).txt")));
        let home = std::env::var_os("HOME").map(PathBuf::from);
        if let Some(home) = home.filter(|h| !h.as_os_str().is_empty()) {
            assert_eq!(resolve_typed("~/a.txt").unwrap(), home.join("a.txt"));
        }
        assert_eq!(
            resolve_typed("b.txt").unwrap(),
            std::env::current_dir().unwrap().join("b.txt")
        );
        assert_eq!(
            resolve_typed("/x/c.txt").unwrap(),
            PathBuf::from("/x/c.txt")
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn replace_creates_the_folder_and_replaces() {
        let dir = temp_dir("replace");
        let path = dir.join("sub/state.json");
        replace(&path, b"one").unwrap();
        replace(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let _ = fs::remove_dir_all(&dir);
    }
}
