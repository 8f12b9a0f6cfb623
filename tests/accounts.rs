//! The dashboard over several accounts (issue 25), headless, on three sandboxes at once:
//! one read-only, one throttled at 60 requests a minute, one that stops answering midway.

use crossterm::event::KeyCode;
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::app::AppSettings;
use proxydash::desk::Scope;
use proxydash::headless::desk::DeskSession;
use proxydash::sandbox::{RecordedRequest, Sandbox, SandboxConfig, SandboxHandle};
use proxydash::scheduler::{Bucket, Budget, Door};

async fn sandbox(rate_limit: Option<u32>) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        rate_limit,
        ..SandboxConfig::default()
    })
    .await
    .expect("sandbox starts")
}

fn account(sb: &SandboxHandle, name: &str, read_only: bool, rpm: u32) -> (AppSettings, Door) {
    let client = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap();
    let settings = AppSettings {
        profile: name.into(),
        base_url: sb.base_url(),
        read_only,
        mouse: false,
        ..AppSettings::default()
    };
    let door = Door::new(client, Budget::new(Bucket::new(Some(rpm))));
    (settings, door)
}

fn writes(sb: &SandboxHandle) -> Vec<RecordedRequest> {
    sb.requests()
        .into_iter()
        .filter(|r| r.method != "GET")
        .collect()
}

/// acme (throttled at 60 a minute), globex (read-only), initech (stops midway).
async fn three() -> (Vec<SandboxHandle>, DeskSession) {
    let acme = sandbox(Some(60)).await;
    let globex = sandbox(None).await;
    let initech = sandbox(None).await;
    let s = DeskSession::start(
        vec![
            account(&acme, "acme", false, 60),
            account(&globex, "globex", true, 60_000),
            account(&initech, "initech", false, 60_000),
        ],
        (160, 40),
    );
    (vec![acme, globex, initech], s)
}

fn services_listed(desk: &proxydash::desk::Desk) -> bool {
    desk.seats()
        .iter()
        .all(|s| !s.app.services().rows().is_empty())
}

#[tokio::test]
async fn all_shows_every_account_and_marks_the_one_that_stopped() {
    let (mut sbs, mut s) = three().await;
    assert_eq!(s.desk.scope(), Scope::All);
    s.until("every account's services listed", services_listed)
        .await;
    let screen = s.screen();
    for name in ["acme", "globex", "initech"] {
        assert!(screen.contains(name), "{name} on screen:\n{screen}");
    }
    assert!(screen.contains("Account"), "{screen}");
    assert!(screen.contains("globex ro"), "read-only said:\n{screen}");
    // 13 services each in the sandbox's seed.
    assert!(screen.contains("Services · all accounts · 39"), "{screen}");

    // initech stops answering: it is marked unreachable, the others go on.
    let stopped = sbs.pop().unwrap();
    drop(stopped);
    s.press(KeyCode::Char('R'));
    s.until("initech unreachable", |d| {
        d.seats()[2].app.connection().unreachable_since().is_some()
    })
    .await;
    let screen = s.screen();
    let top = screen.lines().next().unwrap_or_default();
    assert!(top.contains("✗ initech"), "the top line marks it: {top}");
    assert!(top.contains("● globex"), "the others online: {top}");
    assert!(
        screen.contains("Services · all accounts · 39"),
        "the stopped account's last rows stay:\n{screen}"
    );

    // `/` filters across accounts; `A` shows one account; `A` again all.
    s.press(KeyCode::Char('/'));
    s.type_text("globex");
    s.press(KeyCode::Enter);
    assert!(s.screen().contains("13 of 39"), "{}", s.screen());
    s.press(KeyCode::Char('A'));
    assert_eq!(s.desk.scope(), Scope::One(1));
    let one = s.screen();
    assert!(one.contains("profile globex"), "{one}");
    s.press(KeyCode::Char('A'));
    assert_eq!(s.desk.scope(), Scope::All);

    // On Alerts `s` silences, on the selected alert's account only (it sorts elsewhere).
    s.press(KeyCode::Char('6'));
    s.press(KeyCode::Char('s'));
    let open: Vec<&str> = s
        .desk
        .seats()
        .iter()
        .filter(|seat| !seat.app.popups().is_empty())
        .map(|seat| seat.name.as_str())
        .collect();
    assert!(open.len() <= 1, "a form opened on {open:?}");
    assert_eq!(open.len(), usize::from(s.desk.owner().is_some()));
}

#[tokio::test]
async fn an_order_from_all_goes_to_the_chosen_account_only() {
    let (sbs, mut s) = three().await;
    s.until("every account's services listed", services_listed)
        .await;
    s.press(KeyCode::Char('2'));
    s.until("every catalogue listed", |d| {
        d.seats()
            .iter()
            .all(|s| !s.app.products().rows().is_empty())
    })
    .await;
    s.until("every credit known", |d| {
        d.seats()
            .iter()
            .all(|s| s.app.billing().credit().value().is_some())
    })
    .await;
    // The first row is acme's; the picker asks, with each account's credit.
    s.press(KeyCode::Char('o'));
    let picker = s.screen();
    assert!(picker.contains("for which account?"), "{picker}");
    assert!(picker.contains("read-only: cannot order"), "{picker}");
    assert!(picker.contains("credit $250.00"), "{picker}");
    // initech: the third.
    s.press(KeyCode::Char('j'));
    s.press(KeyCode::Char('j'));
    s.press(KeyCode::Enter);
    s.until_shown("Order product").await;
    s.until("the form's reads answered", |d| {
        d.seats()[2].app.clients().value().is_some() && d.seats()[2].app.in_flight() == 0
    })
    .await;
    s.type_text("alice");
    s.press(KeyCode::Tab);
    s.type_text("203.0.113.77");
    s.press(KeyCode::Enter);
    let confirm = s.screen();
    assert!(confirm.contains("· confirm"), "{confirm}");
    assert!(confirm.contains("Account    initech"), "{confirm}");
    assert!(
        writes(&sbs[2]).is_empty(),
        "nothing before the confirmation"
    );
    s.press(KeyCode::Enter);
    s.until("the order sent", |_| !writes(&sbs[2]).is_empty())
        .await;
    s.until_shown("✓ Ordered").await;
    let posts = writes(&sbs[2]);
    assert_eq!(posts.len(), 1, "{posts:?}");
    assert_eq!(posts[0].method, "POST");
    assert!(writes(&sbs[0]).is_empty(), "nothing on acme");
    assert!(writes(&sbs[1]).is_empty(), "nothing on globex");
}

#[tokio::test]
async fn a_write_on_the_read_only_account_is_refused_before_anything_is_sent() {
    let (sbs, mut s) = three().await;
    s.until("every account's services listed", services_listed)
        .await;
    // globex's first service.
    s.press(KeyCode::Char('/'));
    s.type_text("globex");
    s.press(KeyCode::Enter);
    s.press(KeyCode::Char('b'));
    let screen = s.screen();
    assert!(
        screen.contains("globex:") && screen.contains("read-only"),
        "the refusal names the account:\n{screen}"
    );
    assert!(writes(&sbs[1]).is_empty());
    // acme's first service still binds: its form opens.
    s.press(KeyCode::Esc);
    s.press(KeyCode::Char('/'));
    s.type_text("acme");
    s.press(KeyCode::Enter);
    // On acme's budget of 60 a minute its type may take a moment (the form asks for it).
    s.until("acme's service 1001 read", |d| {
        d.seats()[0].app.services().detail(1001).value().is_some()
    })
    .await;
    s.press(KeyCode::Char('b'));
    s.until_shown("Bind IP").await;
    let form = s.screen();
    assert!(form.contains("Bind IP"), "{form}");
    assert!(writes(&sbs[0]).is_empty());
}
