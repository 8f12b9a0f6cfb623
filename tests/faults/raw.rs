//! Faults the sandbox cannot make, from a tiny TCP server on 127.0.0.1 that answers each
//! connection with a script: a body trickled byte by byte, a connection closed mid-body,
//! headers and then silence, bytes that are not HTTP, a `Retry-After` past the cap.
//!
//! The tests with a duration to check run on tokio's paused clock (the server's pauses,
//! the client's timeout and its waits are all tokio timers): the durations are the
//! program's own, exact, and cost no real time. The 80 MiB one stays on the real clock
//! (it checks no duration).

use proxydash::api::*;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;

#[derive(Clone)]
pub enum Step {
    Write(Vec<u8>),
    /// Each byte on its own, this long apart.
    Trickle(Vec<u8>, Duration),
    Sleep(Duration),
    /// `count` chunks of `size` bytes of `[` in chunked encoding (no end chunk).
    Chunks {
        size: usize,
        count: usize,
    },
}

/// A server that runs `script` on every connection (after reading the request head) and
/// then closes it. It stops when dropped.
pub struct Raw {
    pub addr: std::net::SocketAddr,
    /// When each request arrived.
    pub arrivals: Arc<Mutex<Vec<Instant>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Raw {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Raw {
    pub async fn start(script: Vec<Step>) -> Raw {
        Self::start_at("127.0.0.1:0", script).await
    }

    pub async fn start_at(listen: &str, script: Vec<Step>) -> Raw {
        let listener = TcpListener::bind(listen).await.expect("bind loopback");
        let addr = listener.local_addr().unwrap();
        let arrivals = Arc::new(Mutex::new(Vec::new()));
        let seen = arrivals.clone();
        let task = tokio::spawn(async move {
            let mut conns = tokio::task::JoinSet::new();
            while let Ok((stream, _)) = listener.accept().await {
                let script = script.clone();
                let seen = seen.clone();
                conns.spawn(async move {
                    let _ = serve(stream, script, seen).await;
                });
            }
        });
        Raw {
            addr,
            arrivals,
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn count(&self) -> usize {
        self.arrivals.lock().unwrap().len()
    }
}

async fn serve(
    mut stream: TcpStream,
    script: Vec<Step>,
    seen: Arc<Mutex<Vec<Instant>>>,
) -> std::io::Result<()> {
    read_head(&mut stream).await?;
    seen.lock().unwrap().push(Instant::now());
    for step in script {
        match step {
            Step::Write(bytes) => stream.write_all(&bytes).await?,
            Step::Trickle(bytes, gap) => {
                for b in bytes {
                    stream.write_all(&[b]).await?;
                    stream.flush().await?;
                    tokio::time::sleep(gap).await;
                }
            }
            Step::Sleep(d) => tokio::time::sleep(d).await,
            Step::Chunks { size, count } => {
                let chunk = [
                    format!("{size:x}\r\n").into_bytes(),
                    vec![b'['; size],
                    b"\r\n".to_vec(),
                ]
                .concat();
                for _ in 0..count {
                    stream.write_all(&chunk).await?;
                }
            }
        }
    }
    stream.flush().await?;
    Ok(())
}

/// Reads up to the blank line after the headers (requests here have no body).
pub async fn read_head(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    Ok(head)
}

pub fn head(status: &str, extra: &str, length: usize) -> Step {
    Step::Write(
        format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\nConnection: close\r\n{extra}\r\n"
        )
        .into_bytes(),
    )
}

pub fn client(url: &str, timeout: Duration) -> ApiClient {
    let mut config = ClientConfig::new(url, Credentials::Token("t0ken".into()));
    config.request_timeout = timeout;
    config.backoff = Duration::from_millis(20);
    ApiClient::new(config).expect("client")
}

const TIMEOUT: Duration = Duration::from_secs(1);

#[tokio::test(start_paused = true)]
async fn a_body_trickled_past_the_timeout_times_out_once() {
    let body = b"[                                                  ]".to_vec();
    let raw = Raw::start(vec![
        head("200 OK", "", body.len()),
        Step::Trickle(body, Duration::from_millis(100)),
    ])
    .await;
    let c = client(&raw.url(), TIMEOUT);
    let started = Instant::now();
    let e = c.services().await.unwrap_err();
    let took = started.elapsed();
    assert!(matches!(e, ApiError::Timeout { .. }), "{e:?}");
    assert!(
        took >= TIMEOUT && took < TIMEOUT + Duration::from_millis(100),
        "{took:?}"
    );
    assert_eq!(raw.count(), 1, "a timeout is not retried");
    assert!(e.outcome_unknown());
}

#[tokio::test(start_paused = true)]
async fn a_body_trickled_within_the_timeout_is_read() {
    let body = b"[ ]".to_vec();
    let raw = Raw::start(vec![
        head("200 OK", "", body.len()),
        Step::Trickle(body, Duration::from_millis(100)),
    ])
    .await;
    let c = client(&raw.url(), TIMEOUT);
    assert_eq!(c.services().await.unwrap(), vec![]);
    assert_eq!(raw.count(), 1);
}

#[tokio::test]
async fn a_connection_closed_mid_body_is_a_lost_connection_retried_twice() {
    let raw = Raw::start(vec![
        head("200 OK", "", 400),
        Step::Write(br#"[{"service_id":1001,"product_na"#.to_vec()),
    ])
    .await;
    let c = client(&raw.url(), TIMEOUT);
    let e = c.services().await.unwrap_err();
    assert!(matches!(e, ApiError::Transport { .. }), "{e:?}");
    assert!(!e.to_string().contains('\n'), "{e}");
    assert_eq!(raw.count(), 3);
    // For a write the same loss is an unknown outcome, and is sent once.
    let e = c
        .order(
            11,
            &OrderRequest {
                clientid: 1,
                setip: None,
            },
        )
        .await
        .unwrap_err();
    assert!(e.outcome_unknown(), "{e:?}");
    assert_eq!(raw.count(), 4);
}

#[tokio::test(start_paused = true)]
async fn headers_then_silence_times_out() {
    let raw = Raw::start(vec![
        head("200 OK", "", 10),
        Step::Sleep(Duration::from_secs(30)),
    ])
    .await;
    let c = client(&raw.url(), TIMEOUT);
    let started = Instant::now();
    let e = c.credit().await.unwrap_err();
    assert!(matches!(e, ApiError::Timeout { .. }), "{e:?}");
    let took = started.elapsed();
    assert!(
        took >= TIMEOUT && took < TIMEOUT + Duration::from_millis(100),
        "{took:?}"
    );
    assert_eq!(raw.count(), 1);
}

#[tokio::test]
async fn bytes_that_are_not_http_are_a_typed_one_line_error() {
    let raw = Raw::start(vec![Step::Write(
        b"SSH-2.0-OpenSSH_9.6\r\n\x1b[2J\x00garbage\r\n\r\n".to_vec(),
    )])
    .await;
    let c = client(&raw.url(), TIMEOUT);
    let e = c.credit().await.unwrap_err();
    assert!(
        matches!(e, ApiError::Transport { .. } | ApiError::Http { .. }),
        "{e:?}"
    );
    let line = e.to_string();
    assert!(!line.chars().any(char::is_control), "{line:?}");
    assert!(raw.count() <= 3);
}

#[tokio::test]
async fn an_accepted_connection_closed_at_once_is_retried_twice() {
    let raw = Raw::start(vec![]).await;
    let c = client(&raw.url(), TIMEOUT);
    let e = c.credit().await.unwrap_err();
    assert!(matches!(e, ApiError::Transport { .. }), "{e:?}");
    assert_eq!(raw.count(), 3);
}

/// `Retry-After: 1` is waited for between attempts (measured where the requests arrive).
#[tokio::test(start_paused = true)]
async fn retry_after_is_waited_for_between_attempts() {
    let body = b"<html><head><title>503 Service Unavailable</title></head></html>".to_vec();
    let raw = Raw::start(vec![
        head("503 Service Unavailable", "Retry-After: 1\r\n", body.len()),
        Step::Write(body),
    ])
    .await;
    let c = client(&raw.url(), TIMEOUT);
    let e = c.credit().await.unwrap_err();
    assert!(
        matches!(
            e,
            ApiError::Http {
                status: 503,
                retry_after: Some(1),
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "HTTP 503: 503 Service Unavailable");
    let arrivals = raw.arrivals.lock().unwrap().clone();
    assert_eq!(arrivals.len(), 3);
    for pair in arrivals.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(
            gap >= Duration::from_secs(1) && gap < Duration::from_millis(1100),
            "{gap:?}"
        );
    }
}

/// A `Retry-After` beyond the cap is not waited for: one attempt, the error at once.
#[tokio::test(start_paused = true)]
async fn retry_after_beyond_the_cap_is_not_waited_for() {
    let secs = RETRY_AFTER_CAP.as_secs() + 1;
    let raw = Raw::start(vec![head(
        "503 Service Unavailable",
        &format!("Retry-After: {secs}\r\n"),
        0,
    )])
    .await;
    let c = client(&raw.url(), TIMEOUT);
    let started = Instant::now();
    let e = c.credit().await.unwrap_err();
    // Not waited for: on the paused clock no time passes at all.
    assert!(started.elapsed() < Duration::from_millis(100), "{e:?}");
    assert_eq!(raw.count(), 1);
    // A 429 that is not the update_list throttle is the account's limit: not retried by
    // the client (the scheduler pauses the account and sends the GET again, see
    // tests/ratelimit.rs), and typed so a script can say when to try again.
    let raw = Raw::start(vec![head("429 Too Many Requests", "Retry-After: 1\r\n", 0)]).await;
    let c = client(&raw.url(), TIMEOUT);
    let started = Instant::now();
    let e = c.credit().await.unwrap_err();
    assert_eq!(
        e,
        ApiError::RateLimited {
            retry_after: Some(1)
        }
    );
    assert_eq!(raw.count(), 1);
    assert!(started.elapsed() < Duration::from_millis(100));
}

/// An answer that announces more than the client reads is refused before it is read.
#[tokio::test(start_paused = true)]
async fn an_announced_huge_answer_is_refused_unread() {
    let raw = Raw::start(vec![
        head("200 OK", "", MAX_BODY + 1),
        Step::Sleep(Duration::from_secs(5)),
    ])
    .await;
    let c = client(&raw.url(), Duration::from_secs(3));
    let started = Instant::now();
    let e = c.services().await.unwrap_err();
    assert!(matches!(e, ApiError::Decode { .. }), "{e:?}");
    assert!(e.to_string().contains("larger than 64 MiB"), "{e}");
    // Before the server's 5 s pause ended: not read, not waited for.
    assert!(started.elapsed() < Duration::from_millis(100));
    assert_eq!(raw.count(), 1, "not retried");
}

/// An endless answer (chunked, no length) is cut at the limit instead of filling memory.
#[tokio::test]
async fn an_endless_answer_is_cut_at_the_limit() {
    let raw = Raw::start(vec![
        Step::Write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                .to_vec(),
        ),
        // 80 MiB, more than the limit, then the connection closes.
        Step::Chunks {
            size: 1 << 20,
            count: 80,
        },
    ])
    .await;
    let c = client(&raw.url(), Duration::from_secs(20));
    let e = c.credit().await.unwrap_err();
    assert!(matches!(e, ApiError::Decode { .. }), "{e:?}");
    // Credit is one small object: its limit is 1 MiB (`api::limits`).
    assert!(e.to_string().contains("larger than 1 MiB"), "{e}");
    assert!(e.outcome_unknown());
    assert_eq!(raw.count(), 1);
}

/// An error answer is read only as far as its message needs (`api::limits::ERROR_BODY_CAP`):
/// a 400 announcing 60 MB, of which 64 KiB come and then nothing, is reported at once
/// with the start of its text, not after waiting for (and holding) the rest.
#[tokio::test(start_paused = true)]
async fn an_error_answer_is_read_only_to_its_first_kilobytes() {
    let mut first = b"Invalid request: ".to_vec();
    first.resize(64 << 10, b'x');
    let raw = Raw::start(vec![
        head("400 Bad Request", "Content-Type: text/plain\r\n", 60 << 20),
        Step::Write(first),
        Step::Sleep(Duration::from_secs(5)),
    ])
    .await;
    let c = client(&raw.url(), Duration::from_secs(3));
    let started = Instant::now();
    let e = c.services().await.unwrap_err();
    assert!(
        matches!(e, ApiError::Http { status: 400, .. }),
        "not waited for the rest: {e:?}"
    );
    assert!(e.to_string().contains("Invalid request: xxx"), "{e}");
    // Before the server's 5 s pause ended: the rest was not waited for.
    assert!(started.elapsed() < Duration::from_millis(100));
    assert_eq!(raw.count(), 1);
}
