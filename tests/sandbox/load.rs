//! Scale, latency and the request log.

use super::*;
use proxydash::api::iplist::parse_entries;
use proxydash::api::model::IpListFormat;
use std::time::{Duration, Instant};

#[tokio::test]
async fn scaled_sandbox_lists_ten_thousand_services() {
    let started = Instant::now();
    let sb = start_with(|c| c.scale = Some(10_000)).await;
    eprintln!(
        "10,000 services built and listening in {:?}",
        started.elapsed()
    );
    let api = Api::new(&sb);
    let services = api.get("/api/services").await.ok();
    assert_eq!(array(&services).len(), 10_000);
    assert_eq!(services[0]["service_id"], 1);
    assert_eq!(services[9_999]["service_id"], 10_000);
    let invoices = api.get("/api/billing/invoices").await.ok();
    assert_eq!(array(&invoices).len(), 10_000);
    let state = sb.state();
    assert_eq!(
        (state.services, state.invoices, state.orders, state.credit),
        (10_000, 10_000, 10_000, 250.0)
    );

    // The first service carries 100,000 proxies.
    let big = api.get("/api/iplist/http-ip/txt/1").await;
    let (entries, skipped) = parse_entries(&IpListFormat::Txt, &big.body);
    assert_eq!((entries.len(), skipped), (100_000, 0));
    let json = api.get("/api/iplist/http-auth/json/1").await;
    assert_eq!(
        parse_entries(&IpListFormat::Json, &json.body).0.len(),
        100_000
    );

    // Generated services behave like seeded ones.
    let s60 = api.get("/api/service/60").await.ok();
    assert_eq!(s60["product_type"], "ppr");
    assert_eq!(array(&api.get("/api/stats/60").await.ok()).len(), 30);
    // Registered yesterday: two days of statistics.
    assert_eq!(array(&api.get("/api/stats/2").await.ok()).len(), 2);
    api.get("/api/stats/1")
        .await
        .assert_error(422, "Unprocessable Entity ");
    api.put("/api/service/3", r#"{"update_list":"true"}"#)
        .await
        .ok();
    let order = api
        .post("/api/product/11", r#"{"clientid":101}"#)
        .await
        .ok();
    assert_eq!(order["serviceId"], 10_001);
}

/// On tokio's paused clock (the latency is a tokio timer): six requests at once take
/// exactly one latency, whatever the machine's load.
#[tokio::test(start_paused = true)]
async fn latency_is_applied_to_concurrent_requests_concurrently() {
    let sb = start_with(|c| c.latency = Duration::from_millis(300)).await;
    let api = Api::new(&sb);
    let started = tokio::time::Instant::now();
    let replies = futures::future::join_all((0..6).map(|_| api.get("/api/billing/credit"))).await;
    let elapsed = started.elapsed();
    assert!(replies.iter().all(|r| r.status == 200));
    assert!(elapsed >= Duration::from_millis(300), "{elapsed:?}");
    assert!(
        elapsed < Duration::from_millis(400),
        "not concurrent: {elapsed:?}"
    );

    sb.set_latency(Duration::ZERO);
    let started = tokio::time::Instant::now();
    api.get("/api/billing/credit").await.ok();
    assert!(started.elapsed() < Duration::from_millis(100));
}

#[tokio::test]
async fn every_request_is_recorded_in_order() {
    let sb = start().await;
    let api = Api::new(&sb);
    let body = r#"{"clientid": 101, "setip": "198.51.100.33"}"#;
    api.post("/api/product/11", body).await.ok();
    Api::with_auth(&sb, None).get("/api/clients").await;
    api.get("/api/nowhere?x=1").await;
    api.put("/api/service/1001", r#"{"setip":"nope"}"#).await;

    let log = sb.requests();
    assert_eq!(log.len(), 4);
    let first = &log[0];
    assert_eq!(
        (
            first.method.as_str(),
            first.path.as_str(),
            first.body.as_str()
        ),
        ("POST", "/api/product/11", body)
    );
    assert_eq!(first.authorization, Some(format!("Basic {}", sb.token())));
    assert_eq!(first.content_type.as_deref(), Some("application/json"));
    assert_eq!(first.accept.as_deref(), Some("application/json"));
    assert_eq!(first.status, 200);
    assert_eq!((log[1].authorization.as_ref(), log[1].status), (None, 401));
    assert_eq!(
        (log[2].path.as_str(), log[2].status),
        ("/api/nowhere?x=1", 404)
    );
    assert_eq!((log[3].method.as_str(), log[3].status), ("PUT", 422));
    sb.clear_requests();
    assert!(sb.requests().is_empty());
}

#[tokio::test]
async fn a_seed_file_replaces_the_built_in_one() {
    let dir = std::env::temp_dir().join(format!("proxydash-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = dir.join("small.json");
    std::fs::write(
        &good,
        r#"{"credit": 5, "clients": [{"id": 1, "email": "a@example.org"}],
            "groups": [{"id": 1, "name": "G"}],
            "products": [{"id": 1, "name": "P", "group": 1, "type": "fpr", "price": 5,
                          "billingcycle": "Monthly", "created_at": "today", "ip_count": 2}],
            "services": [], "invoices": []}"#,
    )
    .expect("write");
    let sb = start_with(|c| c.seed = Some(good.clone())).await;
    let api = Api::new(&sb);
    assert_eq!(api.get("/api/services").await.ok(), serde_json::json!([]));
    let order = api.post("/api/product/1", r#"{"clientid":1}"#).await.ok();
    assert_eq!(order["serviceId"], 1);
    assert_eq!(api.get("/api/billing/credit").await.ok()["credit"], 0.0);

    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"credit": 5}"#).expect("write");
    let mut config = proxydash::sandbox::SandboxConfig::ephemeral();
    config.seed = Some(bad);
    let err = proxydash::sandbox::Sandbox::start(config.clone())
        .await
        .err()
        .expect("refused");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    assert!(err.to_string().contains("missing field"), "{err}");
    config.seed = Some(dir.join("absent.json"));
    let err = proxydash::sandbox::Sandbox::start(config)
        .await
        .err()
        .expect("refused");
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn config_debug_hides_secrets() {
    let config = proxydash::sandbox::SandboxConfig::default();
    let shown = format!("{config:?}");
    assert!(!shown.contains(proxydash::sandbox::DEMO_TOKEN), "{shown}");
    assert!(!shown.contains("demo-password"), "{shown}");
    assert!(shown.contains("8787"));
}
