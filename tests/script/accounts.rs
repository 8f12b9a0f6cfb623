//! Issue 25 item 6: `services`, `invoices`, `credit` and `network` over several accounts
//! (`--all-profiles`, `--profile` repeated): rows labelled by profile, one failing account
//! named on standard error without hiding the others, the exit status saying it; one
//! account selected prints exactly what it always did; one-account commands refuse several.

use super::*;
use std::path::Path;

/// A config file with one profile per `(name, base URL, token)`, in a folder of its own
/// that also holds the state directory (the request budgets).
fn config(name: &str, accounts: &[(&str, String, &str)]) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir(name);
    let path = dir.join("config.toml");
    let text: String = accounts
        .iter()
        .map(|(profile, url, token)| {
            format!(
                "[profiles.{profile}]\nbase_url = \"{url}\"\ntoken = \"{token}\"\nhistory_days = 0\nmax_requests_per_minute = 6000\n\n"
            )
        })
        .collect();
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    path
}

/// `proxydash --config CONFIG ARGS…`, its state kept beside the config file.
async fn with_config(config: &Path, args: &[&str]) -> Run {
    let mut cmd = proxydash();
    cmd.env_remove("PROXYDASH_PROFILE")
        .env("XDG_STATE_HOME", config.parent().unwrap().join("state"))
        .arg("--config")
        .arg(config)
        .args(args);
    finish(&mut cmd, None).await
}

/// The profiles of a table's rows (the first cell of each line after the header).
fn profiles_of(table: &str) -> Vec<&str> {
    table
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect()
}

fn account(name: &'static str, sb: &SandboxHandle) -> (&'static str, String, &'static str) {
    (name, sb.base_url(), leak(sb.token()))
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

#[tokio::test]
async fn every_profile_is_read_and_its_rows_are_labelled() {
    let (shop, resale) = (sandbox().await, sandbox().await);
    let file = config(
        "several",
        &[account("shop", &shop), account("resale", &resale)],
    );
    let one = run(&shop, &["services"]).await.ok();
    let per_account = one.stdout.lines().count() - 1;
    assert!(per_account > 3, "{one:#?}");

    let all = with_config(&file, &["services", "--all-profiles"])
        .await
        .ok();
    assert!(all.stdout.starts_with("PROFILE"), "{all:#?}");
    let profiles = profiles_of(&all.stdout);
    // The file's order (sorted), every service of each.
    assert_eq!(
        profiles.iter().filter(|p| **p == "resale").count(),
        per_account
    );
    assert_eq!(
        profiles.iter().filter(|p| **p == "shop").count(),
        per_account
    );
    assert_eq!(profiles.first(), Some(&"resale"));
    // The same row as one account prints, behind its profile.
    let service = row(&one.stdout, "1001");
    assert!(
        all.stdout.contains(&format!("shop     {service}")),
        "{all:#?}"
    );
    // Each account was asked, once, through its own client.
    for sb in [&shop, &resale] {
        assert!(
            requests(sb, "GET")
                .iter()
                .any(|r| r.path == "/api/services")
        );
    }

    let json = with_config(
        &file,
        &[
            "--profile",
            "shop",
            "--profile",
            "resale",
            "invoices",
            "--json",
        ],
    )
    .await
    .ok()
    .json();
    let rows = json.as_array().unwrap();
    let from = |p: &str| rows.iter().filter(|r| r["profile"] == p).count();
    assert!(
        from("shop") > 0 && from("shop") == from("resale"),
        "{json:#}"
    );
    assert!(rows.iter().all(|r| r["id"].is_u64()), "{json:#}");
}

#[tokio::test]
async fn one_account_selected_prints_exactly_what_it_always_did() {
    let shop = sandbox().await;
    let file = config("single", &[account("shop", &shop)]);
    for args in [
        &["services"][..],
        &["invoices", "--json"],
        &["credit"],
        &["network", "1001"],
    ] {
        let before = run(&shop, args).await.ok();
        let mut all = args.to_vec();
        all.push("--all-profiles");
        let now = with_config(&file, &all).await.ok();
        assert_eq!(now.stdout, before.stdout, "{args:?}");
        let mut named = vec!["--profile", "shop", "--profile", "shop"];
        named.extend_from_slice(args);
        let now = with_config(&file, &named).await.ok();
        assert_eq!(now.stdout, before.stdout, "{args:?}");
    }
}

#[tokio::test]
async fn a_failing_account_is_named_and_does_not_hide_the_others() {
    let shop = sandbox().await;
    let stopped = sandbox().await;
    let gone = stopped.base_url();
    stopped.shutdown().await;
    let file = config(
        "failing",
        &[
            account("shop", &shop),
            ("wrongtoken", shop.base_url(), "not-the-token"),
        ],
    );
    let out = with_config(&file, &["services", "--all-profiles"]).await;
    assert_eq!(out.code, Some(3), "authentication: {out:#?}");
    assert!(
        out.stderr.contains("profile wrongtoken: List services: "),
        "{out:#?}"
    );
    assert!(
        profiles_of(&out.stdout).iter().all(|p| *p == "shop"),
        "{out:#?}"
    );
    assert!(out.stdout.lines().count() > 3, "{out:#?}");

    let file = config(
        "stopped",
        &[account("shop", &shop), ("gone", gone.clone(), "t")],
    );
    let out = with_config(&file, &["credit", "--all-profiles", "--json"]).await;
    assert_eq!(out.code, Some(5), "unreachable: {out:#?}");
    assert!(out.stderr.contains("profile gone: "), "{out:#?}");
    let json = out.json();
    assert_eq!(json["accounts"].as_array().unwrap().len(), 1, "{json:#}");
    assert_eq!(json["accounts"][0]["profile"], "shop");

    // Two failures of different kinds: status 1, both named.
    let file = config(
        "both",
        &[
            account("shop", &shop),
            ("gone", gone, "t"),
            ("wrongtoken", shop.base_url(), "not-the-token"),
        ],
    );
    let out = with_config(&file, &["invoices", "--all-profiles"]).await;
    assert_eq!(out.code, Some(1), "{out:#?}");
    assert!(out.stderr.contains("profile gone: ") && out.stderr.contains("profile wrongtoken: "));
    assert!(
        profiles_of(&out.stdout).iter().all(|p| *p == "shop"),
        "{out:#?}"
    );
}

#[tokio::test]
async fn credit_of_several_accounts_has_each_and_the_total() {
    let (shop, resale) = (sandbox().await, sandbox().await);
    let file = config(
        "credit",
        &[account("shop", &shop), account("resale", &resale)],
    );
    let total = shop.state().credit + resale.state().credit;
    let json = with_config(&file, &["credit", "--all-profiles", "--json"])
        .await
        .ok()
        .json();
    assert_eq!(json["accounts"].as_array().unwrap().len(), 2, "{json:#}");
    assert_eq!(json["accounts"][1]["profile"], "shop");
    assert!(
        (json["total"]["USD"].as_f64().unwrap() - total).abs() < 1e-6,
        "{json:#}"
    );
    let text = with_config(&file, &["credit", "--all-profiles"])
        .await
        .ok()
        .stdout;
    assert!(text.starts_with("PROFILE"), "{text}");
    let total_line = text
        .lines()
        .find(|l| l.starts_with("Total (USD):"))
        .unwrap();
    assert!(total_line.ends_with(&format!("${total:.2}")), "{text}");
}

/// Issue 37: `credit` says the money ahead in a line, `--json` gives the figures, and
/// over several accounts each account's runway and the earliest one.
#[tokio::test]
async fn credit_says_the_money_ahead_and_the_earliest_account_short() {
    let (shop, resale) = (sandbox().await, sandbox().await);
    // Nothing left: the sandbox's unpaid invoices are owed today. Plenty: a year covered.
    shop.set_credit(0.0);
    resale.set_credit(1_000_000.0);
    let file = config(
        "ahead",
        &[account("shop", &shop), account("resale", &resale)],
    );
    let one = with_config(&file, &["--profile", "resale", "credit"])
        .await
        .ok()
        .stdout;
    let ahead = one
        .lines()
        .find(|l| l.starts_with("Ahead:"))
        .unwrap_or_default();
    assert!(
        ahead.contains("covers every renewal for a year") && ahead.contains("due in 30 days"),
        "{one}"
    );
    let json = with_config(&file, &["--profile", "shop", "credit", "--json"])
        .await
        .ok()
        .json();
    let runway = &json["runway"];
    assert_eq!(runway["short_on"], runway["today"], "{json:#}");
    assert!(runway["due_30_days"].as_f64().unwrap() > 0.0, "{json:#}");
    assert!(runway["due"].as_array().is_some_and(|d| !d.is_empty()));
    let all = with_config(&file, &["credit", "--all-profiles", "--json"])
        .await
        .ok()
        .json();
    assert_eq!(all["earliest_short"]["profile"], "shop", "{all:#}");
    assert_eq!(all["accounts"][0]["runway"]["short_on"], Value::Null);
    let text = with_config(&file, &["credit", "--all-profiles"])
        .await
        .ok()
        .stdout;
    assert!(text.contains("COVERS RENEWALS UNTIL"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("Earliest short:") && l.ends_with("(shop)")),
        "{text}"
    );
}

#[tokio::test]
async fn network_reads_every_service_of_each_account() {
    let (shop, resale) = (sandbox().await, sandbox().await);
    let file = config(
        "network",
        &[account("shop", &shop), account("resale", &resale)],
    );
    let out = with_config(&file, &["network", "--all-profiles"])
        .await
        .ok();
    // The seed's service 1001 has servers in error, in each account; 1013's client is gone.
    for profile in ["shop", "resale"] {
        let errors = out.stdout.lines().filter(|l| {
            let cells: Vec<_> = l.split_whitespace().collect();
            cells.starts_with(&[profile, "1001", "error"])
        });
        assert!(errors.count() >= 1, "{profile}: {out:#?}");
    }
    assert!(out.stdout.contains("1013  can't check"), "{out:#?}");
    let json = with_config(&file, &["network", "--all-profiles", "--json"])
        .await
        .ok()
        .json();
    assert!(
        json.as_array()
            .unwrap()
            .iter()
            .any(|r| r["profile"] == "resale" && r["service_id"] == 1001),
        "{json:#}"
    );
    // With an ID it is one service of one account.
    let out = with_config(&file, &["network", "1001", "--all-profiles"]).await;
    out.fails(2, "network 1001 reads one service of one account");
}

#[tokio::test]
async fn one_account_commands_refuse_several_before_sending() {
    let shop = sandbox().await;
    let file = config("refuse", &[account("shop", &shop), account("other", &shop)]);
    for args in [
        &["--all-profiles", "bind", "1001", "45.83.221.77"][..],
        &[
            "--profile",
            "shop",
            "--profile",
            "other",
            "order",
            "11",
            "--client",
            "101",
            "--yes",
        ],
        &["service", "1001", "--all-profiles"],
    ] {
        let out = with_config(&file, args).await;
        out.fails(2, "this command works on one account");
    }
    assert!(requests(&shop, "PUT").is_empty() && requests(&shop, "POST").is_empty());
    // --all-profiles with --profile as flags is ambiguous.
    let out = with_config(&file, &["--all-profiles", "--profile", "shop", "credit"]).await;
    out.fails(2, "--all-profiles and --profile both choose the accounts");
}
