//! The files proxydash writes and the state files it reads.

use super::*;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxydash-test-{name}-{}", std::process::id()));
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
fn state_files_are_read_only_when_regular_and_within_the_cap() {
    let dir = temp_dir("read-state");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("alerts.json");
    assert!(read_state(&path, 100).unwrap().is_none());
    fs::write(&path, b"{}").unwrap();
    assert_eq!(read_state(&path, 100).unwrap().unwrap(), b"{}");
    fs::write(&path, vec![b' '; 101]).unwrap();
    let e = read_state(&path, 100).unwrap_err().to_string();
    assert!(e.contains("alerts.json is over"), "{e}");
    fs::remove_file(&path).unwrap();
    // A FIFO is refused at once (opened, it would wait for a writer forever).
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads the path given.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let e = read_state(&path, 100).unwrap_err().to_string();
    assert!(e.contains("alerts.json is a FIFO"), "{e}");
    fs::remove_file(&path).unwrap();
    // A link to /dev/zero is not followed (read, it never ends).
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    let e = read_state(&path, 100).unwrap_err().to_string();
    assert!(e.contains("symbolic link"), "{e}");
    // A device itself is not read.
    let e = read_state(Path::new("/dev/zero"), 100)
        .unwrap_err()
        .to_string();
    assert!(e.contains("character device"), "{e}");
    assert!(matches!(
        check_state(&dir),
        Err(StateFileError::NotRegular { .. })
    ));
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
