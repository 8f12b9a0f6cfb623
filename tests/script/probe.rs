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
    run(sb, &all).await
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
        3,
        "the three gateways: {out:#?}"
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
