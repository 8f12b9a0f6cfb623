//! Issue 36: the All view acts on what is seen, names what it opens, and says what it
//! does not know. Two or three sandboxes on loopback, headless; every wait is for a named
//! state.

use crossterm::event::KeyCode;
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::app::AppSettings;
use proxydash::app::tabs::Tab;
use proxydash::desk::all::RowRef;
use proxydash::desk::{Desk, Scope};
use proxydash::headless::desk::DeskSession;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use proxydash::scheduler::{Bucket, Budget, Door};
use std::path::PathBuf;

async fn sandbox(seed: Option<PathBuf>) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        seed,
        ..SandboxConfig::default()
    })
    .await
    .expect("sandbox starts")
}

fn account(sb: &SandboxHandle, name: &str, read_only: bool) -> (AppSettings, Door) {
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
    (
        settings,
        Door::new(client, Budget::new(Bucket::new(Some(60_000)))),
    )
}

/// The built-in seed with beta's catalogue of its own: `Datacenter US 10` is product 13
/// there at $14.00 (its product 11 is `ISP US 5`), and it does not sell
/// `Datacenter EU 25` (its product 12 is another, older plan).
fn beta_seed() -> PathBuf {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/seed.json"))
        .expect("the seed");
    let mut seed: serde_json::Value = serde_json::from_str(&text).expect("the seed reads");
    let products = seed["products"].as_array_mut().expect("products");
    for p in products.iter_mut() {
        match p["id"].as_u64() {
            Some(11) => {
                p["id"] = 13.into();
                p["price"] = 14.0.into();
                if let Some(wire) = p.get_mut("_wire").and_then(|w| w.as_object_mut()) {
                    wire.remove("price");
                }
            }
            Some(13) => p["id"] = 11.into(),
            Some(12) => p["name"] = "Datacenter EU 25 (2021)".into(),
            _ => {}
        }
    }
    // Its services keep their products.
    for service in seed["services"].as_array_mut().expect("services") {
        match service["product"].as_u64() {
            Some(11) => service["product"] = 13.into(),
            Some(13) => service["product"] = 11.into(),
            _ => {}
        }
    }
    let dir = std::env::temp_dir().join(format!("proxydash-allview-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("beta-seed.json");
    std::fs::write(&path, serde_json::to_string(&seed).unwrap()).unwrap();
    path
}

async fn start(accounts: &[(&str, bool)], beta: bool) -> (Vec<SandboxHandle>, DeskSession) {
    start_sized(accounts, beta, (160, 45)).await
}

async fn start_sized(
    accounts: &[(&str, bool)],
    beta: bool,
    size: (u16, u16),
) -> (Vec<SandboxHandle>, DeskSession) {
    let mut sbs = Vec::new();
    for (i, _) in accounts.iter().enumerate() {
        let seed = (beta && i == 1).then(beta_seed);
        sbs.push(sandbox(seed).await);
    }
    let settings = accounts
        .iter()
        .zip(&sbs)
        .map(|((name, ro), sb)| account(sb, name, *ro))
        .collect();
    (sbs, DeskSession::start(settings, size))
}

fn settled(tab: Tab) -> impl Fn(&Desk) -> bool {
    move |d: &Desk| {
        d.seats()
            .iter()
            .all(|s| s.app.table(tab).total() > 0 && s.app.in_flight() == 0)
    }
}

/// Highlights the row of account `seat` with this ID.
fn highlight(s: &mut DeskSession, row: RowRef) {
    s.press(KeyCode::Char('g'));
    for _ in 0..s.desk.all().table().total() {
        if s.desk.all().selected() == Some(row) {
            return;
        }
        s.press(KeyCode::Char('j'));
    }
    panic!("{row:?} not listed:\n{}", s.screen());
}

/// Item 2: ordering from All offers the chosen account's own product of that name, with
/// its own price, or says plainly it does not sell it; never the same ID.
#[tokio::test]
async fn an_order_from_all_takes_the_chosen_accounts_own_product_of_that_name() {
    let (_sbs, mut s) = start(&[("alpha", false), ("beta", false)], true).await;
    s.press(KeyCode::Char('2'));
    s.until("both catalogues and credits", |d| {
        settled(Tab::Products)(d)
            && d.seats()
                .iter()
                .all(|s| s.app.billing().credit().value().is_some())
    })
    .await;
    highlight(&mut s, RowRef { seat: 0, id: 11 });
    s.press(KeyCode::Char('o'));
    let picker = s.screen();
    assert!(
        picker.contains("Order Datacenter US 10 for which account?"),
        "{picker}"
    );
    assert!(
        picker.contains("$12.00  product 11"),
        "alpha's own: {picker}"
    );
    assert!(
        picker.contains("$14.00  product 13"),
        "beta's own: {picker}"
    );
    s.press(KeyCode::Char('j'));
    s.press(KeyCode::Enter);
    s.until_shown("Order product").await;
    let form = s.screen();
    assert!(form.contains("Datacenter US 10"), "{form}");
    assert!(
        !form.contains("ISP US 5 ·"),
        "not beta's product 11: {form}"
    );
    assert!(
        form.contains("· beta"),
        "the form names its account: {form}"
    );
    assert_eq!(
        s.desk.seats()[1].app.table(Tab::Products).selected_id(),
        Some(13)
    );
    assert!(s.desk.seats()[0].app.popups().is_empty());
    s.press(KeyCode::Esc);
    s.press(KeyCode::Esc);
    // A product beta does not sell: said in the picker, and nothing opens on it.
    highlight(&mut s, RowRef { seat: 0, id: 12 });
    s.press(KeyCode::Char('o'));
    let picker = s.screen();
    assert!(picker.contains("does not sell it"), "{picker}");
    s.press(KeyCode::Char('j'));
    s.press(KeyCode::Enter);
    let screen = s.screen();
    assert!(
        screen.contains("beta does not sell Datacenter EU 25"),
        "{screen}"
    );
    assert!(
        s.desk.seats()[1].app.popups().iter().all(|p| !p.is_form()),
        "no order form on beta"
    );
}

/// Items 3 and 8: `!` is the tab's own and labelled, as in one account; the Alerts pane
/// counts the open alerts as the tab line does.
#[tokio::test]
async fn problems_only_stays_on_its_tab_and_says_so() {
    let (_sbs, mut s) = start(&[("alpha", false), ("beta", false)], false).await;
    s.until("both accounts' services", settled(Tab::Services))
        .await;
    s.press(KeyCode::Char('!'));
    let services = s.screen();
    assert!(services.contains("problems only (!)"), "{services}");
    s.press(KeyCode::Char('2'));
    s.until("both catalogues", settled(Tab::Products)).await;
    let products = s.screen();
    assert!(!products.contains("problems only"), "{products}");
    assert!(
        !products.contains(" of "),
        "Products not narrowed: {products}"
    );
    assert!(!products.contains("No rows"), "{products}");
    s.press(KeyCode::Char('6'));
    s.until("both accounts' alerts", settled(Tab::Alerts)).await;
    let alerts = s.screen();
    assert!(!alerts.contains("problems only"), "{alerts}");
    let open: usize = s
        .desk
        .seats()
        .iter()
        .map(|seat| seat.app.alerts().open_count())
        .sum();
    assert!(
        alerts.contains(&format!("Alerts · all accounts · {open} open")),
        "the pane counts what the tab line counts ({open}):\n{alerts}"
    );
    assert!(alerts.contains(&format!("6 Alerts {open}")), "{alerts}");
    s.press(KeyCode::Char('1'));
    assert!(
        s.screen().contains("problems only (!)"),
        "Services keeps its own"
    );
    s.press(KeyCode::Char('!'));
    assert!(!s.screen().contains("problems only"));
}

/// Items 4 and 6: `L` in All lists every account's lines, each named; what opens from
/// All names its account.
#[tokio::test]
async fn the_command_log_in_all_is_every_accounts_and_popups_name_their_account() {
    let (_sbs, mut s) = start(&[("alpha", false), ("beta", false)], false).await;
    s.until("both accounts' services", settled(Tab::Services))
        .await;
    // A probe on a row of each account: each logs its command line.
    highlight(&mut s, RowRef { seat: 0, id: 1001 });
    s.press(KeyCode::Char('h'));
    assert!(s.screen().contains("· alpha"), "{}", s.screen());
    s.press(KeyCode::Esc);
    highlight(&mut s, RowRef { seat: 1, id: 1001 });
    s.press(KeyCode::Char('h'));
    assert!(s.screen().contains("· beta"), "{}", s.screen());
    s.press(KeyCode::Esc);
    s.press(KeyCode::Char('L'));
    let log = s.screen();
    assert!(
        log.contains("Command log · every account · 2 lines"),
        "{log}"
    );
    for name in ["alpha", "beta"] {
        assert!(
            log.lines()
                .any(|l| l.contains(name) && l.contains("probe 1001")),
            "{name}'s line:\n{log}"
        );
    }
    // `y` copies every account's lines, not the highlighted row's account's.
    s.press(KeyCode::Char('y'));
    s.until_shown("Command log of every account (2 lines)")
        .await;
    s.press(KeyCode::Esc);
    // The palette and a form opened from All name the row's account.
    s.press(KeyCode::Char(':'));
    let palette = s.screen();
    assert!(
        palette
            .lines()
            .any(|l| l.contains("Palette · service 1001") && l.contains("· beta")),
        "{palette}"
    );
    s.press(KeyCode::Esc);
    s.press(KeyCode::Char('p'));
    s.until_shown("New proxy password").await;
    assert!(s.screen().contains("service 1001 · beta"), "{}", s.screen());
}

/// Item 5: the way back to All is shown in one account's view; `P` lists All and each
/// account with its read-only mark, the one shown marked.
#[tokio::test]
async fn one_accounts_view_shows_the_way_back_to_all() {
    let (_sbs, mut s) = start(&[("alpha", false), ("beta", true)], false).await;
    s.until("both accounts' services", settled(Tab::Services))
        .await;
    s.press(KeyCode::Char('P'));
    let all = s.screen();
    assert!(all.contains("All") && all.contains("(shown)"), "{all}");
    assert!(all.contains("read-only"), "beta's mark: {all}");
    // beta, shown alone.
    s.press(KeyCode::Char('j'));
    s.press(KeyCode::Char('j'));
    s.press(KeyCode::Enter);
    assert_eq!(s.desk.scope(), Scope::One(1));
    let one = s.screen();
    let footer = one.lines().last().unwrap_or_default();
    assert!(footer.contains("A all accounts"), "{footer}");
    s.press(KeyCode::Char('?'));
    assert!(
        s.screen().contains("every account's rows together"),
        "{}",
        s.screen()
    );
    s.press(KeyCode::Esc);
    s.press(KeyCode::Char('A'));
    assert_eq!(s.desk.scope(), Scope::All);
}

/// Item 7: an account that stops answering is marked at once, its credit and rows as
/// its last, and its end reads as an end.
#[tokio::test]
async fn an_account_that_stops_answering_is_marked_everywhere_in_all() {
    let (mut sbs, mut s) = start(&[("alpha", false), ("beta", false)], false).await;
    s.until("both accounts' services and credit", |d| {
        settled(Tab::Services)(d)
            && d.seats()
                .iter()
                .all(|s| s.app.billing().credit().value().is_some())
    })
    .await;
    drop(sbs.pop());
    s.press(KeyCode::Char('R'));
    s.until("beta without an answer", |d| {
        d.seats()[1].app.no_answer_since().is_some()
    })
    .await;
    let screen = s.screen();
    let top = screen.lines().next().unwrap_or_default();
    assert!(top.contains("✗ beta"), "{top}");
    assert!(screen.contains("beta ✗"), "its rows are marked:\n{screen}");
    assert!(
        screen.contains("✗$"),
        "its credit and the total are marked:\n{screen}"
    );
    assert!(screen.contains("no answer since"), "{screen}");
}

/// The status line of a screen (the line above the footer).
fn status_line(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    lines[lines.len().saturating_sub(2)].to_owned()
}

/// Item 7: once the engine calls the account unreachable, the status line says that
/// outage once; the next key does not bring back the reads that failed one by one.
#[tokio::test]
async fn an_unreachable_account_is_said_once_not_read_by_read() {
    let (mut sbs, mut s) = start(&[("alpha", false), ("beta", false)], false).await;
    s.until("both accounts' services", settled(Tab::Services))
        .await;
    drop(sbs.pop());
    s.press(KeyCode::Char('R'));
    s.until("beta unreachable for the engine", |d| {
        d.seats()[1].app.connection().unreachable_since().is_some()
    })
    .await;
    s.press(KeyCode::Char('j'));
    s.press(KeyCode::Char('k'));
    let screen = s.screen();
    let line = status_line(&screen);
    assert!(
        !line.contains("Cannot reach"),
        "the outage, not one read of it:\n{screen}"
    );
    assert!(
        s.desk.seats()[1]
            .app
            .status()
            .messages()
            .newest_first()
            .any(|e| e.text.contains("Cannot reach")),
        "the reads that failed are in the log"
    );
}

/// Item 7: a server down from the start is never shown online (`●`): `…` until its first
/// request ends, `✗` as soon as one gets no answer, without waiting for the engine's
/// outage (several failures over 10 s).
#[tokio::test]
async fn an_account_down_from_the_start_is_marked_at_its_first_failed_request() {
    let alpha = sandbox(None).await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let (mut beta, door) = account(&alpha, "beta", false);
    let url = format!("http://127.0.0.1:{port}");
    beta.base_url = url.clone();
    let door = {
        let _ = door;
        let client = ApiClient::new(ClientConfig::new(
            url,
            Credentials::Token(alpha.token().into()),
        ))
        .unwrap();
        Door::new(client, Budget::new(Bucket::new(Some(60_000))))
    };
    let mut s = DeskSession::start(
        vec![account(&alpha, "alpha", false), (beta, door)],
        (120, 40),
    );
    let top = s.screen().lines().next().unwrap_or_default().to_owned();
    assert!(
        !top.contains("● beta"),
        "not online before any answer: {top}"
    );
    s.until("beta's first request without an answer", |d| {
        d.seats()[1].app.no_answer_since().is_some()
    })
    .await;
    let top = s.screen().lines().next().unwrap_or_default().to_owned();
    assert!(top.contains("✗ beta"), "{top}");
    assert!(
        s.desk.seats()[1]
            .app
            .connection()
            .unreachable_since()
            .is_none(),
        "the header did not wait for the engine's outage"
    );
}

/// Item 8: at 80×24 the info line keeps the total whole (the accounts' own credits give
/// way first: Billing lists them), and a product name cut to fit keeps its last words
/// whole (`Residen… 50 GB`), never a word cut in two (`Datacen…r US 10`, `Resi… GB`).
#[tokio::test]
async fn at_80x24_the_total_and_the_ends_of_names_stay_whole() {
    let names = [
        ("alpha-reseller", false),
        ("beta-reseller", false),
        ("gamma-reseller", false),
    ];
    let (_sbs, mut s) = start_sized(&names, false, (80, 24)).await;
    s.until("every account's services and credit", |d| {
        settled(Tab::Services)(d)
            && d.seats()
                .iter()
                .all(|s| s.app.billing().credit().value().is_some())
    })
    .await;
    let total: f64 = s
        .desk
        .seats()
        .iter()
        .filter_map(|seat| seat.app.billing().credit().value().map(|c| c.credit))
        .sum();
    // A read in flight puts `⟳ N pending` on the right: the total keeps its room anyway.
    s.press(KeyCode::Char('R'));
    let screen = s.screen();
    let info = screen.lines().nth(2).unwrap_or_default();
    assert!(
        info.contains(&format!("total {}", proxydash::text::money(total))),
        "{screen}"
    );
    for line in screen.lines() {
        let cut_word = line
            .char_indices()
            .filter(|&(_, c)| c == '…')
            .any(|(i, _)| {
                line[i + '…'.len_utf8()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric)
            });
        assert!(!cut_word, "a word cut in two: {line:?}\n{screen}");
    }
    let row = |id: &str| {
        screen
            .lines()
            .find(|l| l.contains(&format!(" {id} ")))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(row("1003").contains(" 5 GB"), "{screen}");
    assert!(row("1004").contains(" 50 GB"), "{screen}");
    // The detail pane names whose service it is (issue 45).
    assert!(
        screen.contains("╭ Service 1001 · alpha-reseller "),
        "{screen}"
    );
}

/// Item 6: the palette opened from All refreshes as `r` does there, every account, and
/// shows no one account's command line for it.
#[tokio::test]
async fn the_palettes_refresh_in_all_is_every_accounts() {
    let (sbs, mut s) = start(&[("alpha", false), ("beta", false)], false).await;
    s.until("both accounts' services", settled(Tab::Services))
        .await;
    s.press(KeyCode::Char(':'));
    s.type_text("refresh this tab");
    let palette = s.screen();
    let line = palette
        .lines()
        .find(|l| l.contains("action") && l.contains("refresh this tab"))
        .unwrap_or_default();
    assert!(line.contains("every account"), "{palette}");
    assert!(!palette.contains("$ proxydash"), "{palette}");
    for sb in &sbs {
        sb.clear_requests();
    }
    s.press(KeyCode::Enter);
    assert!(
        s.desk
            .seats()
            .iter()
            .all(|seat| seat.app.popups().is_empty()),
        "{}",
        s.screen()
    );
    s.until("every account read its services again", |_| {
        sbs.iter().all(|sb| {
            sb.requests()
                .iter()
                .any(|r| r.method == "GET" && r.path.starts_with("/api/services"))
        })
    })
    .await;
}

/// A wide All view's Clients table pads the e-mails, not the accounts' names: the
/// Account column stays as wide as its longest name (it took half of a 200-column screen).
#[tokio::test]
async fn the_clients_of_every_account_give_the_room_to_the_e_mail_not_the_account() {
    let (_sbs, mut s) = start_sized(&[("alpha", false), ("beta", false)], false, (200, 40)).await;
    s.press(KeyCode::Char('7'));
    s.until("both accounts' clients", settled(Tab::Clients))
        .await;
    let screen = s.screen();
    let header = screen
        .lines()
        .find(|l| l.contains("Account") && l.contains("E-mail"))
        .unwrap_or_else(|| panic!("no Clients header:\n{screen}"));
    let account = header.find("Account").unwrap();
    let email = header.find("E-mail").unwrap();
    assert!(
        email - account < 20,
        "the e-mail starts {} cells after the account:\n{screen}",
        email - account
    );
    assert!(
        screen
            .lines()
            .any(|l| l.contains("beta") && l.contains('@')),
        "{screen}"
    );
}

/// Issue 45.4: the All view's Alerts are one account's Alerts over several: a Marked
/// column says what is being handled, the title counts open, acknowledged and silenced
/// apart, and the rows go worst first across accounts.
#[tokio::test]
async fn all_alerts_say_what_is_handled_and_go_worst_first_across_accounts() {
    let (_sbs, mut s) = start(&[("alpha", false), ("beta", false)], false).await;
    s.press(KeyCode::Char('6'));
    s.until("both accounts' alerts", settled(Tab::Alerts)).await;
    // Acknowledge the first row (beta's or alpha's, whichever is first).
    s.press(KeyCode::Char('g'));
    let first = s.desk.all().selected().expect("a row");
    s.press(KeyCode::Char('a'));
    s.until("the acknowledgement applied", |d| {
        let app = &d.seats()[first.seat].app;
        app.alerts().counts(app.now()).acked == 1
    })
    .await;
    let screen = s.screen();
    let open: usize = s
        .desk
        .seats()
        .iter()
        .map(|seat| seat.app.alerts().open_count())
        .sum();
    assert!(screen.contains("Marked"), "{screen}");
    assert!(screen.contains("acked"), "{screen}");
    assert!(
        screen.contains(&format!(
            "Alerts · all accounts · {} open · 1 acked",
            open - 1
        )),
        "{screen}"
    );
    // Worst first, whichever the account: the levels never go up down the rows, and the
    // criticals of both accounts come before any warning.
    let all = s.desk.all();
    let shown: Vec<(usize, proxydash::alerts::Level)> = all
        .table()
        .view_order()
        .filter_map(|i| {
            let (seat, row) = all.row(i)?;
            let a = s.desk.seats()[seat].app.alerts().rows.get(row)?;
            a.resolved.is_none().then_some((seat, a.level))
        })
        .collect();
    assert!(shown.windows(2).all(|w| w[0].1 >= w[1].1), "{shown:?}");
    let critical_seats: std::collections::HashSet<usize> = shown
        .iter()
        .filter(|(_, level)| *level == proxydash::alerts::Level::Critical)
        .map(|(seat, _)| *seat)
        .collect();
    assert_eq!(
        critical_seats.len(),
        2,
        "both accounts' criticals: {shown:?}"
    );
}

/// Issue 45: at 80×24 the All view's money ahead keeps the account that runs short (its
/// line first, the soonest short first), not the first accounts in the config's order.
#[tokio::test]
async fn at_80x24_the_money_ahead_keeps_the_account_that_runs_short() {
    let mut sbs = vec![sandbox(None).await, sandbox(None).await];
    // The third has many more services: its renewals outrun the same credit first.
    sbs.push(
        Sandbox::start(SandboxConfig {
            listen: ([127, 0, 0, 1], 0).into(),
            scale: Some(40),
            ..SandboxConfig::default()
        })
        .await
        .expect("sandbox starts"),
    );
    let settings = ["alpha", "beta", "gamma"]
        .iter()
        .zip(&sbs)
        .map(|(name, sb)| account(sb, name, false))
        .collect();
    let mut s = DeskSession::start(settings, (80, 24));
    s.press(KeyCode::Char('3'));
    s.until_shown("(gamma)").await;
    let line_after_earliest = |screen: &str| {
        let mut lines = screen
            .lines()
            .skip_while(|l| !l.contains("Earliest short:"));
        lines.next();
        lines.next().unwrap_or_default().to_owned()
    };
    let screen = s.screen();
    let line = line_after_earliest(&screen);
    assert!(line.starts_with("│ gamma "), "{screen}");
}
