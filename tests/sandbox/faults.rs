//! Injected faults as a raw client sees them, and recovery once they are off. The tests
//! that check a duration run on tokio's paused clock (the sandbox's `slow`, `hang` and
//! shutdown grace and the client's timeout are tokio timers): exact, and free of load.

use super::*;
use proxydash::sandbox::{FaultKind, FaultSpec};
use std::time::Duration;
use tokio::time::Instant;

fn always(kind: FaultKind) -> Option<FaultSpec> {
    Some(FaultSpec::always(kind))
}

#[tokio::test(start_paused = true)]
async fn each_kind_as_a_client_sees_it() {
    let sb = start().await;
    let api = Api::new(&sb);
    let real = api.get("/api/services").await.body;

    sb.set_faults(always(FaultKind::Html500));
    let r = api.get("/api/services").await;
    assert_eq!(r.status, 500);
    assert_eq!(r.content_type.as_deref(), Some("text/html"));
    assert!(
        r.body
            .contains("<center><h1>500 Internal Server Error</h1></center>"),
        "{}",
        r.body
    );
    assert!(r.body.contains("<hr><center>nginx</center>"));

    sb.set_faults(always(FaultKind::BadGateway502));
    let r = api.get("/api/services").await;
    assert_eq!(r.status, 502);
    assert!(r.body.contains("502 Bad Gateway"), "{}", r.body);

    sb.set_faults(always(FaultKind::Unavailable503));
    let r = api.get("/api/services").await;
    assert_eq!(r.status, 503);
    assert_eq!(
        r.headers.get("retry-after").and_then(|v| v.to_str().ok()),
        Some("1")
    );

    sb.set_faults(always(FaultKind::Truncated));
    let r = api.get("/api/services").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body, real[..real.len() / 2]);
    let err = serde_json::from_str::<serde_json::Value>(&r.body).expect_err("cut JSON");
    assert!(err.is_eof(), "{err}");

    sb.set_faults(always(FaultKind::WrongShape));
    let r = api.get("/api/services").await;
    assert_eq!(
        (r.status, r.json()),
        (200, serde_json::json!({ "unexpected": true }))
    );

    sb.set_faults(always(FaultKind::Empty));
    let r = api.get("/api/services").await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));

    sb.set_faults(always(FaultKind::Drop));
    let started = Instant::now();
    let err = api
        .request("GET", "/api/services", None)
        .send()
        .await
        .expect_err("dropped");
    assert!(!err.is_timeout(), "{err:?}");
    // At once (paused clock): not the client's 10 s timeout.
    assert!(started.elapsed() < Duration::from_millis(100));

    sb.set_faults(Some("slow,slow-ms=400".parse().expect("spec")));
    let started = Instant::now();
    assert_eq!(api.get("/api/services").await.body, real);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(400) && took < Duration::from_millis(500),
        "{took:?}"
    );
    let impatient = http(Duration::from_millis(150));
    let err = impatient
        .get(format!("{}/api/services", sb.base_url()))
        .header("Authorization", format!("Basic {}", sb.token()))
        .send()
        .await
        .expect_err("too slow");
    assert!(err.is_timeout(), "{err:?}");

    sb.set_faults(always(FaultKind::Hang));
    let impatient = http(Duration::from_millis(300));
    let err = impatient
        .get(format!("{}/api/clients", sb.base_url()))
        .send()
        .await
        .expect_err("never answered");
    assert!(err.is_timeout(), "{err:?}");

    // Off again: everything recovers.
    sb.set_faults(None);
    assert_eq!(api.get("/api/services").await.body, real);
    // The log: 0 for the dropped and the hanging request. (The impatient client's slow
    // request, 10th, may or may not have been answered into the void by now.)
    let statuses: Vec<u16> = sb.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses.len(), 12, "{statuses:?}");
    assert_eq!(statuses[..9], [200, 500, 502, 503, 200, 200, 200, 0, 200]);
    assert_eq!(statuses[10..], [0, 200]);
}

#[tokio::test]
async fn drop_after_processes_the_order_drop_does_not() {
    let sb = start().await;
    let api = Api::new(&sb);
    let order = r#"{"clientid": 101}"#;

    sb.set_faults(always(FaultKind::Drop));
    api.request("POST", "/api/product/11", Some(order))
        .send()
        .await
        .expect_err("dropped");
    sb.set_faults(None);
    assert_eq!((sb.state().services, sb.state().credit), (13, 250.0));

    sb.set_faults(always(FaultKind::DropAfter));
    let err = api
        .request("POST", "/api/product/11", Some(order))
        .send()
        .await
        .expect_err("dropped after processing");
    assert!(!err.is_timeout(), "{err:?}");
    sb.set_faults(None);
    // The client never heard back, but the order happened.
    assert_eq!((sb.state().services, sb.state().credit), (14, 238.0));
    let services = api.get("/api/services").await.ok();
    assert!(array(&services).iter().any(|s| s["service_id"] == 1014));
    let log = sb.requests();
    assert_eq!(
        log.iter()
            .filter(|r| r.method == "POST")
            .map(|r| r.status)
            .collect::<Vec<_>>(),
        vec![0, 0]
    );
}

#[tokio::test]
async fn rates_filters_and_seeds() {
    let sb = start().await;
    let api = Api::new(&sb);

    // Only under a path prefix.
    sb.set_faults(Some("500-html,path=/api/billing".parse().expect("spec")));
    assert_eq!(api.get("/api/clients").await.status, 200);
    assert_eq!(api.get("/api/billing/credit").await.status, 500);
    // Only for a method.
    sb.set_faults(Some("503,method=PUT".parse().expect("spec")));
    assert_eq!(api.get("/api/service/1001").await.status, 200);
    assert_eq!(api.put("/api/service/1001", "{}").await.status, 503);

    // A seeded rate is repeatable.
    let run = |spec: &str| {
        sb.set_faults(Some(spec.parse().expect("spec")));
        let api = &api;
        async move {
            let mut statuses = Vec::new();
            for _ in 0..30 {
                statuses.push(api.get("/api/billing/credit").await.status);
            }
            statuses
        }
    };
    let first = run("500-html:0.5,seed=7").await;
    assert_eq!(first, run("500-html:0.5,seed=7").await);
    let errors = first.iter().filter(|s| **s == 500).count();
    assert!((5..=25).contains(&errors), "{first:?}");

    // `all` spreads over every kind.
    sb.set_faults(Some("all,hang:0,slow:0,seed=3".parse().expect("spec")));
    let mut outcomes = std::collections::BTreeSet::new();
    for _ in 0..60 {
        let outcome = match api.request("GET", "/api/billing/credit", None).send().await {
            Ok(r) => format!(
                "{} {}",
                r.status(),
                r.text().await.map(|t| t.len()).unwrap_or(0)
            ),
            Err(_) => "error".into(),
        };
        outcomes.insert(outcome);
    }
    assert!(outcomes.len() >= 6, "{outcomes:?}");
    sb.set_faults(None);
    assert_eq!(api.get("/api/billing/credit").await.status, 200);
}

#[tokio::test(start_paused = true)]
async fn shutdown_cuts_hanging_requests() {
    let sb = start().await;
    sb.set_faults(always(FaultKind::Hang));
    let url = format!("{}/api/clients", sb.base_url());
    let pending = tokio::spawn(async move { http(Duration::from_secs(30)).get(url).send().await });
    // Until the request is in (state, not a guess at a duration).
    while sb.requests().is_empty() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let started = Instant::now();
    tokio::time::timeout(Duration::from_secs(3), sb.shutdown())
        .await
        .expect("shutdown does not wait for a hanging request");
    // Not the shutdown grace (5 s): the hanging answer was cut at once.
    assert!(started.elapsed() < Duration::from_millis(100));
    let result = pending.await.expect("task");
    assert!(result.is_err(), "{result:?}");
}
