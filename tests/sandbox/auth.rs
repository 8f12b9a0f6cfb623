//! Spec section 5 on every endpoint.

use super::*;
use proxydash::sandbox::DEMO_TOKEN;

const ENDPOINTS: &[(&str, &str)] = &[
    ("GET", "/api/clients"),
    ("GET", "/api/stats/1003"),
    ("GET", "/api/rate/1003"),
    ("GET", "/api/product/11"),
    ("POST", "/api/product/11"),
    ("GET", "/api/products"),
    ("GET", "/api/products/orderby/price"),
    ("GET", "/api/networkstatus/errors/1001"),
    ("GET", "/api/networkstatus/inactive/1001"),
    ("GET", "/api/billing/credit"),
    ("GET", "/api/billing/invoices"),
    ("GET", "/api/billing/invoice/7001"),
    ("GET", "/api/service/1001"),
    ("GET", "/api/services"),
    ("PUT", "/api/service/1001"),
    ("GET", "/api/iplist/http-ip/txt/1001"),
];

#[tokio::test]
async fn every_endpoint_requires_authentication() {
    let sb = start().await;
    let cases: &[(Option<&str>, u16, &str)] = &[
        (None, 401, "Unauthenticated"),
        (
            Some("Bearer sometoken"),
            400,
            "Invalid Authorization header",
        ),
        (
            Some("Basic !!not-base64!!"),
            400,
            "Invalid credentials format",
        ),
    ];
    for (auth, status, text) in cases {
        let api = Api::with_auth(&sb, *auth);
        for (method, path) in ENDPOINTS {
            api.send(method, path, Some(r#"{"clientid":101}"#))
                .await
                .assert_text(*status, text);
        }
    }
    // Nothing was ordered by the refused POSTs.
    assert_eq!(sb.state().services, 13);
}

#[tokio::test]
async fn credentials_accepted_and_refused() {
    let sb = start().await;
    assert_eq!(sb.token(), DEMO_TOKEN);
    let status = |auth: String| {
        let api = Api::with_auth(&sb, Some(&auth));
        async move { api.get("/api/billing/credit").await }
    };
    // The token verbatim, and the login pair as base64 of login:password.
    assert_eq!(status(format!("Basic {DEMO_TOKEN}")).await.status, 200);
    assert_eq!(status(format!("basic {DEMO_TOKEN}")).await.status, 200);
    assert_eq!(
        status(format!("Basic {}", b64("demo:demo-password")))
            .await
            .status,
        200
    );
    // Unpadded base64 is read too.
    let unpadded = b64("demo:demo-password").trim_end_matches('=').to_owned();
    assert_eq!(status(format!("Basic {unpadded}")).await.status, 200);

    // Well-formed but wrong: 401.
    status(format!("Basic {}", b64("demo:wrong")))
        .await
        .assert_text(401, "Unauthenticated");
    status(format!("Basic {}", b64("nobody:demo-password")))
        .await
        .assert_text(401, "Unauthenticated");
    let wrong_token = "Zz9".repeat(14);
    status(format!("Basic {wrong_token}"))
        .await
        .assert_text(401, "Unauthenticated");
    // The token base64-encoded is not the token.
    status(format!("Basic {}", b64(DEMO_TOKEN)))
        .await
        .assert_text(400, "Invalid credentials format");
    // Unreadable: 400.
    status("Basic".into())
        .await
        .assert_text(400, "Invalid credentials format");
    status(format!("Basic {}", b64("no-colon")))
        .await
        .assert_text(400, "Invalid credentials format");
    status("Token abc".into())
        .await
        .assert_text(400, "Invalid Authorization header");
    status(DEMO_TOKEN.into())
        .await
        .assert_text(400, "Invalid Authorization header");
}

#[tokio::test]
async fn configured_token_and_no_login() {
    let sb = start_with(|c| {
        c.token = "my-own-token".into();
        c.login = None;
    })
    .await;
    let ok = Api::with_auth(&sb, Some("Basic my-own-token"));
    assert_eq!(ok.get("/api/clients").await.status, 200);
    let pair = Api::with_auth(&sb, Some(&format!("Basic {}", b64("demo:demo-password"))));
    pair.get("/api/clients")
        .await
        .assert_text(401, "Unauthenticated");
    let old = Api::with_auth(&sb, Some(&format!("Basic {DEMO_TOKEN}")));
    old.get("/api/clients")
        .await
        .assert_text(401, "Unauthenticated");
}
