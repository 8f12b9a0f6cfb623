//! Bad input, by property tests: every decoder of server bytes — each endpoint's decoding
//! as the client does it ([`proxydash::api::decode_body`]: the model types, the lenient
//! lists, the network addresses, the PUT answer check, the IP lists in every type and
//! format), [`proxydash::api::status_error`] for any status and body,
//! [`proxydash::api::error::excerpt`], the date parsers and the screen's
//! [`proxydash::text::sanitize`] — fed arbitrary bytes, JSON-like noise, and valid
//! bodies (served by the sandbox) with bytes flipped, inserted and deleted or values
//! swapped for others of another kind. Nothing may panic; every failure must be a typed
//! error whose status line is one clean line.
//!
//! Cases per property: 512, or `PROPTEST_CASES` (a long run:
//! `PROPTEST_CASES=100000 cargo test --release --test fuzz`).

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use proxydash::api::error::excerpt;
use proxydash::api::*;
use proxydash::app::status::error_line;
use proxydash::text::sanitize;
use reqwest::StatusCode;
use std::sync::OnceLock;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Every request whose answer the client decodes, with a parameter the sandbox knows.
fn requests() -> Vec<Request> {
    let mut out = vec![
        Request::Clients,
        Request::Stats(1003),
        Request::Rate(1003),
        Request::Product(11),
        Request::Product(21),
        Request::order(
            11,
            OrderRequest {
                clientid: 101,
                setip: None,
            },
        ),
        Request::Products,
        Request::ProductsOrderedBy(SortField::Price),
        Request::NetworkErrors(1001),
        Request::NetworkInactive(1002),
        Request::Credit,
        Request::Invoices,
        Request::Invoice(7003),
        Request::Service(1001),
        Request::Service(1003),
        Request::Services,
        Request::UpdateService {
            service_id: 1001,
            update: Box::new(ServiceUpdate {
                setip: Some("203.0.113.9".into()),
                update_list: true,
                password: Some("pw".into()),
            }),
        },
    ];
    for list_type in IpListType::ALL {
        for format in IpListFormat::ALL {
            let service_id = if matches!(list_type, IpListType::PprHttp | IpListType::PprSocks) {
                1003
            } else {
                1001
            };
            out.push(Request::ip_list(
                service_id,
                list_type.clone(),
                format.clone(),
            ));
        }
    }
    out
}

/// Valid answers, as the sandbox serves them (quirks included), paired with their request.
fn corpus() -> &'static [(Request, Vec<u8>)] {
    static CORPUS: OnceLock<Vec<(Request, Vec<u8>)>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            let sb =
                proxydash::sandbox::Sandbox::start(proxydash::sandbox::SandboxConfig::ephemeral())
                    .await
                    .expect("sandbox");
            let http = reqwest::Client::new();
            let mut out = Vec::new();
            for request in requests() {
                let url = format!("{}/{}", sb.base_url(), request.path());
                let builder = match request {
                    Request::Order { ref body, .. } => http.post(&url).json(body),
                    Request::UpdateService { .. } => http.put(&url).json(&serde_json::json!({
                        "setip": "203.0.113.9", "update_list": "true", "password": "cHc="
                    })),
                    _ => http.get(&url),
                };
                let response = builder
                    .header("Authorization", format!("Basic {}", sb.token()))
                    .send()
                    .await
                    .expect("the sandbox answers");
                assert!(response.status().is_success(), "{request:?}");
                let body = response.bytes().await.expect("a body").to_vec();
                assert!(
                    decode_body(&request, &body).is_ok(),
                    "the valid body of {request:?} decodes"
                );
                out.push((request, body));
            }
            sb.shutdown().await;
            out
        })
    })
}

/// The failure as the status line would show it: one line, no control characters.
fn check_error(request: &Request, e: &ApiError) -> Result<(), TestCaseError> {
    let line = error_line(request, e, "fuzz");
    prop_assert!(
        !line.chars().any(char::is_control),
        "control character in {line:?}"
    );
    Ok(())
}

fn check_decode(request: &Request, bytes: &[u8]) -> Result<(), TestCaseError> {
    match decode_body(request, bytes) {
        Ok(Response::IpList(list)) => {
            for entry in &list.entries() {
                let _ = entry.to_url(list.list_type.scheme());
                let _ = entry.host_port();
            }
            Ok(())
        }
        Ok(_) => Ok(()),
        Err(e) => {
            prop_assert!(
                matches!(e, ApiError::Decode { .. }),
                "a body can only fail to decode: {e:?}"
            );
            check_error(request, &e)
        }
    }
}

/// Also through each model type directly.
fn check_models(bytes: &[u8]) {
    let _ = serde_json::from_slice::<Client>(bytes);
    let _ = serde_json::from_slice::<ProductSummary>(bytes);
    let _ = serde_json::from_slice::<Product>(bytes);
    let _ = serde_json::from_slice::<Service>(bytes);
    let _ = serde_json::from_slice::<ServiceSummary>(bytes);
    let _ = serde_json::from_slice::<Invoice>(bytes);
    let _ = serde_json::from_slice::<StatEntry>(bytes);
    let _ = serde_json::from_slice::<RateEntry>(bytes);
    let _ = serde_json::from_slice::<Credit>(bytes);
    let _ = serde_json::from_slice::<OrderResult>(bytes);
    let _ = serde_json::from_slice::<UpdateResult>(bytes);
    let _ = serde_json::from_slice::<OrderRequest>(bytes);
    let _ = serde_json::from_slice::<Geo>(bytes);
    let _ = serde_json::from_slice::<Vec<Geo>>(bytes);
}

/// Pieces that make noise look like JSON, HTML, IP lists and escape sequences.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\\",
    "\\u0000",
    "\\ud800",
    "\\n",
    "null",
    "true",
    "false",
    "0",
    "-1",
    "1.5",
    "1e999",
    "-0",
    "18446744073709551616",
    "\"12.50\"",
    "\"\"",
    "\"0000-00-00\"",
    "\"2026-01-02 10:00:00\"",
    "\"service_id\"",
    "\"productId\"",
    "\"price\"",
    "\"credit\"",
    "\"id\"",
    "\"error\"",
    "\"success\"",
    "\"setip\"",
    "\"ip\"",
    "\"geo\"",
    "\"status\"",
    "\"rate\"",
    "\"limit\"",
    " ",
    "\n",
    "\r\n",
    "\t",
    "<html>",
    "<title>",
    "</title>",
    "<script>",
    "&amp;",
    "&lt;",
    "\u{1b}[2J",
    "\u{1b}]52;c;aGk=\u{7}",
    "\u{7}",
    "\u{0}",
    "\u{9b}",
    "é",
    "💥",
    "\u{202e}",
    "1.2.3.4",
    ":8080",
    "user:pass@",
    "host,port",
    ";",
    "#",
    "http://",
    "socks5://",
    "[::1]",
    "65536",
];

fn tokens() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..64).prop_map(|t| t.concat())
}

/// One edit of a byte string.
#[derive(Clone, Debug)]
enum Edit {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    Token(usize, usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Edit::Flip(at, bit)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Insert(at, b)),
        (any::<usize>(), 1usize..16).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, t)| Edit::Token(at, t)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(body: &mut Vec<u8>, edit: &Edit) {
    let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
    match *edit {
        Edit::Flip(i, bit) if !body.is_empty() => {
            let i = i % body.len();
            body[i] ^= 1 << bit;
        }
        Edit::Flip(..) => {}
        Edit::Insert(i, b) => body.insert(at(i, body.len()), b),
        Edit::Delete(i, n) => {
            let from = at(i, body.len());
            let to = (from + n).min(body.len());
            body.drain(from..to);
        }
        Edit::Token(i, t) => {
            let from = at(i, body.len());
            body.splice(from..from, TOKENS[t].bytes());
        }
        Edit::Truncate(i) => body.truncate(at(i, body.len())),
    }
}

/// A JSON value of another kind in place of one in a valid body.
#[derive(Clone, Debug)]
enum Swap {
    NumberToString,
    StringToNumber,
    Null,
    Bool,
    EmptyObject,
    EmptyArray,
    Huge,
    Negative,
    Fraction,
    Escapes,
    Drop,
}

fn swap() -> impl Strategy<Value = (usize, Swap)> {
    let kind = prop_oneof![
        Just(Swap::NumberToString),
        Just(Swap::StringToNumber),
        Just(Swap::Null),
        Just(Swap::Bool),
        Just(Swap::EmptyObject),
        Just(Swap::EmptyArray),
        Just(Swap::Huge),
        Just(Swap::Negative),
        Just(Swap::Fraction),
        Just(Swap::Escapes),
        Just(Swap::Drop),
    ];
    (any::<usize>(), kind)
}

/// Applies `swap` to the `n`-th value of `v` (depth first), counting down `n`.
fn swap_nth(v: &mut serde_json::Value, n: &mut usize, swap: &Swap) -> bool {
    use serde_json::Value;
    if *n == 0 {
        *v = match (swap, &*v) {
            (Swap::NumberToString, Value::Number(x)) => Value::String(x.to_string()),
            (Swap::StringToNumber, Value::String(s)) => Value::from(s.len() as u64),
            (Swap::Null | Swap::Drop, _) => Value::Null,
            (Swap::Bool, _) => Value::Bool(true),
            (Swap::EmptyObject, _) => serde_json::json!({}),
            (Swap::EmptyArray, _) => serde_json::json!([]),
            (Swap::Huge, _) => serde_json::json!(1.0e300),
            (Swap::Negative, _) => serde_json::json!(-42),
            (Swap::Fraction, _) => serde_json::json!(0.5),
            (Swap::Escapes, _) => Value::String("\u{1b}[2J\u{1b}]52;c;aGk=\u{7}\r\n".into()),
            (_, other) => other.clone(),
        };
        return true;
    }
    *n -= 1;
    match v {
        Value::Array(items) => {
            for item in items {
                if swap_nth(item, n, swap) {
                    return true;
                }
            }
        }
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                if *n == 0 && matches!(swap, Swap::Drop) {
                    map.remove(&key);
                    return true;
                }
                if swap_nth(map.get_mut(&key).expect("key"), n, swap) {
                    return true;
                }
            }
        }
        _ => {}
    }
    false
}

fn count_nodes(v: &serde_json::Value) -> usize {
    1 + match v {
        serde_json::Value::Array(items) => items.iter().map(count_nodes).sum(),
        serde_json::Value::Object(map) => map.values().map(count_nodes).sum(),
        _ => 0,
    }
}

/// Any JSON value, a few levels deep.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        any::<String>().prop_map(Value::String),
        prop::sample::select(TOKENS).prop_map(|t| Value::String(t.to_owned())),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(
                        &[
                            "service_id",
                            "productId",
                            "productName",
                            "price",
                            "groupId",
                            "groupName",
                            "created_at",
                            "id",
                            "email",
                            "credit",
                            "rate",
                            "limit",
                            "date",
                            "status",
                            "password",
                            "bindedip",
                            "geo",
                            "setip",
                            "update_list",
                            "success",
                            "serviceId",
                            "amount",
                            "ip",
                            "x",
                        ][..]
                    ),
                    inner
                ),
                0..8
            )
            .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

/// Runs `test` on `config().cases` values of `strategy` and prints how many ran, so a
/// long run can report its figure.
fn property<S: Strategy>(
    name: &str,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let cases = std::sync::atomic::AtomicU64::new(0);
    let mut runner = TestRunner::new(config());
    let result = runner.run(&strategy, |value| {
        cases.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        test(value)
    });
    let cases = cases.into_inner();
    println!("property {name}: {cases} cases");
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), tokens()]
}

#[test]
fn arbitrary_bytes_through_every_decoder() {
    let requests = requests();
    property(
        "arbitrary_bytes_through_every_decoder",
        (
            any::<prop::sample::Index>(),
            prop::collection::vec(any::<u8>(), 0..512),
        ),
        |(which, bytes)| {
            check_decode(which.get(&requests), &bytes)?;
            check_models(&bytes);
            Ok(())
        },
    );
}

#[test]
fn json_like_noise_through_every_decoder() {
    let requests = requests();
    property(
        "json_like_noise_through_every_decoder",
        (any::<prop::sample::Index>(), tokens()),
        |(which, text)| {
            check_decode(which.get(&requests), text.as_bytes())?;
            check_models(text.as_bytes());
            Ok(())
        },
    );
}

#[test]
fn mutated_valid_bodies() {
    property(
        "mutated_valid_bodies",
        (
            any::<prop::sample::Index>(),
            any::<prop::sample::Index>(),
            prop::collection::vec(edit(), 1..8),
        ),
        |(which, other, edits)| {
            let (request, body) = which.get(corpus());
            let mut body = body.clone();
            for e in &edits {
                apply(&mut body, e);
            }
            check_decode(request, &body)?;
            // And as the answer of some other request.
            check_decode(&other.get(corpus()).0, &body)?;
            check_models(&body);
            Ok(())
        },
    );
}

#[test]
fn valid_bodies_with_values_of_another_kind() {
    property(
        "valid_bodies_with_values_of_another_kind",
        (
            any::<prop::sample::Index>(),
            prop::collection::vec(swap(), 1..6),
        ),
        |(which, swaps)| {
            let (request, body) = which.get(corpus());
            let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(body) else {
                // IP lists in txt/csv (and the bracketless json) are not JSON documents.
                return Ok(());
            };
            for (at, s) in &swaps {
                let mut n = at % count_nodes(&value);
                swap_nth(&mut value, &mut n, s);
            }
            let bytes = serde_json::to_vec(&value).expect("serializes");
            check_decode(request, &bytes)?;
            check_models(&bytes);
            Ok(())
        },
    );
}

#[test]
fn arbitrary_json_through_every_decoder() {
    let requests = requests();
    property(
        "arbitrary_json_through_every_decoder",
        (any::<prop::sample::Index>(), json_value()),
        |(which, value)| {
            let bytes = serde_json::to_vec(&value).expect("serializes");
            check_decode(which.get(&requests), &bytes)?;
            check_models(&bytes);
            Ok(())
        },
    );
}

#[test]
fn ip_lists_of_any_text_in_every_format() {
    property(
        "ip_lists_of_any_text_in_every_format",
        (text(), any::<prop::sample::Index>()),
        |(text, which)| {
            let list_type = which.get(IpListType::ALL);
            for format in IpListFormat::ALL {
                let (entries, skipped) = iplist::parse_entries(format, &text);
                prop_assert!(entries.len() + skipped <= text.len() + 1);
                let list = IpList::parse(list_type.clone(), format.clone(), text.clone());
                for entry in &list.entries() {
                    let url = entry.to_url(list_type.scheme());
                    prop_assert!(url.starts_with(list_type.scheme()));
                }
                let _ = list.to_urls();
            }
            Ok(())
        },
    );
}

#[test]
fn any_status_and_body_is_a_typed_error_of_that_status() {
    let body = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..256),
        tokens().prop_map(String::into_bytes),
        json_value().prop_map(|v| serde_json::to_vec(&v).unwrap()),
    ];
    property(
        "any_status_and_body_is_a_typed_error_of_that_status",
        (100u16..600, body, any::<Option<u64>>()),
        |(status, body, retry_after)| {
            let status = StatusCode::from_u16(status).expect("100..600 is a status");
            let e = status_error(status, &body, retry_after);
            prop_assert_eq!(e.status(), Some(status.as_u16()), "{:?}", e);
            check_error(&Request::Services, &e)?;
            let _ = e.is_transient();
            let _ = e.outcome_unknown();
            Ok(())
        },
    );
}

#[test]
fn excerpt_is_one_clean_bounded_line() {
    property(
        "excerpt_is_one_clean_bounded_line",
        (text(), 0usize..200),
        |(text, max)| {
            let out = excerpt(&text, max);
            prop_assert!(!out.chars().any(char::is_control), "{:?}", out);
            prop_assert!(out.chars().count() <= max.max(1), "{:?}", out);
            Ok(())
        },
    );
}

/// Characters that sequence with their neighbours or hide: bidi controls, zero-width
/// characters, joiners and selectors, emoji and their modifiers, Arabic lam and alef and a
/// combining mark, regional indicators, tags; written out here, not taken from the code.
const TRICKY: &[char] = &[
    '\u{61c}',
    '\u{200b}',
    '\u{200c}',
    '\u{200d}',
    '\u{200e}',
    '\u{200f}',
    '\u{202a}',
    '\u{202b}',
    '\u{202c}',
    '\u{202d}',
    '\u{202e}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{feff}',
    '\u{fe0e}',
    '\u{fe0f}',
    '\u{e0100}',
    '\u{e0067}',
    '\u{1f468}',
    '\u{1f469}',
    '\u{1f467}',
    '\u{2764}',
    '\u{1f3fd}',
    '\u{1f44d}',
    '\u{1f1e9}',
    '\u{1f1ea}',
    '\u{644}',
    '\u{627}',
    '\u{64e}',
    '\u{301}',
    '\u{20e3}',
    '1',
    'a',
    ' ',
    '\u{1b}',
    '[',
    '\u{d}',
    '\u{a}',
    '\u{ad}',
    '\u{115f}',
    '\u{2028}',
    '\u{4e2d}',
];

fn invisible(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2069}' | '\u{feff}' | '\u{fe00}'..='\u{fe0f}'
        | '\u{e0000}'..='\u{e007f}' | '\u{e0100}'..='\u{e01ef}')
}

#[test]
fn sanitize_leaves_no_control_characters() {
    let tricky = prop::collection::vec(prop::sample::select(TRICKY), 0..40)
        .prop_map(|chars| chars.into_iter().collect::<String>());
    let mixed = (
        any::<String>(),
        prop::collection::vec(prop::sample::select(TRICKY), 0..12),
    )
        .prop_map(|(s, extra)| {
            s.chars()
                .zip(extra.into_iter().cycle())
                .flat_map(|(a, b)| [a, b])
                .collect()
        });
    let input = prop_oneof![text(), tricky, mixed];
    property("sanitize_leaves_no_control_characters", input, |text| {
        let once = sanitize(&text).into_owned();
        prop_assert!(!once.chars().any(char::is_control), "{:?}", once);
        prop_assert!(!once.chars().any(invisible), "{:?} → {:?}", text, once);
        // Measured as a terminal advances: the sum of the characters' widths.
        let sum: usize = once.chars().map(|c| c.width().unwrap_or(0)).sum();
        prop_assert_eq!(once.width(), sum, "{:?} → {:?}", text, once);
        prop_assert_eq!(sanitize(&once).into_owned(), once.clone());
        Ok(())
    });
}

#[test]
fn dates_and_throttle_times_of_any_text() {
    property("dates_and_throttle_times_of_any_text", text(), |text| {
        let _ = lenient::parse_date(&text);
        let _ = lenient::parse_datetime(&text);
        let _ = parse_next_possible(&text);
        let _ = parse_next_possible(&format!("Next update possible: {text}"));
        Ok(())
    });
}

/// Live servers send numbers as strings: every valid body still decodes with each of its
/// numbers turned into a string.
#[test]
fn every_valid_body_decodes_with_its_numbers_as_strings() {
    fn stringify(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Number(n) => *v = serde_json::Value::String(n.to_string()),
            serde_json::Value::Array(items) => items.iter_mut().for_each(stringify),
            serde_json::Value::Object(map) => map.values_mut().for_each(stringify),
            _ => {}
        }
    }
    let mut checked = 0;
    for (request, body) in corpus() {
        let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(body) else {
            continue;
        };
        stringify(&mut value);
        let bytes = serde_json::to_vec(&value).unwrap();
        let result = decode_body(request, &bytes);
        assert!(result.is_ok(), "{request:?}: {result:?}");
        checked += 1;
    }
    assert!(checked >= 15, "{checked}");
}
