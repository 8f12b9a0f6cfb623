//! Issue 16.1 and 16.9: read-only holds for every write subcommand (nothing reaches the
//! server, status 7), and the answers a script relies on: distinct exit statuses, objects
//! for one item, JSON on failure, words that say what happened.

use super::*;

/// A config file with a profile `monitor` on `sb`, marked read-only, created `mode`.
fn read_only_profile(sb: &SandboxHandle, name: &str, mode: u32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir(name);
    let path = dir.join("config.toml");
    std::fs::write(
        &path,
        format!(
            "[profiles.monitor]\nbase_url = \"{}\"\ntoken = \"{}\"\nread_only = true\n",
            sb.base_url(),
            sb.token()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    path
}

const WRITES: [&[&str]; 5] = [
    &["order", "11", "--client", "101", "--yes"],
    &["bind", "1001", "45.83.221.77"],
    &[
        "bind",
        "1001",
        "--mine",
        "--my-ip-url",
        "http://127.0.0.1:9/",
    ],
    &["password", "1001"],
    &["refresh-list", "1001", "--json"],
];

#[tokio::test]
async fn read_only_by_flag_refuses_every_write_before_sending() {
    let sb = sandbox().await;
    let credit = sb.state().credit;
    for args in WRITES {
        let mut all = vec!["--read-only"];
        all.extend_from_slice(args);
        let out = run_with_input(&sb, &all, Some("NewPassw0rd\n")).await;
        assert_eq!(out.code, Some(7), "{args:?}: {out:#?}");
        assert!(out.stderr.contains("read-only"), "{args:?}: {out:#?}");
        assert!(
            out.stderr.contains("nothing was sent"),
            "{args:?}: {out:#?}"
        );
    }
    let sent: Vec<_> = sb
        .requests()
        .into_iter()
        .filter(|r| r.method != "GET")
        .collect();
    assert!(sent.is_empty(), "writes reached the server: {sent:#?}");
    assert_eq!(sb.state().credit, credit);
}

#[tokio::test]
async fn read_only_by_profile_refuses_every_write_and_reads_still_work() {
    let sb = sandbox().await;
    let config = read_only_profile(&sb, "ro-profile", 0o600);
    for args in WRITES {
        let mut cmd = proxydash();
        cmd.args(["--config", config.to_str().unwrap(), "--profile", "monitor"])
            .args(args);
        let out = finish(&mut cmd, Some("NewPassw0rd\n")).await;
        assert_eq!(out.code, Some(7), "{args:?}: {out:#?}");
        assert!(out.stderr.contains("read-only"), "{args:?}: {out:#?}");
    }
    assert!(
        sb.requests().iter().all(|r| r.method == "GET"),
        "{:#?}",
        sb.requests()
    );
    let mut cmd = proxydash();
    cmd.args(["--config", config.to_str().unwrap(), "--profile", "monitor"])
        .args(["credit"]);
    finish(&mut cmd, None).await.ok();
}

#[tokio::test]
async fn a_world_readable_config_warns_once_on_stderr_in_scripting_commands() {
    let sb = sandbox().await;
    let config = read_only_profile(&sb, "ro-warn", 0o644);
    let mut cmd = proxydash();
    cmd.args(["--config", config.to_str().unwrap(), "credit", "--json"]);
    let out = finish(&mut cmd, None).await;
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert_eq!(
        out.stderr.matches("warning").count(),
        1,
        "one warning: {out:#?}"
    );
    assert!(out.stderr.contains("chmod 600"), "{out:#?}");
    assert!(out.json()["credit"].is_number(), "stdout stays clean");
}

#[tokio::test]
async fn one_item_is_an_object_with_its_name() {
    let sb = sandbox().await;
    let invoice = run(&sb, &["invoice", "7001", "--json"]).await.ok().json();
    assert_eq!(invoice["id"], 7001, "{invoice}");
    let product = run(&sb, &["product", "11", "--json"]).await.ok().json();
    assert_eq!(product["productName"], "Datacenter US 10", "{product}");
    let table = run(&sb, &["product", "11"]).await.ok().stdout;
    assert!(table.contains("Datacenter US 10"), "{table}");
}

#[tokio::test]
async fn iplist_has_json() {
    let sb = sandbox().await;
    let doc = run(&sb, &["iplist", "1001", "--json"]).await.ok().json();
    assert_eq!(doc["service_id"], 1001);
    assert_eq!(doc["type"], "http-auth");
    let entries = doc["entries"].as_array().unwrap();
    assert_eq!(entries.len() as u64, doc["count"].as_u64().unwrap());
    assert!(entries[0]["host"].is_string() && entries[0]["port"].is_number());
}

#[tokio::test]
async fn unknown_ids_exit_4_and_say_not_found() {
    let sb = sandbox().await;
    for args in [
        &["service", "9999"][..],
        &["invoice", "9999"],
        &["product", "9999"],
        &["iplist", "9999"],
        &["order", "9999", "--client", "101", "--yes"],
    ] {
        let out = run(&sb, args).await;
        assert_eq!(out.code, Some(4), "{args:?}: {out:#?}");
        assert!(out.stderr.contains("not found"), "{args:?}: {out:#?}");
    }
    assert!(requests(&sb, "POST").iter().all(|r| r.status != 200));
}

#[tokio::test]
async fn network_with_nothing_wrong_says_all_fine() {
    let sb = sandbox().await;
    let out = run(&sb, &["network", "1004"]).await.ok().stdout;
    assert!(out.contains("all fine"), "{out}");
    let json = run(&sb, &["network", "1004", "--json"]).await.ok().json();
    assert_eq!(json["errors"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn bind_on_a_rotating_service_says_why() {
    let sb = sandbox().await;
    run(&sb, &["bind", "1003", "45.83.221.5"])
        .await
        .fails(1, "only static (fpr) services have an IP to bind");
}

#[tokio::test]
async fn unreachable_and_timed_out_exit_5_but_a_lost_write_exits_1() {
    let addr = closed_port().await;
    let mut cmd = proxydash();
    cmd.args(["--base-url", &format!("http://{addr}"), "--token", "t"])
        .args(["bind", "1001", "45.83.221.5"]);
    let out = finish(&mut cmd, None).await;
    assert_eq!(out.code, Some(5), "never reached the server: {out:#?}");

    let sb = sandbox().await;
    sb.set_faults(Some(
        "hang,path=/api/billing/credit"
            .parse::<FaultSpec>()
            .unwrap(),
    ));
    run(&sb, &["--timeout", "1", "credit"])
        .await
        .fails(5, "no answer within 1 s");
    // A write whose answer is lost may have been carried out: 1, so a script retrying on
    // 5 cannot send it twice.
    sb.set_faults(Some("drop-after,method=PUT".parse::<FaultSpec>().unwrap()));
    run(&sb, &["refresh-list", "1001"])
        .await
        .fails(1, "outcome is unknown");
}

/// Issue 26.12: read-only is said as such (7) before the terminal question is even
/// considered, also with `--json` off a terminal.
#[tokio::test]
async fn a_read_only_order_off_a_terminal_exits_7_with_json() {
    let sb = sandbox().await;
    let out = run(
        &sb,
        &["--read-only", "order", "11", "--client", "101", "--json"],
    )
    .await;
    assert_eq!(out.code, Some(7), "{out:#?}");
    assert_eq!(out.json()["kind"], "read_only", "{out:#?}");
    assert!(requests(&sb, "POST").is_empty());
}

/// Issue 26.12: `--ip` on a rotating product is refused before the order is sent.
#[tokio::test]
async fn an_address_for_a_ppr_product_is_refused_before_ordering() {
    let sb = sandbox().await;
    let credit = sb.state().credit;
    let out = run(
        &sb,
        &[
            "order",
            "21",
            "--client",
            "101",
            "--ip",
            "203.0.113.5",
            "--yes",
        ],
    )
    .await;
    assert_eq!(out.code, Some(2), "{out:#?}");
    assert!(out.stderr.contains("rotating (ppr)"), "{out:#?}");
    assert!(out.stderr.contains("nothing was ordered"), "{out:#?}");
    assert!(requests(&sb, "POST").is_empty(), "{:#?}", sb.requests());
    assert_eq!(sb.state().credit, credit);
}

/// Issue 26.12: a token the server cannot read (400) gets the same hint as a 401.
#[tokio::test]
async fn a_malformed_token_answered_400_points_at_the_token() {
    let sb = sandbox().await;
    let mut cmd = proxydash();
    cmd.args([
        "--base-url",
        &sb.base_url(),
        "--token",
        "not a token!",
        "credit",
    ]);
    let out = finish(&mut cmd, None).await;
    assert_eq!(out.code, Some(3), "{out:#?}");
    assert!(
        out.stderr.contains("Invalid credentials format"),
        "{out:#?}"
    );
    assert!(out.stderr.contains("check the token"), "{out:#?}");
}

/// Issue 26.8: on the demo, `bind --mine` asks the sandbox's own `/myip`, not a public
/// service on the internet.
#[tokio::test]
async fn the_demo_looks_up_my_ip_on_its_sandbox() {
    let mut cmd = proxydash();
    cmd.args(["--demo", "bind", "1002", "--mine", "--json"]);
    let out = finish(&mut cmd, None).await;
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert_eq!(
        out.json()["setip"]["success"],
        "IP address updated successfully"
    );
}
