//! The client alone under every fault: writes go out exactly once and never report a known
//! failure for something the server did, GETs are retried a bounded number of times, and
//! `Retry-After` is honoured. On tokio's paused clock: the client's timeouts and waits
//! and the sandbox's `slow` and `hang` are tokio timers, so the durations checked are the
//! program's own (exact, whatever the machine's load) and a timeout costs no real time.

use super::support;
use proxydash::api::*;
use proxydash::sandbox::{FaultKind, FaultSpec, SandboxHandle};
use std::time::Duration;
use tokio::time::Instant;

const TIMEOUT: Duration = Duration::from_secs(1);

fn fault(spec: &str) -> Option<FaultSpec> {
    Some(spec.parse().expect("a valid fault spec"))
}

fn count(sb: &SandboxHandle, from: usize, method: &str) -> usize {
    sb.requests()[from..]
        .iter()
        .filter(|r| r.method == method)
        .count()
}

/// For every fault, twice (a `slow` that ends in time and one that does not): one order
/// and one password change, each sent exactly once (counted by the server). A failure
/// that is not reported as "outcome unknown" must mean the server did nothing: that is
/// what keeps the dashboard from losing or doubling an order.
#[tokio::test(start_paused = true)]
async fn writes_are_sent_exactly_once_under_every_fault() {
    let sb = support::sandbox(None).await;
    let c = support::client(&sb, TIMEOUT);
    let client_id = c.clients().await.unwrap()[0].id;
    let product = c
        .products()
        .await
        .unwrap()
        .into_iter()
        .min_by(|a, b| a.price.total_cmp(&b.price))
        .unwrap();
    sb.set_credit(1_000_000.0);
    let target = 1001;
    let mut cases: Vec<(FaultKind, u64)> = FaultKind::ALL.iter().map(|k| (*k, 1500)).collect();
    cases.push((FaultKind::Slow, 300));
    let mut tried = 0;
    for (i, (kind, slow_ms)) in cases.into_iter().enumerate() {
        // The order.
        sb.set_faults(fault(&format!("{kind},method=POST,slow-ms={slow_ms}")));
        let before = sb.requests().len();
        let orders = sb.state().orders;
        let started = Instant::now();
        let result = c
            .order(
                product.product_id,
                &OrderRequest {
                    clientid: client_id,
                    setip: None,
                },
            )
            .await;
        let took = started.elapsed();
        settle(kind, slow_ms, took).await;
        assert_eq!(count(&sb, before, "POST"), 1, "{kind}: POST count");
        let placed = sb.state().orders - orders;
        assert!(placed <= 1, "{kind}: {placed} orders from one POST");
        match &result {
            Ok(r) => assert!(placed == 1 && r.service_id > 0, "{kind}: {r:?}"),
            Err(e) if e.outcome_unknown() => {}
            Err(e) => assert_eq!(
                placed, 0,
                "{kind}: {e:?} is a known failure, but it ordered"
            ),
        }
        if let Err(e) = &result {
            let line = e.to_string();
            assert!(!line.contains(['\n', '<']), "{kind}: {line}");
        }
        // A write is never retried: at most one timeout.
        assert!(
            took <= TIMEOUT + Duration::from_millis(50),
            "{kind}: {took:?}"
        );

        // The password change.
        sb.set_faults(fault(&format!("{kind},method=PUT,slow-ms={slow_ms}")));
        let before = sb.requests().len();
        let password = format!("pw-{i}-{kind}");
        let started = Instant::now();
        let result = c
            .update_service(
                target,
                &ServiceUpdate {
                    password: Some(password.as_str().into()),
                    ..Default::default()
                },
            )
            .await;
        settle(kind, slow_ms, started.elapsed()).await;
        assert_eq!(count(&sb, before, "PUT"), 1, "{kind}: PUT count");
        sb.set_faults(None);
        let changed = c.service(target).await.unwrap().password.expose() == password;
        match &result {
            Ok(r) => assert!(changed && !r.messages().is_empty(), "{kind}: {r:?}"),
            Err(e) if e.outcome_unknown() => {}
            Err(e) => assert!(!changed, "{kind}: {e:?} is a known failure, but it changed"),
        }
        tried += 2;
    }
    println!("writes under faults: {tried} writes, each sent exactly once");
}

/// Waits (on the paused clock: no real time) until a `slow` answer has been processed on
/// the server (so what it did can be counted), and a little in every case, so a late
/// second attempt would be seen.
async fn settle(kind: FaultKind, slow_ms: u64, took: Duration) {
    let wait = match kind {
        FaultKind::Slow => Duration::from_millis(slow_ms + 200).saturating_sub(took),
        _ => Duration::ZERO,
    };
    tokio::time::sleep(wait.max(Duration::from_millis(100))).await;
}

/// Faults that the server answers after acting (`drop-after`, `truncated`, `wrong-shape`,
/// `empty`) must never read as a plain failure of a write.
#[tokio::test]
async fn a_write_the_server_carried_out_is_never_a_known_failure() {
    let sb = support::sandbox(None).await;
    let c = support::client(&sb, TIMEOUT);
    let client_id = c.clients().await.unwrap()[0].id;
    sb.set_credit(1_000_000.0);
    for kind in ["drop-after", "truncated", "wrong-shape", "empty"] {
        sb.set_faults(fault(&format!("{kind},method=POST")));
        let orders = sb.state().orders;
        let e = c
            .order(
                11,
                &OrderRequest {
                    clientid: client_id,
                    setip: None,
                },
            )
            .await
            .unwrap_err();
        assert_eq!(sb.state().orders, orders + 1, "{kind}: the server ordered");
        assert!(e.outcome_unknown(), "{kind}: {e:?}");
        sb.set_faults(fault(&format!("{kind},method=PUT")));
        let e = c
            .update_service(
                1002,
                &ServiceUpdate {
                    setip: Some(format!("203.0.113.{}", 10 + kind.len())),
                    ..Default::default()
                },
            )
            .await
            .unwrap_err();
        assert!(e.outcome_unknown(), "{kind}: {e:?}");
    }
}

/// GETs: three attempts for what may pass on a retry, one for the rest; never more. On
/// tokio's paused clock (the client's timeouts and waits and the sandbox's `slow` and
/// `hang` are tokio timers), so the durations below are the program's own, not the
/// machine's: exact, and free of load.
#[tokio::test(start_paused = true)]
async fn gets_are_retried_a_bounded_number_of_times_under_every_fault() {
    let sb = support::sandbox(None).await;
    let c = support::client(&sb, TIMEOUT);
    for kind in FaultKind::ALL {
        sb.set_faults(fault(&format!("{kind},slow-ms=2000")));
        sb.clear_requests();
        let started = tokio::time::Instant::now();
        let e = c.credit().await.unwrap_err();
        let took = started.elapsed();
        let expected = match kind {
            FaultKind::Html500
            | FaultKind::BadGateway502
            | FaultKind::Unavailable503
            | FaultKind::Drop
            | FaultKind::DropAfter => 3,
            _ => 1,
        };
        assert_eq!(sb.requests().len(), expected, "{kind}: {e:?}");
        let line = e.to_string();
        assert!(!line.contains(['\n', '<']), "{kind}: {line}");
        match kind {
            // Retry-After: 1, twice.
            FaultKind::Unavailable503 => {
                assert!(took >= Duration::from_secs(2), "{kind}: {took:?}");
                assert!(took < Duration::from_secs(3), "{kind}: {took:?}");
            }
            // No answer: one timeout, not three.
            FaultKind::Hang | FaultKind::Slow => {
                assert!(matches!(e, ApiError::Timeout { .. }), "{kind}: {e:?}");
                assert!(took >= TIMEOUT, "{kind}: {took:?}");
                assert!(
                    took < TIMEOUT + Duration::from_millis(100),
                    "{kind}: {took:?}"
                );
            }
            // At most the client's own backoff (20 ms, then 40 ms, with jitter).
            _ => assert!(took < Duration::from_millis(200), "{kind}: {took:?}"),
        }
    }
    sb.set_faults(None);
    assert!(c.credit().await.is_ok(), "recovers when the fault stops");
}

/// A slow answer that comes within the timeout is an answer: no error, no second try.
#[tokio::test(start_paused = true)]
async fn a_slow_answer_within_the_timeout_succeeds_once() {
    let sb = support::sandbox(None).await;
    let c = support::client(&sb, Duration::from_secs(2));
    sb.set_faults(fault("slow,slow-ms=600"));
    let started = Instant::now();
    assert!(c.services().await.is_ok());
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(600), "{took:?}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert_eq!(sb.requests().len(), 1);
}
