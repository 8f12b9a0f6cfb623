//! The API client against the in-process sandbox over real loopback HTTP: every endpoint
//! decodes, every error row of spec section 7 maps to its case, the headers are on every
//! call, and writes are sent exactly once whatever the server does.

use proxydash::api::*;
use proxydash::sandbox::{FaultSpec, Sandbox, SandboxConfig, SandboxHandle};
use std::time::Duration;

async fn sandbox() -> SandboxHandle {
    sandbox_with(SandboxConfig::default()).await
}

async fn sandbox_with(config: SandboxConfig) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        ..config
    })
    .await
    .expect("sandbox starts")
}

fn client_for(sb: &SandboxHandle, credentials: Credentials) -> ApiClient {
    let mut config = ClientConfig::new(sb.base_url(), credentials);
    config.backoff = Duration::from_millis(10);
    config.request_timeout = Duration::from_secs(3);
    ApiClient::new(config).expect("client")
}

fn client(sb: &SandboxHandle) -> ApiClient {
    client_for(sb, Credentials::Token(sb.token().into()))
}

/// The services with their details, split by product type.
async fn services_by_type(c: &ApiClient) -> (Vec<Service>, Vec<Service>) {
    let mut fpr = Vec::new();
    let mut ppr = Vec::new();
    for s in c.services().await.unwrap() {
        let detail = c.service(s.service_id).await.unwrap();
        match detail.product_type {
            ProductType::Fpr => fpr.push(detail),
            ProductType::Ppr => ppr.push(detail),
            _ => {}
        }
    }
    (fpr, ppr)
}

#[tokio::test]
async fn every_read_endpoint_succeeds_and_decodes() {
    let sb = sandbox().await;
    let c = client(&sb);

    let clients = c.clients().await.unwrap();
    assert!(clients.len() >= 3);
    assert!(clients.iter().all(|cl| cl.id > 0 && cl.email.contains('@')));

    let products = c.products().await.unwrap();
    assert!(products.len() >= 8);
    for field in SortField::ALL {
        let sorted = c.products_ordered_by(field).await.unwrap();
        assert_eq!(sorted.len(), products.len(), "{field}");
    }
    let by_price = c.products_ordered_by(&SortField::Price).await.unwrap();
    assert!(by_price.windows(2).all(|w| w[0].price <= w[1].price));
    let mut types = Vec::new();
    for p in &products {
        let product = c.product(p.product_id).await.unwrap();
        assert_eq!(product.product_id, p.product_id);
        types.push(product.product_type);
    }
    assert!(types.contains(&ProductType::Fpr) && types.contains(&ProductType::Ppr));

    let services = c.services().await.unwrap();
    assert!(services.len() >= 12);
    let (fpr, ppr) = services_by_type(&c).await;
    assert!(!fpr.is_empty() && !ppr.is_empty());
    for s in &ppr {
        assert!(!c.stats(s.service_id).await.unwrap().is_empty());
        assert!(!c.rate(s.service_id).await.unwrap().is_empty());
    }
    let mut problems = 0;
    let mut orphans = Vec::new();
    for s in &services {
        // The seed keeps one service whose client was removed: the server answers its
        // network status with the 400 ClientID error, as live servers do.
        match c.network_errors(s.service_id).await {
            Ok(list) => problems += list.len(),
            Err(ApiError::ClientIdNotFound { .. }) => orphans.push(s.service_id),
            Err(e) => panic!("{}: {e:?}", s.service_id),
        }
        if !orphans.contains(&s.service_id) {
            problems += c.network_inactive(s.service_id).await.unwrap().len();
        }
    }
    assert!(problems > 0, "the seed has proxy servers in trouble");
    assert_eq!(orphans.len(), 1, "{orphans:?}");

    assert!(c.credit().await.unwrap().credit > 0.0);
    let invoices = c.invoices().await.unwrap();
    assert!(invoices.len() >= 20);
    let one = c.invoice(invoices[0].id).await.unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].id, invoices[0].id);

    for s in [&fpr[0], &ppr[0]] {
        for list_type in IpListType::ALL {
            for format in IpListFormat::ALL {
                let list = c.ip_list(s.service_id, list_type, format).await.unwrap();
                assert!(list.count > 0, "{} {list_type} {format}", s.service_id);
                assert_eq!(
                    list.skipped, 0,
                    "{} {list_type} {format}: {}",
                    s.service_id, list.raw
                );
            }
        }
    }
}

#[tokio::test]
async fn writes_succeed_and_change_the_account() {
    let sb = sandbox().await;
    let c = client(&sb);
    let client_id = c.clients().await.unwrap()[0].id;
    let credit = c.credit().await.unwrap().credit;
    let products = c.products().await.unwrap();
    let cheapest = products
        .iter()
        .filter(|p| p.price <= credit)
        .min_by(|a, b| a.price.total_cmp(&b.price))
        .unwrap();
    let before = c.services().await.unwrap().len();
    let result = c
        .order(
            cheapest.product_id,
            &OrderRequest {
                clientid: client_id,
                setip: None,
            },
        )
        .await
        .unwrap();
    assert!(result.service_id > 0);
    assert!((result.amount - cheapest.price).abs() < 0.005);
    assert_eq!(c.services().await.unwrap().len(), before + 1);
    let after = c.credit().await.unwrap().credit;
    assert!(
        (credit - cheapest.price - after).abs() < 0.005,
        "{credit} - {} != {after}",
        cheapest.price
    );

    let (fpr, _) = services_by_type(&c).await;
    let target = fpr[0].service_id;
    let set = c
        .update_service(
            target,
            &ServiceUpdate {
                setip: Some("203.0.113.77".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(set.messages(), vec!["IP address updated successfully"]);
    assert_eq!(
        c.service(target).await.unwrap().bound_ip.as_deref(),
        Some("203.0.113.77")
    );

    let pw = c
        .update_service(
            target,
            &ServiceUpdate {
                password: Some("n3w:pass@word!".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(pw.messages(), vec!["Password updated successfully"]);
    assert_eq!(
        c.service(target).await.unwrap().password.expose(),
        "n3w:pass@word!"
    );

    let refreshed = c
        .update_service(
            target,
            &ServiceUpdate {
                update_list: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(refreshed.messages(), vec!["IP list updated successfully"]);

    // What went over the wire: the PUT bodies of spec 4.3, the password base64-encoded.
    let puts: Vec<_> = sb
        .requests()
        .into_iter()
        .filter(|r| r.method == "PUT")
        .collect();
    let bodies: Vec<serde_json::Value> = puts
        .iter()
        .map(|r| serde_json::from_str(&r.body).unwrap())
        .collect();
    assert_eq!(bodies[0], serde_json::json!({"setip": "203.0.113.77"}));
    assert_eq!(
        bodies[1],
        serde_json::json!({"password": "bjN3OnBhc3NAd29yZCE="})
    );
    assert_eq!(bodies[2], serde_json::json!({"update_list": "true"}));
    assert!(
        puts.iter()
            .all(|r| r.path == format!("/api/service/{target}"))
    );
}

#[tokio::test]
async fn every_request_carries_the_three_headers() {
    let sb = sandbox().await;
    let c = client(&sb);
    let _ = c.clients().await;
    let _ = c.services().await;
    let _ = c.credit().await;
    let _ = c.product(999_999).await;
    let _ = c.update_service(1, &ServiceUpdate::default()).await;
    let requests = sb.requests();
    assert_eq!(requests.len(), 5);
    for r in requests {
        assert_eq!(
            r.authorization.as_deref(),
            Some(format!("Basic {}", sb.token()).as_str()),
            "{}",
            r.path
        );
        assert_eq!(
            r.content_type.as_deref(),
            Some("application/json"),
            "{}",
            r.path
        );
        assert_eq!(r.accept.as_deref(), Some("application/json"), "{}", r.path);
    }
}

#[tokio::test]
async fn login_and_password_are_accepted_as_base64() {
    let sb = sandbox().await;
    let (login, password) = SandboxConfig::default()
        .login
        .expect("the demo has a login pair");
    let c = client_for(&sb, Credentials::login(login.clone(), password.as_str()));
    assert!(c.credit().await.is_ok());
    let wrong = client_for(&sb, Credentials::login(login, "not-the-password"));
    assert_eq!(wrong.credit().await.unwrap_err(), ApiError::Unauthenticated);
}

#[tokio::test]
async fn auth_errors_map_to_their_cases() {
    let sb = sandbox().await;
    let wrong = client_for(&sb, Credentials::Token("d3Jvbmc6dG9rZW4=".into()));
    assert_eq!(
        wrong.services().await.unwrap_err(),
        ApiError::Unauthenticated
    );
    let garbled = client_for(&sb, Credentials::Token("%%%not-base64%%%".into()));
    assert_eq!(
        garbled.services().await.unwrap_err(),
        ApiError::InvalidCredentialsFormat
    );

    // The client always sends Basic; a Bearer header (as a misconfigured proxy might send)
    // is provoked with a raw request and mapped by the same function the client uses.
    let raw = reqwest::Client::new()
        .get(format!("{}/api/services", sb.base_url()))
        .header("Authorization", "Bearer abc")
        .send()
        .await
        .unwrap();
    let status = raw.status();
    let body = raw.bytes().await.unwrap();
    assert_eq!(
        status_error(status, &body, None),
        ApiError::InvalidAuthorizationHeader
    );
}

fn unprocessable(e: &ApiError) -> Unprocessable {
    e.unprocessable()
        .unwrap_or_else(|| panic!("expected a 422, got {e:?}"))
}

#[tokio::test]
async fn every_422_and_the_client_id_400_map_to_their_cases() {
    let sb = sandbox().await;
    let c = client(&sb);
    let (fpr, ppr) = services_by_type(&c).await;
    let fpr_id = fpr[0].service_id;
    let client_id = c.clients().await.unwrap()[0].id;
    let products = c.products().await.unwrap();
    let pid = products[0].product_id;

    // Generic, with the spec's trailing space kept verbatim and trimmed for display.
    let e = c.stats(fpr_id).await.unwrap_err();
    assert_eq!(unprocessable(&e), Unprocessable::Generic);
    assert!(
        matches!(&e, ApiError::Unprocessable { message, .. } if message == "Unprocessable Entity ")
    );
    assert_eq!(e.to_string(), "Unprocessable Entity");
    assert_eq!(
        unprocessable(&c.rate(fpr_id).await.unwrap_err()),
        Unprocessable::Generic
    );

    assert_eq!(
        unprocessable(&c.product(999_999).await.unwrap_err()),
        Unprocessable::ProductNotFound
    );
    let order = |pid, clientid| {
        let c = c.clone();
        async move {
            c.order(
                pid,
                &OrderRequest {
                    clientid,
                    setip: None,
                },
            )
            .await
        }
    };
    assert_eq!(
        unprocessable(&order(999_999, client_id).await.unwrap_err()),
        Unprocessable::ProductNotFound
    );
    assert_eq!(
        unprocessable(&order(pid, 999_999).await.unwrap_err()),
        Unprocessable::ClientIdNotFound
    );

    // Order the dearest product until the credit runs out.
    let dearest = products
        .iter()
        .max_by(|a, b| a.price.total_cmp(&b.price))
        .unwrap();
    let mut funds = None;
    for _ in 0..10_000 {
        if let Err(e) = order(dearest.product_id, client_id).await {
            funds = Some(e);
            break;
        }
    }
    assert_eq!(
        unprocessable(&funds.expect("credit runs out")),
        Unprocessable::NotEnoughFunds
    );

    // Incorrect posted data: a body of the wrong shape, sent raw.
    let raw = reqwest::Client::new()
        .put(format!("{}/api/service/{fpr_id}", sb.base_url()))
        .header("Authorization", format!("Basic {}", sb.token()))
        .header("Content-Type", "application/json")
        .body("[1,2,3]")
        .send()
        .await
        .unwrap();
    let (status, body) = (raw.status(), raw.bytes().await.unwrap());
    assert_eq!(
        unprocessable(&status_error(status, &body, None)),
        Unprocessable::IncorrectPostedData
    );

    let setip = |id, ip: &str| {
        let c = c.clone();
        let update = ServiceUpdate {
            setip: Some(ip.to_owned()),
            ..Default::default()
        };
        async move { c.update_service(id, &update).await }
    };
    assert_eq!(
        unprocessable(&setip(fpr_id, "256.1.1.1").await.unwrap_err()),
        Unprocessable::InvalidIpv4
    );
    let other = fpr
        .iter()
        .find(|s| s.service_id != fpr_id)
        .unwrap()
        .service_id;
    setip(other, "198.51.100.200").await.unwrap();
    assert_eq!(
        unprocessable(&setip(fpr_id, "198.51.100.200").await.unwrap_err()),
        Unprocessable::IpAlreadyBound
    );
    assert!(!ppr.is_empty());

    // 400 with a JSON ClientID error (endpoints 8, 9, 15).
    for e in [
        c.network_errors(999_999).await.unwrap_err(),
        c.network_inactive(999_999).await.unwrap_err(),
        setip(999_999, "203.0.113.9").await.unwrap_err(),
    ] {
        assert!(
            matches!(&e, ApiError::ClientIdNotFound { message } if message == "Unprocessable Entity. ClientID not found"),
            "{e:?}"
        );
    }
}

#[tokio::test]
async fn the_update_list_throttle_gives_its_next_possible_time() {
    let sb = sandbox_with(SandboxConfig {
        throttle: Duration::from_secs(120),
        ..SandboxConfig::default()
    })
    .await;
    let c = client(&sb);
    let (fpr, _) = services_by_type(&c).await;
    let refresh = ServiceUpdate {
        update_list: true,
        ..Default::default()
    };
    c.update_service(fpr[0].service_id, &refresh).await.unwrap();
    let before = chrono::Utc::now().naive_utc();
    let e = c
        .update_service(fpr[0].service_id, &refresh)
        .await
        .unwrap_err();
    let ApiError::Throttled {
        next_possible,
        message,
    } = &e
    else {
        panic!("expected a 429, got {e:?}");
    };
    assert!(message.starts_with("Too Many Attempts (updateList). Next update possible: "));
    let next = next_possible.expect("the time is parsed");
    let ahead = (next - before).num_seconds();
    assert!(
        (110..=121).contains(&ahead),
        "next possible {ahead} s ahead"
    );
    // Throttled is not transient: the 429 was sent once, never retried.
    let puts = sb.requests().iter().filter(|r| r.method == "PUT").count();
    assert_eq!(puts, 2);
}

#[tokio::test]
async fn a_post_is_sent_exactly_once_whatever_the_server_does() {
    let sb = sandbox().await;
    let c = client(&sb);
    let client_id = c.clients().await.unwrap()[0].id;
    let pid = c.products().await.unwrap()[0].product_id;
    for fault in ["500-html", "502", "503", "drop", "drop-after", "truncated"] {
        sb.set_faults(Some(fault.parse::<FaultSpec>().unwrap()));
        let before = sb.requests().len();
        let e = c
            .order(
                pid,
                &OrderRequest {
                    clientid: client_id,
                    setip: None,
                },
            )
            .await
            .unwrap_err();
        let sent: Vec<_> = sb.requests()[before..]
            .iter()
            .map(|r| r.method.clone())
            .collect();
        assert_eq!(sent, vec!["POST"], "{fault}: {e}");
        if fault.starts_with("drop") {
            assert!(e.outcome_unknown(), "{fault}: {e:?}");
        }
        let put = c
            .update_service(
                1,
                &ServiceUpdate {
                    update_list: true,
                    ..Default::default()
                },
            )
            .await;
        assert!(put.is_err());
        let puts = sb.requests()[before..]
            .iter()
            .filter(|r| r.method == "PUT")
            .count();
        assert_eq!(puts, 1, "{fault}");
    }
}

#[tokio::test]
async fn gets_are_retried_a_bounded_number_of_times() {
    let sb = sandbox().await;
    let c = client(&sb);
    sb.set_faults(Some("502".parse().unwrap()));
    let e = c.services().await.unwrap_err();
    assert!(matches!(e, ApiError::Http { status: 502, .. }), "{e:?}");
    assert_eq!(sb.requests().len(), 3, "one try and two retries");
    // An HTML error page becomes one readable line.
    assert!(!e.to_string().contains('<'), "{e}");
    sb.set_faults(None);
    assert!(c.services().await.is_ok());
}

#[tokio::test]
async fn network_faults_become_readable_errors() {
    let sb = sandbox().await;
    let c = client(&sb);
    for (fault, check) in [
        (
            "500-html",
            (|e: &ApiError| matches!(e, ApiError::Http { status: 500, .. }))
                as fn(&ApiError) -> bool,
        ),
        ("truncated", |e| matches!(e, ApiError::Decode { .. })),
        ("wrong-shape", |e| matches!(e, ApiError::Decode { .. })),
        ("empty", |e| matches!(e, ApiError::Decode { .. })),
        ("drop", |e| {
            matches!(e, ApiError::Transport { .. } | ApiError::Connect { .. })
        }),
    ] {
        sb.set_faults(Some(fault.parse().unwrap()));
        let e = c.services().await.unwrap_err();
        assert!(check(&e), "{fault}: {e:?}");
        let line = e.to_string();
        assert!(
            !line.contains('\n') && !line.contains('<'),
            "{fault}: {line}"
        );
    }
    sb.set_faults(None);
    assert!(c.services().await.is_ok(), "recovers when the fault stops");
}

#[tokio::test]
async fn a_closed_port_is_a_connect_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let mut config = ClientConfig::new(
        format!("http://127.0.0.1:{port}"),
        Credentials::Token("t".into()),
    );
    config.backoff = Duration::from_millis(5);
    let c = ApiClient::new(config).unwrap();
    let e = c.services().await.unwrap_err();
    assert!(matches!(e, ApiError::Connect { .. }), "{e:?}");
    assert!(
        e.to_string().starts_with(&format!(
            "Cannot reach http://127.0.0.1:{port}/api/services: "
        )),
        "{e}"
    );
}

/// Issue 16.1: a read-only client refuses every write before sending it, whoever asks
/// (the dashboard's fetcher and the command line both go through it); reads still work.
#[tokio::test]
async fn a_read_only_client_sends_no_write() {
    let sb = sandbox().await;
    let c = ApiClient::new(ClientConfig {
        read_only: true,
        ..ClientConfig::new(sb.base_url(), Credentials::Token(sb.token().into()))
    })
    .unwrap();
    let order = OrderRequest {
        clientid: 101,
        setip: None,
    };
    assert_eq!(c.order(11, &order).await.unwrap_err(), ApiError::ReadOnly);
    for update in [
        ServiceUpdate {
            setip: Some("203.0.113.9".into()),
            ..ServiceUpdate::default()
        },
        ServiceUpdate {
            update_list: true,
            ..ServiceUpdate::default()
        },
        ServiceUpdate {
            password: Some("n3w-Passw0rd".into()),
            ..ServiceUpdate::default()
        },
    ] {
        let e = c.update_service(1001, &update).await.unwrap_err();
        assert_eq!(e, ApiError::ReadOnly);
        assert!(!e.outcome_unknown());
    }
    assert!(sb.requests().is_empty(), "{:#?}", sb.requests());
    c.credit().await.unwrap();
    assert_eq!(sb.requests().len(), 1);
}
