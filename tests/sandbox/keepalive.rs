//! Keep-alive connections as a raw client sees them: the sandbox closes one left idle for
//! `IDLE_CLOSE`, as live servers do (so a client that never lets go does not hold its
//! descriptors forever), and never one whose answer is still being made. On tokio's
//! paused clock: the durations are the sandbox's own timers, exact and free.

use super::*;
use proxydash::sandbox::IDLE_CLOSE;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// Sends `GET /myip` on `stream` (kept alive) and reads the whole answer.
async fn ask(stream: &mut TcpStream) -> String {
    stream
        .write_all(b"GET /myip HTTP/1.1\r\nHost: sandbox\r\n\r\n")
        .await
        .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let n = stream.read(&mut buf).await.unwrap();
        let so_far = String::from_utf8_lossy(&got);
        assert!(n > 0, "closed before the answer was whole: {so_far:?}");
        got.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&got).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head.lines().find_map(|l| {
                let l = l.to_ascii_lowercase();
                l.strip_prefix("content-length:")
                    .and_then(|v| v.trim().parse::<usize>().ok())
            });
            if body.len() >= length.unwrap_or(0) {
                return text;
            }
        }
    }
}

/// Waits for the sandbox to close `stream`: the end of the stream, no byte before it
/// (failing, not hanging, if it is still open at twice the limit).
async fn closed(stream: &mut TcpStream) {
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(IDLE_CLOSE * 2, stream.read(&mut byte))
        .await
        .expect("still open at twice the idle limit");
    assert_eq!(read.unwrap(), 0, "a byte, not the end");
}

#[tokio::test(start_paused = true)]
async fn an_idle_connection_is_closed_after_the_idle_limit_and_not_before() {
    let sb = start().await;
    let mut stream = TcpStream::connect(sb.addr()).await.unwrap();
    assert!(ask(&mut stream).await.starts_with("HTTP/1.1 200"));
    // Just short of the limit the connection is still there, and the clock starts again.
    tokio::time::sleep(IDLE_CLOSE - Duration::from_secs(1)).await;
    assert!(ask(&mut stream).await.starts_with("HTTP/1.1 200"));
    let quiet = Instant::now();
    closed(&mut stream).await;
    let waited = quiet.elapsed();
    assert!(
        waited >= IDLE_CLOSE && waited < IDLE_CLOSE + Duration::from_secs(1),
        "{waited:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_slow_answer_is_not_cut_for_being_quiet() {
    let sb = start().await;
    let slow = IDLE_CLOSE * 2;
    let spec = format!("slow,slow-ms={}", slow.as_millis());
    sb.set_faults(Some(spec.parse().unwrap()));
    let mut stream = TcpStream::connect(sb.addr()).await.unwrap();
    let asked = Instant::now();
    assert!(ask(&mut stream).await.starts_with("HTTP/1.1 200"));
    assert!(asked.elapsed() >= slow, "{:?}", asked.elapsed());
    sb.set_faults(None);
    // The same connection, still open after twice the limit without a byte.
    assert!(ask(&mut stream).await.starts_with("HTTP/1.1 200"));
}
