//! One connection to a fixture proxy of [`super`]: HTTP proxy (absolute-form
//! requests and `CONNECT`) or SOCKS5 with username/password, told apart by the first byte.
//! This is the server side of the test fixture, kept small: one request per HTTP
//! connection (`Connection: close` is sent on), heads up to 16 KiB, onward connections to
//! loopback only.

use super::{Behaviour, Fixture};
use base64::Engine as _;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Whether a login and password are accepted.
pub type Credentials = Arc<dyn Fn(&str, &str) -> bool + Send + Sync>;

const MAX_HEAD: usize = 16 * 1024;
/// A handshake that does not finish in this time is dropped.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

pub async fn handle(
    mut client: TcpStream,
    peer: SocketAddr,
    fixture: Fixture,
    exit: Ipv4Addr,
    credentials: &Credentials,
) {
    let _ = client.set_nodelay(true);
    if fixture.behaviour == Behaviour::Hang {
        // Holds the connection open without a word until the client gives up.
        let mut sink = [0u8; 1024];
        while matches!(client.read(&mut sink).await, Ok(n) if n > 0) {}
        return;
    }
    if !fixture.latency.is_zero() {
        tokio::time::sleep(fixture.latency).await;
    }
    let mut first = [0u8; 1];
    if client.peek(&mut first).await.unwrap_or(0) == 0 {
        return;
    }
    let upstream = tokio::time::timeout(HANDSHAKE_TIMEOUT, async {
        if first[0] == 5 {
            socks5(&mut client, fixture, exit, credentials).await
        } else {
            http(&mut client, peer, fixture, exit, credentials).await
        }
    })
    .await;
    if let Ok(Ok(mut upstream)) = upstream {
        let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
    }
}

/// Connects onward from `exit`, to loopback only.
async fn connect_onward(target: SocketAddr, exit: Ipv4Addr) -> io::Result<TcpStream> {
    if !target.ip().is_loopback() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "the sandbox's proxies only reach loopback",
        ));
    }
    let socket = TcpSocket::new_v4()?;
    // Without the source address the judge sees 127.0.0.1, which is still right.
    let _ = socket.bind(SocketAddr::from((exit, 0)));
    let stream = socket.connect(target).await?;
    let _ = stream.set_nodelay(true);
    Ok(stream)
}

async fn http(
    client: &mut TcpStream,
    peer: SocketAddr,
    fixture: Fixture,
    exit: Ipv4Addr,
    credentials: &Credentials,
) -> io::Result<TcpStream> {
    let mut buf = Vec::with_capacity(1024);
    let head_len = loop {
        let mut chunk = [0u8; 2048];
        let n = client.read(&mut chunk).await?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = find(&buf, b"\r\n\r\n") {
            break end + 4;
        }
        if buf.len() > MAX_HEAD {
            return reply(client, "431 Request Header Fields Too Large").await;
        }
    };
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut req = httparse::Request::new(&mut headers);
    if !matches!(
        req.parse(&buf[..head_len]),
        Ok(httparse::Status::Complete(_))
    ) {
        return reply(client, "400 Bad Request").await;
    }
    let (Some(method), Some(uri)) = (req.method, req.path) else {
        return reply(client, "400 Bad Request").await;
    };
    let authorized = req
        .headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case("proxy-authorization"))
        .and_then(|h| basic_pair(h.value))
        .is_some_and(|(u, p)| fixture.behaviour != Behaviour::AuthFails && credentials(&u, &p));
    if !authorized {
        client
            .write_all(
                b"HTTP/1.1 407 Proxy Authentication Required\r\n\
                  Proxy-Authenticate: Basic realm=\"sandbox\"\r\n\
                  Content-Length: 0\r\nConnection: close\r\n\r\n",
            )
            .await?;
        return Err(io::ErrorKind::PermissionDenied.into());
    }
    if method.eq_ignore_ascii_case("CONNECT") {
        let Some(target) = parse_authority(uri) else {
            return reply(client, "400 Bad Request").await;
        };
        let Ok(upstream) = connect_onward(target, exit).await else {
            return reply(client, "403 Forbidden").await;
        };
        client
            .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
            .await?;
        return Ok(upstream);
    }
    let Some((target, path)) = uri
        .strip_prefix("http://")
        .map(|rest| rest.split_at(rest.find('/').unwrap_or(rest.len())))
        .and_then(|(authority, path)| Some((parse_authority(authority)?, path)))
    else {
        return reply(client, "400 Bad Request").await;
    };
    let Ok(mut upstream) = connect_onward(target, exit).await else {
        return reply(client, "403 Forbidden").await;
    };
    let path = if path.is_empty() { "/" } else { path };
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    for h in req.headers.iter() {
        let name = h.name.to_ascii_lowercase();
        if name.starts_with("proxy-") || name == "connection" {
            continue;
        }
        head.push_str(h.name);
        head.push_str(": ");
        head.push_str(&String::from_utf8_lossy(h.value));
        head.push_str("\r\n");
    }
    match fixture.behaviour {
        Behaviour::Anonymous => head.push_str("Via: 1.1 sandbox-proxy\r\n"),
        Behaviour::Transparent => {
            head.push_str("Via: 1.1 sandbox-proxy\r\n");
            head.push_str(&format!("X-Forwarded-For: {}\r\n", peer.ip()));
        }
        _ => {}
    }
    head.push_str("Connection: close\r\n\r\n");
    upstream.write_all(head.as_bytes()).await?;
    // Whatever of the body came with the head.
    upstream.write_all(&buf[head_len..]).await?;
    Ok(upstream)
}

/// A short answer that ends the exchange (an error for the caller, so nothing is piped).
async fn reply(client: &mut TcpStream, status: &str) -> io::Result<TcpStream> {
    let text = format!("HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    client.write_all(text.as_bytes()).await?;
    Err(io::Error::other(status.to_owned()))
}

async fn socks5(
    client: &mut TcpStream,
    fixture: Fixture,
    exit: Ipv4Addr,
    credentials: &Credentials,
) -> io::Result<TcpStream> {
    let mut greeting = [0u8; 2];
    client.read_exact(&mut greeting).await?;
    let mut methods = vec![0u8; usize::from(greeting[1])];
    client.read_exact(&mut methods).await?;
    if !methods.contains(&2) {
        client.write_all(&[5, 0xFF]).await?;
        return Err(io::ErrorKind::PermissionDenied.into());
    }
    client.write_all(&[5, 2]).await?;
    // RFC 1929: version 1, then the login and password, each with its length.
    let mut version_len = [0u8; 2];
    client.read_exact(&mut version_len).await?;
    let mut login = vec![0u8; usize::from(version_len[1])];
    client.read_exact(&mut login).await?;
    let mut plen = [0u8; 1];
    client.read_exact(&mut plen).await?;
    let mut password = vec![0u8; usize::from(plen[0])];
    client.read_exact(&mut password).await?;
    let ok = fixture.behaviour != Behaviour::AuthFails
        && credentials(
            &String::from_utf8_lossy(&login),
            &String::from_utf8_lossy(&password),
        );
    client.write_all(&[1, if ok { 0 } else { 1 }]).await?;
    if !ok {
        return Err(io::ErrorKind::PermissionDenied.into());
    }
    let mut request = [0u8; 4];
    client.read_exact(&mut request).await?;
    let ip: Option<IpAddr> = match request[3] {
        1 => {
            let mut a = [0u8; 4];
            client.read_exact(&mut a).await?;
            Some(Ipv4Addr::from(a).into())
        }
        4 => {
            let mut a = [0u8; 16];
            client.read_exact(&mut a).await?;
            Some(std::net::Ipv6Addr::from(a).into())
        }
        3 => {
            let mut len = [0u8; 1];
            client.read_exact(&mut len).await?;
            let mut name = vec![0u8; usize::from(len[0])];
            client.read_exact(&mut name).await?;
            (name.eq_ignore_ascii_case(b"localhost")).then_some(Ipv4Addr::LOCALHOST.into())
        }
        _ => None,
    };
    let mut port = [0u8; 2];
    client.read_exact(&mut port).await?;
    let target = ip.map(|ip| SocketAddr::new(ip, u16::from_be_bytes(port)));
    let upstream = match target {
        Some(t) if request[1] == 1 => connect_onward(t, exit).await.ok(),
        _ => None,
    };
    // Reply 0 = succeeded, 2 = connection not allowed by ruleset.
    let code = if upstream.is_some() { 0 } else { 2 };
    client.write_all(&[5, code, 0, 1, 0, 0, 0, 0, 0, 0]).await?;
    upstream.ok_or_else(|| io::ErrorKind::PermissionDenied.into())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn parse_authority(authority: &str) -> Option<SocketAddr> {
    if let Ok(a) = authority.parse::<SocketAddr>() {
        return Some(a);
    }
    let (host, port) = authority.rsplit_once(':')?;
    let port = port.parse().ok()?;
    host.eq_ignore_ascii_case("localhost")
        .then(|| SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
}

fn basic_pair(value: &[u8]) -> Option<(String, String)> {
    let value = std::str::from_utf8(value).ok()?.trim();
    let (scheme, encoded) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (u, p) = text.split_once(':')?;
    Some((u.to_owned(), p.to_owned()))
}
