//! The command line for scripts, run as a user runs it: the real binary as a child process
//! against the in-process sandbox on loopback. Every subcommand in both output forms, the
//! exit status, and every error path (422, 400, 401, the network, bad usage, the refusals
//! that protect money and secrets).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use proxydash::api::{ApiClient, ClientConfig, Credentials, IpListFormat, IpListType};
use proxydash::sandbox::{FaultSpec, RecordedRequest, Sandbox, SandboxConfig, SandboxHandle};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Stdio;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

/// What a finished run left.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }

    #[track_caller]
    fn ok(self) -> Self {
        assert_eq!(self.code, Some(0), "{self:#?}");
        assert!(self.stderr.is_empty(), "{self:#?}");
        self
    }

    #[track_caller]
    fn fails(self, code: i32, stderr_has: &str) -> Self {
        assert_eq!(self.code, Some(code), "{self:#?}");
        assert!(
            self.stderr.contains(stderr_has),
            "{stderr_has:?} not in {self:#?}"
        );
        assert!(self.stdout.is_empty(), "{self:#?}");
        self
    }
}

async fn sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        ..SandboxConfig::default()
    })
    .await
    .expect("sandbox starts")
}

/// The binary with nothing of this environment that could change what it does or where
/// it connects; standard input is empty (not a terminal).
fn proxydash() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_proxydash"));
    for var in [
        "PROXYDASH_BASE_URL",
        "PROXYDASH_TOKEN",
        "PROXYDASH_LOGIN",
        "PROXYDASH_PASSWORD",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ] {
        cmd.env_remove(var);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

async fn finish(cmd: &mut Command, input: Option<&str>) -> Run {
    if input.is_some() {
        cmd.stdin(Stdio::piped());
    }
    let mut child = cmd.spawn().expect("the binary starts");
    if let Some(input) = input {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).await.unwrap();
    }
    let out = child.wait_with_output().await.unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `proxydash --base-url <sandbox> --token <token> ARGS…`
async fn run(sb: &SandboxHandle, args: &[&str]) -> Run {
    run_with_input(sb, args, None).await
}

async fn run_with_input(sb: &SandboxHandle, args: &[&str], input: Option<&str>) -> Run {
    let mut cmd = proxydash();
    cmd.args(["--base-url", &sb.base_url(), "--token", sb.token()])
        .args(args);
    finish(&mut cmd, input).await
}

fn requests(sb: &SandboxHandle, method: &str) -> Vec<RecordedRequest> {
    sb.requests()
        .into_iter()
        .filter(|r| r.method == method)
        .collect()
}

fn body(r: &RecordedRequest) -> Value {
    serde_json::from_str(&r.body).unwrap_or_else(|e| panic!("{e}: {}", r.body))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxydash-script-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The line of a table whose first cell is `key`.
fn row<'a>(table: &'a str, key: &str) -> &'a str {
    table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(key))
        .unwrap_or_else(|| panic!("no row {key} in:\n{table}"))
}

#[tokio::test]
async fn clients_as_a_table_and_as_json() {
    let sb = sandbox().await;
    let table = run(&sb, &["clients"]).await.ok().stdout;
    assert!(table.lines().next().unwrap().contains("EMAIL"), "{table}");
    assert!(row(&table, "101").contains("alice.nguyen@example.com"));
    assert_eq!(table.lines().count(), 5, "{table}");

    let json = run(&sb, &["clients", "--json"]).await.ok().json();
    let clients = json.as_array().unwrap();
    assert_eq!(clients.len(), 4);
    assert_eq!(clients[0]["id"], 101);
    assert_eq!(clients[0]["email"], "alice.nguyen@example.com");
    // The seed sends client 104's id as a string; the output is the API's shape, a number.
    assert_eq!(clients[3]["id"], 104);
}

#[tokio::test]
async fn products_sorted_by_each_field_of_the_spec() {
    let sb = sandbox().await;
    let table = run(&sb, &["products"]).await.ok().stdout;
    let header = table.lines().next().unwrap();
    for h in ["ID", "NAME", "GROUP", "PRICE", "CREATED"] {
        assert!(header.contains(h), "{header}");
    }
    let line = row(&table, "12");
    assert!(
        line.contains("Datacenter EU 25") && line.contains("$27.50"),
        "{line}"
    );

    let by_price = run(&sb, &["products", "--sort", "price", "--json"])
        .await
        .ok()
        .json();
    let prices: Vec<f64> = by_price
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["price"].as_f64().unwrap())
        .collect();
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "{prices:?}");
    let first = &by_price[0];
    for field in [
        "productId",
        "productName",
        "price",
        "groupId",
        "groupName",
        "created_at",
    ] {
        assert!(first.get(field).is_some(), "{field} missing: {first}");
    }
    for field in [
        "productId",
        "productName",
        "price",
        "groupId",
        "groupName",
        "created_at",
    ] {
        run(&sb, &["products", "--sort", field]).await.ok();
        assert!(
            sb.requests()
                .iter()
                .any(|r| r.path == format!("/api/products/orderby/{field}")),
            "{field}"
        );
    }

    sb.clear_requests();
    run(&sb, &["products", "--sort", "colour"])
        .await
        .fails(2, "colour");
    assert!(sb.requests().is_empty(), "bad usage sends nothing");
}

#[tokio::test]
async fn one_product_and_an_unknown_one() {
    let sb = sandbox().await;
    let table = run(&sb, &["product", "11"]).await.ok().stdout;
    assert!(table.contains("$12.00") && table.contains("fpr"), "{table}");
    assert!(table.contains("Static Datacenter"), "{table}");

    let json = run(&sb, &["product", "21", "--json"]).await.ok().json();
    assert_eq!(json["productId"], 21);
    assert_eq!(json["product_type"], "ppr");
    assert_eq!(json["price"], 25.0);
    assert!(json.get("product_hidden").is_some() && json.get("groupName").is_some());

    run(&sb, &["product", "999"]).await.fails(
        1,
        "product 999: Unprocessable Entity or product ID not found",
    );
}

#[tokio::test]
async fn services_list_and_one_service_with_its_password_masked() {
    let sb = sandbox().await;
    let table = run(&sb, &["services"]).await.ok().stdout;
    let line = row(&table, "1001");
    assert!(
        line.contains("Datacenter US 10") && line.contains("Active"),
        "{line}"
    );
    // Service 1011 is Free: its due date is "0000-00-00" on the wire, missing here.
    assert!(row(&table, "1011").contains('—'), "{table}");
    assert_eq!(table.lines().count(), 14, "{table}");

    let json = run(&sb, &["services", "--json"]).await.ok().json();
    let list = json.as_array().unwrap();
    assert_eq!(list.len(), 13);
    assert_eq!(list[0]["service_id"], 1001);
    assert_eq!(list[0]["status"], "Active");
    assert_eq!(list[0]["orderid"], 501);
    assert!(list[0].get("nextduedate").is_some());

    let table = run(&sb, &["service", "1001"]).await.ok().stdout;
    assert!(
        table.contains("192.0.2.50") && table.contains("pd1001ka"),
        "{table}"
    );
    assert!(!table.contains("Xk4v9QmL2t"), "masked by default: {table}");
    assert!(
        table
            .trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("Password:"),
        "{table}"
    );
    let table = run(&sb, &["service", "1001", "--show-password"])
        .await
        .ok()
        .stdout;
    assert!(table.contains("Xk4v9QmL2t"), "{table}");

    let json = run(&sb, &["service", "1001", "--json"]).await.ok().json();
    assert_eq!(json["service_id"], 1001);
    assert_eq!(json["bindedip"], "192.0.2.50");
    assert_eq!(json["product_type"], "fpr");
    assert_eq!(json["billingcycle"], "Monthly");
    assert!(json["password"].is_null(), "{json}");
    let json = run(&sb, &["service", "1001", "--json", "--show-password"])
        .await
        .ok()
        .json();
    assert_eq!(json["password"], "Xk4v9QmL2t");

    run(&sb, &["service", "99999"])
        .await
        .fails(1, "Read service 99999: Unprocessable Entity");
}

#[tokio::test]
async fn credit_and_invoices() {
    let sb = sandbox().await;
    let table = run(&sb, &["credit"]).await.ok().stdout;
    assert!(table.contains("$250.00"), "{table}");
    let json = run(&sb, &["credit", "--json"]).await.ok().json();
    assert_eq!(json, serde_json::json!({ "credit": 250.0 }));

    let table = run(&sb, &["invoices"]).await.ok().stdout;
    assert_eq!(table.lines().count(), 21, "{table}");
    let line = row(&table, "7004");
    assert!(line.contains("Unpaid") && line.contains("$27.50"), "{line}");
    assert!(line.contains('—'), "no date paid: {line}");
    let json = run(&sb, &["invoices", "--json"]).await.ok().json();
    let list = json.as_array().unwrap();
    assert_eq!(list.len(), 20);
    assert_eq!(list[0]["id"], 7001);
    for field in [
        "description",
        "status",
        "created_at",
        "amount",
        "paymentmethod",
        "serviceid",
    ] {
        assert!(list[0].get(field).is_some(), "{field}: {}", list[0]);
    }

    let table = run(&sb, &["invoice", "7014"]).await.ok().stdout;
    assert!(
        table.contains("Refunded") && table.contains("$180.00"),
        "{table}"
    );
    let json = run(&sb, &["invoice", "7001", "--json"]).await.ok().json();
    assert_eq!(
        json.as_array().unwrap().len(),
        1,
        "as the API answers it: {json}"
    );
    assert_eq!(json[0]["id"], 7001);
    assert_eq!(json[0]["amount"], 12.0);
}

#[tokio::test]
async fn stats_and_rate_of_a_ppr_service_and_422_for_fpr() {
    let sb = sandbox().await;
    let table = run(&sb, &["stats", "1003"]).await.ok().stdout;
    assert!(table.starts_with("DATE"), "{table}");
    assert!(table.lines().count() > 20, "{table}");
    let json = run(&sb, &["stats", "1003", "--json"]).await.ok().json();
    let first = &json.as_array().unwrap()[0];
    assert!(
        first["date"].is_string() && first["rate"].is_number(),
        "{first}"
    );

    let table = run(&sb, &["rate", "1003"]).await.ok().stdout;
    assert!(table.contains("5,120") && table.contains('%'), "{table}");
    let json = run(&sb, &["rate", "1003", "--json"]).await.ok().json();
    assert_eq!(json[0]["limit"], 5120.0);
    assert!(json[0]["rate"].is_number());

    run(&sb, &["stats", "1001"])
        .await
        .fails(1, "Stats of service 1001: Unprocessable Entity");
    run(&sb, &["rate", "1001", "--json"])
        .await
        .fails(1, "Unprocessable Entity");
}

#[tokio::test]
async fn network_errors_and_inactive_servers() {
    let sb = sandbox().await;
    let table = run(&sb, &["network", "1001"]).await.ok().stdout;
    assert_eq!(
        table.lines().filter(|l| l.starts_with("error ")).count(),
        2,
        "{table}"
    );
    assert_eq!(
        table.lines().filter(|l| l.starts_with("inactive ")).count(),
        1,
        "{table}"
    );
    let json = run(&sb, &["network", "1012", "--json"]).await.ok().json();
    assert_eq!(json["service_id"], 1012);
    assert_eq!(json["errors"].as_array().unwrap().len(), 3);
    assert_eq!(json["inactive"].as_array().unwrap().len(), 2);
    // Service 1013's client was removed: the server answers the 400 ClientID error.
    run(&sb, &["network", "1013"])
        .await
        .fails(1, "ClientID not found");
}

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
        .fails(1, "ClientID not found");

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

#[tokio::test]
async fn bind_a_given_ip_and_refuse_a_malformed_one() {
    let sb = sandbox().await;
    let out = run(&sb, &["bind", "1002", "203.0.113.9"]).await.ok();
    assert!(
        out.stdout.contains("IP address updated successfully"),
        "{out:#?}"
    );
    let puts = requests(&sb, "PUT");
    assert_eq!(puts.len(), 1);
    assert_eq!(puts[0].path, "/api/service/1002");
    assert_eq!(
        body(&puts[0]),
        serde_json::json!({ "setip": "203.0.113.9" })
    );

    let json = run(&sb, &["bind", "1002", "203.0.113.10", "--json"])
        .await
        .ok()
        .json();
    assert_eq!(json["setip"]["success"], "IP address updated successfully");
    let detail = run(&sb, &["service", "1002", "--json"]).await.ok().json();
    assert_eq!(detail["bindedip"], "203.0.113.10");

    sb.clear_requests();
    for bad in ["01.2.3.4", "1.2.3", "256.1.1.1", "1.2.3.4 ", "example.com"] {
        run(&sb, &["bind", "1002", bad])
            .await
            .fails(2, "not an IPv4 address");
    }
    run(&sb, &["bind", "1002"]).await.fails(2, "");
    assert!(sb.requests().is_empty(), "{:?}", sb.requests());

    // 192.0.2.50 belongs to service 1001.
    run(&sb, &["bind", "1002", "192.0.2.50"]).await.fails(
        1,
        "Bind IP 192.0.2.50 to service 1002: Unprocessable Entity. IP already binded",
    );
}

#[tokio::test]
async fn bind_mine_binds_the_address_the_lookup_answers() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/ip", listener.local_addr().unwrap());
    let app = axum::Router::new().route("/ip", axum::routing::get(|| async { "203.0.113.77\n" }));
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
    assert_eq!(body(&puts[0])["setip"], "203.0.113.77");

    // A lookup that fails sends nothing and exits 1.
    sb.clear_requests();
    let dead = format!("http://{}/ip", closed_port().await);
    run(&sb, &["bind", "1002", "--mine", "--my-ip-url", &dead])
        .await
        .fails(1, "Cannot look up this machine's IP");
    assert!(requests(&sb, "PUT").is_empty());
    server.abort();
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
    let out = run(&sb, &["refresh-list", "1001", "--json"])
        .await
        .fails(1, "Next update possible: ");
    // The time as YYYY-MM-DD HH:MM:SS.
    let after = out.stderr.split("possible: ").nth(1).unwrap();
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

#[tokio::test]
async fn a_wrong_token_is_401_and_exits_1() {
    let sb = sandbox().await;
    let mut cmd = proxydash();
    cmd.args([
        "--base-url",
        &sb.base_url(),
        "--token",
        "WrongToken0WrongToken0WrongToken0WrongTo",
        "services",
    ]);
    let out = finish(&mut cmd, None)
        .await
        .fails(1, "List services: Unauthenticated");
    assert!(
        out.stderr.contains("profile") && out.stderr.contains("--token"),
        "{out:#?}"
    );
    assert_eq!(out.stderr.lines().count(), 1, "{out:#?}");
    assert_eq!(sb.requests()[0].status, 401);
}

async fn closed_port() -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap()
    // Dropped here: nothing listens on it any more.
}

#[tokio::test]
async fn a_closed_port_is_a_network_error_and_exits_1() {
    let addr = closed_port().await;
    let mut cmd = proxydash();
    cmd.args([
        "--base-url",
        &format!("http://{addr}"),
        "--token",
        "t",
        "credit",
        "--json",
    ]);
    finish(&mut cmd, None)
        .await
        .fails(1, "Read the credit: Cannot reach");
}

#[tokio::test]
async fn bad_usage_and_missing_accounts_exit_2() {
    let sb = sandbox().await;
    run(&sb, &["service", "abc"]).await.fails(2, "abc");
    run(&sb, &["invoice"]).await.fails(2, "<ID>");
    run(&sb, &["services", "--frobnicate"])
        .await
        .fails(2, "--frobnicate");
    run(&sb, &["bind", "1001", "1.2.3.4", "--mine"])
        .await
        .fails(2, "--mine");
    assert!(sb.requests().is_empty());

    let mut cmd = proxydash();
    cmd.args(["services"]);
    finish(&mut cmd, None)
        .await
        .fails(2, "No account configured");
    let mut cmd = proxydash();
    cmd.args([
        "--base-url",
        "http://api.example.com",
        "--token",
        "t",
        "credit",
    ]);
    finish(&mut cmd, None)
        .await
        .fails(2, "--allow-insecure-http");
}

#[tokio::test]
async fn every_subcommand_has_help_with_an_example() {
    for sub in [
        "clients",
        "products",
        "product",
        "order",
        "services",
        "service",
        "bind",
        "password",
        "refresh-list",
        "iplist",
        "credit",
        "invoices",
        "invoice",
        "stats",
        "rate",
        "network",
        "completions",
    ] {
        let mut cmd = proxydash();
        cmd.args([sub, "--help"]);
        let out = finish(&mut cmd, None).await.ok();
        assert!(
            out.stdout.contains(&format!("Example:\n  proxydash {sub}")),
            "{sub}: {}",
            out.stdout
        );
    }
    let mut cmd = proxydash();
    cmd.arg("--help");
    let out = finish(&mut cmd, None).await.ok();
    assert!(out.stdout.contains("refresh-list"), "{}", out.stdout);
}

#[tokio::test]
async fn completions_for_bash_name_the_subcommands() {
    let mut cmd = proxydash();
    cmd.args(["completions", "bash"]);
    let out = finish(&mut cmd, None).await.ok();
    assert!(
        out.stdout.contains("complete -F _proxydash"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("refresh-list") && out.stdout.contains("iplist"));
    let mut cmd = proxydash();
    cmd.args(["completions", "tcsh-9"]);
    finish(&mut cmd, None).await.fails(2, "tcsh-9");
}

#[tokio::test]
async fn hostile_server_text_cannot_reach_the_terminal() {
    // A seed whose client e-mail carries escape sequences.
    let mut seed: Value = serde_json::from_str(include_str!("../assets/seed.json")).unwrap();
    seed["clients"][0]["email"] = "evil\u{1b}]0;pwned\u{7}\u{1b}[2J@example.com".into();
    let dir = temp_dir("hostile");
    let path = dir.join("seed.json");
    std::fs::write(&path, seed.to_string()).unwrap();
    let sb = Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        seed: Some(path),
        ..SandboxConfig::default()
    })
    .await
    .unwrap();
    let table = run(&sb, &["clients"]).await.ok().stdout;
    assert!(
        !table.contains('\u{1b}') && !table.contains('\u{7}'),
        "{table:?}"
    );
    assert!(row(&table, "101").contains("evil@example.com"), "{table}");
    // JSON keeps the value (escaped by JSON itself).
    let json = run(&sb, &["clients", "--json"]).await.ok().json();
    assert!(json[0]["email"].as_str().unwrap().contains('\u{1b}'));
    let _ = std::fs::remove_dir_all(&dir);
}
