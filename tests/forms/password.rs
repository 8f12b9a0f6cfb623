//! Changing the proxy password (`p`): two masked fields, base64 on the wire, the server's
//! 422, and nothing secret on screen.

use super::*;
use proxydash::sandbox::SandboxConfig;

async fn password_form() -> Env {
    let mut e = start(SandboxConfig::default()).await;
    e.filter("1003");
    e.s.settle().await;
    e.s.press(KeyCode::Char('p'));
    e.shows("New proxy password · service 1003");
    e
}

#[tokio::test]
async fn the_password_is_sent_base64_encoded_and_the_detail_reread() {
    let mut e = password_form().await;
    e.s.type_text("n3w:pass@word!");
    e.s.press(KeyCode::Tab);
    e.s.send(proxydash::app::Msg::Paste("n3w:pass@word!\n".into()));
    let screen = e.shows("••••••••••••••");
    assert!(!screen.contains("n3w"), "{screen}");
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    let writes = e.writes_since(from);
    assert_eq!(writes.len(), 1);
    assert_eq!(writes[0].path, "/api/service/1003");
    // base64("n3w:pass@word!"), spec 4.3.
    assert_eq!(
        json(&writes[0].body),
        serde_json::json!({"password": "bjN3OnBhc3NAd29yZCE="})
    );
    e.shows("✓ Password updated successfully");
    assert!(e.since(from).iter().any(|r| r == "GET /api/service/1003"));
    let detail = client(&e.sb).service(1003).await.unwrap();
    assert_eq!(detail.password.expose(), "n3w:pass@word!");
}

#[tokio::test]
async fn different_or_empty_passwords_are_refused_by_the_form() {
    let mut e = password_form().await;
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.shows("✗ Type the new password.");
    e.s.type_text("first");
    e.s.press(KeyCode::Tab);
    e.s.type_text("second");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    e.shows("✗ The two passwords differ.");
    assert!(e.writes_since(from).is_empty());
}

#[tokio::test]
async fn a_password_the_server_refuses_shows_its_message() {
    let mut e = password_form().await;
    // The sandbox refuses spaces (they would break the CSV lists).
    e.s.type_text("has space");
    e.s.press(KeyCode::Tab);
    e.s.type_text("has space");
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.shows("✗ Weak:");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    assert_eq!(e.writes_since(from)[0].status, 422);
    e.shows("✗ Unprocessable Entity. Incorrect posted data");
}

#[tokio::test]
async fn base64_on_the_wire_is_the_standard_alphabet_with_padding() {
    let mut e = password_form().await;
    e.s.press(KeyCode::Esc);
    // Chosen so the encodings hold `+`, `/`, one `=` and two.
    let cases = [
        ("a?~>b", "YT9+PmI="),
        ("?>?", "Pz4/"),
        ("s3cr3t~?", "czNjcjN0fj8="),
        ("~~~>", "fn5+Pg=="),
    ];
    let from = e.mark();
    for (plain, _) in cases {
        e.s.press(KeyCode::Char('p'));
        e.s.type_text(plain);
        e.s.press(KeyCode::Tab);
        e.s.type_text(plain);
        // Weak: the first Enter warns, the second sends.
        e.s.press(KeyCode::Enter);
        e.s.press(KeyCode::Enter);
        e.s.settle().await;
        e.shows("✓ Password updated successfully");
        e.s.press(KeyCode::Enter);
    }
    let bodies: Vec<serde_json::Value> =
        e.writes_since(from).iter().map(|w| json(&w.body)).collect();
    let expected: Vec<serde_json::Value> = cases
        .iter()
        .map(|(_, b64)| serde_json::json!({ "password": b64 }))
        .collect();
    assert_eq!(bodies, expected);
    assert_eq!(
        client(&e.sb).service(1003).await.unwrap().password.expose(),
        "~~~>"
    );
}

/// Issue 26.7: a weak password is warned about and not sent on the first Enter; Ctrl-G
/// generates a strong one, which is sent at once and is the proxy password after.
#[tokio::test]
async fn a_weak_password_is_warned_about_and_ctrl_g_generates_a_strong_one() {
    let mut e = password_form().await;
    e.s.type_text("abc123");
    e.shows("Weak: 6 characters, under 12");
    e.s.press(KeyCode::Tab);
    e.s.type_text("abc123");
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    // The warning wraps inside the form's margin (issue 36.10): its words, on any line.
    let screen = e.shows("Enter again to");
    let words: Vec<&str> = screen
        .split(|c: char| c.is_whitespace() || c == '│')
        .filter(|w| !w.is_empty())
        .collect();
    assert!(
        words.windows(4).any(|w| w == ["again", "to", "use", "it,"]),
        "{screen}"
    );
    assert!(e.writes_since(from).is_empty(), "warned, not sent");
    e.ctrl('g');
    e.shows("✓ generated: 20 letters and digits");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    e.shows("✓ Password updated successfully");
    let writes = e.writes_since(from);
    assert_eq!(writes.len(), 1);
    let password = client(&e.sb).service(1003).await.unwrap().password;
    let password = password.expose();
    assert_eq!(password.len(), 20);
    assert!(password.chars().any(|c| c.is_ascii_digit()), "{password}");
    assert!(
        password.chars().any(|c| c.is_ascii_uppercase()),
        "{password}"
    );
}
