//! Issue 36: in the All view every key that acts on a row acts on the highlighted row's
//! account and ID, on two accounts whose IDs collide (two sandboxes of the same seed).
//!
//! The keys are not listed here: the test walks the key map in the All view's context
//! on every tab, so a key added to the table is covered without a new test.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::app::keymap::Reach;
use proxydash::app::keymap::{self, Action, Key};
use proxydash::app::popups::Popup;
use proxydash::app::tabs::Tab;
use proxydash::app::{App, AppSettings, Msg};
use proxydash::desk::all::RowRef;
use proxydash::desk::{Desk, Scope};
use proxydash::headless::desk::DeskSession;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use proxydash::scheduler::{Bucket, Budget, Door};

async fn sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        ..SandboxConfig::default()
    })
    .await
    .expect("sandbox starts")
}

fn account(sb: &SandboxHandle, name: &str) -> (AppSettings, Door) {
    let client = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap();
    let settings = AppSettings {
        profile: name.into(),
        base_url: sb.base_url(),
        mouse: false,
        ..AppSettings::default()
    };
    (
        settings,
        Door::new(client, Budget::new(Bucket::new(Some(60_000)))),
    )
}

/// alpha and beta: the same seed, so the same service, product and invoice IDs.
pub async fn two() -> (Vec<SandboxHandle>, DeskSession) {
    let alpha = sandbox().await;
    let beta = sandbox().await;
    let s = DeskSession::start(
        vec![account(&alpha, "alpha"), account(&beta, "beta")],
        (160, 45),
    );
    (vec![alpha, beta], s)
}

fn key_event(key: &Key) -> KeyEvent {
    let modifiers = if key.ctrl {
        KeyModifiers::CONTROL
    } else {
        KeyModifiers::NONE
    };
    KeyEvent::new(key.code, modifiers)
}

/// What the popup on top of `app` is about, where it names one thing.
fn subject(app: &App) -> Option<u64> {
    match app.popups().last()? {
        Popup::Service(v) => Some(v.id),
        Popup::Invoice(v) => Some(v.0),
        Popup::Product(v) => Some(v.0),
        Popup::Client(v) => Some(v.0),
        Popup::Probe(v) => Some(v.service_id),
        _ => None,
    }
}

fn close_everything(s: &mut DeskSession) {
    for _ in 0..6 {
        let open = s
            .desk
            .seats()
            .iter()
            .any(|seat| !seat.app.popups().is_empty());
        if !open {
            return;
        }
        s.press(KeyCode::Esc);
    }
}

/// Highlights the last row of beta (seat 1) whose ID alpha lists too where there is one,
/// after selecting beta's first row in its own tab: a key that acted on an index, or on
/// the account's first row, would act on another row.
fn highlight_a_colliding_row_of_beta(s: &mut DeskSession, tab: Tab) -> Option<RowRef> {
    let all = s.desk.all();
    let refs: Vec<RowRef> = (0..all.table().total())
        .filter_map(|i| all.row_ref(i))
        .collect();
    let alpha: Vec<u64> = refs.iter().filter(|r| r.seat == 0).map(|r| r.id).collect();
    let beta: Vec<RowRef> = refs.iter().filter(|r| r.seat == 1).copied().collect();
    let target = beta
        .iter()
        .rev()
        .find(|r| alpha.contains(&r.id))
        .or(beta.last())
        .copied()?;
    if let Some(first) = beta.first() {
        let _ = s.desk.seats_mut()[1].app.select_row(tab, first.id);
    }
    s.press(KeyCode::Char('g'));
    for _ in 0..refs.len() {
        if s.desk.all().selected() == Some(target) {
            return Some(target);
        }
        s.press(KeyCode::Char('j'));
    }
    None
}

#[tokio::test]
async fn every_key_that_acts_on_a_row_acts_on_the_highlighted_rows_account_and_id() {
    let (_sbs, mut s) = two().await;
    let mut failures = Vec::new();
    let mut covered = Vec::new();
    for tab in Tab::ALL {
        close_everything(&mut s);
        s.press(KeyCode::Char(char::from(b'1' + tab.index() as u8)));
        let listed = |d: &Desk| {
            d.seats().iter().all(|seat| seat.app.table(tab).total() > 0)
                && d.seats().iter().all(|seat| seat.app.in_flight() == 0)
        };
        s.until(&format!("both accounts' rows on {tab:?}"), listed)
            .await;
        let ctx = s.desk.all_context();
        let keys: Vec<(Key, Action)> = keymap::effective(&ctx)
            .into_iter()
            .filter(|b| b.action.reach() == Reach::Row)
            .filter_map(|b| b.keys.first().map(|k| (*k, b.action)))
            .collect();
        for (key, action) in keys {
            close_everything(&mut s);
            s.press(KeyCode::Char(char::from(b'1' + tab.index() as u8)));
            let Some(target) = highlight_a_colliding_row_of_beta(&mut s, tab) else {
                failures.push(format!("{tab:?}: no row of beta to highlight"));
                continue;
            };
            let alpha_log = s.desk.seats()[0].app.status().messages().len();
            s.send(Msg::Key(key_event(&key)));
            covered.push(format!("{tab:?} {}", key.label()));
            let [alpha, beta] = s.desk.seats() else {
                unreachable!()
            };
            let what = format!("{tab:?} {} ({action:?}) on {target:?}", key.label());
            if !alpha.app.popups().is_empty() {
                failures.push(format!("{what}: alpha opened {:?}", alpha.app.popups()));
            }
            if alpha.app.status().messages().len() != alpha_log {
                failures.push(format!("{what}: alpha said something"));
            }
            if beta.app.table(tab).selected_id() != Some(target.id) {
                failures.push(format!(
                    "{what}: beta acted on {:?}",
                    beta.app.table(tab).selected_id()
                ));
            }
            // IDs repeat across accounts: what opens over All names its account.
            let opened = !beta.app.popups().is_empty();
            if opened && !s.screen().contains("· beta") {
                failures.push(format!(
                    "{what}: its popup does not name beta:\n{}",
                    s.screen()
                ));
            }
            let [_, beta] = s.desk.seats() else {
                unreachable!()
            };
            let services = matches!(
                tab,
                Tab::Services | Tab::Products | Tab::Billing | Tab::Clients
            );
            if let Some(id) = subject(&beta.app)
                && services
                && id != target.id
            {
                failures.push(format!("{what}: beta's popup is about {id}"));
            }
        }
    }
    close_everything(&mut s);
    assert!(failures.is_empty(), "{failures:#?}\ncovered: {covered:?}");
    // Every tab's rows were acted on, by the keys the map gives them.
    for needed in [
        "Services b",
        "Services Enter",
        "Alerts a",
        "Alerts s",
        "Billing Enter",
    ] {
        assert!(
            covered.iter().any(|c| c == needed),
            "{needed} not walked: {covered:?}"
        );
    }
    assert_eq!(s.desk.scope(), Scope::All);
}

/// Issue 47.2: marks in the All view act on each account's marked rows in that account:
/// one of your actions (`per_row`) runs once for alpha's marked service and once for
/// beta's, each filled from its own account (seen in the file the command writes).
#[tokio::test]
async fn marked_rows_of_two_accounts_each_run_the_action_in_their_own_account() {
    let file = crate::support::temp_dir("all-marks").join("ran.txt");
    let written = format!(
        "key = \"X\"\ndescription = \"Note\"\nper_row = true\ncommand = [\"sh\", \"-c\", \"echo \\\"$1\\\" >> \\\"$2\\\"\", \"sh\", \"{{profile}}-{{service_id}}\", {:?}]\n",
        file.display().to_string()
    );
    let value: toml::Value = toml::from_str(&written).unwrap();
    let (list, bad) = proxydash::config::actions::read(&[("config.toml line 1".into(), value)]);
    assert!(bad.is_empty(), "{bad:?}");
    let (actions, said) = proxydash::app::user_actions::check_keys(list);
    assert!(said.is_empty(), "{said:?}");
    let (alpha, beta) = (sandbox().await, sandbox().await);
    let with_action = |(mut settings, door): (AppSettings, Door)| {
        settings.actions = actions.clone();
        (settings, door)
    };
    let mut s = DeskSession::start(
        vec![
            with_action(account(&alpha, "alpha")),
            with_action(account(&beta, "beta")),
        ],
        (160, 45),
    );
    assert_eq!(s.desk.scope(), Scope::All);
    let listed = |d: &Desk| {
        d.seats()
            .iter()
            .all(|seat| seat.app.table(Tab::Services).total() > 0)
    };
    s.until("both accounts' services", listed).await;
    // alpha's first row and beta's last.
    s.press(KeyCode::Char('g'));
    s.press(KeyCode::Char(' '));
    s.press(KeyCode::Char('G'));
    s.press(KeyCode::Char(' '));
    let marked = s.desk.all().marked();
    assert_eq!(marked.len(), 2, "{marked:?}");
    assert_eq!((marked[0].seat, marked[1].seat), (0, 1));
    assert!(s.screen().contains("2 marked"), "{}", s.screen());
    s.press(KeyCode::Char('X'));
    let expected = [
        format!("alpha-{}", marked[0].id),
        format!("beta-{}", marked[1].id),
    ];
    let ran = |_: &Desk| {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        expected.iter().all(|line| text.lines().any(|l| l == line))
    };
    s.until("the action run for each account's marked row", ran)
        .await;
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    // Each account's own marks were lent for the key only: its table has none after.
    for seat in s.desk.seats() {
        assert_eq!(seat.app.table(Tab::Services).marked_count(), 0);
    }
}
