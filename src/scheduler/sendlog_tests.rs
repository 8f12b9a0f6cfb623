//! The shared send log: processes of one profile keep one budget (issue 46.4). Each
//! `Budget` here stands for a process (each log handle is a writer of its own, and holds
//! the file's lock through an open file of its own, as another process would).

use super::*;
use crate::api::Request;
use crate::scheduler::{Bucket, Budget, Hold, Scope};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("proxydash-sendlog-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A budget of the assumed 60 a minute on the log at `path`, its clock paired with the
/// wall's at `base`.
fn process(path: &Path, base: Instant) -> Budget {
    Budget::new(Bucket::new(None)).shared(SendLog::new(path.to_owned()).anchored(base, 1_000_000))
}

/// What one process sent, the next counts: the limit is the account's, not each one's.
#[test]
fn one_process_counts_what_another_sent() {
    let d = dir("counts");
    let path = d.join("a.log");
    let base = Instant::now();
    let credit = Request::Credit.route();
    let first = process(&path, base);
    // A burst (half the limit), then the even pace a second apart, for a whole minute.
    let mut sent = 0;
    for i in 0..600 {
        let at = base + Duration::from_millis(100 * i);
        if first.try_take(at, Lane::Person, credit).is_ok() {
            sent += 1;
        }
    }
    assert!((59..=60).contains(&sent), "{sent}");
    let second = process(&path, base);
    let now = base + Duration::from_secs(60);
    let held = second.try_take(now, Lane::Person, credit).unwrap_err();
    assert_eq!((held.hold, held.scope), (Hold::Budget, Scope::Account));
    // The second says how many of the window's sends were another's (a restart within
    // the server's minute is told so); the first's own are not another's.
    assert_eq!(second.view().elsewhere as usize, sent);
    assert_eq!(first.view().elsewhere, 0);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), sent, "one line per send");
    assert!(
        text.lines()
            .all(|l| l.ends_with(" person GET /api/billing/credit")),
        "{text}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Eight processes asking at the same instant, each from a thread of its own: together
/// they keep one burst (half the limit), as one process would; none sees less than the
/// others sent, so no token is spent twice.
#[test]
fn processes_at_once_share_one_burst() {
    let d = dir("burst");
    let path = d.join("a.log");
    let base = Instant::now();
    let taken: usize = std::thread::scope(|s| {
        let runs: Vec<_> = (0..8)
            .map(|_| {
                let budget = process(&path, base);
                s.spawn(move || {
                    let mut mine = 0;
                    for _ in 0..2_000 {
                        match budget.try_take(base, Lane::Person, Request::Services.route()) {
                            Ok(_) => mine += 1,
                            // Another holds the lock: ask again.
                            Err(w) if w.at == base + RETRY => std::thread::yield_now(),
                            Err(_) => break,
                        }
                    }
                    mine
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).sum()
    });
    assert_eq!(taken, 30);
    let _ = std::fs::remove_dir_all(&d);
}

/// Past its size the file is written anew with the sends inside the window, and a
/// process that read the old one counts nothing twice.
#[test]
fn the_file_is_pruned_and_nothing_counts_twice() {
    let d = dir("prune");
    let path = d.join("a.log");
    let base = Instant::now();
    let route = Request::Services.route();
    // A process of a high limit fills the file over an hour.
    let busy = Budget::new(Bucket::new(Some(6_000)))
        .shared(SendLog::new(path.clone()).anchored(base, 1_000_000));
    let reader = Budget::new(Bucket::new(Some(6_000)))
        .shared(SendLog::new(path.clone()).anchored(base, 1_000_000));
    let mut at = base;
    let mut biggest = 0;
    for i in 0..6_000 {
        at = base + Duration::from_millis(600 * i);
        let _ = busy.try_take(at, Lane::Person, route);
        if i % 50 == 0 {
            // The reader only reads (a take it would make, made at the start of time).
            let _ = reader.try_take(at, Lane::Background, route);
        }
        biggest = biggest.max(std::fs::metadata(&path).map_or(0, |m| m.len()));
    }
    assert!(biggest <= PRUNE_AT + 200, "{biggest}");
    // 100 a minute from the busy one: the reader counts 100 in its window, not more.
    let left = reader.view().left;
    let _ = at;
    assert!((6_000 - 110..=6_000 - 95).contains(&left), "{left}");
    let _ = std::fs::remove_dir_all(&d);
}

/// A link or a FIFO at the name is refused like every state file: said once, and the
/// process goes on with its own budget (never sending nothing, never silent).
#[cfg(unix)]
#[test]
fn a_link_or_a_fifo_is_refused_and_said_once() {
    let d = dir("refused");
    let target = d.join("elsewhere");
    std::fs::write(&target, "").unwrap();
    let link = d.join("link.log");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let fifo = d.join("fifo.log");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let base = Instant::now();
    for path in [&link, &fifo] {
        let budget = process(path, base);
        let log = budget.send_log().unwrap();
        let said = log.check().expect("refused");
        assert!(said.contains("keeps its own request budget"), "{said}");
        assert!(log.problem().is_none(), "said once");
        assert!(
            budget
                .try_take(base, Lane::Person, Request::Credit.route())
                .is_ok()
        );
    }
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "",
        "nothing written through the link"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// While another process holds the lock the caller is told to ask again soon (nothing
/// blocks); held past the patience, the process says so once and goes on alone.
#[test]
fn a_lock_held_by_another_is_waited_for_briefly_then_given_up() {
    let d = dir("busy");
    let path = d.join("a.log");
    let base = Instant::now();
    let budget = process(&path, base);
    assert!(
        budget
            .try_take(base, Lane::Person, Request::Credit.route())
            .is_ok()
    );
    let other = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    other.lock().unwrap();
    let wait = budget
        .try_take(base, Lane::Person, Request::Credit.route())
        .unwrap_err();
    assert_eq!(wait.at, base + RETRY);
    let later = base + LOCK_PATIENCE + Duration::from_millis(10);
    assert!(
        budget
            .try_take(later, Lane::Person, Request::Credit.route())
            .is_ok()
    );
    let said = budget.send_log().unwrap().problem().expect("said");
    assert!(said.contains("stayed locked"), "{said}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_file_is_named_after_the_profile_and_a_hash_of_the_key() {
    let a = file_name("shop", "shop@https://api.example");
    let b = file_name("shop", "shop@https://other.example");
    assert!(a.starts_with("shop-") && a.ends_with(".log"), "{a}");
    assert_ne!(a, b);
    assert_eq!(file_name("../..", "x"), file_name("", "x"));
}
