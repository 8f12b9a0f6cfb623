//! Every row of spec section 7, one request each, with the exact status and body.

use super::*;

const GENERIC: &str = "Unprocessable Entity ";
const CLIENT_ID: &str = "Unprocessable Entity. ClientID not found";
const PRODUCT: &str = "Unprocessable Entity or product ID not found";
const FUNDS: &str = "Unprocessed entity or not enough funds to order";
const POSTED: &str = "Unprocessable Entity. Incorrect posted data";
const IPV4: &str = "Unprocessable Entity. Invalid IPv4 format";
const BINDED: &str = "Unprocessable Entity. IP already binded";

#[tokio::test]
async fn every_row_of_section_7() {
    let sb = start().await;
    let api = Api::new(&sb);
    let header = |h: &str| Api::with_auth(&sb, Some(h));

    // 401 Unauthenticated: all endpoints.
    Api::with_auth(&sb, None)
        .get("/api/clients")
        .await
        .assert_text(401, "Unauthenticated");
    // 400 Invalid Authorization header.
    header("Bearer abc")
        .get("/api/services")
        .await
        .assert_text(400, "Invalid Authorization header");
    // 400 Invalid credentials format.
    header("Basic %%%")
        .get("/api/billing/credit")
        .await
        .assert_text(400, "Invalid credentials format");

    // 400 JSON ClientID not found: endpoints 8, 9, 15.
    let r = api.get("/api/networkstatus/errors/999999").await;
    r.assert_error(400, CLIENT_ID);
    api.get("/api/networkstatus/inactive/1013")
        .await
        .assert_error(400, CLIENT_ID);
    api.put("/api/service/424242", r#"{"update_list":"true"}"#)
        .await
        .assert_error(400, CLIENT_ID);

    // 422 generic: endpoints 2, 3, 4, 8, 9, 15, 16.
    let generic = [
        ("GET", "/api/stats/1001", None),  // fpr service
        ("GET", "/api/rate/999999", None), // unknown service
        ("GET", "/api/product/abc", None), // not a number
        ("GET", "/api/networkstatus/errors/x1", None),
        ("GET", "/api/networkstatus/inactive/-1", None),
        (
            "PUT",
            "/api/service/1003",
            Some(r#"{"setip":"192.0.2.77"}"#),
        ), // ppr service
        (
            "PUT",
            "/api/service/1008",
            Some(r#"{"update_list":"true"}"#),
        ), // terminated
        ("GET", "/api/iplist/bogus/txt/1001", None),
    ];
    for (method, path, body) in generic {
        api.send(method, path, body)
            .await
            .assert_error(422, GENERIC);
    }

    // 422 product ID not found: endpoints 4 and 5.
    api.get("/api/product/999").await.assert_error(422, PRODUCT);
    api.post("/api/product/999", r#"{"clientid":101}"#)
        .await
        .assert_error(422, PRODUCT);
    // 422 not enough funds: endpoint 5 (299.00 > 250.00).
    api.post("/api/product/14", r#"{"clientid":101}"#)
        .await
        .assert_error(422, FUNDS);
    // 422 Incorrect posted data: endpoints 5 and 15.
    api.post("/api/product/11", "clientid=101")
        .await
        .assert_error(422, POSTED);
    api.put("/api/service/1001", r#"{"password":"***"}"#)
        .await
        .assert_error(422, POSTED);
    // 422 ClientID not found: endpoint 5.
    api.post("/api/product/11", r#"{"clientid":999}"#)
        .await
        .assert_error(422, CLIENT_ID);
    // 422 Invalid IPv4 format: endpoint 15.
    api.put("/api/service/1001", r#"{"setip":"256.1.1.1"}"#)
        .await
        .assert_error(422, IPV4);
    // 422 IP already binded: endpoint 15 (1001 holds 192.0.2.50).
    api.put("/api/service/1002", r#"{"setip":"192.0.2.50"}"#)
        .await
        .assert_error(422, BINDED);

    // 429: endpoint 15, a second refresh within the interval.
    api.put("/api/service/1002", r#"{"update_list":"true"}"#)
        .await
        .ok();
    let r = api
        .put("/api/service/1002", r#"{"update_list":"true"}"#)
        .await;
    assert_eq!(r.status, 429, "{}", r.body);
    let message = r.json()["error"].as_str().expect("error").to_owned();
    let prefix = "Too Many Attempts (updateList). Next update possible: ";
    assert!(message.starts_with(prefix), "{message}");
    assert!(
        chrono::NaiveDateTime::parse_from_str(&message[prefix.len()..], "%Y-%m-%d %H:%M:%S")
            .is_ok(),
        "{message}"
    );

    // None of the failed writes changed anything.
    let state = sb.state();
    assert_eq!(
        (state.credit, state.services, state.invoices),
        (250.0, 13, 20)
    );
}

#[tokio::test]
async fn unknown_ids_and_paths() {
    let sb = start().await;
    let api = Api::new(&sb);
    api.get("/api/service/999999")
        .await
        .assert_error(422, GENERIC);
    api.get("/api/service/abc").await.assert_error(422, GENERIC);
    api.get("/api/billing/invoice/1")
        .await
        .assert_error(422, GENERIC);
    api.get("/api/billing/invoice/x")
        .await
        .assert_error(422, GENERIC);
    api.get("/api/products/orderby/colour")
        .await
        .assert_error(422, GENERIC);
    api.get("/api/stats/99999999999999999999999")
        .await
        .assert_error(422, GENERIC);
    api.get("/api/iplist/http-ip/xml/1001")
        .await
        .assert_error(422, GENERIC);
    api.get("/api/iplist/http-ip/txt/424242")
        .await
        .assert_error(422, GENERIC);
    // A listed path with a method the spec does not give it.
    assert_eq!(
        api.send("DELETE", "/api/service/1001", None).await.status,
        405
    );
    assert_eq!(
        api.send("POST", "/api/services", Some("{}")).await.status,
        405
    );
    // Paths not in the spec: 404, with or without credentials.
    for path in [
        "/api/nothing",
        "/api",
        "/",
        "/api/services/1",
        "/api/clients/",
    ] {
        api.get(path).await.assert_text(404, "Not Found");
        Api::with_auth(&sb, None)
            .get(path)
            .await
            .assert_text(404, "Not Found");
    }
}

#[tokio::test]
async fn odd_input_never_breaks_the_server() {
    let sb = start().await;
    let api = Api::new(&sb);
    let odd = [
        ("GET", "/api/service/%FF%FE", None),
        ("GET", "/api/iplist/%00/txt/1", None),
        ("GET", "/api/product/%20", None),
        ("PUT", "/api/service/1001", Some("\u{0}\u{1}garbage")),
        (
            "PUT",
            "/api/service/1001",
            Some(r#"{"setip":{"nested":[1,2]}}"#),
        ),
        ("PUT", "/api/service/1001", Some("[1,2,3]")),
        (
            "POST",
            "/api/product/11",
            Some(r#"{"clientid":18446744073709551616}"#),
        ),
        (
            "POST",
            "/api/product/11",
            Some(r#"{"clientid":101,"setip":"::1"}"#),
        ),
        ("POST", "/api/product/99999999999999999999", Some("{}")),
    ];
    for (method, path, body) in odd {
        let r = api.send(method, path, body).await;
        assert!(
            r.status == 422 || r.status == 400,
            "{method} {path}: {} {}",
            r.status,
            r.body
        );
    }
    // A body over the 1 MiB limit.
    let big = "x".repeat(2 << 20);
    let r = api.put("/api/service/1001", &big).await;
    assert_eq!(r.status, 413);
    // Invalid UTF-8 in a body.
    let r = api
        .request("PUT", "/api/service/1001", None)
        .body(vec![0xff, 0xfe, b'{'])
        .send()
        .await
        .expect("sent");
    assert_eq!(r.status().as_u16(), 422);
    // Still serving.
    api.get("/api/clients").await.ok();
}
