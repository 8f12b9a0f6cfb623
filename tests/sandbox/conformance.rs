//! Spec conformance of the default sandbox, written from `reseller-api.md` alone: every
//! endpoint of section 4 is walked (every service, product, invoice, sort field, IP-list
//! type and format, an order and each update) and every member of every answer is
//! checked against its type in section 2 (numeric = JSON number, string, boolean, array,
//! dates `YYYY-MM-DD` / `YYYY-MM-DD HH:MM:SS` that are real dates); then the errors of
//! section 7 (status, plain text or `{"error": string}`, the 429's timestamp).
//!
//! It shares nothing with the sandbox or the client but the HTTP: its tables are the
//! spec's. A member may be absent only where the spec makes it conditional (fpr only) or
//! where the sandbox documents a date as "not set"; an unknown member is a failure.

use super::*;
use chrono::{NaiveDate, NaiveDateTime};

#[derive(Clone, Copy, Debug)]
enum Ty {
    Num,
    Str,
    Bool,
    Array,
    Date,
    DateTime,
    OneOf(&'static [&'static str]),
}

/// Required members, then members that may be absent.
type Shape = (&'static [(&'static str, Ty)], &'static [(&'static str, Ty)]);

const TYPES: &[&str] = &["fpr", "ppr"];
const SERVICE_STATUS: &[&str] = &[
    "Active",
    "Pending",
    "Suspended",
    "Terminated",
    "Cancelled",
    "Fraud",
];
const INVOICE_STATUS: &[&str] = &[
    "Unpaid",
    "Paid",
    "Cancelled",
    "Refunded",
    "Collections",
    "Payment Pending",
    "Pending",
];
const CYCLES: &[&str] = &[
    "Free",
    "Monthly",
    "Quarterly",
    "Semi-Annually",
    "Annually",
    "Biennially",
    "Triennially",
];

const CLIENT: Shape = (&[("id", Ty::Num), ("email", Ty::Str)], &[]);
const PRODUCT_IN_LIST: Shape = (
    &[
        ("productId", Ty::Num),
        ("productName", Ty::Str),
        ("price", Ty::Num),
        ("groupId", Ty::Num),
        ("groupName", Ty::Str),
        ("created_at", Ty::Date),
    ],
    &[],
);
const PRODUCT: Shape = (
    &[
        ("productId", Ty::Num),
        ("price", Ty::Num),
        ("groupId", Ty::Num),
        ("groupName", Ty::Str),
        ("created_at", Ty::Date),
        ("product_hidden", Ty::Bool),
        ("group_hidden", Ty::Bool),
        ("product_type", Ty::OneOf(TYPES)),
    ],
    &[
        ("ip_count", Ty::Num),
        ("update_time", Ty::DateTime),
        ("geo", Ty::Array),
    ],
);
const SERVICE: Shape = (
    &[
        ("service_id", Ty::Num),
        ("orderid", Ty::Num),
        ("product_name", Ty::Str),
        ("regdate", Ty::Date),
        ("nextduedate", Ty::Date),
        ("status", Ty::OneOf(SERVICE_STATUS)),
        ("billingcycle", Ty::OneOf(CYCLES)),
        ("username", Ty::Str),
        ("password", Ty::Str),
        ("product_type", Ty::OneOf(TYPES)),
        ("price", Ty::Num),
    ],
    &[("bindedip", Ty::Str), ("ip_count", Ty::Num)],
);
const SERVICE_IN_LIST: Shape = (
    &[
        ("service_id", Ty::Num),
        ("product_name", Ty::Str),
        ("nextduedate", Ty::Date),
        ("orderid", Ty::Num),
        ("status", Ty::OneOf(SERVICE_STATUS)),
    ],
    &[],
);
const INVOICE: Shape = (
    &[
        ("id", Ty::Num),
        ("description", Ty::Str),
        ("status", Ty::OneOf(INVOICE_STATUS)),
        ("created_at", Ty::Date),
        ("amount", Ty::Num),
        ("paymentmethod", Ty::Str),
        ("serviceid", Ty::Num),
    ],
    &[("date_refunded", Ty::Date), ("date_paid", Ty::Date)],
);
const STAT: Shape = (&[("date", Ty::Date), ("rate", Ty::Num)], &[]);
const RATE: Shape = (&[("limit", Ty::Num), ("rate", Ty::Num)], &[]);
const CREDIT: Shape = (&[("credit", Ty::Num)], &[]);
const ORDER_RESULT: Shape = (
    &[
        ("serviceId", Ty::Num),
        ("orderId", Ty::Num),
        ("invoiceId", Ty::Num),
        ("amount", Ty::Num),
        ("ip", Ty::Str),
    ],
    &[],
);

fn type_error(v: &Value, ty: Ty) -> Option<String> {
    let ok = match ty {
        Ty::Num => v.is_number(),
        Ty::Str => v.is_string(),
        Ty::Bool => v.is_boolean(),
        Ty::Array => v.is_array(),
        Ty::Date => v
            .as_str()
            .is_some_and(|s| s.len() == 10 && NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok()),
        Ty::DateTime => v.as_str().is_some_and(|s| {
            s.len() == 19 && NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").is_ok()
        }),
        Ty::OneOf(allowed) => v.as_str().is_some_and(|s| allowed.contains(&s)),
    };
    (!ok).then(|| format!("{v} is not {ty:?}"))
}

/// Every problem of one object against its shape, prefixed with `what`.
fn check(what: &str, v: &Value, (required, optional): Shape, problems: &mut Vec<String>) {
    let Some(map) = v.as_object() else {
        problems.push(format!("{what}: not an object: {v}"));
        return;
    };
    for (name, ty) in required {
        match map.get(*name) {
            None => problems.push(format!("{what}: `{name}` missing")),
            Some(value) => {
                problems.extend(type_error(value, *ty).map(|e| format!("{what}: `{name}`: {e}")))
            }
        }
    }
    for (name, ty) in optional {
        if let Some(value) = map.get(*name) {
            problems.extend(type_error(value, *ty).map(|e| format!("{what}: `{name}`: {e}")));
        }
    }
    for key in map.keys() {
        let known = required
            .iter()
            .chain(optional.iter())
            .any(|(n, _)| n == key);
        if !known {
            problems.push(format!("{what}: unknown member `{key}`"));
        }
    }
}

fn check_list(what: &str, v: &Value, shape: Shape, problems: &mut Vec<String>) {
    match v.as_array() {
        Some(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, item)| check(&format!("{what}[{i}]"), item, shape, problems)),
        None => problems.push(format!("{what}: not an array: {v}")),
    }
}

/// The members of a list, none when it is not one (`check_list` says so).
fn items(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

async fn ok_json(
    api: &Api,
    method: &str,
    path: &str,
    body: Option<&str>,
    problems: &mut Vec<String>,
) -> Value {
    // A wrong answer is one more problem, not the end of the walk: every check is reached.
    let r = api.send(method, path, body).await;
    if r.status != 200 {
        problems.push(format!("{method} {path}: status {}: {}", r.status, r.body));
        return Value::Null;
    }
    if r.content_type.as_deref() != Some("application/json") {
        problems.push(format!(
            "{method} {path}: content type {:?}",
            r.content_type
        ));
    }
    serde_json::from_str(&r.body).unwrap_or_else(|e| {
        problems.push(format!("{method} {path}: not JSON ({e}): {}", r.body));
        Value::Null
    })
}

#[tokio::test]
async fn every_endpoint_answers_in_the_types_of_section_2() {
    let sb = start().await;
    let api = Api::new(&sb);
    let mut problems = Vec::new();
    let p = &mut problems;

    check_list(
        "clients",
        &ok_json(&api, "GET", "/api/clients", None, p).await,
        CLIENT,
        p,
    );
    let products = ok_json(&api, "GET", "/api/products", None, p).await;
    check_list("products", &products, PRODUCT_IN_LIST, p);
    for field in [
        "productId",
        "productName",
        "price",
        "groupId",
        "groupName",
        "created_at",
    ] {
        let path = format!("/api/products/orderby/{field}");
        check_list(
            &path,
            &ok_json(&api, "GET", &path, None, p).await,
            PRODUCT_IN_LIST,
            p,
        );
    }
    for pid in items(&products).iter().map(|p| p["productId"].to_string()) {
        let path = format!("/api/product/{pid}");
        let product = ok_json(&api, "GET", &path, None, p).await;
        check(&path, &product, PRODUCT, p);
        let fpr_only = ["ip_count", "update_time", "geo"];
        let is_fpr = product["product_type"] == "fpr";
        for member in fpr_only {
            if product.get(member).is_some() != is_fpr {
                p.push(format!("{path}: `{member}` is fpr only"));
            }
        }
    }

    let services = ok_json(&api, "GET", "/api/services", None, p).await;
    check_list("services", &services, SERVICE_IN_LIST, p);
    for id in items(&services).iter().map(|s| s["service_id"].to_string()) {
        let path = format!("/api/service/{id}");
        let service = ok_json(&api, "GET", &path, None, p).await;
        check(&path, &service, SERVICE, p);
        if service["product_type"] == "ppr" {
            let stats = format!("/api/stats/{id}");
            check_list(
                &stats,
                &ok_json(&api, "GET", &stats, None, p).await,
                STAT,
                p,
            );
            let rate = format!("/api/rate/{id}");
            check_list(&rate, &ok_json(&api, "GET", &rate, None, p).await, RATE, p);
        }
        for which in ["errors", "inactive"] {
            let path = format!("/api/networkstatus/{which}/{id}");
            let r = api.get(&path).await;
            if r.status == 200 {
                let list = r.json();
                let addresses = list.as_array().is_some_and(|a| {
                    a.iter().all(|ip| {
                        ip.as_str()
                            .is_some_and(|s| s.parse::<std::net::Ipv4Addr>().is_ok())
                    })
                });
                if !addresses {
                    p.push(format!("{path}: not an array of IP addresses: {list}"));
                }
            }
        }
        for typel in ["http-ip", "socks-ip", "http-auth", "ppr-http", "ppr-socks"] {
            let path = format!("/api/iplist/{typel}/json/{id}");
            let r = api.get(&path).await;
            if r.status == 200
                && !serde_json::from_str::<Value>(&r.body).is_ok_and(|v| v.is_array())
            {
                p.push(format!("{path}: the json list is not a JSON array"));
            }
        }
    }

    let invoices = ok_json(&api, "GET", "/api/billing/invoices", None, p).await;
    check_list("invoices", &invoices, INVOICE, p);
    for id in items(&invoices).iter().map(|i| i["id"].to_string()) {
        let path = format!("/api/billing/invoice/{id}");
        check_list(
            &path,
            &ok_json(&api, "GET", &path, None, p).await,
            INVOICE,
            p,
        );
    }
    check(
        "credit",
        &ok_json(&api, "GET", "/api/billing/credit", None, p).await,
        CREDIT,
        p,
    );

    // An order of the cheapest product, and the new service it made.
    let cheapest = items(&products)
        .iter()
        .min_by(|a, b| num(&a["price"]).total_cmp(&num(&b["price"])));
    match cheapest {
        Some(cheapest) => {
            let path = format!("/api/product/{}", cheapest["productId"]);
            let order = ok_json(&api, "POST", &path, Some(r#"{"clientid": 101}"#), p).await;
            check(&path, &order, ORDER_RESULT, p);
            let new = format!("/api/service/{}", order["serviceId"]);
            check(&new, &ok_json(&api, "GET", &new, None, p).await, SERVICE, p);
        }
        None => p.push("no product to order".into()),
    }

    // The spec lists `nextduedate` for every service; a Free one never falls due.
    let free = ok_json(&api, "GET", "/api/service/1011", None, p).await;
    if free["billingcycle"] != "Free" || free["nextduedate"] != "9999-12-31" {
        p.push(format!("a Free service's nextduedate: {free}"));
    }

    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[tokio::test]
async fn updates_and_errors_answer_as_sections_4_3_and_7_say() {
    let sb = start().await;
    let api = Api::new(&sb);

    let r = api
        .put("/api/service/1001", r#"{"update_list":"true"}"#)
        .await;
    assert_eq!(
        r.ok(),
        serde_json::json!({"update_list": {"success": "IP list updated successfully"}})
    );
    let r = api
        .put("/api/service/1001", r#"{"update_list":"true"}"#)
        .await;
    assert_eq!(r.status, 429, "{}", r.body);
    let message = r.json()["error"].as_str().expect("error string").to_owned();
    let stamp = message
        .strip_prefix("Too Many Attempts (updateList). Next update possible: ")
        .unwrap_or_else(|| panic!("{message}"));
    assert!(
        NaiveDateTime::parse_from_str(stamp, "%Y-%m-%d %H:%M:%S").is_ok(),
        "{stamp}"
    );

    Api::with_auth(&sb, None)
        .get("/api/services")
        .await
        .assert_text(401, "Unauthenticated");
    Api::with_auth(&sb, Some("Bearer x"))
        .get("/api/services")
        .await
        .assert_text(400, "Invalid Authorization header");
    api.get("/api/stats/999999")
        .await
        .assert_error(422, "Unprocessable Entity ");
    api.get("/api/product/999999")
        .await
        .assert_error(422, "Unprocessable Entity or product ID not found");
    api.post("/api/product/11", "not json")
        .await
        .assert_error(422, "Unprocessable Entity. Incorrect posted data");
    api.post("/api/product/11", r#"{"clientid": 999999}"#)
        .await
        .assert_error(422, "Unprocessable Entity. ClientID not found");
    api.put("/api/service/1001", r#"{"setip":"1.2.3"}"#)
        .await
        .assert_error(422, "Unprocessable Entity. Invalid IPv4 format");
}

/// The quirks are still there for whoever asks for them (`sandbox --quirks`).
#[tokio::test]
async fn quirks_are_served_only_when_asked_for() {
    let sb = start_with(|c| c.quirks = true).await;
    let api = Api::new(&sb);
    let product = api.get("/api/product/12").await.ok();
    assert_eq!(product["price"], "27.50");
    let sorted = api.get("/api/products/orderby/price").await.ok();
    assert!(array(&sorted).iter().any(|p| p["price"].is_string()));
    let list = api.get("/api/iplist/http-ip/json/1001").await;
    assert!(list.body.starts_with("{\"ip\""), "{}", list.body);
    let services = api.get("/api/services").await.ok();
    let free = array(&services)
        .iter()
        .find(|s| s["service_id"] == 1011)
        .expect("1011");
    assert_eq!(free["nextduedate"], "0000-00-00");
}
