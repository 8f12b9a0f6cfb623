//! Issue 45.2: `--demo` means the demo, for every subcommand. With a config file whose
//! default profile is a real account (a loopback server here, which counts every
//! connection), each subcommand given `--demo` either runs on the demo sandbox or refuses
//! with exit 2 and says why; the real account's server sees nothing, and the real
//! profile's state files are never touched.

use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// A "real account": a listener on loopback that counts the connections it gets.
fn real_server() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            counter.fetch_add(1, Ordering::SeqCst);
            drop(stream);
        }
    });
    (url, seen)
}

fn home(url: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("proxydash-demo-everywhere-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config/proxydash")).unwrap();
    std::fs::create_dir_all(dir.join("state")).unwrap();
    let file = dir.join("config/proxydash/config.toml");
    std::fs::write(
        &file,
        format!(
            "default_profile = \"real\"\n\n[profiles.real]\nbase_url = \"{url}\"\ntoken = \"Rr1Ee2Aa3Ll4Tt5Oo6Kk7Ee8Nn9Rr1Ee2Aa3Ll4\"\nkeep_bound = [1001]\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    dir
}

fn command(home: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_proxydash"));
    cmd.arg("--demo")
        .args(args)
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("PROXYDASH_LOG", "off")
        .env("NO_COLOR", "1");
    for var in [
        "PROXYDASH_BASE_URL",
        "PROXYDASH_TOKEN",
        "PROXYDASH_LOGIN",
        "PROXYDASH_PASSWORD",
        "PROXYDASH_PROFILE",
        "PROXYDASH_CONFIG",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// Runs to its end (at most a minute); the exit status and both streams.
fn run(home: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = command(home, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let pid = child.id();
    // Read while it runs (a long answer must not fill the pipe and stall it).
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SAFETY: SIGKILL to the child that hangs.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            panic!("{args:?} still running after a minute");
        }
    };
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_subcommand_runs_on_the_demo_or_refuses_it() {
    let (url, seen) = real_server();
    let home = home(&url);
    // Run on the demo's sandbox: they answer, from the demo's data.
    let on_demo: &[(&[&str], &str)] = &[
        (&["services"], "1001"),
        (&["service", "1001"], "1001"),
        (&["products"], "11"),
        (&["product", "11"], "11"),
        (&["clients"], "101"),
        (&["credit"], "250"),
        (&["invoices"], "7001"),
        (&["invoice", "7001"], "7001"),
        (&["network", "1001"], ""),
        (&["rate", "1003"], ""),
        (&["stats", "1003"], ""),
        (&["iplist", "1001"], ""),
        (&["refresh-list", "1001"], ""),
        (&["bind", "1001", "45.83.220.9"], ""),
        (&["order", "11", "--client", "101", "--yes"], ""),
        (&["completions", "bash"], ""),
        (&["doctor"], ""),
    ];
    for (args, answer) in on_demo {
        let (code, out, err) = run(&home, args, "");
        assert_eq!(code, 0, "--demo {args:?}: {err}");
        assert!(out.contains(answer), "--demo {args:?}: {out}");
    }
    let (code, _, err) = run(&home, &["password", "1001"], "Demo-pass-2026\n");
    assert_eq!(code, 0, "--demo password: {err}");
    // The probe checks the demo's loopback proxies (some are dead on purpose: exit 1).
    let (code, out, err) = run(&home, &["probe", "1001"], "");
    assert!(matches!(code, 0 | 1), "--demo probe: {code} {err}");
    assert!(out.contains("alive") || out.contains("dead"), "{out}");
    // What keeps state of a real profile, or is itself the sandbox, refuses the demo.
    for args in [
        &["alerts"][..],
        &["alerts", "ack", "service_status:1006"],
        &["history", "export"],
        &["config", "show"],
        &["sandbox"],
    ] {
        let (code, _, err) = run(&home, args, "");
        assert_eq!(code, 2, "--demo {args:?} refused: {err}");
        assert!(err.contains("--demo"), "--demo {args:?} says why: {err}");
    }
    // `watch` watches the demo: its alerts come, from the demo's data.
    let mut child = command(&home, &["watch"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    // Every line read, so the pipe stays open (a closed standard output stops `watch`).
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let line = lines
        .recv_timeout(Duration::from_secs(60))
        .expect("an alert from --demo watch within a minute");
    assert!(line.contains("\"profile\":\"demo\""), "{line}");
    // SAFETY: SIGTERM to the child, its graceful stop.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert_eq!(seen.load(Ordering::SeqCst), 0, "the real account was asked");
    // Nothing of the real profile's state was written.
    let state = home.join("state/proxydash");
    let written: Vec<_> = std::fs::read_dir(&state)
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        written
            .iter()
            .all(|n| n.to_string_lossy().starts_with("proxydash.log")),
        "{written:?}"
    );
    let _ = std::fs::remove_dir_all(home);
}
