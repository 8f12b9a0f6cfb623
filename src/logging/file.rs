//! The log file as a `tracing` writer: capped with one backup, and silent when it fails.
//!
//! - **Rotation**: before a line would take the file past [`MAX_LOG`] (5 MiB), the file is
//!   renamed to `<name>.1` (replacing an older backup) and a new one is started, `0600`.
//!   At most about 10 MiB of diagnostics are kept, whatever runs all day. Several
//!   instances may share one file (each line names its process, see
//!   [`crate::logging`]); one that rotates leaves the others appending to the backup until
//!   they rotate in turn, which loses nothing.
//! - **Failures** (a full disk, a file removed from under us) are counted, never written
//!   to the terminal the dashboard draws on: a write that fails reports success to
//!   `tracing` (which would otherwise print its own error to standard error) and bumps
//!   [`failures`]. The dashboard watches the count ([`watch_failures`]) and says so once
//!   in the status line.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use tokio::sync::watch;
use tracing_subscriber::fmt::MakeWriter;

/// The size at which the log is rotated.
pub const MAX_LOG: u64 = 5 << 20;

static FAILURES: AtomicU64 = AtomicU64::new(0);

fn failure_channel() -> &'static watch::Sender<u64> {
    static CHANNEL: OnceLock<watch::Sender<u64>> = OnceLock::new();
    CHANNEL.get_or_init(|| watch::channel(0).0)
}

/// How many log writes have failed in this process.
pub fn failures() -> u64 {
    FAILURES.load(Ordering::Relaxed)
}

/// The failure count, told when it changes.
pub fn watch_failures() -> watch::Receiver<u64> {
    failure_channel().subscribe()
}

fn count_failure() {
    let n = FAILURES.fetch_add(1, Ordering::Relaxed) + 1;
    failure_channel().send_replace(n);
}

/// The log file, shared by every event (one lock per line).
pub struct LogFile {
    inner: Mutex<Inner>,
    max: u64,
}

struct Inner {
    path: PathBuf,
    /// `None` after a rotation that could not open a new file; tried again next line.
    file: Option<File>,
    size: u64,
}

impl LogFile {
    /// Opens (or creates, `0600`) `path` for appending; an existing file readable by
    /// others is tightened to `0600`.
    pub fn open(path: &Path) -> io::Result<Self> {
        Self::with_max(path, MAX_LOG)
    }

    /// `--log-file PATH`, the user's own choice: as [`LogFile::open`], but a character
    /// device or a FIFO named there (`/dev/stderr`, a pipe to a log collector) is written
    /// to as it is and never rotated. It is opened without waiting (a FIFO without a
    /// reader fails at once instead of holding the start-up), then written to blocking.
    pub fn open_named(path: &Path) -> io::Result<Self> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
            let special = fs::symlink_metadata(path)
                .is_ok_and(|m| m.file_type().is_char_device() || m.file_type().is_fifo());
            if special {
                let file = OpenOptions::new()
                    .append(true)
                    .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
                    .open(path)?;
                use std::os::fd::AsRawFd;
                // SAFETY: fcntl on a descriptor this function owns.
                unsafe {
                    let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFL);
                    libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK);
                }
                return Ok(Self {
                    inner: Mutex::new(Inner {
                        path: path.to_owned(),
                        file: Some(file),
                        size: 0,
                    }),
                    max: u64::MAX,
                });
            }
        }
        Self::open(path)
    }

    pub fn with_max(path: &Path, max: u64) -> io::Result<Self> {
        let file = open_append(path)?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        Ok(Self {
            inner: Mutex::new(Inner {
                path: path.to_owned(),
                file: Some(file),
                size,
            }),
            max,
        })
    }

    /// Writes one formatted line, rotating first when it would pass the cap.
    fn write_line(&self, line: &[u8]) {
        let Ok(mut inner) = self.inner.lock() else {
            count_failure();
            return;
        };
        if inner.size > 0 && inner.size + line.len() as u64 > self.max {
            inner.rotate();
        }
        if inner.file.is_none() {
            inner.file = open_append(&inner.path).ok();
        }
        let result = match inner.file.as_mut() {
            Some(file) => file.write_all(line),
            None => Err(io::Error::other("no log file")),
        };
        match result {
            Ok(()) => inner.size += line.len() as u64,
            Err(_) => count_failure(),
        }
    }
}

impl Inner {
    fn rotate(&mut self) {
        self.file = None;
        let mut backup = self.path.clone().into_os_string();
        backup.push(".1");
        if fs::rename(&self.path, &backup).is_err() {
            count_failure();
        }
        self.file = open_append(&self.path).ok();
        self.size = 0;
    }
}

fn open_append(path: &Path) -> io::Result<File> {
    // Nothing but a regular file (or none yet): a FIFO would block the open until a
    // reader came (before anything is printed), a device is no log (unless the user
    // named it: `LogFile::open_named`).
    crate::files::check_state(path).map_err(crate::files::StateFileError::into_io)?;
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Never through a link: one planted at the log's path would have the lines
        // appended (and the mode changed) wherever it points. Never waiting: a FIFO
        // swapped in after the check fails the open instead of blocking it.
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    let file = options.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            crate::files::refuse_symlink(path).err().unwrap_or(e)
        } else {
            e
        }
    })?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    // A log file left readable by others (made by hand, or by an older version) is
    // tightened: `mode` above only applies when the file is created.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = file.metadata()
            && meta.is_file()
            && meta.permissions().mode() & 0o077 != 0
        {
            let _ = file.set_permissions(fs::Permissions::from_mode(0o600));
        }
    }
    Ok(file)
}

/// One event's text, gathered and written as one line when `tracing` is done with it.
pub struct LineWriter<'a> {
    log: &'a LogFile,
    line: Vec<u8>,
}

impl Write for LineWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.line.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for LineWriter<'_> {
    fn drop(&mut self) {
        if !self.line.is_empty() {
            self.log.write_line(&self.line);
        }
    }
}

impl<'a> MakeWriter<'a> for LogFile {
    type Writer = LineWriter<'a>;

    fn make_writer(&'a self) -> Self::Writer {
        LineWriter {
            log: self,
            line: Vec::with_capacity(256),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("proxydash-log-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn line(log: &LogFile, text: &str) {
        let mut w = log.make_writer();
        w.write_all(text.as_bytes()).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_log_path_is_refused_and_its_target_untouched() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("link");
        let target = dir.join("victim");
        fs::write(&target, b"theirs\n").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o644)).unwrap();
        let path = dir.join("proxydash.log");
        std::os::unix::fs::symlink(&target, &path).unwrap();
        let e = LogFile::open(&path).err().expect("refused").to_string();
        assert!(e.contains("is a symbolic link"), "{e}");
        assert_eq!(fs::read(&target).unwrap(), b"theirs\n");
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "the target's mode is left alone");
        // A dangling link: nothing is created where it points.
        fs::remove_file(&target).unwrap();
        assert!(LogFile::open(&path).is_err());
        assert!(!target.exists());
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_at_the_log_path_is_refused_at_once() {
        let dir = temp_dir("fifo");
        let path = dir.join("proxydash.log");
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the path given.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Opened for writing, a FIFO without a reader would block here for ever.
        let e = LogFile::open(&path).err().expect("refused").to_string();
        assert!(e.contains("proxydash.log") && e.contains("FIFO"), "{e}");
        let e = LogFile::open(Path::new("/dev/zero"))
            .err()
            .expect("refused");
        assert!(e.to_string().contains("character device"), "{e}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_log_is_rotated_at_its_cap_with_one_backup() {
        let dir = temp_dir("rotate");
        let path = dir.join("proxydash.log");
        let log = LogFile::with_max(&path, 100).unwrap();
        for i in 0..30 {
            line(&log, &format!("line {i:02} ........\n"));
        }
        let size = fs::metadata(&path).unwrap().len();
        let backup = fs::metadata(dir.join("proxydash.log.1")).unwrap().len();
        assert!(size <= 100 && backup <= 100, "{size} {backup}");
        let current = fs::read_to_string(&path).unwrap();
        assert!(current.ends_with("line 29 ........\n"), "{current}");
        let names: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 2, "one file and one backup: {names:?}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_full_disk_is_counted_and_never_an_error_to_tracing() {
        // /dev/full fails every write with ENOSPC. (`LogFile::open` refuses a device, so
        // the log is made around it here, as if the disk had filled after the open.)
        let Ok(full) = OpenOptions::new().append(true).open("/dev/full") else {
            return;
        };
        let log = LogFile {
            inner: Mutex::new(Inner {
                path: PathBuf::from("/dev/full"),
                file: Some(full),
                size: 0,
            }),
            max: MAX_LOG,
        };
        let before = failures();
        let mut rx = watch_failures();
        let mut w = log.make_writer();
        assert!(w.write_all(b"a line\n").is_ok());
        drop(w);
        assert!(failures() > before);
        assert!(rx.has_changed().unwrap());
        rx.mark_unchanged();
    }
}
