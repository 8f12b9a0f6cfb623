//! Endpoint 5: an order spends credit and creates a service, an order and an invoice.

use super::*;

const POSTED: &str = "Unprocessable Entity. Incorrect posted data";

#[tokio::test]
async fn an_order_deducts_credit_and_creates_service_order_invoice() {
    let sb = start().await;
    let api = Api::new(&sb);
    let before = sb.state();

    let order = api
        .post(
            "/api/product/11",
            r#"{"clientid": 102, "setip": "198.51.100.240"}"#,
        )
        .await
        .ok();
    assert_eq!(num(&order["amount"]), 12.0);
    assert_eq!(order["ip"], "198.51.100.240");
    let service_id = order["serviceId"].as_u64().expect("serviceId");
    let order_id = order["orderId"].as_u64().expect("orderId");
    let invoice_id = order["invoiceId"].as_u64().expect("invoiceId");
    assert_eq!(service_id, 1014);
    assert_eq!(order_id, 514);
    assert_eq!(invoice_id, 7021);

    // Credit.
    assert_eq!(api.get("/api/billing/credit").await.ok()["credit"], 238.0);
    // The service, in the list and in detail.
    let services = api.get("/api/services").await.ok();
    let listed = array(&services)
        .iter()
        .find(|s| s["service_id"] == service_id)
        .expect("the new service is listed");
    assert_eq!(listed["orderid"], order_id);
    assert_eq!(listed["status"], "Active");
    let service = api.get(&format!("/api/service/{service_id}")).await.ok();
    assert_eq!(service["bindedip"], "198.51.100.240");
    assert_eq!(service["product_name"], "Datacenter US 10");
    assert_eq!(service["billingcycle"], "Monthly");
    assert_eq!(service["ip_count"], 10);
    assert_eq!(num(&service["price"]), 12.0);
    assert!(
        service["username"]
            .as_str()
            .is_some_and(|u| u.starts_with("pd1014"))
    );
    assert_eq!(service["password"].as_str().map(str::len), Some(12));
    let today = chrono::Utc::now().date_naive();
    assert_eq!(service["regdate"], today.format("%Y-%m-%d").to_string());
    let due = today
        .checked_add_months(chrono::Months::new(1))
        .expect("date");
    assert_eq!(service["nextduedate"], due.format("%Y-%m-%d").to_string());
    // The invoice, in the list and alone.
    let invoices = api.get("/api/billing/invoices").await.ok();
    let invoice = array(&invoices)
        .iter()
        .find(|i| i["id"] == invoice_id)
        .expect("the new invoice is listed");
    assert_eq!(invoice["status"], "Paid");
    assert_eq!(num(&invoice["amount"]), 12.0);
    assert_eq!(invoice["serviceid"], service_id);
    assert!(invoice["date_paid"].is_string());
    let alone = api
        .get(&format!("/api/billing/invoice/{invoice_id}"))
        .await
        .ok();
    assert_eq!(&alone[0], invoice);
    // The bound IP is now taken.
    api.put("/api/service/1002", r#"{"setip":"198.51.100.240"}"#)
        .await
        .assert_error(422, "Unprocessable Entity. IP already binded");

    let after = sb.state();
    assert_eq!(after.credit, 238.0);
    assert_eq!(after.services, before.services + 1);
    assert_eq!(after.orders, before.orders + 1);
    assert_eq!(after.invoices, before.invoices + 1);
}

#[tokio::test]
async fn a_ppr_order_and_a_free_order() {
    // With live servers' quirks, which this test also checks (`sandbox --quirks`).
    let sb = start_with(|c| c.quirks = true).await;
    let api = Api::new(&sb);
    let order = api
        .post("/api/product/21", r#"{"clientid": "103"}"#)
        .await
        .ok();
    assert_eq!(order["ip"], "");
    let id = order["serviceId"].as_u64().expect("id");
    let service = api.get(&format!("/api/service/{id}")).await.ok();
    assert_eq!(service["product_type"], "ppr");
    assert!(service.get("bindedip").is_none());
    // A new ppr service has statistics of today only, and its product's limit.
    assert_eq!(
        array(&api.get(&format!("/api/stats/{id}")).await.ok()).len(),
        1
    );
    let rate = api.get(&format!("/api/rate/{id}")).await.ok();
    assert_eq!(
        (num(&rate[0]["limit"]), num(&rate[0]["rate"])),
        (5120.0, 0.0)
    );
    assert_eq!(sb.state().credit, 225.0);

    // The free trial (a hidden product) can be ordered with no credit left.
    sb.set_credit(0.0);
    let free = api
        .post("/api/product/23", r#"{"clientid": 104}"#)
        .await
        .ok();
    assert_eq!(num(&free["amount"]), 0.0);
    let id = free["serviceId"].as_u64().expect("id");
    let service = api.get(&format!("/api/service/{id}")).await.ok();
    assert_eq!(service["nextduedate"], "0000-00-00");
    assert_eq!(service["billingcycle"], "Free");
}

#[tokio::test]
async fn not_enough_funds_changes_nothing() {
    let sb = start().await;
    let api = Api::new(&sb);
    sb.set_credit(11.99);
    api.post("/api/product/11", r#"{"clientid": 101}"#)
        .await
        .assert_error(422, "Unprocessed entity or not enough funds to order");
    let state = sb.state();
    assert_eq!(
        (state.credit, state.services, state.invoices, state.orders),
        (11.99, 13, 20, 13)
    );
    sb.set_credit(12.0);
    api.post("/api/product/11", r#"{"clientid": 101}"#)
        .await
        .ok();
    assert_eq!(api.get("/api/billing/credit").await.ok()["credit"], 0.0);
    api.post("/api/product/11", r#"{"clientid": 101}"#)
        .await
        .assert_error(422, "Unprocessed entity or not enough funds to order");
}

#[tokio::test]
async fn order_bodies_and_setip_are_checked() {
    let sb = start().await;
    let api = Api::new(&sb);
    let bad = [
        ("11", ""),
        ("11", "null"),
        ("11", "{}"),
        ("11", r#"{"clientid": 1.5}"#),
        ("11", r#"{"clientid": "abc"}"#),
        ("11", r#"{"clientid": 101, "setip": "300.1.1.1"}"#),
        ("11", r#"{"clientid": 101, "setip": "192.0.2.50"}"#), // bound to 1001
        ("21", r#"{"clientid": 101, "setip": "198.51.100.9"}"#), // ppr product
    ];
    for (pid, body) in bad {
        api.post(&format!("/api/product/{pid}"), body)
            .await
            .assert_error(422, POSTED);
    }
    api.post("/api/product/abc", r#"{"clientid": 101}"#)
        .await
        .assert_error(422, "Unprocessable Entity or product ID not found");
    assert_eq!(sb.state().credit, 250.0);
    assert_eq!(sb.state().services, 13);
}
