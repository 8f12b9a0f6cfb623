//! `proxydash probe`: against the sandbox's loopback proxies (`--proxies`) and its judge.

use super::*;

async fn proxies_sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        proxies: true,
        ..SandboxConfig::ephemeral()
    })
    .await
    .expect("sandbox starts")
}

async fn probe(sb: &SandboxHandle, args: &[&str]) -> Run {
    // Each run's history goes to a state folder of its own, never the user's.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    probe_in(sb, &temp_dir(&format!("probe-{n}")), args).await
}

/// [`probe`] with its state (history) in `state`.
async fn probe_in(sb: &SandboxHandle, state: &std::path::Path, args: &[&str]) -> Run {
    let judge = sb.judge_url().expect("a judge");
    // The sandbox's proxies are on loopback: this run opts in.
    let mut all = vec![
        "probe",
        "--allow-private",
        "--probe-url",
        &judge,
        "--probe-timeout",
        "1",
    ];
    all.extend_from_slice(args);
    let mut cmd = proxydash();
    cmd.env("XDG_STATE_HOME", state)
        .args(["--base-url", &sb.base_url(), "--token", sb.token()])
        .args(&all);
    finish(&mut cmd, None).await
}

/// `history export --json` of the default profile kept in `state`.
async fn history(state: &std::path::Path) -> Vec<Value> {
    let mut cmd = proxydash();
    cmd.env("XDG_STATE_HOME", state)
        .args(["history", "export", "--since", "1d", "--json"]);
    let out = finish(&mut cmd, None).await;
    assert_eq!(out.code, Some(0), "{out:#?}");
    serde_json::from_str::<Value>(&out.stdout)
        .unwrap()
        .as_array()
        .cloned()
        .unwrap()
}

#[tokio::test]
async fn probe_prints_every_proxy_and_exits_1_when_one_is_dead() {
    let sb = proxies_sandbox().await;
    let out = probe(&sb, &["1001"]).await;
    assert_eq!(out.code, Some(1), "{out:#?}");
    assert!(
        out.stderr
            .contains("3 of 10 proxies of service 1001 are dead"),
        "{out:#?}"
    );
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 12, "header, 10 proxies, health: {out:#?}");
    for (state, count) in [
        ("alive", 7),
        ("dead: refused", 1),
        ("dead: auth failed", 1),
        ("dead: timeout", 1),
    ] {
        let n = lines
            .iter()
            .filter(|l| l.contains(&format!("  {state}  ")))
            .count();
        assert_eq!(n, count, "{state}: {out:#?}");
    }
    assert!(out.stdout.contains(" transparent "), "{out:#?}");
    assert!(out.stdout.contains(" anonymous "), "{out:#?}");
    // Seed service 1001 marks indices 1 and 4 in error: both work, which is a disagreement.
    assert_eq!(
        out.stdout.matches("error (disagrees)").count(),
        2,
        "{out:#?}"
    );
    assert!(lines[11].starts_with("7/10 · p50 "), "{out:#?}");
    // The API was read for the service, its list and its network status, nothing else.
    let mut paths: Vec<String> = requests(&sb, "GET").into_iter().map(|r| r.path).collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            "/api/iplist/http-auth/txt/1001",
            "/api/networkstatus/errors/1001",
            "/api/networkstatus/inactive/1001",
            "/api/service/1001",
        ]
    );
}

#[tokio::test]
async fn probe_exports_only_the_working_proxies_through_a_template() {
    let sb = proxies_sandbox().await;
    let out = probe(&sb, &["1001", "--only-working", "--template", "colon"]).await;
    assert_eq!(out.code, Some(1), "dead ones still fail the run: {out:#?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 7, "{out:#?}");
    for line in lines {
        assert!(line.starts_with("127.0.0."), "{line}");
        assert!(line.ends_with(":pd1001ka:Xk4v9QmL2t"), "{line}");
    }
    let out = probe(
        &sb,
        &[
            "1003",
            "--type",
            "ppr-socks",
            "--template",
            "{scheme}://{ip}:{port}",
        ],
    )
    .await
    .ok();
    assert_eq!(
        out.stdout.lines().count(),
        2,
        "the two gateways (rotating, sticky): {out:#?}"
    );
    assert!(
        out.stdout
            .lines()
            .all(|l| l.starts_with("socks5://127.0.0.")),
        "{out:#?}"
    );
}

#[tokio::test]
async fn probe_json_names_state_reason_and_provider() {
    let sb = proxies_sandbox().await;
    let out = probe(&sb, &["1001", "--json"]).await;
    assert_eq!(out.code, Some(1));
    let rows = out.json();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 10);
    let reasons: Vec<&str> = rows.iter().filter_map(|r| r["reason"].as_str()).collect();
    assert_eq!(reasons, ["refused", "auth_failed", "timeout"]);
    assert!(rows.iter().all(|r| r.get("password").is_none()));
    assert_eq!(rows[4]["anonymity"], "transparent");
    assert_eq!(rows[4]["provider"], "error");
    assert_eq!(rows[4]["disagrees"], true);
    // Issue 26.4: a proxy network status lists nowhere is "ok", as in the table and view.
    assert_eq!(rows[0]["provider"], "ok");
    let table = probe(&sb, &["1001"]).await.stdout;
    let first = table.lines().nth(1).unwrap_or_default();
    assert!(first.trim_end().ends_with(" ok"), "{table}");
}

#[tokio::test]
async fn probe_refuses_an_unknown_template_before_probing() {
    let sb = proxies_sandbox().await;
    probe(&sb, &["1001", "--template", "nope"])
        .await
        .fails(2, "no template \"nope\"");
    assert!(sb.requests().is_empty(), "nothing was asked");
}

/// Issue 26.10: a judge that cannot be reached is said once; the proxies are "not
/// checked (judge unreachable)", none is called dead.
#[tokio::test]
async fn probe_with_an_unreachable_judge_blames_no_proxy() {
    let sb = proxies_sandbox().await;
    let judge = format!("http://{}/get", closed_port().await);
    let out = run(&sb, &["probe", "1001", "--probe-url", &judge]).await;
    assert_eq!(out.code, Some(1), "{out:#?}");
    assert_eq!(
        out.stderr.matches("cannot be reached").count(),
        1,
        "{out:#?}"
    );
    assert!(!out.stdout.contains("dead"), "{out:#?}");
    assert_eq!(
        out.stdout
            .matches("not checked (judge unreachable)")
            .count(),
        10,
        "{out:#?}"
    );
}

/// Issue 27.4: the sandbox's ppr gateways, one rotating among 127.0.0.2-6, one sticky.
#[tokio::test]
async fn rotation_audits_the_gateway_and_keeps_the_audit_in_the_history() {
    let sb = proxies_sandbox().await;
    let state = temp_dir("rotation");
    // Service 1003 is ppr: its list's first entry is the rotating gateway.
    let out = probe_in(&sb, &state, &["1003", "--rotation", "20", "--json"]).await;
    assert_eq!(out.code, Some(0), "{out:#?}");
    let v = out.json();
    assert_eq!(v["asked"], 20, "{v}");
    assert_eq!(v["answered"], 20, "{v}");
    assert_eq!(v["distinct"], 5, "{v}");
    assert_eq!(v["changes"], 19, "{v}");
    assert_eq!(v["change_rate"], 1.0, "{v}");
    assert_eq!(v["kind"], "rotates per request", "{v}");
    assert_eq!(v["asks"].as_array().map(Vec::len), Some(20), "{v}");
    let exits: Vec<&str> = v["exits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["ip"].as_str().unwrap())
        .collect();
    assert_eq!(
        exits,
        [
            "127.0.0.2",
            "127.0.0.3",
            "127.0.0.4",
            "127.0.0.5",
            "127.0.0.6"
        ]
    );
    let rows = history(&state).await;
    let audits: Vec<&Value> = rows.iter().filter(|r| r["kind"] == "rotation").collect();
    assert_eq!(audits.len(), 1, "{rows:?}");
    assert_eq!(audits[0]["service_id"], 1003);
    assert_eq!(audits[0]["value"], 5);
    assert!(
        audits[0]["detail"]
            .as_str()
            .unwrap()
            .starts_with("asked 20, answered 20, changed 19/19"),
        "{rows:?}"
    );
    assert!(
        rows.iter().all(|r| r["kind"] != "probe"),
        "an audit is one row, not one per ask"
    );
    // The text form says the same in lines.
    let out = probe(&sb, &["1003", "--rotation", "6"]).await;
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert!(out.stdout.contains("EXITS    5 distinct"), "{out:#?}");
    assert!(out.stdout.contains("CHANGED  5 of 5"), "{out:#?}");
    // Without N: the default, 20.
    let out = probe(&sb, &["1003", "--rotation"]).await;
    assert!(out.stdout.contains("ASKED    20, answered 20"), "{out:#?}");
}

#[tokio::test]
async fn rotation_refuses_a_static_service_and_a_count_out_of_bounds() {
    let sb = proxies_sandbox().await;
    let out = probe(&sb, &["1001", "--rotation", "20"]).await;
    assert_eq!(out.code, Some(2), "{out:#?}");
    assert!(out.stderr.contains("static (fpr)"), "{out:#?}");
    for n in ["1", "101", "-3", "many"] {
        let out = probe(&sb, &["1003", "--rotation", n]).await;
        assert_eq!(out.code, Some(2), "{n}: {out:#?}");
    }
    let out = probe(&sb, &["1003", "--rotation", "0"]).await;
    assert!(out.stderr.contains("between 2 and 100"), "{out:#?}");
    // Nothing was asked of a proxy: no IP list was read for an audit refused.
    assert!(
        requests(&sb, "GET")
            .iter()
            .all(|r| !r.path.starts_with("/api/iplist/")),
        "{:?}",
        requests(&sb, "GET")
    );
}

/// Issue 26.11: both protocols in one run, each result in the history with its protocol
/// and exit IP.
#[tokio::test]
async fn both_probes_the_http_and_socks_lists_and_keeps_each_result() {
    let sb = proxies_sandbox().await;
    let state = temp_dir("both");
    let out = probe_in(&sb, &state, &["1001", "--both", "--json"]).await;
    assert_eq!(out.code, Some(1), "three proxies are dead: {out:#?}");
    let v = out.json();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 20, "{v}");
    for scheme in ["http", "socks5"] {
        assert_eq!(
            rows.iter().filter(|r| r["scheme"] == scheme).count(),
            10,
            "{scheme}: {v}"
        );
    }
    let mut paths: Vec<String> = requests(&sb, "GET")
        .into_iter()
        .map(|r| r.path)
        .filter(|p| p.starts_with("/api/iplist/"))
        .collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            "/api/iplist/http-auth/txt/1001",
            "/api/iplist/socks-ip/txt/1001"
        ]
    );
    let kept = history(&state).await;
    let probes: Vec<&Value> = kept.iter().filter(|r| r["kind"] == "probe").collect();
    assert_eq!(
        probes.len(),
        20,
        "every proxy contacted, both ways: {kept:?}"
    );
    let alive_socks = probes
        .iter()
        .filter(|r| r["subject"].as_str().unwrap().starts_with("socks5://") && r["value"] == 1)
        .collect::<Vec<_>>();
    assert_eq!(alive_socks.len(), 7, "{kept:?}");
    assert!(
        alive_socks
            .iter()
            .all(|r| r["detail"].as_str().unwrap().starts_with("127.1.")),
        "the exit IP the judge saw: {kept:?}"
    );
}
