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
pub fn write_new(path: &Path, contents: &[u8]) -> io::Result<()> {
    let mut file = private(OpenOptions::new().write(true).create_new(true)).open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}

/// Replaces `path` atomically (a temporary file beside it, then a rename), creating the
/// parent folder (`0700`) if needed.
pub fn replace(path: &Path, contents: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        create_private_dir(dir)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let _ = fs::remove_file(&tmp);
    write_new(&tmp, contents)?;
    fs::rename(&tmp, path).inspect_err(|_| {
        let _ = fs::remove_file(&tmp);
    })
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

/// `$XDG_STATE_HOME/proxydash`, or `~/.local/state/proxydash`.
pub fn state_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
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
    fn replace_creates_the_folder_and_replaces() {
        let dir = temp_dir("replace");
        let path = dir.join("sub/state.json");
        replace(&path, b"one").unwrap();
        replace(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let _ = fs::remove_dir_all(&dir);
    }
}
