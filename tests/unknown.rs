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

/// The built-in seed with `wire` put into the `_wire` of the invoice or product `id`
/// (`kind`: `invoices` or `products`), served by the sandbox's quirks as sent.
fn spoiled(name: &str, spoils: &[(&str, u64, serde_json::Value)]) -> std::path::PathBuf {
    let mut seed = support::seed_json();
    for (kind, id, wire) in spoils {
        let record = seed[*kind]
            .as_array_mut()
            .expect("a list")
            .iter_mut()
            .find(|r| r["id"] == *id)
            .expect("the record is in the seed");
        let members = record
            .as_object_mut()
            .unwrap()
            .entry("_wire")
            .or_insert_with(|| serde_json::json!({}));
        for (k, v) in wire.as_object().unwrap() {
            members[k] = v.clone();
        }
    }
    support::write_seed(name, &seed)
}

/// What a run of the binary left.
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

async fn proxydash(sb: &SandboxHandle, args: &[&str]) -> Ran {
    let home = support::temp_dir("unknown");
    let out = support::proxydash_in(&home)
        .args(["--base-url", &sb.base_url(), "--token", sb.token()])
        .args(args)
        .output()
        .await
        .expect("the binary runs");
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Two invoices of the seed's 20 spoiled as live servers spoil them: the Unpaid 7004
/// with `"amount": "1,234.50"`, the Paid 7002 with `"NaN"`.
fn spoiled_invoices() -> std::path::PathBuf {
    spoiled(
        "invoices",
        &[
            ("invoices", 7004, serde_json::json!({"amount": "1,234.50"})),
            ("invoices", 7002, serde_json::json!({"amount": "NaN"})),
        ],
    )
}

/// Issue 46.2: `invoices` exited 1 and printed nothing for one spoiled invoice. Now it
/// prints the 18 that read, says which 2 did not (stderr; `--json`: `"skipped"` beside
/// the list), and exits 0.
#[tokio::test]
async fn a_spoiled_invoice_is_skipped_and_named_and_the_rest_are_listed() {
    let sb = support::sandbox(Some(spoiled_invoices())).await;
    let run = proxydash(&sb, &["invoices"]).await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr.trim(),
        r#"proxydash: 2 invoices could not be read: id 7002, amount "NaN"; id 7004, amount "1,234.50""#
    );
    assert!(run.stdout.contains("7003") && run.stdout.contains("7020"));
    assert!(!run.stdout.contains("7004 "), "{}", run.stdout);
    let run = proxydash(&sb, &["invoices", "--json"]).await;
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(
        doc["invoices"].as_array().map(Vec::len),
        Some(18),
        "{doc:#}"
    );
    assert_eq!(doc["skipped_count"], 2);
    assert_eq!(
        doc["skipped"][1],
        serde_json::json!({"id": "7004", "field": "amount", "value": "\"1,234.50\"", "status": "Unpaid"})
    );
    // The money ahead knows an unpaid invoice could not be read: no day, "at least".
    let run = proxydash(&sb, &["credit", "--json"]).await;
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let runway = &doc["runway"];
    assert_eq!(runway["short_on_known"], false, "{doc:#}");
    assert_eq!(runway["due_30_days_complete"], false, "{doc:#}");
    assert_eq!(runway["spend_complete"], false, "{doc:#}");
    assert!(
        runway["not_known"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("2 invoices that could not be read")),
        "{doc:#}"
    );
}

/// Issue 46.2 and 46.1: one product priced `"NaN"` removed the whole catalogue, and the
/// 43 renewals it priced were left out as if free. Now the other products are listed,
/// the spoiled one is named, and the renewals of its services are a price not known.
#[tokio::test]
async fn a_spoiled_price_loses_one_product_and_its_renewals_are_not_free() {
    let seed = spoiled(
        "products",
        &[("products", 21, serde_json::json!({"price": "NaN"}))],
    );
    let sb = support::sandbox(Some(seed)).await;
    let run = proxydash(&sb, &["products"]).await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr.trim(),
        r#"proxydash: 1 product could not be read: id 21, price "NaN""#
    );
    assert!(run.stdout.contains("Datacenter US 10"), "{}", run.stdout);
    let run = proxydash(&sb, &["products", "--json"]).await;
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(doc["products"].as_array().map(Vec::len), Some(8), "{doc:#}");
    assert_eq!(doc["skipped"][0]["field"], "price");
    // Services 1003 and 1007 renew "Residential 5 GB" (product 21) within days.
    let run = proxydash(&sb, &["credit", "--json"]).await;
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let runway = &doc["runway"];
    assert_eq!(
        runway["unknown_prices"],
        serde_json::json!([1003, 1007]),
        "{doc:#}"
    );
    assert_eq!(runway["due_30_days_complete"], false, "{doc:#}");
    assert!(
        runway["due"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["service_id"] != 1003),
        "{doc:#}"
    );
}

/// Issue 46.2 in the engine and the dashboard: the Invoices pane lists what read and
/// names what did not; `/metrics` counts it, and the money ahead says it is incomplete.
#[tokio::test(start_paused = true)]
async fn a_spoiled_invoice_is_named_in_the_pane_and_counted_in_the_metrics() {
    let sb = support::sandbox(Some(spoiled_invoices())).await;
    let (w, _captured, board) = watcher(&sb, 10, client(&sb));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let run = tokio::spawn(w.run(stopped));
    until(
        "the skipped invoices counted",
        Duration::from_secs(120),
        || {
            proxydash::metrics::scrape(&board)
                .contains("proxydash_records_skipped{profile=\"main\",kind=\"invoices\"} 2")
        },
    )
    .await;
    let scraped = proxydash::metrics::scrape(&board);
    // 7010, 7011 and 7015 read: their alerts' figures are there; the runway is not.
    assert!(
        scraped.contains("proxydash_invoice_unpaid_usd{profile=\"main\",invoice=\"7011\""),
        "{scraped}"
    );
    assert!(
        !scraped.contains("proxydash_credit_runway_seconds{"),
        "{scraped}"
    );
    let _ = stop.send(true);
    run.await.unwrap().unwrap();

    let mut s = support::session(
        &sb,
        Duration::from_secs(5),
        Some(Duration::from_secs(30)),
        (160, 40),
    );
    support::press(&mut s, &[Key::C('3')]);
    support::wait_idle(&mut s, Duration::from_secs(60)).await;
    let screen = s.screen();
    for said in [
        r#"2 invoices could not be read: id 7002, amount "NaN"; id 7004, amount "1,234.50""#,
        "Invoices · 18",
        "at least $",
        "(and 2 invoices that could not be read)",
    ] {
        assert!(screen.contains(said), "{said:?} not on\n{screen}");
    }
}

/// Issue 46.7: a 30-day sum past the largest number was `"due_30_days": null` in `credit
/// --json`, which reads as nothing due. It says `"overflow"`.
#[tokio::test]
async fn a_sum_past_the_largest_number_says_overflow_not_null() {
    let seed = spoiled(
        "overflow",
        &[
            ("invoices", 7004, serde_json::json!({"amount": 1e308})),
            ("invoices", 7010, serde_json::json!({"amount": 1e308})),
        ],
    );
    let sb = support::sandbox(Some(seed)).await;
    let run = proxydash(&sb, &["credit", "--json"]).await;
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(doc["runway"]["due_30_days"], "overflow", "{doc:#}");
    assert_eq!(doc["runway"]["short_on"], doc["runway"]["today"], "{doc:#}");
    let run = proxydash(&sb, &["credit"]).await;
    assert!(run.stdout.contains(">$1T due in 30 days"), "{}", run.stdout);
}
