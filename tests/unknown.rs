//! Unknown is not zero (issue 46, items 1 and 2): a figure whose input could not be read
//! is said to be unknown in every view and is absent from `/metrics`, never worked out as
//! if the input were empty; and one record that does not read loses that record, not its
//! list. Against the sandbox on loopback: its faults (`wrong-shape` on one path) for a
//! list that never reads, its quirks (`_wire`) for one record a live server spoils.

use crate::engine::{client, until, watcher};
use crate::support::{self, Key};
use proxydash::metrics::Board;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use std::time::Duration;

/// The sandbox with `faults` from the start.
async fn faulty(faults: &str) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        faults: Some(faults.parse().expect("a fault spec")),
        ..SandboxConfig::ephemeral()
    })
    .await
    .expect("sandbox starts")
}

fn answered(sb: &SandboxHandle, path: &str) -> bool {
    sb.requests().iter().any(|r| r.path == path)
}

fn runway_seconds(board: &Board) -> Option<i64> {
    board.read().unwrap().get("main")?.runway_seconds
}

/// Issue 46.1: with the invoice list undecodable since start, `watch` exported
/// `proxydash_credit_runway_seconds` as if nothing were owed ($154.50 is, in the seed).
/// Now it is absent until the invoices read; then the day is known and exported.
#[tokio::test(start_paused = true)]
async fn invoices_that_never_read_leave_the_runway_out_of_the_metrics() {
    let sb = faulty("wrong-shape,path=/api/billing/invoices").await;
    let (w, _captured, board) = watcher(&sb, 10, client(&sb));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let run = tokio::spawn(w.run(stopped));
    until(
        "the services, the credit and the catalogue read, the invoices asked",
        Duration::from_secs(120),
        || {
            let known = board
                .read()
                .unwrap()
                .get("main")
                .is_some_and(|m| m.credit_usd.is_some() && !m.services.is_empty());
            known && answered(&sb, "/api/products") && answered(&sb, "/api/billing/invoices")
        },
    )
    .await;
    // Sweeps go on with all the rest known (tokio's clock: no real time).
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert_eq!(runway_seconds(&board), None, "the invoices were never read");
    let scraped = proxydash::metrics::scrape(&board);
    assert!(
        scraped.contains("proxydash_credit_usd{profile=\"main\"} 250"),
        "{scraped}"
    );
    assert!(
        !scraped.contains("proxydash_credit_runway_seconds{"),
        "{scraped}"
    );
    // The same account once its invoices read: the day is known, and exported.
    sb.set_faults(None);
    until("the runway exported", Duration::from_secs(120), || {
        runway_seconds(&board).is_some()
    })
    .await;
    let _ = stop.send(true);
    run.await.unwrap().unwrap();
}

/// Issue 46.1: the Billing tab said `Covers renewals until …` and a spend of `$0.00` with
/// the invoices unread; now it says what is not known: the renewals alone run the seed's
/// $250 short in days, so that day is the latest it can be, and the sum is "at least".
#[tokio::test(start_paused = true)]
async fn the_billing_tab_says_not_known_while_the_invoices_never_read() {
    let sb = faulty("wrong-shape,path=/api/billing/invoices").await;
    let mut s = support::session(
        &sb,
        Duration::from_secs(5),
        Some(Duration::from_secs(30)),
        (140, 40),
    );
    support::press(&mut s, &[Key::C('3')]);
    support::wait_idle(&mut s, Duration::from_secs(60)).await;
    assert!(answered(&sb, "/api/billing/invoices"));
    let screen = s.screen();
    for said in [
        "at the latest · at least $",
        "not known: the invoices could not be read",
        "Spend/month not known",
    ] {
        assert!(screen.contains(said), "{said:?} not on\n{screen}");
    }
    assert!(!screen.contains("Covers renewals until"), "{screen}");
    assert!(!screen.contains("Covers every renewal"), "{screen}");
}
