use super::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn get(addr: SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let ask = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
    s.write_all(ask.as_bytes()).await.unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).await.unwrap();
    answer
}

#[test]
fn the_cap_keeps_descriptors_for_the_api() {
    assert_eq!(cap_for(1024), MAX_CONNECTIONS);
    assert_eq!(cap_for(256 + 20), 10);
    assert_eq!(cap_for(100), 1);
}

#[tokio::test]
async fn metrics_and_nothing_else() {
    let board = Board::default();
    let (addr, _task) = serve(
        "127.0.0.1:0".parse().unwrap(),
        board,
        std::future::pending(),
    )
    .await
    .unwrap();
    let ok = get(addr, "/metrics").await;
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    assert!(ok.contains("text/plain; version=0.0.4"), "{ok}");
    assert!(!ok.contains("# EOF"), "{ok}");
    let mut s = TcpStream::connect(addr).await.unwrap();
    let ask = "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5\r\n\r\n";
    s.write_all(ask.as_bytes()).await.unwrap();
    let mut om = String::new();
    s.read_to_string(&mut om).await.unwrap();
    assert!(om.contains("openmetrics-text"), "{om}");
    assert!(om.contains("# EOF"), "{om}");
    assert!(get(addr, "/").await.starts_with("HTTP/1.1 404"));
}
