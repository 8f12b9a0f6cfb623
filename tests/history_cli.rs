//! `proxydash history export` as a user runs it: the profile's file in the state
//! directory, CSV and JSON on standard output, clear messages and exit codes otherwise.

use proxydash::history::{Record, ServerList, Store, Sweep};
use std::process::Command;

fn dirs(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "proxydash-history-cli-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config")).unwrap();
    dir
}

fn proxydash(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_proxydash"))
        .args(args)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("PROXYDASH_PROFILE")
        .env_remove("PROXYDASH_CONFIG")
        .env("PROXYDASH_LOG", "off")
        .output()
        .unwrap()
}

#[test]
fn export_prints_the_changes_of_the_profile_since_the_time_asked() {
    let dir = dirs("export");
    let file = dir.join("state/proxydash/history-default.sqlite");
    let now = chrono::Utc::now();
    {
        let mut store = Store::open(&file, 90).unwrap();
        let servers = |s: &[&str]| Record::Servers {
            service_id: 1001,
            list: ServerList::Errors,
            servers: s.iter().map(|x| x.to_string()).collect(),
        };
        store
            .write(&[Sweep {
                at: now - chrono::Duration::days(3),
                records: vec![Record::Credit { credit: 80.0 }, servers(&["198.51.100.7"])],
            }])
            .unwrap();
        store
            .write(&[Sweep {
                at: now - chrono::Duration::minutes(30),
                records: vec![Record::Credit { credit: 67.5 }, servers(&[])],
            }])
            .unwrap();
    }
    let out = proxydash(&dir, &["history", "export", "--since", "1h", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.len(), 2, "{v}");
    assert!(
        kinds.contains(&"credit") && kinds.contains(&"error_end"),
        "{v}"
    );

    let out = proxydash(&dir, &["history", "export", "--since", "7d"]);
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        csv.lines().next(),
        Some("at,kind,service_id,subject,value,extra,detail")
    );
    assert!(csv.contains(",error_start,1001,198.51.100.7,,,"), "{csv}");
    assert_eq!(csv.lines().count(), 5, "{csv}");
}

#[test]
fn export_says_what_is_wrong_and_exits_non_zero() {
    let dir = dirs("errors");
    let out = proxydash(&dir, &["history", "export"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no history for profile default yet"), "{err}");

    let out = proxydash(&dir, &["history", "export", "--since", "a week"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("give a span like 7d"), "{err}");

    let out = proxydash(&dir, &["history", "export", "--json", "--csv"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The environment's account (`default`) kept a history before a config file with other
/// profiles appeared: `--profile default` still exports it (issue 26, item 12).
#[test]
fn the_environments_default_history_is_exported_once_a_config_file_exists() {
    let dir = dirs("default-after-config");
    let file = dir.join("state/proxydash/history-default.sqlite");
    {
        let mut store = Store::open(&file, 90).unwrap();
        store
            .write(&[Sweep {
                at: chrono::Utc::now() - chrono::Duration::minutes(5),
                records: vec![Record::Credit { credit: 42.5 }],
            }])
            .unwrap();
    }
    std::fs::create_dir_all(dir.join("config/proxydash")).unwrap();
    std::fs::write(
        dir.join("config/proxydash/config.toml"),
        "default_profile = \"work\"\n[profiles.work]\nbase_url = \"https://work.example\"\n",
    )
    .unwrap();
    let out = proxydash(
        &dir,
        &["history", "export", "--profile", "default", "--json"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["kind"], "credit", "{v}");
    // A profile that neither the file nor the state directory knows is still an error.
    let out = proxydash(&dir, &["history", "export", "--profile", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
}
