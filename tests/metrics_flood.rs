//! The metrics port under a flood of slow clients (slow, so the flood is of connections,
//! not of bytes: the other tests on loopback beside it are not starved).
//!
//! On tokio's paused clock: the deadlines and the clients' pace are the program's own
//! time, so "answered within 10 s" (Prometheus' default scrape timeout) is exact whatever
//! the machine's load.

use proxydash::metrics::Board;
use proxydash::metrics::server::{HEAD_DEADLINE, PER_PEER, serve};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One test at a time: each floods the loopback interface.
static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn get(addr: SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let ask = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
    s.write_all(ask.as_bytes()).await.unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer).await;
    answer
}

/// Whether the server closed `s` by `by` (tokio's clock).
async fn closed(s: &mut TcpStream, by: tokio::time::Instant) -> bool {
    let mut buf = [0u8; 64];
    let read = tokio::time::timeout_at(by, s.read(&mut buf)).await;
    matches!(read, Ok(Ok(0)) | Ok(Err(_)))
}

async fn server() -> SocketAddr {
    let (addr, _task) = serve(
        "127.0.0.1:0".parse().unwrap(),
        Board::default(),
        std::future::pending(),
    )
    .await
    .unwrap();
    addr
}

#[tokio::test(start_paused = true)]
async fn idle_clients_of_one_address_are_capped_and_dropped_and_metrics_still_answers() {
    let _alone = ALONE.lock().await;
    let addr = server().await;
    // 300 clients that send half a request head and then nothing.
    let flood = 300;
    let mut idle = Vec::new();
    for _ in 0..flood {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /metrics HTTP/1.1\r\n").await.unwrap();
        idle.push(s);
    }
    // Within its head deadline the server holds at most its cap for one address (the
    // newest): it closed the older ones at once, and closes the rest at the deadline.
    let half = tokio::time::Instant::now() + HEAD_DEADLINE / 2;
    let early = futures::future::join_all(idle.iter_mut().map(|s| closed(s, half))).await;
    let held: Vec<usize> = (0..flood).filter(|i| !early[*i]).collect();
    assert_eq!(held.len(), PER_PEER, "held from one address: {held:?}");
    assert!(
        held.iter().all(|i| *i >= flood - PER_PEER),
        "the newest are held: {held:?}"
    );
    // A scrape is answered at once.
    let answer = tokio::time::timeout(Duration::from_millis(100), get(addr, "/metrics"))
        .await
        .expect("the scrape is answered at once");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let by = tokio::time::Instant::now() + HEAD_DEADLINE;
    for i in held {
        assert!(
            closed(&mut idle[i], by).await,
            "client {i} was closed at the deadline"
        );
    }
}

/// Issue 38 item 4: 300 connections that send half a request and then a header line a
/// second (and connect again when dropped) used to keep one scrape in three from being
/// answered within 10 s. Every scrape is answered at once now (within a second).
#[tokio::test(start_paused = true)]
async fn scrapes_are_answered_under_300_slow_clients() {
    let _alone = ALONE.lock().await;
    let addr = server().await;
    let stop = Arc::new(AtomicBool::new(false));
    let connects = Arc::new(AtomicUsize::new(0));
    let mut clients = Vec::new();
    for _ in 0..300 {
        let (stop, connects) = (stop.clone(), connects.clone());
        clients.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                connects.fetch_add(1, Ordering::Relaxed);
                if let Ok(mut s) = TcpStream::connect(addr).await
                    && s.write_all(b"GET /metrics HTTP/1.1\r\n").await.is_ok()
                {
                    for n in 0.. {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        let line = format!("X-Slow-{n}: 1\r\n");
                        if stop.load(Ordering::Relaxed)
                            || s.write_all(line.as_bytes()).await.is_err()
                        {
                            break;
                        }
                    }
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }));
    }
    // Let the flood take hold first.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut answered = 0;
    for _ in 0..9 {
        // Within a second, where Prometheus gives 10 s: before, a scrape waited 4 to 7 s
        // here (on this clock) behind the slow clients, and one in three passed 10 s on a
        // real machine.
        let scrape = tokio::time::timeout(Duration::from_secs(1), get(addr, "/metrics")).await;
        if scrape.is_ok_and(|a| a.starts_with("HTTP/1.1 200")) {
            answered += 1;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        let _ = c.await;
    }
    assert!(connects.load(Ordering::Relaxed) >= 300);
    assert_eq!(answered, 9, "scrapes answered within a second, of 9");
}

#[tokio::test]
async fn a_huge_head_gets_431_and_other_paths_404() {
    let _alone = ALONE.lock().await;
    let addr = server().await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    let huge = format!(
        "GET /metrics HTTP/1.1\r\nX-Big: {}\r\n\r\n",
        "a".repeat(1 << 20)
    );
    let (mut read, mut write) = s.split();
    let (_, answer) = tokio::join!(write.write_all(huge.as_bytes()), async {
        let mut answer = String::new();
        let _ = read.read_to_string(&mut answer).await;
        answer
    });
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer:.200}");
    assert!(get(addr, "/").await.starts_with("HTTP/1.1 404"));
    assert!(get(addr, "/metrics?x=1").await.starts_with("HTTP/1.1 200"));
}
