//! Endpoint 15: setip, update_list (throttled), password.

use super::*;
use chrono::{NaiveDateTime, Utc};
use serde_json::json;
use std::time::Duration;

const IPV4: &str = "Unprocessable Entity. Invalid IPv4 format";
const BINDED: &str = "Unprocessable Entity. IP already binded";
const POSTED: &str = "Unprocessable Entity. Incorrect posted data";

#[tokio::test]
async fn setip_is_a_strict_ipv4_not_bound_elsewhere() {
    let sb = start().await;
    let api = Api::new(&sb);
    for bad in [
        "256.1.1.1",
        "1.2.3",
        "a.b.c.d",
        "01.2.3.4",
        "1.2.3.4.5",
        " 1.2.3.4",
        "1.2.3.4/32",
        "::1",
    ] {
        api.put("/api/service/1002", &json!({ "setip": bad }).to_string())
            .await
            .assert_error(422, IPV4);
    }
    let r = api
        .put("/api/service/1002", r#"{"setip":"198.51.100.200"}"#)
        .await;
    assert_eq!(
        r.ok(),
        json!({ "setip": { "success": "IP address updated successfully" } })
    );
    assert_eq!(
        api.get("/api/service/1002").await.ok()["bindedip"],
        "198.51.100.200"
    );
    // Taken by 1002 now; re-binding it to 1002 itself is fine.
    api.put("/api/service/1001", r#"{"setip":"198.51.100.200"}"#)
        .await
        .assert_error(422, BINDED);
    api.put("/api/service/1002", r#"{"setip":"198.51.100.200"}"#)
        .await
        .ok();
    // An IP held by a terminated service is still bound.
    api.put("/api/service/1002", r#"{"setip":"192.0.2.52"}"#)
        .await
        .assert_error(422, BINDED);
    // Moving 1002 elsewhere frees its old IP.
    api.put("/api/service/1002", r#"{"setip":"198.51.100.201"}"#)
        .await
        .ok();
    api.put("/api/service/1001", r#"{"setip":"198.51.100.200"}"#)
        .await
        .ok();
    assert_eq!(
        api.get("/api/service/1001").await.ok()["bindedip"],
        "198.51.100.200"
    );
    // ppr services take no IP: the generic 422, before the format is even looked at.
    api.put("/api/service/1003", r#"{"setip":"nonsense"}"#)
        .await
        .assert_error(422, "Unprocessable Entity ");
}

fn next_possible(message: &str) -> NaiveDateTime {
    let prefix = "Too Many Attempts (updateList). Next update possible: ";
    let stamp = message
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("{message}"));
    NaiveDateTime::parse_from_str(stamp, "%Y-%m-%d %H:%M:%S").expect("timestamp")
}

/// On tokio's paused clock, which the sandbox's own time follows: the spec's five
/// minutes pass in no real time, and the next possible time it names is exact.
#[tokio::test(start_paused = true)]
async fn update_list_is_throttled_per_service() {
    let sb = start().await;
    let api = Api::new(&sb);
    let refresh = r#"{"update_list":"true"}"#;
    let before = api.get("/api/iplist/http-ip/txt/1001").await.body;

    let started = Utc::now().naive_utc();
    api.put("/api/service/1001", refresh).await.ok();
    let r = api.put("/api/service/1001", refresh).await;
    assert_eq!(r.status, 429, "{}", r.body);
    let next = next_possible(r.json()["error"].as_str().expect("error"));
    let ahead = next - started;
    assert!(
        ahead >= chrono::TimeDelta::seconds(299) && ahead <= chrono::TimeDelta::seconds(302),
        "next possible {next} is {ahead} after the first refresh (5 minutes expected)"
    );
    // Another service has its own interval.
    api.put("/api/service/1002", refresh).await.ok();

    // A second before the named time: still throttled.
    tokio::time::advance(Duration::from_secs(298)).await;
    let r = api.put("/api/service/1001", refresh).await;
    assert_eq!(r.status, 429, "{}", r.body);
    // Past it: the first try succeeds.
    tokio::time::advance(Duration::from_secs(4)).await;
    api.put("/api/service/1001", r#"{"update_list":"1"}"#)
        .await
        .ok();

    // A refresh really refreshes the list.
    let after = api.get("/api/iplist/http-ip/txt/1001").await.body;
    assert_ne!(before, after);
    assert_eq!(after.lines().count(), 10);
}

#[tokio::test]
async fn password_must_be_base64() {
    let sb = start().await;
    let api = Api::new(&sb);
    for bad in [r#""not base64!""#, "12345", r#""YSxi""#, "true"] {
        api.put("/api/service/1001", &format!(r#"{{"password":{bad}}}"#))
            .await
            .assert_error(422, POSTED);
    }
    assert_eq!(
        api.get("/api/service/1001").await.ok()["password"],
        "Xk4v9QmL2t"
    );
    let r = api
        .put(
            "/api/service/1001",
            &json!({ "password": b64("n3w-Pass:word") }).to_string(),
        )
        .await;
    assert_eq!(
        r.ok(),
        json!({ "password": { "success": "Password updated successfully" } })
    );
    assert_eq!(
        api.get("/api/service/1001").await.ok()["password"],
        "n3w-Pass:word"
    );
    let list = api.get("/api/iplist/http-auth/txt/1001").await.body;
    assert!(
        list.lines().all(|l| l.ends_with(":pd1001ka:n3w-Pass:word")),
        "{list}"
    );
}

#[tokio::test]
async fn several_operations_are_all_or_nothing() {
    let sb = start_with(|c| c.throttle = Duration::from_secs(60)).await;
    let api = Api::new(&sb);
    let all = json!({
        "setip": "198.51.100.77",
        "update_list": "true",
        "password": b64("s3cond"),
        "ignored": 42,
    });
    let r = api.put("/api/service/1002", &all.to_string()).await;
    assert_eq!(
        r.ok(),
        json!({
            "setip": { "success": "IP address updated successfully" },
            "update_list": { "success": "IP list updated successfully" },
            "password": { "success": "Password updated successfully" },
        })
    );
    // One refused member: nothing is applied.
    let r = api
        .put(
            "/api/service/1001",
            &json!({ "setip": "198.51.100.77", "password": b64("never") }).to_string(),
        )
        .await;
    r.assert_error(422, BINDED);
    let r = api
        .put(
            "/api/service/1002",
            &json!({ "update_list": "true", "setip": "198.51.100.78" }).to_string(),
        )
        .await;
    assert_eq!(r.status, 429);
    let s1 = api.get("/api/service/1001").await.ok();
    let s2 = api.get("/api/service/1002").await.ok();
    assert_eq!(
        (s1["password"].as_str(), s1["bindedip"].as_str()),
        (Some("Xk4v9QmL2t"), Some("192.0.2.50"))
    );
    assert_eq!(s2["bindedip"], "198.51.100.77");
    assert_eq!(s2["password"], "s3cond");
}

#[tokio::test]
async fn closed_services_and_orphans_refuse_changes() {
    let sb = start().await;
    let api = Api::new(&sb);
    for id in [1008, 1009, 1010] {
        api.put(
            &format!("/api/service/{id}"),
            &json!({ "password": b64("x1") }).to_string(),
        )
        .await
        .assert_error(422, "Unprocessable Entity ");
    }
    // 1013 belongs to a client that no longer exists.
    api.put("/api/service/1013", r#"{"update_list":"true"}"#)
        .await
        .assert_error(400, "Unprocessable Entity. ClientID not found");
    // Suspended and pending services can still be changed.
    api.put(
        "/api/service/1006",
        &json!({ "password": b64("x2") }).to_string(),
    )
    .await
    .ok();
    api.put("/api/service/1005", r#"{"setip":"198.51.100.5"}"#)
        .await
        .ok();
    assert_eq!(
        api.get("/api/service/1005").await.ok()["bindedip"],
        "198.51.100.5"
    );
}
