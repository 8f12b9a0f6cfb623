//! Secrets stay where they belong: the Authorization header goes to the configured API
//! host only (never across a redirect to another host name, port or scheme), plain HTTP is
//! refused for hosts that are not loopback, the token appears in no `Debug`, error or log
//! line, and every file proxydash writes is created `0600` (folders `0700`).

use crate::support;

use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use proxydash::api::*;
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const TOKEN: &str = "s3cretT0kenThatMustNotLeak0123456789abcd";

/// What a test server saw of one request.
#[derive(Clone, Debug)]
struct Seen {
    path: String,
    host: Option<String>,
    authorization: Option<String>,
}

struct Server {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<Seen>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Server {
    /// Listens on `ip`; `/api/services` answers a 302 to `redirect` when given, every
    /// other path `[]`.
    async fn start(ip: &str, redirect: Option<String>) -> Server {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let app = axum::Router::new().fallback(move |request: Request| {
            let log = log.clone();
            let redirect = redirect.clone();
            async move {
                let headers: &HeaderMap = request.headers();
                let text = |name| {
                    headers.get(name).map(|v: &header::HeaderValue| {
                        String::from_utf8_lossy(v.as_bytes()).into_owned()
                    })
                };
                log.lock().unwrap().push(Seen {
                    path: request.uri().path().to_owned(),
                    host: text(header::HOST),
                    authorization: text(header::AUTHORIZATION),
                });
                match redirect {
                    Some(to) if request.uri().path() == "/api/services" => Response::builder()
                        .status(StatusCode::FOUND)
                        .header(header::LOCATION, to)
                        .body(axum::body::Body::empty())
                        .unwrap(),
                    _ => ([(header::CONTENT_TYPE, "application/json")], "[]").into_response(),
                }
            }
        });
        let listener = tokio::net::TcpListener::bind((ip, 0)).await.expect("bind");
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Server { addr, seen, task }
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn client(base: &str) -> ApiClient {
    let mut config = ClientConfig::new(base, Credentials::Token(TOKEN.into()));
    config.request_timeout = Duration::from_secs(3);
    config.backoff = Duration::from_millis(10);
    ApiClient::new(config).expect("client")
}

/// Redirects the API host answers with, and whether each leaves the origin.
async fn redirect_case(target: impl Fn(&Server) -> String, other: &Server) {
    let api = Server::start("127.0.0.1", Some(target(other))).await;
    let c = client(&format!("http://{}", api.addr));
    let result = c.services().await;
    // Not followed: the client reports the redirect itself.
    let e = result.expect_err("a cross-origin redirect is not followed");
    assert!(matches!(e, ApiError::Http { status: 302, .. }), "{e:?}");
    assert!(
        e.to_string().contains("/elsewhere/services, not followed"),
        "the message says why: {e}"
    );
    assert!(!e.to_string().contains(TOKEN), "{e}");
    // The API host got the token; the other host got nothing at all, so no token.
    let at_api = api.seen();
    assert_eq!(at_api.len(), 1, "{at_api:?}");
    assert_eq!(
        at_api[0].authorization.as_deref(),
        Some(format!("Basic {TOKEN}").as_str())
    );
    let elsewhere: Vec<Seen> = other
        .seen()
        .into_iter()
        .filter(|s| s.path.starts_with("/elsewhere"))
        .collect();
    assert!(
        elsewhere.iter().all(|s| s.authorization.is_none()),
        "the token reached another host: {elsewhere:?}"
    );
    assert!(elsewhere.is_empty(), "{elsewhere:?}");
}

#[tokio::test]
async fn a_redirect_to_another_host_does_not_carry_the_token() {
    // 127.0.0.2: another address (and host name) on loopback.
    let other = Server::start("127.0.0.2", None).await;
    redirect_case(|o| format!("http://{}/elsewhere/services", o.addr), &other).await;
}

#[tokio::test]
async fn localhost_and_127_0_0_1_are_different_hosts() {
    let other = Server::start("127.0.0.1", None).await;
    redirect_case(
        |o| format!("http://localhost:{}/elsewhere/services", o.addr.port()),
        &other,
    )
    .await;
}

#[tokio::test]
async fn a_redirect_to_another_port_or_scheme_is_not_followed() {
    let other = Server::start("127.0.0.1", None).await;
    redirect_case(|o| format!("http://{}/elsewhere/services", o.addr), &other).await;
    redirect_case(|o| format!("https://{}/elsewhere/services", o.addr), &other).await;
}

#[tokio::test]
async fn a_same_host_redirect_is_followed_with_the_token() {
    let api = Server::start("127.0.0.1", Some("/api/moved/services".into())).await;
    let c = client(&format!("http://{}", api.addr));
    assert_eq!(c.services().await.unwrap(), vec![]);
    let seen = api.seen();
    assert_eq!(
        seen.iter().map(|s| s.path.as_str()).collect::<Vec<_>>(),
        ["/api/services", "/api/moved/services"]
    );
    for s in &seen {
        assert_eq!(
            s.authorization.as_deref(),
            Some(format!("Basic {TOKEN}").as_str()),
            "{s:?}"
        );
        assert_eq!(s.host.as_deref(), Some(api.addr.to_string().as_str()));
    }
}

#[tokio::test]
async fn plain_http_is_refused_for_hosts_that_are_not_loopback() {
    for base in [
        "http://api.example.com",
        "http://203.0.113.10:8080",
        "http://[2001:db8::1]",
        "http://127.0.0.1.example.com",
    ] {
        let e = ApiClient::new(ClientConfig::new(base, Credentials::Token(TOKEN.into())))
            .expect_err(base);
        assert!(matches!(e, ApiError::Config(_)), "{base}: {e:?}");
        assert!(e.to_string().contains("--allow-insecure-http"), "{e}");
        assert!(!e.to_string().contains(TOKEN));
        // Explicitly allowed: accepted (nothing is sent by building a client).
        let mut config = ClientConfig::new(base, Credentials::Token(TOKEN.into()));
        config.allow_insecure_http = true;
        assert!(ApiClient::new(config).is_ok(), "{base}");
    }
    for base in ["http://127.0.0.2:1", "http://localhost:1", "http://[::1]:1"] {
        assert!(
            ApiClient::new(ClientConfig::new(base, Credentials::Token(TOKEN.into()))).is_ok(),
            "{base}"
        );
    }
    // And end to end: the binary refuses before it connects anywhere.
    let home = support::temp_dir("insecure");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_proxydash"))
        .args(["--base-url", "http://api.example.com", "--token", TOKEN])
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env_remove("PROXYDASH_BASE_URL")
        .env_remove("PROXYDASH_TOKEN")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("Refusing plain http://"), "{stderr}");
    assert!(!stderr.contains(TOKEN), "{stderr}");
}

#[tokio::test]
async fn the_token_is_in_no_debug_output() {
    let config = ClientConfig::new("https://api.example.com", Credentials::Token(TOKEN.into()));
    let c = ApiClient::new(config.clone()).unwrap();
    let login = ClientConfig::new(
        "https://api.example.com",
        Credentials::login("alice", TOKEN),
    );
    for text in [
        format!("{config:?}"),
        format!("{c:?}"),
        format!("{login:?}"),
        format!("{:?}", ApiClient::new(login.clone()).unwrap()),
    ] {
        assert!(!text.contains(TOKEN), "{text}");
        assert!(!text.contains("czNjcmV0"), "base64 of the secret: {text}");
    }
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Every file proxydash writes, reached from the library: exports, the state file (and its
/// folder), the log file (which holds no secret after requests that failed and succeeded),
/// and `config init`.
#[tokio::test]
async fn files_proxydash_writes_are_private() {
    // It starts the process's log subscriber: in a process of its own.
    if !support::own_process("secrets::files_proxydash_writes_are_private") {
        return;
    }
    let dir = support::temp_dir("files");

    // Exports (the `w` key): files::write_new.
    let export = dir.join("export.txt");
    proxydash::files::write_new(&export, b"198.51.100.7:8080:user:pass\n").unwrap();
    assert_eq!(mode(&export), 0o600);

    // The state file (429 countdowns): files::replace, folder created 0700.
    let state =
        proxydash::iplist_throttle::StateFile::new(dir.join("state/proxydash/throttle.json"));
    let mut throttles = proxydash::iplist_throttle::Throttles::default();
    throttles.set(1001, chrono::Utc::now() + chrono::TimeDelta::minutes(5));
    state
        .save("https://api.example.com default", &throttles)
        .unwrap();
    assert_eq!(mode(state.path()), 0o600);
    assert_eq!(mode(state.path().parent().unwrap()), 0o700);
    // Replaced, it stays private.
    state
        .save("https://api.example.com default", &throttles)
        .unwrap();
    assert_eq!(mode(state.path()), 0o600);

    // The log file, even one that was left readable by others, and its folder.
    let log = dir.join("logs/proxydash/proxydash.log");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::fs::write(&log, "").unwrap();
    std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o644)).unwrap();
    proxydash::logging::init(&log).expect("logging starts");
    assert_eq!(mode(&log), 0o600);
    let sb = support::sandbox(None).await;
    let mut config = ClientConfig::new(sb.base_url(), Credentials::Token(sb.token().into()));
    config.backoff = Duration::from_millis(5);
    let c = ApiClient::new(config).unwrap();
    c.services().await.unwrap();
    sb.set_faults(Some("500-html".parse().unwrap()));
    let _ = c.credit().await;
    sb.set_faults(None);
    let bad = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::login("alice", TOKEN),
    ))
    .unwrap();
    let _ = bad.services().await;
    let _ = bad
        .update_service(
            1001,
            &ServiceUpdate {
                password: Some(TOKEN.into()),
                ..Default::default()
            },
        )
        .await;
    let written = std::fs::read_to_string(&log).unwrap();
    assert!(
        written.contains("api/services"),
        "the log has the requests: {written}"
    );
    for secret in [TOKEN, sb.token(), "czNjcmV0", "Basic"] {
        assert!(
            !written.contains(secret),
            "{secret:?} in the log:\n{written}"
        );
    }

    // `config init`.
    let home = dir.join("home");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_proxydash"))
        .args(["config", "init"])
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let config = home.join("config/proxydash/config.toml");
    assert_eq!(mode(&config), 0o600);
    assert_eq!(mode(config.parent().unwrap()), 0o700);
}
