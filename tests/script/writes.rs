//! The subcommands that change the account or write files: each request sent once,
//! and the refusals that protect money, secrets and files.

use super::*;

#[tokio::test]
async fn order_with_yes_posts_once_and_spends_credit() {
    let sb = sandbox().await;
    let json = run(&sb, &["order", "11", "--client", "101", "--yes", "--json"])
        .await
        .ok()
        .json();
    for field in ["serviceId", "orderId", "invoiceId", "amount", "ip"] {
        assert!(json.get(field).is_some(), "{field}: {json}");
    }
    assert_eq!(json["amount"], 12.0);
    let posts = requests(&sb, "POST");
    assert_eq!(posts.len(), 1);
    assert_eq!(posts[0].path, "/api/product/11");
    assert_eq!(body(&posts[0]), serde_json::json!({ "clientid": 101 }));
    assert_eq!(sb.state().credit, 238.0);
    let new_id = json["serviceId"].as_u64().unwrap().to_string();
    let services = run(&sb, &["services"]).await.ok().stdout;
    row(&services, &new_id);

    // The table form, binding an IP.
    let table = run(
        &sb,
        &[
            "order",
            "12",
            "--client",
            "102",
            "--ip",
            "203.0.113.60",
            "-y",
        ],
    )
    .await
    .ok()
    .stdout;
    assert!(
        table.contains("203.0.113.60") && table.contains("$27.50"),
        "{table}"
    );
    let posts = requests(&sb, "POST");
    assert_eq!(posts.len(), 2);
    assert_eq!(body(&posts[1])["setip"], "203.0.113.60");
}

#[tokio::test]
async fn order_refuses_without_yes_off_a_terminal_and_checks_the_ip() {
    let sb = sandbox().await;
    run(&sb, &["order", "11", "--client", "101"])
        .await
        .fails(2, "--yes");
    run_with_input(&sb, &["order", "11", "--client", "101"], Some("y\n"))
        .await
        .fails(2, "--yes");
    run(
        &sb,
        &[
            "order",
            "11",
            "--client",
            "101",
            "--ip",
            "10.0.0.01",
            "--yes",
        ],
    )
    .await
    .fails(2, "not an IPv4 address");
    assert!(sb.requests().is_empty(), "{:?}", sb.requests());
    assert_eq!(sb.state().credit, 250.0);
}

#[tokio::test]
async fn order_errors_exit_1_and_a_lost_answer_is_an_unknown_outcome() {
    let sb = sandbox().await;
    sb.set_credit(1.0);
    run(&sb, &["order", "11", "--client", "101", "--yes"])
        .await
        .fails(1, "not enough funds");
    sb.set_credit(250.0);
    run(&sb, &["order", "11", "--client", "99", "--yes"])
        .await
        .fails(4, "ClientID not found");

    sb.clear_requests();
    sb.set_faults(Some("drop-after,method=POST".parse::<FaultSpec>().unwrap()));
    let out = run(&sb, &["order", "11", "--client", "101", "--yes"])
        .await
        .fails(1, "outcome is unknown");
    assert!(out.stderr.contains("proxydash services"), "{out:#?}");
    assert_eq!(requests(&sb, "POST").len(), 1, "never retried");
    // The server did act on it: which is exactly why the message says to check.
    assert_eq!(sb.state().credit, 238.0);
}

/// Issue 38 item 5: the command line follows the bind form's rule, with its reasons:
/// exit 2 and nothing sent.
#[tokio::test]
async fn bind_refuses_what_the_form_refuses_and_sends_nothing() {
    let sb = sandbox().await;
    for (ip, why) in [
        ("0.0.0.0", "unspecified"),
        ("127.0.0.1", "loopback"),
        ("10.0.0.8", "private"),
        ("224.0.0.1", "multicast"),
        ("169.254.0.9", "link-local"),
        ("100.64.0.1", "shared"),
        // Issue 46.7: RFC 5737's ranges were sent; no proxy user comes from one.
        ("192.0.2.1", "documentation"),
        ("198.51.100.7", "documentation"),
        ("203.0.113.5", "documentation"),
    ] {
        let out = run(&sb, &["bind", "1002", ip]).await.fails(2, why);
        assert!(out.stderr.contains(&format!("{ip} is a")), "{out:#?}");
        assert!(out.stderr.contains("nothing was sent"), "{out:#?}");
    }
    assert!(sb.requests().is_empty(), "{:?}", sb.requests());
}

#[tokio::test]
async fn bind_a_given_ip_and_refuse_a_malformed_one() {
    let sb = sandbox().await;
    let out = run(&sb, &["bind", "1002", "45.83.221.9"]).await.ok();
    assert!(
        out.stdout.contains("IP address updated successfully"),
        "{out:#?}"
    );
    let puts = requests(&sb, "PUT");
    assert_eq!(puts.len(), 1);
    assert_eq!(puts[0].path, "/api/service/1002");
    assert_eq!(
        body(&puts[0]),
        serde_json::json!({ "setip": "45.83.221.9" })
    );

    let json = run(&sb, &["bind", "1002", "45.83.221.10", "--json"])
        .await
        .ok()
        .json();
    assert_eq!(json["setip"]["success"], "IP address updated successfully");
    let detail = run(&sb, &["service", "1002", "--json"]).await.ok().json();
    assert_eq!(detail["bindedip"], "45.83.221.10");

    sb.clear_requests();
    for bad in ["01.2.3.4", "1.2.3", "256.1.1.1", "1.2.3.4 ", "example.com"] {
        run(&sb, &["bind", "1002", bad])
            .await
            .fails(2, "not an IPv4 address");
    }
    run(&sb, &["bind", "1002"]).await.fails(2, "");
    assert!(sb.requests().is_empty(), "{:?}", sb.requests());

    // 45.83.221.10 belongs to service 1002 now.
    run(&sb, &["bind", "1001", "45.83.221.10"]).await.fails(
        1,
        "Bind IP 45.83.221.10 to service 1001: Unprocessable Entity. IP already binded",
    );
}

#[tokio::test]
async fn bind_mine_binds_the_address_the_lookup_answers() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/ip", listener.local_addr().unwrap());
    let app = axum::Router::new().route("/ip", axum::routing::get(|| async { "45.83.220.77\n" }));
    let server = tokio::spawn(async move { axum::serve(listener, app).await });

    let sb = sandbox().await;
    let out = run(&sb, &["bind", "1002", "--mine", "--my-ip-url", &url])
        .await
        .ok();
    assert!(
        out.stdout.contains("IP address updated successfully"),
        "{out:#?}"
    );
    let puts = requests(&sb, "PUT");
    assert_eq!(puts.len(), 1);
    assert_eq!(body(&puts[0])["setip"], "45.83.220.77");

    // A lookup that fails sends nothing and exits 1.
    sb.clear_requests();
    let dead = format!("http://{}/ip", closed_port().await);
    run(&sb, &["bind", "1002", "--mine", "--my-ip-url", &dead])
        .await
        .fails(1, "Cannot look up this machine's IP");
    assert!(requests(&sb, "PUT").is_empty());
    server.abort();
}

/// A loopback my-IP service answering `body` to every request.
async fn answering(body: &'static [u8]) -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/ip", listener.local_addr().unwrap());
    let app = axum::Router::new().route("/ip", axum::routing::get(move || async move { body }));
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, server)
}

#[tokio::test]
async fn bind_mine_refuses_any_answer_that_is_not_one_public_address_and_says_why() {
    let sb = sandbox().await;
    let junk_then_ip: &'static [u8] = {
        let mut v = vec![b'x'; 1 << 20];
        v.extend_from_slice(b" 45.83.220.77");
        Vec::leak(v)
    };
    for (answer, why) in [
        (&b"0.0.0.0\n"[..], "0.0.0.0 is an unspecified"),
        (b"127.0.0.1", "127.0.0.1 is a loopback address"),
        (b"10.1.2.3", "10.1.2.3 is a private address"),
        (b"255.255.255.255", "is the broadcast address"),
        (b"100.64.0.9", "carrier-grade NAT"),
        (b"192.0.2.1", "documentation"),
        (
            b"<html><body>nginx/1.18.0.1</body></html>",
            "is not one IPv4 address",
        ),
        (junk_then_ip, "longer than 256 bytes"),
    ] {
        let (url, server) = answering(answer).await;
        run(&sb, &["bind", "1002", "--mine", "--my-ip-url", &url])
            .await
            .fails(1, why);
        server.abort();
    }
    // Plain http:// to a host that is not loopback is refused before anything is asked.
    run(
        &sb,
        &[
            "bind",
            "1002",
            "--mine",
            "--my-ip-url",
            "http://192.0.2.1/ip",
        ],
    )
    .await
    .fails(1, "refusing plain http://");
    assert!(requests(&sb, "PUT").is_empty(), "nothing was bound");
}

#[tokio::test]
async fn password_is_never_taken_from_an_argument() {
    let sb = sandbox().await;
    let out = run(&sb, &["password", "1001", "hunter2"])
        .await
        .fails(2, "shell history");
    assert!(
        !out.stderr.contains("hunter2"),
        "the secret is not echoed: {out:#?}"
    );
    run(&sb, &["password", "1001", "--json", "-hunter2"])
        .await
        .fails(2, "not taken as an argument");
    assert!(requests(&sb, "PUT").is_empty(), "{:?}", sb.requests());
}

#[tokio::test]
async fn password_reads_the_first_line_of_standard_input() {
    let sb = sandbox().await;
    let out = run_with_input(&sb, &["password", "1001"], Some("n3w-Pass_word\nignored\n"))
        .await
        .ok();
    assert!(
        out.stdout.contains("Password updated successfully"),
        "{out:#?}"
    );
    let puts = requests(&sb, "PUT");
    assert_eq!(puts.len(), 1);
    assert_eq!(puts[0].path, "/api/service/1001");
    assert_eq!(
        body(&puts[0]),
        serde_json::json!({ "password": BASE64.encode("n3w-Pass_word") })
    );
    let json = run(&sb, &["service", "1001", "--json", "--show-password"])
        .await
        .ok()
        .json();
    assert_eq!(json["password"], "n3w-Pass_word");

    let json = run_with_input(&sb, &["password", "1001", "--json"], Some("An0ther\r\n"))
        .await
        .ok()
        .json();
    assert_eq!(json["password"]["success"], "Password updated successfully");
    assert_eq!(
        body(&requests(&sb, "PUT")[1])["password"],
        BASE64.encode("An0ther")
    );

    // Nothing on standard input: nothing to send.
    run_with_input(&sb, &["password", "1001"], Some(""))
        .await
        .fails(2, "empty");
    run(&sb, &["password", "1001"]).await.fails(2, "empty");
    assert_eq!(requests(&sb, "PUT").len(), 2);
}

#[tokio::test]
async fn refresh_list_twice_is_throttled_the_second_time() {
    let sb = sandbox().await;
    let out = run(&sb, &["refresh-list", "1001"]).await.ok();
    assert!(
        out.stdout.contains("IP list updated successfully"),
        "{out:#?}"
    );
    let out = run(&sb, &["refresh-list", "1001", "--json"]).await;
    assert_eq!(out.code, Some(6), "{out:#?}");
    // Said as the dashboard says it: the countdown first (issue 45), then the server's time.
    assert!(
        out.stderr.contains("too soon: next refresh in 5m")
            || out.stderr.contains("too soon: next refresh in 4m"),
        "{out:#?}"
    );
    assert!(out.stderr.contains("on its clock"), "{out:#?}");
    // --json: the error as JSON, with the next possible time (issue 16.9).
    let doc = out.json();
    assert_eq!(doc["kind"], "throttled");
    assert!(
        chrono::NaiveDateTime::parse_from_str(
            doc["next_possible"].as_str().unwrap(),
            "%Y-%m-%d %H:%M:%S"
        )
        .is_ok(),
        "{doc}"
    );
    // The time as YYYY-MM-DD HH:MM:SS.
    let after = out.stderr.split("the server named ").nth(1).unwrap();
    assert!(
        chrono::NaiveDateTime::parse_from_str(&after[..19], "%Y-%m-%d %H:%M:%S").is_ok(),
        "{out:#?}"
    );
    let puts = requests(&sb, "PUT");
    assert_eq!(puts.len(), 2);
    assert_eq!(body(&puts[1]), serde_json::json!({ "update_list": "true" }));
    assert_eq!(puts[1].status, 429);
}

#[tokio::test]
async fn iplist_prints_the_list_as_served_with_a_default_type_per_product() {
    let sb = sandbox().await;
    let api = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap();

    let out = run(&sb, &["iplist", "1001"]).await.ok();
    let served = api
        .ip_list(1001, &IpListType::HttpAuth, &IpListFormat::Txt)
        .await
        .unwrap();
    assert_eq!(out.stdout, served.raw);
    assert!(sb.requests().iter().any(|r| r.path == "/api/service/1001"));
    assert!(
        sb.requests()
            .iter()
            .any(|r| r.path == "/api/iplist/http-auth/txt/1001")
    );

    let out = run(&sb, &["iplist", "1003", "--format", "json"]).await.ok();
    let served = api
        .ip_list(1003, &IpListType::PprHttp, &IpListFormat::Json)
        .await
        .unwrap();
    assert_eq!(out.stdout, served.raw);
    assert!(
        sb.requests()
            .iter()
            .any(|r| r.path == "/api/iplist/ppr-http/json/1003")
    );

    sb.clear_requests();
    let out = run(
        &sb,
        &["iplist", "1001", "--type", "socks-ip", "--format", "csv"],
    )
    .await
    .ok();
    assert!(!out.stdout.is_empty());
    let paths: Vec<String> = sb.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        ["/api/iplist/socks-ip/csv/1001"],
        "no lookup when the type is given"
    );

    run(&sb, &["iplist", "1001", "--type", "carrier-pigeon"])
        .await
        .fails(2, "carrier-pigeon");
}

#[tokio::test]
async fn iplist_writes_a_private_file_and_never_overwrites_it() {
    let sb = sandbox().await;
    let dir = temp_dir("iplist");
    let path = dir.join("list.txt");
    let path_arg = path.to_str().unwrap();
    let out = run(&sb, &["iplist", "1001", "-o", path_arg]).await.ok();
    assert!(out.stdout.contains("list.txt"), "{out:#?}");
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written.lines().count(), 10, "{written}");
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    run(&sb, &["iplist", "1003", "-o", path_arg])
        .await
        .fails(1, "already exists");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), written);
    let _ = std::fs::remove_dir_all(&dir);
}
