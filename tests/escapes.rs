//! Server text that reaches the screen cannot reach the terminal as control characters or
//! escape sequences. A seed file puts escape sequences (clear screen, OSC 52 clipboard
//! write, colours, a hyperlink, a DCS), CR, BEL, NUL, backspace and DEL into every string
//! the sandbox serves; a headless session then visits every tab, opens every item's
//! detail, shows the passwords and the help, and every rendered screen is checked.
//!
//! ratatui itself drops control characters when it draws, so "no ESC in a cell" alone
//! would pass even without sanitising; the test also looks for what an escape sequence
//! leaves behind when only its ESC is dropped (`[2J`, `52;c;`, the hyperlink target…),
//! which only sanitising whole sequences avoids.

use crate::support;

use crossterm::event::KeyCode;
use proxydash::headless::Session;
use serde_json::Value;
use std::time::Duration;

/// Payloads, and what each leaves on screen if only its control characters are dropped.
const PAYLOADS: &[(&str, &str)] = &[
    ("\u{1b}[2J", "[2J"),
    ("\u{1b}]52;c;cHduZWQ=\u{7}", "cHduZWQ"),
    ("\u{1b}[31;1m", "[31;1m"),
    ("\u{1b}]8;;http://evil.example/\u{1b}\\", "evil.example"),
    ("\u{1b}P+qzz9\u{1b}\\", "+qzz9"),
    ("\u{9b}33m", "33m"),
    ("\r", ""),
    ("\u{7}", ""),
    ("\u{0}", ""),
    ("\u{8}", ""),
    ("\u{7f}", ""),
    ("\u{1b}[?1049l", "[?1049l"),
    // Bidi overrides and isolates, zero-width characters, a BOM, a variation selector.
    ("\u{202e}", ""),
    ("\u{200b}\u{200d}", ""),
    ("\u{2066}\u{202c}", ""),
    ("\u{feff}\u{fe0f}", ""),
];

fn hostile(original: &str, i: usize) -> String {
    let (a, _) = PAYLOADS[i % PAYLOADS.len()];
    let (b, _) = PAYLOADS[(i + 1) % PAYLOADS.len()];
    let (c, _) = PAYLOADS[(i + 5) % PAYLOADS.len()];
    let mid = original.len() / 2;
    let (left, right) = original.split_at(
        (0..=mid)
            .rev()
            .find(|m| original.is_char_boundary(*m))
            .unwrap_or(0),
    );
    format!("{a}{left}{b}{right}{c}")
}

/// Members the seed reads as structure (dates, product types, references) stay as they
/// are; their hostile versions go into `_wire`, which replaces the served member verbatim.
const STRUCTURED: &[&str] = &[
    "type",
    "created_at",
    "regdate",
    "nextduedate",
    "update_time",
    "date_paid",
    "date_refunded",
    "billingcycle",
    "status",
    "bindedip",
];

/// Every string of the seed made hostile; `counter` counts the strings changed.
fn poison(value: &mut Value, counter: &mut usize) {
    match value {
        Value::Object(map) => {
            let mut wire = map
                .get("_wire")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let has_id = map.contains_key("id");
            for (key, v) in map.iter_mut() {
                if key == "_wire" {
                    continue;
                }
                if STRUCTURED.contains(&key.as_str()) {
                    if has_id
                        && !matches!(key.as_str(), "type" | "update_time")
                        && let Value::String(s) = v
                    {
                        *counter += 1;
                        wire.insert(key.clone(), Value::String(hostile(s, *counter)));
                    }
                    continue;
                }
                poison(v, counter);
            }
            if has_id && !wire.is_empty() {
                map.insert("_wire".into(), Value::Object(wire));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| poison(v, counter)),
        Value::String(s) => {
            *counter += 1;
            *s = hostile(s, *counter);
        }
        _ => {}
    }
}

struct Check {
    violations: Vec<String>,
    screens: usize,
}

impl Check {
    fn screen(&mut self, s: &mut Session, step: &str) {
        self.check(s, step, true);
    }

    /// `remnants`: also look for what a sequence leaves when only its controls are dropped
    /// (for server text; the user's own typing is only checked for controls).
    fn check(&mut self, s: &mut Session, step: &str, remnants: bool) {
        let screen = s.screen();
        self.screens += 1;
        let controls = support::controls_in(&screen);
        if !controls.is_empty() {
            self.violations
                .push(format!("{step}: control characters {controls:?}\n{screen}"));
        }
        for (_, remnant) in PAYLOADS.iter().filter(|_| remnants) {
            if !remnant.is_empty() && screen.contains(remnant) {
                self.violations.push(format!(
                    "{step}: escape sequence remnant {remnant:?}\n{screen}"
                ));
            }
        }
    }
}

async fn visit_everything(size: (u16, u16)) -> Check {
    let mut seed = support::seed_json();
    let mut changed = 0;
    for key in ["clients", "groups", "products", "services", "invoices"] {
        poison(&mut seed[key], &mut changed);
    }
    assert!(changed > 150, "only {changed} strings made hostile");
    let path = support::write_seed("hostile", &seed);
    let sb = support::sandbox(Some(path)).await;
    let mut s = support::session(&sb, Duration::from_secs(5), None, size);
    support::wait_idle(&mut s, Duration::from_secs(15)).await;
    let mut check = Check {
        violations: Vec::new(),
        screens: 0,
    };
    let rows = |s: &Session| s.app.table(s.app.tab()).total();

    // Services: every row, its detail beside and in the popup, passwords shown.
    s.press(KeyCode::Char('1'));
    s.press(KeyCode::Char('v'));
    for i in 0..rows(&s) {
        support::wait_idle(&mut s, Duration::from_secs(5)).await;
        check.screen(&mut s, &format!("services row {i}"));
        s.press(KeyCode::Enter);
        check.screen(&mut s, &format!("service popup {i}"));
        s.press(KeyCode::Esc);
        s.press(KeyCode::Char('j'));
    }
    // Products: every row and its detail.
    s.press(KeyCode::Char('2'));
    for i in 0..rows(&s) {
        support::wait_idle(&mut s, Duration::from_secs(5)).await;
        check.screen(&mut s, &format!("products row {i}"));
        s.press(KeyCode::Enter);
        check.screen(&mut s, &format!("product popup {i}"));
        s.press(KeyCode::Esc);
        s.press(KeyCode::Char('j'));
    }
    // Billing: every invoice, opened.
    s.press(KeyCode::Char('3'));
    for i in 0..rows(&s) {
        check.screen(&mut s, &format!("billing row {i}"));
        s.press(KeyCode::Enter);
        support::wait_idle(&mut s, Duration::from_secs(5)).await;
        check.screen(&mut s, &format!("invoice popup {i}"));
        s.press(KeyCode::Esc);
        s.press(KeyCode::Char('j'));
    }
    // Network: every row; Enter jumps to the service.
    s.press(KeyCode::Char('4'));
    for i in 0..rows(&s) {
        check.screen(&mut s, &format!("network row {i}"));
        s.press(KeyCode::Char('j'));
    }
    s.press(KeyCode::Enter);
    check.screen(&mut s, "network → service");
    // Usage: every ppr service with its chart and gauge.
    s.press(KeyCode::Char('5'));
    for i in 0..rows(&s).max(1) {
        support::wait_idle(&mut s, Duration::from_secs(5)).await;
        check.screen(&mut s, &format!("usage row {i}"));
        s.press(KeyCode::Char('j'));
    }
    // A filter typed with a hostile paste (the user's own text: controls only), and the
    // help.
    s.press(KeyCode::Char('1'));
    s.press(KeyCode::Char('/'));
    s.send(proxydash::app::Msg::Paste(
        "\u{1b}[2J\u{1b}]52;c;cHduZWQ=\u{7}x\r\ny".into(),
    ));
    check.check(&mut s, "filter", false);
    s.press(KeyCode::Esc);
    s.press(KeyCode::Char('?'));
    check.screen(&mut s, "help");
    check
}

#[tokio::test]
async fn no_server_text_reaches_the_terminal_as_control_characters() {
    for size in [(120, 40), (80, 24)] {
        let check = visit_everything(size).await;
        println!(
            "hostile text at {size:?}: {} screens checked, {} violations",
            check.screens,
            check.violations.len()
        );
        assert!(check.screens > 60, "{} screens", check.screens);
        for v in &check.violations {
            println!("VIOLATION {}", v.lines().next().unwrap_or_default());
        }
        assert!(
            check.violations.is_empty(),
            "{} violations, first:\n{}",
            check.violations.len(),
            check.violations[0]
        );
    }
}

/// What the seed cannot carry: proxy server addresses (the sandbox makes them) and the
/// server's own error messages, delivered to the running session as the fetcher would.
#[tokio::test]
async fn hostile_addresses_and_error_messages_are_sanitized_too() {
    use proxydash::api::{ApiError, Loaded, Request, Unprocessable};
    use proxydash::app::Msg;
    let sb = support::sandbox(Some(support::clean_seed())).await;
    let mut s = support::session(&sb, Duration::from_secs(5), None, (120, 40));
    support::wait_idle(&mut s, Duration::from_secs(15)).await;
    let evil = |i: usize| hostile("198.51.100.7", i);
    s.send(Msg::loaded(Loaded::NetworkErrors(
        1001,
        Ok((0..PAYLOADS.len()).map(evil).collect()),
    )));
    s.send(Msg::loaded(Loaded::NetworkInactive(
        1002,
        Ok((3..6).map(evil).collect()),
    )));
    let mut check = Check {
        violations: Vec::new(),
        screens: 0,
    };
    s.press(KeyCode::Char('4'));
    check.screen(&mut s, "network with hostile addresses");
    for (i, error) in [
        ApiError::Unprocessable {
            kind: Unprocessable::Other,
            message: hostile("Unprocessable Entity ", 1),
        },
        ApiError::Http {
            status: 500,
            excerpt: hostile("Internal\nServer Error", 2),
            retry_after: None,
        },
        ApiError::ClientIdNotFound {
            message: hostile("Unprocessable Entity. ClientID not found", 3),
        },
        ApiError::Decode {
            endpoint: "/api/services",
            detail: hostile("invalid type: string", 4),
        },
    ]
    .into_iter()
    .enumerate()
    {
        s.send(Msg::loaded(Request::Credit.failed(error)));
        s.press(KeyCode::Char('3'));
        check.screen(&mut s, &format!("billing with hostile error {i}"));
    }
    for v in &check.violations {
        println!("VIOLATION {}", v.lines().next().unwrap_or_default());
    }
    assert_eq!(check.screens, 5);
    assert!(check.violations.is_empty(), "{}", check.violations[0]);
}
