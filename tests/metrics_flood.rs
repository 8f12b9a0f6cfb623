//! The metrics port under a flood of idle clients, alone in its own test binary: it counts
//! this process's descriptors, which other tests running beside it would disturb.

use proxydash::metrics::Board;
use proxydash::metrics::server::{connection_cap, serve};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Descriptors this process holds now.
fn descriptors() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count())
}

async fn get(addr: SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let ask = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
    s.write_all(ask.as_bytes()).await.unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).await.unwrap();
    answer
}

#[tokio::test(start_paused = true)]
async fn idle_clients_are_capped_and_dropped_and_metrics_still_answers() {
    let (addr, _task) = serve(
        "127.0.0.1:0".parse().unwrap(),
        Board::default(),
        std::future::pending(),
    )
    .await
    .unwrap();
    let before = descriptors();
    // 300 clients that send half a request head and then nothing.
    let flood = 300;
    let mut idle = Vec::new();
    for _ in 0..flood {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /metrics HTTP/1.1\r\n").await.unwrap();
        idle.push(s);
    }
    // The server takes its cap of them, and no more.
    let cap = connection_cap();
    let give_up = tokio::time::Instant::now() + Duration::from_secs(1);
    while descriptors() < before + flood + cap {
        assert!(
            tokio::time::Instant::now() < give_up,
            "the server took {} of its {cap}",
            descriptors() - before - flood
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        descriptors(),
        before + flood + cap,
        "at most {cap} held by the server"
    );
    // A scrape is answered (after the idle ones' deadlines), and each idle one was dropped.
    let answer = tokio::time::timeout(Duration::from_secs(120), get(addr, "/metrics"))
        .await
        .expect("the scrape is answered");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    for mut s in idle.drain(..cap) {
        let mut buf = [0u8; 64];
        let read = tokio::time::timeout(Duration::from_secs(60), s.read(&mut buf)).await;
        assert!(
            matches!(read, Ok(Ok(0)) | Ok(Err(_))),
            "an idle client was closed: {read:?}"
        );
    }
}
