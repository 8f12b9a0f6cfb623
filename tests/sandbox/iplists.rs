//! Endpoint 16: every type × format for fpr and ppr services, parsed with the client's
//! own parser.

use super::*;
use proxydash::api::iplist::parse_entries;
use proxydash::api::model::{IpListFormat, IpListType};
use std::collections::HashSet;

#[tokio::test]
async fn every_type_and_format_parses() {
    let sb = start().await;
    let api = Api::new(&sb);
    // (service, hosts, username, password, fpr?)
    let services = [
        (1001, 10, "pd1001ka", "Xk4v9QmL2t", true),
        (1012, 50, "pd1012mg", "Sj4Hx9Lc7b", true),
        (1003, 3, "pd1003rb", "Hn3Zp8Vy1c", false),
        (1010, 100, "pd1010xx", "Zc3Rb7Np1e", true), // a Fraud service still has its list
    ];
    for (id, hosts, user, pass, fpr) in services {
        for list_type in IpListType::ALL {
            for format in IpListFormat::ALL {
                let path = format!("/api/iplist/{list_type}/{format}/{id}");
                let r = api.get(&path).await;
                assert_eq!(r.status, 200, "{path}: {}", r.body);
                let expected_type = match format {
                    IpListFormat::Json => "application/json",
                    _ => "text/plain; charset=utf-8",
                };
                assert_eq!(r.content_type.as_deref(), Some(expected_type), "{path}");
                let (entries, skipped) = parse_entries(format, &r.body);
                assert_eq!(skipped, 0, "{path}:\n{}", r.body);
                assert_eq!(entries.len(), hosts, "{path}:\n{}", r.body);
                let distinct: HashSet<_> = entries.iter().map(|e| e.host.clone()).collect();
                assert_eq!(distinct.len(), hosts, "{path}: hosts repeat");

                let with_credentials =
                    !matches!(list_type, IpListType::HttpIp | IpListType::SocksIp);
                let socks = matches!(list_type, IpListType::SocksIp | IpListType::PprSocks);
                let port = match (fpr, socks) {
                    (true, false) => 8080,
                    (true, true) => 1080,
                    (false, false) => 8000,
                    (false, true) => 9000,
                };
                for e in &entries {
                    assert!(
                        e.host.parse::<std::net::Ipv4Addr>().is_ok(),
                        "{path}: {e:?}"
                    );
                    assert_eq!(e.port, Some(port), "{path}: {e:?}");
                    if with_credentials {
                        assert_eq!(e.login.as_deref(), Some(user), "{path}");
                        assert_eq!(e.password.as_deref(), Some(pass), "{path}");
                    } else {
                        assert_eq!(
                            (e.login.as_ref(), e.password.as_ref()),
                            (None, None),
                            "{path}"
                        );
                    }
                }
            }
        }
    }
}

#[tokio::test]
async fn the_layouts_as_served() {
    // With live servers' quirks, which this test also checks (`sandbox --quirks`).
    let sb = start_with(|c| c.quirks = true).await;
    let api = Api::new(&sb);
    let txt = api.get("/api/iplist/http-auth/txt/1003").await.body;
    assert_eq!(
        txt,
        "192.0.2.10:8000:pd1003rb:Hn3Zp8Vy1c\n192.0.2.11:8000:pd1003rb:Hn3Zp8Vy1c\n192.0.2.12:8000:pd1003rb:Hn3Zp8Vy1c\n"
    );
    let csv = api.get("/api/iplist/ppr-socks/csv/1003").await.body;
    assert_eq!(
        csv,
        "ip,port,login,password\n192.0.2.10,9000,pd1003rb,Hn3Zp8Vy1c\n192.0.2.11,9000,pd1003rb,Hn3Zp8Vy1c\n192.0.2.12,9000,pd1003rb,Hn3Zp8Vy1c\n"
    );
    let csv = api.get("/api/iplist/http-ip/csv/1003").await.body;
    assert!(csv.starts_with("ip,port\n192.0.2.10,8000\n"), "{csv}");
    // json: objects joined by ",\n", no brackets (as live servers send it).
    let json = api.get("/api/iplist/ppr-http/json/1003").await.body;
    assert_eq!(
        json,
        "{\"ip\":\"192.0.2.10\",\"port\":\"8000\",\"login\":\"pd1003rb\",\"password\":\"Hn3Zp8Vy1c\"},\n\
         {\"ip\":\"192.0.2.11\",\"port\":\"8000\",\"login\":\"pd1003rb\",\"password\":\"Hn3Zp8Vy1c\"},\n\
         {\"ip\":\"192.0.2.12\",\"port\":\"8000\",\"login\":\"pd1003rb\",\"password\":\"Hn3Zp8Vy1c\"}"
    );
    let fpr = api.get("/api/iplist/http-ip/txt/1001").await.body;
    for line in fpr.lines() {
        let ip: std::net::Ipv4Addr = line.trim_end_matches(":8080").parse().expect("ip");
        let o = ip.octets();
        assert!(
            matches!([o[0], o[1], o[2]], [203, 0, 113] | [198, 51, 100]),
            "{ip}"
        );
    }
}

#[tokio::test]
async fn a_password_with_json_specials_survives_every_format() {
    let sb = start().await;
    let api = Api::new(&sb);
    let password = r#"q'u\o:t;e{}"#;
    api.put(
        "/api/service/1002",
        &serde_json::json!({ "password": b64(password) }).to_string(),
    )
    .await
    .ok();
    for format in IpListFormat::ALL {
        let r = api
            .get(&format!("/api/iplist/http-auth/{format}/1002"))
            .await;
        let (entries, skipped) = parse_entries(format, &r.body);
        assert_eq!((entries.len(), skipped), (25, 0), "{format}: {}", r.body);
        assert!(
            entries
                .iter()
                .all(|e| e.password.as_deref() == Some(password)),
            "{format}"
        );
    }
}
