//! Lenient decoding of the bodies live servers of this API family send.

use chrono::NaiveDate;
use proxydash::api::*;

#[test]
fn numbers_as_strings_nulls_and_zero_dates() {
    let body = r#"{
        "service_id": "5001", "orderid": null, "product_name": "DC Proxies US",
        "regdate": "2026-01-02", "nextduedate": "0000-00-00", "status": "Active",
        "billingcycle": "Monthly", "username": "u5001", "password": "p",
        "bindedip": "", "product_type": "fpr", "ip_count": "25", "price": "12.50",
        "some_new_field": {"nested": [1, 2]}
    }"#;
    let s: Service = serde_json::from_str(body).unwrap();
    assert_eq!(s.service_id, 5001);
    assert_eq!(s.orderid, None);
    assert_eq!(s.regdate, NaiveDate::from_ymd_opt(2026, 1, 2));
    assert_eq!(s.nextduedate, None);
    assert_eq!(s.bound_ip, None);
    assert_eq!(s.ip_count, Some(25));
    assert!((s.price - 12.5).abs() < 1e-9);
    assert_eq!(s.status, ServiceStatus::Active);
    assert_eq!(s.billingcycle, BillingCycle::Monthly);
}

#[test]
fn missing_optional_fields_and_unknown_enum_values() {
    let s: ServiceSummary =
        serde_json::from_str(r#"{"service_id": 7, "status": "On Hold"}"#).unwrap();
    assert_eq!(s.product_name, "");
    assert_eq!(s.nextduedate, None);
    assert_eq!(s.status, ServiceStatus::Other("On Hold".into()));
    assert_eq!(s.status.to_string(), "On Hold");
}

#[test]
fn products_with_booleans_as_numbers_and_geo_of_any_shape() {
    let p: Product = serde_json::from_str(
        r#"{"productId": "12", "price": 3, "groupId": "2", "groupName": "Static",
            "created_at": "2025-05-06", "product_hidden": "1", "group_hidden": 0,
            "product_type": "fpr", "ip_count": 10, "update_time": "2026-11-01 10:00:00",
            "geo": ["US", {"country": "DE", "city": "Berlin"}, 7, null]}"#,
    )
    .unwrap();
    assert!(p.product_hidden);
    assert!(!p.group_hidden);
    assert_eq!(p.update_time.unwrap().to_string(), "2026-11-01 10:00:00");
    let geo: Vec<String> = p.geo.iter().map(|g| g.to_string()).collect();
    // Object values are joined in key order (city, country).
    assert_eq!(geo, vec!["US", "Berlin/DE", "7", ""]);
}

#[test]
fn invoices_with_missing_dates() {
    let list: Vec<Invoice> = serde_json::from_str(
        r#"[{"id": 1, "description": "x", "status": "Payment Pending", "created_at": "2026-01-01",
             "amount": "9.99", "date_refunded": "0000-00-00", "date_paid": null,
             "paymentmethod": "paypal", "serviceid": "5001"}]"#,
    )
    .unwrap();
    assert_eq!(list[0].status, InvoiceStatus::PaymentPending);
    assert_eq!(list[0].date_refunded, None);
    assert_eq!(list[0].date_paid, None);
    assert_eq!(list[0].service_id, Some(5001));
}

#[test]
fn a_wrong_shape_is_an_error_not_a_panic_or_a_zero() {
    assert!(serde_json::from_str::<Service>(r#"{"unexpected": true}"#).is_err());
    assert!(serde_json::from_str::<Service>(r#"{"service_id": {"a": 1}}"#).is_err());
    assert!(serde_json::from_str::<Credit>(r#"{"credit": "lots"}"#).is_err());
    assert!(serde_json::from_str::<Credit>(r#"[1, 2]"#).is_err());
    assert!(serde_json::from_str::<Client>(r#"{"id": -3, "email": "x"}"#).is_err());
    assert!(serde_json::from_str::<Client>(r#"{"id": 1.5, "email": "x"}"#).is_err());
}

#[test]
fn order_result_and_update_result() {
    let r: OrderResult = serde_json::from_str(
        r#"{"serviceId": "9001", "orderId": 77, "invoiceId": "88", "amount": "4.00", "ip": null}"#,
    )
    .unwrap();
    assert_eq!(
        (r.service_id, r.order_id, r.invoice_id, r.ip),
        (9001, Some(77), Some(88), None)
    );
    let u: UpdateResult = serde_json::from_str(
        r#"{"setip": {"success": "IP address updated successfully"}, "password": {"success": "Password updated successfully"}}"#,
    )
    .unwrap();
    assert_eq!(
        u.messages(),
        vec![
            "IP address updated successfully",
            "Password updated successfully"
        ]
    );
}

#[test]
fn every_model_serializes_back_to_the_wire_names() {
    let s: Service =
        serde_json::from_str(r#"{"service_id": 1, "bindedip": "203.0.113.5", "password": "pw"}"#)
            .unwrap();
    let v = serde_json::to_value(&s).unwrap();
    assert_eq!(v["bindedip"], "203.0.113.5");
    assert_eq!(v["password"], "pw");
    let p: ProductSummary =
        serde_json::from_str(r#"{"productId": 3, "productName": "A"}"#).unwrap();
    let v = serde_json::to_value(&p).unwrap();
    assert_eq!(v["productId"], 3);
    assert_eq!(v["productName"], "A");
}

/// Issue 26.13: the sandbox sends a Free service's due date as 9999-12-31 (never); the
/// client reads it as no due date, as it reads live servers' `"0000-00-00"`.
#[test]
fn a_never_due_date_is_no_due_date() {
    let s: ServiceSummary = serde_json::from_str(
        r#"{"service_id": 1011, "nextduedate": "9999-12-31", "status": "Active"}"#,
    )
    .unwrap();
    assert_eq!(s.nextduedate, None);
    let s: ServiceSummary = serde_json::from_str(
        r#"{"service_id": 1011, "nextduedate": "2026-12-31", "status": "Active"}"#,
    )
    .unwrap();
    assert_eq!(s.nextduedate, NaiveDate::from_ymd_opt(2026, 12, 31));
}
