//! Target 8: decoding a 10,000-service list and a 100,000-line IP list runs within 2× of
//! serde_json parsing the same bytes into a plain struct.

mod common;

use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use proxydash::api::{IpListFormat, ServiceSummary, iplist, lenient};
use serde::Deserialize;
use std::hint::black_box;

/// The same fields with no leniency: the fastest serde can go.
#[derive(Deserialize)]
#[allow(dead_code)]
struct PlainService {
    service_id: u64,
    product_name: String,
    nextduedate: String,
    orderid: u64,
    status: String,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct PlainEntry {
    ip: String,
    port: String,
    login: String,
    password: String,
}

fn services_json(n: usize) -> String {
    let items: Vec<String> = (1..=n)
        .map(|i| {
            format!(
                r#"{{"service_id":{i},"product_name":"Datacenter US {}","nextduedate":"2026-12-{:02}","orderid":{},"status":"Active"}}"#,
                i % 50,
                i % 28 + 1,
                i + 500
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// Objects joined by commas and newlines, without brackets, as live servers send them.
fn iplist_json(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                r#"{{"ip":"198.18.{}.{}","port":"8080","login":"user{}","password":"pw{}"}}"#,
                i / 250,
                i % 250,
                i % 1000,
                i % 1000
            )
        })
        .collect::<Vec<_>>()
        .join(",\n")
}

fn decode_services(bytes: &[u8]) -> Vec<ServiceSummary> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    lenient::vec(&mut de).expect("valid")
}

fn bench(c: &mut Criterion) {
    let services = services_json(10_000);
    let t_ours = median(30, || {
        black_box(decode_services(services.as_bytes()));
    });
    let t_plain = median(30, || {
        black_box(serde_json::from_slice::<Vec<PlainService>>(services.as_bytes()).unwrap());
    });
    let ratio = t_ours.as_secs_f64() / t_plain.as_secs_f64();
    println!(
        "10,000 services: lenient {}, plain serde {}",
        ms(t_ours),
        ms(t_plain)
    );
    report(
        "decode services lenient/plain",
        ratio,
        "≤ 2.0",
        ratio <= 2.0,
    );

    let list = iplist_json(100_000);
    let bracketed = format!("[{list}]");
    let t_ours = median(10, || {
        black_box(iplist::parse_entries(&IpListFormat::Json, &list));
    });
    let t_plain = median(10, || {
        black_box(serde_json::from_str::<Vec<PlainEntry>>(&bracketed).unwrap());
    });
    let ratio = t_ours.as_secs_f64() / t_plain.as_secs_f64();
    println!(
        "100,000-line IP list (json): ours {}, plain serde {}",
        ms(t_ours),
        ms(t_plain)
    );
    report(
        "decode IP list json ours/plain",
        ratio,
        "≤ 2.0",
        ratio <= 2.0,
    );

    let txt: String = (0..100_000)
        .map(|i| {
            format!(
                "198.18.{}.{}:8080:user{}:pw{}\n",
                i / 250,
                i % 250,
                i % 1000,
                i % 1000
            )
        })
        .collect();
    let t_txt = median(10, || {
        black_box(iplist::parse_entries(&IpListFormat::Txt, &txt));
    });
    let ratio = t_txt.as_secs_f64() / t_plain.as_secs_f64();
    println!("100,000-line IP list (txt): ours {}", ms(t_txt));
    report(
        "decode IP list txt ours/plain-json",
        ratio,
        "≤ 2.0",
        ratio <= 2.0,
    );

    let mut group = c.benchmark_group("decode");
    group.sample_size(20);
    group.bench_function("services-10k/lenient", |b| {
        b.iter(|| decode_services(services.as_bytes()))
    });
    group.bench_function("services-10k/plain", |b| {
        b.iter(|| serde_json::from_slice::<Vec<PlainService>>(services.as_bytes()).unwrap())
    });
    group.bench_function("iplist-100k-json/ours", |b| {
        b.iter(|| iplist::parse_entries(&IpListFormat::Json, &list))
    });
    group.bench_function("iplist-100k-json/plain", |b| {
        b.iter(|| serde_json::from_str::<Vec<PlainEntry>>(&bracketed).unwrap())
    });
    group.bench_function("iplist-100k-txt/ours", |b| {
        b.iter(|| iplist::parse_entries(&IpListFormat::Txt, &txt))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
