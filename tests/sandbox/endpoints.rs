//! Every endpoint answers 200 with the spec's shape for valid input, and the answer
//! decodes with the client's model types.

use super::*;
use chrono::{Days, NaiveDate, Utc};
use proxydash::api::model::{
    Client, Credit, Invoice, OrderResult, Product, ProductSummary, RateEntry, Service,
    ServiceSummary, StatEntry, UpdateResult,
};
use serde::de::DeserializeOwned;

fn decode<T: DeserializeOwned>(body: &str) -> T {
    serde_json::from_str(body).unwrap_or_else(|e| {
        panic!(
            "does not decode as {}: {e}\n{body}",
            std::any::type_name::<T>()
        )
    })
}

const PRODUCT_LIST_KEYS: &[&str] = &[
    "productId",
    "productName",
    "price",
    "groupId",
    "groupName",
    "created_at",
];
const SERVICE_KEYS_FPR: &[&str] = &[
    "service_id",
    "orderid",
    "product_name",
    "regdate",
    "nextduedate",
    "status",
    "billingcycle",
    "username",
    "password",
    "bindedip",
    "product_type",
    "ip_count",
    "price",
];
const INVOICE_KEYS: &[&str] = &[
    "id",
    "description",
    "status",
    "created_at",
    "amount",
    "date_refunded",
    "date_paid",
    "paymentmethod",
    "serviceid",
];

#[tokio::test]
async fn lists_of_clients_products_services_invoices() {
    // With live servers' quirks, which this test also checks (`sandbox --quirks`).
    let sb = start_with(|c| c.quirks = true).await;
    let api = Api::new(&sb);

    let r = api.get("/api/clients").await;
    let clients = r.ok();
    assert_eq!(r.content_type.as_deref(), Some("application/json"));
    assert_eq!(array(&clients).len(), 4);
    for c in array(&clients) {
        assert_eq!(keys(c), set(&["id", "email"]));
    }
    // One live-server quirk: an ID as a string.
    assert!(array(&clients).iter().any(|c| c["id"] == "104"));
    assert_eq!(decode::<Vec<Client>>(&r.body).len(), 4);

    let r = api.get("/api/products").await;
    let products = r.ok();
    assert_eq!(array(&products).len(), 9);
    for p in array(&products) {
        assert_eq!(keys(p), set(PRODUCT_LIST_KEYS));
    }
    let ids: Vec<f64> = array(&products)
        .iter()
        .map(|p| num(&p["productId"]))
        .collect();
    assert_eq!(
        ids,
        vec![11.0, 12.0, 13.0, 14.0, 21.0, 22.0, 23.0, 31.0, 32.0]
    );
    decode::<Vec<ProductSummary>>(&r.body);

    let r = api.get("/api/services").await;
    let services = r.ok();
    assert_eq!(array(&services).len(), 13);
    for s in array(&services) {
        assert_eq!(
            keys(s),
            set(&[
                "service_id",
                "product_name",
                "nextduedate",
                "orderid",
                "status"
            ])
        );
    }
    let free = array(&services)
        .iter()
        .find(|s| s["service_id"] == 1011)
        .expect("1011");
    assert_eq!(free["nextduedate"], "0000-00-00");
    decode::<Vec<ServiceSummary>>(&r.body);

    let r = api.get("/api/billing/invoices").await;
    let invoices = r.ok();
    assert_eq!(array(&invoices).len(), 20);
    for i in array(&invoices) {
        assert!(keys(i).is_subset(&set(INVOICE_KEYS)), "{i}");
        for required in [
            "id",
            "description",
            "status",
            "created_at",
            "amount",
            "paymentmethod",
            "serviceid",
        ] {
            assert!(i.get(required).is_some(), "{required} missing in {i}");
        }
    }
    let refunded = array(&invoices)
        .iter()
        .find(|i| i["id"] == 7014)
        .expect("7014");
    assert!(refunded["date_refunded"].is_string() && refunded["date_paid"].is_string());
    let unpaid = array(&invoices)
        .iter()
        .find(|i| i["id"] == 7010)
        .expect("7010");
    assert!(unpaid.get("date_paid").is_none() && unpaid.get("date_refunded").is_none());
    decode::<Vec<Invoice>>(&r.body);

    let r = api.get("/api/billing/invoice/7014").await;
    let one = r.ok();
    assert_eq!(array(&one).len(), 1);
    assert_eq!(&one[0], refunded);
    decode::<Vec<Invoice>>(&r.body);

    let r = api.get("/api/billing/credit").await;
    assert_eq!(r.ok(), serde_json::json!({ "credit": 250.0 }));
    assert_eq!(decode::<Credit>(&r.body).credit, 250.0);
}

#[tokio::test]
async fn single_product_and_service_shapes() {
    // With live servers' quirks, which this test also checks (`sandbox --quirks`).
    let sb = start_with(|c| c.quirks = true).await;
    let api = Api::new(&sb);

    let r = api.get("/api/product/11").await;
    let fpr = r.ok();
    assert_eq!(
        keys(&fpr),
        set(&[
            "productId",
            "price",
            "groupId",
            "groupName",
            "created_at",
            "product_hidden",
            "group_hidden",
            "product_type",
            "ip_count",
            "update_time",
            "geo",
        ])
    );
    assert_eq!(fpr["product_type"], "fpr");
    assert_eq!(fpr["ip_count"], 10);
    assert!(fpr["geo"].is_array());
    let update_time = fpr["update_time"].as_str().expect("string");
    assert!(chrono::NaiveDateTime::parse_from_str(update_time, "%Y-%m-%d %H:%M:%S").is_ok());
    decode::<Product>(&r.body);

    let r = api.get("/api/product/23").await;
    let ppr = r.ok();
    assert_eq!(
        keys(&ppr),
        set(&[
            "productId",
            "price",
            "groupId",
            "groupName",
            "created_at",
            "product_hidden",
            "group_hidden",
            "product_type",
        ])
    );
    assert_eq!(
        (ppr["product_hidden"].clone(), ppr["group_hidden"].clone()),
        (true.into(), false.into())
    );
    let legacy = api.get("/api/product/31").await.ok();
    assert_eq!(legacy["group_hidden"], true);
    assert_eq!(legacy["product_hidden"], false);
    decode::<Product>(&r.body);

    let r = api.get("/api/service/1001").await;
    let s = r.ok();
    assert_eq!(keys(&s), set(SERVICE_KEYS_FPR));
    assert_eq!(s["bindedip"], "192.0.2.50");
    assert_eq!(s["status"], "Active");
    assert_eq!(s["username"], "pd1001ka");
    let service: Service = decode(&r.body);
    assert_eq!(service.ip_count, Some(10));

    let ppr = api.get("/api/service/1003").await.ok();
    let ppr_keys: Vec<&str> = SERVICE_KEYS_FPR
        .iter()
        .copied()
        .filter(|k| *k != "bindedip" && *k != "ip_count")
        .collect();
    assert_eq!(keys(&ppr), set(&ppr_keys));
    assert_eq!(ppr["product_type"], "ppr");

    // Quirks: a null bindedip, an unbound "" bindedip, a price as a string.
    assert_eq!(
        api.get("/api/service/1005").await.ok()["bindedip"],
        Value::Null
    );
    assert_eq!(api.get("/api/service/1002").await.ok()["bindedip"], "");
    assert_eq!(api.get("/api/service/1012").await.ok()["price"], "299.00");
}

#[tokio::test]
async fn products_ordered_by_each_field_ascending() {
    let sb = start().await;
    let api = Api::new(&sb);
    for field in [
        "productId",
        "productName",
        "price",
        "groupId",
        "groupName",
        "created_at",
    ] {
        let list = api
            .get(&format!("/api/products/orderby/{field}"))
            .await
            .ok();
        let list = array(&list);
        assert_eq!(list.len(), 9, "{field}");
        for pair in list.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            let in_order = match field {
                "productId" | "price" | "groupId" => num(&a[field]) <= num(&b[field]),
                _ => {
                    let (a, b) = (a[field].as_str().expect("s"), b[field].as_str().expect("s"));
                    a.to_lowercase() <= b.to_lowercase()
                }
            };
            assert!(in_order, "{field}: {a} before {b}");
        }
    }
    let by_price = api.get("/api/products/orderby/price").await.ok();
    assert_eq!(by_price[0]["productId"], 23); // the free trial
    assert_eq!(by_price[8]["productId"], 32);
}

#[tokio::test]
async fn ppr_statistics_rate_and_network_status() {
    let sb = start().await;
    let api = Api::new(&sb);
    let today = Utc::now().date_naive();

    let r = api.get("/api/stats/1003").await;
    let stats = r.ok();
    let stats = array(&stats);
    assert_eq!(stats.len(), 30);
    for s in stats {
        assert_eq!(keys(s), set(&["date", "rate"]));
    }
    let date = |v: &Value| {
        NaiveDate::parse_from_str(v["date"].as_str().expect("date"), "%Y-%m-%d").expect("date")
    };
    assert_eq!(date(&stats[29]), today);
    assert_eq!(
        date(&stats[0]),
        today.checked_sub_days(Days::new(29)).expect("date")
    );
    let total: f64 = decode::<Vec<StatEntry>>(&r.body)
        .iter()
        .map(|s| s.rate)
        .sum();

    let r = api.get("/api/rate/1003").await;
    let rate = r.ok();
    assert_eq!(array(&rate).len(), 1);
    assert_eq!(keys(&rate[0]), set(&["limit", "rate"]));
    let entry = &decode::<Vec<RateEntry>>(&r.body)[0];
    assert_eq!(entry.limit, 5120.0);
    assert!(
        entry.rate > entry.limit,
        "1003 is over its limit: {entry:?}"
    );
    assert!((entry.rate - total).abs() < 0.05);

    let unlimited = api.get("/api/rate/1004").await.ok();
    assert_eq!(num(&unlimited[0]["limit"]), 0.0);
    let under = api.get("/api/rate/1007").await.ok();
    assert!(num(&under[0]["rate"]) < num(&under[0]["limit"]));

    let errors = api.get("/api/networkstatus/errors/1001").await.ok();
    let inactive = api.get("/api/networkstatus/inactive/1001").await.ok();
    assert_eq!(array(&errors).len(), 2);
    assert_eq!(array(&inactive).len(), 1);
    // They are addresses of the service's own IP list.
    let list = api.get("/api/iplist/http-ip/txt/1001").await.body;
    for ip in array(&errors).iter().chain(array(&inactive)) {
        let ip = ip.as_str().expect("an IP string");
        assert!(ip.parse::<std::net::Ipv4Addr>().is_ok(), "{ip}");
        assert!(list.contains(&format!("{ip}:")), "{ip} not in {list}");
    }
    let none = api.get("/api/networkstatus/errors/1002").await.ok();
    assert_eq!(none, serde_json::json!([]));
    let gateway = api.get("/api/networkstatus/errors/1003").await.ok();
    assert_eq!(gateway, serde_json::json!(["192.0.2.12"]));
}

#[tokio::test]
async fn order_and_update_answer_their_shapes() {
    let sb = start().await;
    let api = Api::new(&sb);
    let r = api.post("/api/product/11", r#"{"clientid": 101}"#).await;
    let order = r.ok();
    assert_eq!(
        keys(&order),
        set(&["serviceId", "orderId", "invoiceId", "amount", "ip"])
    );
    assert_eq!(order["ip"], "");
    decode::<OrderResult>(&r.body);

    let r = api
        .put("/api/service/1002", r#"{"update_list": "true"}"#)
        .await;
    assert_eq!(
        r.ok(),
        serde_json::json!({ "update_list": { "success": "IP list updated successfully" } })
    );
    decode::<UpdateResult>(&r.body);
    // The body is optional: no operation, no member.
    assert_eq!(
        api.send("PUT", "/api/service/1002", None).await.ok(),
        serde_json::json!({})
    );
}
