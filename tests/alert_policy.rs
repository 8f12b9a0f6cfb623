//! The alert policy end to end (issue 44): `watch`'s observer on an engine against the
//! sandbox on loopback, on tokio's paused clock (`support::tokio_clock`), so minutes cost
//! no real time and every wait is for a named state under a limit on that clock.
//!
//! - A large account starts with one summary, not hundreds of notices.
//! - A rejected token is a state: one critical alert at once, `api_up 0`, no datum aged
//!   0, and at most a couple of requests a minute.
//! - One endpoint failing alone (`/api/billing`) is said within a few refreshes, polled
//!   ever more slowly, and its data has no age while it never came.
//! - A restart with the open alerts of the last run announces none of them again.

use crate::support;

use proxydash::account::{self, Config};
use proxydash::alerts::{Alert, Change, DigestKind, Notice, Recording};
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::metrics::Board;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use proxydash::watch::output::{Captured, Output};
use proxydash::watch::watcher::{Options, Watcher};
use std::time::Duration;
use tokio::time::Instant;

fn client(sb: &SandboxHandle, token: &str) -> ApiClient {
    let mut config = ClientConfig::new(sb.base_url(), Credentials::Token(token.into()));
    config.request_timeout = Duration::from_secs(5);
    config.connect_timeout = Duration::from_secs(5);
    ApiClient::new(config).unwrap()
}

struct Run {
    recording: Recording,
    board: Board,
    log: Captured,
    stop: tokio::sync::watch::Sender<bool>,
    task: tokio::task::JoinHandle<Result<(), String>>,
    started: Instant,
}

impl Run {
    /// A watcher of `sb` as `token`, `refresh` seconds apart, with the open alerts a last
    /// run left; its transitions and notices recorded, its metrics on a board.
    fn start(sb: &SandboxHandle, token: &str, refresh: u64, open: Vec<Alert>) -> Self {
        let clock = support::tokio_clock();
        let log = Captured::default();
        let output = Output::spawn(Box::new(std::io::sink()), Box::new(log.clone())).unwrap();
        let mut config = Config::new("main", &sb.base_url(), Some(Duration::from_secs(refresh)));
        config.open_alerts = open;
        let engine = account::start(config, client(sb, token), clock.clone());
        let recording = Recording::default();
        let board = Board::default();
        let options = Options {
            clock,
            speed: 1,
            verbose: 0,
            board: Some(board.clone()),
            keep: None,
            history: None,
            on_alert: None,
            probe: None,
        };
        let w = Watcher::new("main", engine, Box::new(recording.clone()), output, options);
        let (stop, stopped) = tokio::sync::watch::channel(false);
        Self {
            recording,
            board,
            log,
            stop,
            task: tokio::spawn(w.run(stopped)),
            started: Instant::now(),
        }
    }

    /// Waits on tokio's clock until `holds`, checking every simulated second; panics
    /// naming `what` after `limit` of that clock from the start.
    async fn until(&self, what: &str, limit: Duration, mut holds: impl FnMut(&Self) -> bool) {
        while !holds(self) {
            assert!(
                self.started.elapsed() < limit,
                "not {what} within {limit:?}; log:\n{}",
                self.log.text()
            );
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }

    /// Until the log (written by a thread of its own, in real time) holds `text`: at most
    /// a real minute, letting the watcher's tasks run between looks.
    async fn until_logged(&self, text: &str) {
        let give_up = std::time::Instant::now() + Duration::from_secs(60);
        while !self.log.text().contains(text) {
            assert!(
                std::time::Instant::now() < give_up,
                "no {text:?} in the log within a minute:\n{}",
                self.log.text()
            );
            tokio::task::yield_now().await;
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Until `at` after the start, on tokio's clock (the span a figure is counted over).
    async fn until_elapsed(&self, at: Duration) {
        tokio::time::sleep(at.saturating_sub(self.started.elapsed())).await;
    }

    fn opened(&self, rule: &str) -> Vec<proxydash::alerts::Transition> {
        self.recording
            .taken()
            .into_iter()
            .filter(|t| t.change == Change::Opened && t.alert.key.rule.as_str() == rule)
            .collect()
    }

    fn metrics(&self) -> String {
        proxydash::metrics::scrape(&self.board)
    }

    async fn stop(self) -> (Recording, Duration) {
        let _ = self.stop.send(true);
        self.task.await.unwrap().unwrap();
        (self.recording, self.started.elapsed())
    }
}

/// Issue 44: `watch` on a 1,000-service account. What is true at start (hundreds of
/// Suspended services, unpaid invoices, due dates) is one summary in the first minute,
/// not one notice each; every alert is still one transition for machines, marked
/// baseline.
#[tokio::test(start_paused = true)]
async fn a_large_account_starts_with_one_summary_not_hundreds_of_notices() {
    let sb = Sandbox::start(SandboxConfig {
        scale: Some(1000),
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap();
    let run = Run::start(&sb, sb.token(), 30, Vec::new());
    run.until("the baseline's summary", Duration::from_secs(90), |r| {
        r.recording
            .announced()
            .iter()
            .any(|n| matches!(n, Notice::Digest(d) if d.kind == DigestKind::Baseline))
    })
    .await;
    run.until_elapsed(Duration::from_secs(60)).await;
    let notices = run.recording.announced();
    let transitions = run.recording.taken();
    println!(
        "first minute: {} notices for {} transitions",
        notices.len(),
        transitions.len()
    );
    assert!(transitions.len() > 300, "{} transitions", transitions.len());
    assert!(
        transitions.iter().all(|t| t.baseline),
        "all of them baseline"
    );
    assert!(notices.len() <= 3, "{} notices: {notices:?}", notices.len());
    let Notice::Digest(summary) = &notices[0] else {
        panic!("a summary first: {:?}", notices[0])
    };
    // Every transition so far is counted in it, the critical ones apart.
    assert_eq!(summary.total, transitions.len());
    let critical = transitions
        .iter()
        .filter(|t| t.alert.level == proxydash::alerts::Level::Critical)
        .count();
    assert_eq!(
        summary.open.get(&proxydash::alerts::Level::Critical),
        Some(&critical)
    );
    assert!(summary.summary().contains("already open at start"));
    run.stop().await;
}

/// Issue 44: a token the server rejects. The account is unauthorized from the first
/// answer: one critical alert within two refreshes, `api_up 0` with the state named,
/// no age for data that never came, a line on standard error, and at most two requests
/// a minute from then on.
#[tokio::test(start_paused = true)]
async fn a_rejected_token_is_one_critical_alert_and_a_trickle_of_requests() {
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    // A token's shape, not the sandbox's: 401 Unauthenticated.
    let revoked = "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0PpOoNnMm";
    let run = Run::start(&sb, revoked, 30, Vec::new());
    run.until("the unauthorized alert", Duration::from_secs(60), |r| {
        !r.opened("api_unauthorized").is_empty()
    })
    .await;
    let took = run.started.elapsed();
    println!("unauthorized alert after {took:?}");
    let alert = &run.opened("api_unauthorized")[0];
    assert_eq!(alert.alert.level, proxydash::alerts::Level::Critical);
    assert!(!alert.baseline, "a state is news, not baseline");
    assert!(alert.alert.message.contains("check the token"));
    assert!(
        run.recording.announced().iter().any(
            |n| matches!(n, Notice::One(t) if t.alert.key.rule.as_str() == "api_unauthorized")
        ),
        "announced at once"
    );
    run.until_logged("the API is rejecting the credentials since")
        .await;
    let metrics = run.metrics();
    assert!(
        metrics.contains("proxydash_api_up{profile=\"main\"} 0"),
        "{metrics}"
    );
    assert!(
        metrics.contains("proxydash_api_down_seconds{profile=\"main\",state=\"unauthorized\"}"),
        "{metrics}"
    );
    assert!(
        !metrics.contains("proxydash_oldest_datum_age_seconds"),
        "no datum ever came: no age\n{metrics}"
    );
    // Ten minutes of it: at most two requests a minute.
    sb.clear_requests();
    let from = run.started.elapsed();
    run.until_elapsed(from + Duration::from_secs(600)).await;
    let sent = sb.requests().len();
    println!("{sent} requests in 10 minutes while unauthorized");
    assert!(sent <= 20, "{sent} requests in 10 minutes");
    assert!(
        sent >= 2,
        "it still asks, to see the token work again: {sent}"
    );
    assert_eq!(run.opened("api_unauthorized").len(), 1, "one alert");
    run.stop().await;
}

/// Issue 44: only `/api/billing` fails (a 500 to the credit and the invoices) while the
/// rest answers: a `datum_failing` alert for each within five refreshes (not DataStale's
/// hour), their metric, no age for data never delivered, ever fewer requests to the
/// failing endpoint, and recovery resolving both.
#[tokio::test(start_paused = true)]
async fn one_endpoint_failing_alone_is_said_within_a_few_refreshes() {
    let sb = Sandbox::start(SandboxConfig {
        faults: Some("500:1,path=/api/billing".parse().unwrap()),
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap();
    let run = Run::start(&sb, sb.token(), 30, Vec::new());
    run.until(
        "datum_failing for the credit and the invoices",
        Duration::from_secs(150),
        |r| r.opened("datum_failing").len() == 2,
    )
    .await;
    println!("datum_failing after {:?}", run.started.elapsed());
    let metrics = run.metrics();
    for kind in ["credit", "invoices"] {
        assert!(
            metrics.contains(&format!(
                "proxydash_datum_failing_seconds{{profile=\"main\",kind=\"{kind}\"}}"
            )),
            "{metrics}"
        );
        assert!(
            !metrics.contains(&format!(
                "proxydash_oldest_datum_age_seconds{{profile=\"main\",kind=\"{kind}\"}}"
            )),
            "never delivered: no age\n{metrics}"
        );
    }
    assert!(
        metrics.contains("proxydash_api_up{profile=\"main\"} 1"),
        "the API works: {metrics}"
    );
    assert!(
        metrics.contains("proxydash_oldest_datum_age_seconds{profile=\"main\",kind=\"services\"}"),
        "{metrics}"
    );
    // Backing off: ten more minutes cost each failing read a handful of requests, not one
    // every refresh.
    sb.clear_requests();
    let from = run.started.elapsed();
    run.until_elapsed(from + Duration::from_secs(600)).await;
    let billing = sb
        .requests()
        .iter()
        .filter(|r| r.path.starts_with("/api/billing"))
        .count();
    println!("{billing} requests to /api/billing in 10 minutes");
    assert!(billing <= 12, "{billing} requests to /api/billing");
    sb.set_faults(None);
    run.until("both resolved", from + Duration::from_secs(1200), |r| {
        r.recording
            .taken()
            .iter()
            .filter(|t| {
                t.change == Change::Resolved && t.alert.key.rule.as_str() == "datum_failing"
            })
            .count()
            == 2
    })
    .await;
    run.stop().await;
}

/// Issue 44: a restarted `watch` takes the open alerts of the last run and announces none
/// of them again: no transition, no summary.
#[tokio::test(start_paused = true)]
async fn a_restart_announces_nothing_again() {
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let first = Run::start(&sb, sb.token(), 30, Vec::new());
    first
        .until("the baseline's summary", Duration::from_secs(90), |r| {
            !r.recording.announced().is_empty()
        })
        .await;
    let (recording, _) = first.stop().await;
    let open: Vec<Alert> = recording
        .taken()
        .into_iter()
        .filter(|t| t.change == Change::Opened)
        .map(|t| t.alert)
        .collect();
    assert!(open.len() >= 5, "{open:?}");
    let second = Run::start(&sb, sb.token(), 30, open);
    // Two minutes: the first full picture and the summary's deadline are both past.
    second.until_elapsed(Duration::from_secs(120)).await;
    assert!(
        second.recording.taken().is_empty(),
        "{:?}",
        second.recording.taken()
    );
    assert!(
        second.recording.announced().is_empty(),
        "{:?}",
        second.recording.announced()
    );
    second.stop().await;
}

/// Issue 44: an API answering 500 to everything is failing, one critical alert, and is
/// polled with backoff (one request at a time, up to two minutes apart), not at the full
/// budget.
#[tokio::test(start_paused = true)]
async fn a_failing_api_is_polled_with_backoff_not_at_the_full_budget() {
    let sb = Sandbox::start(SandboxConfig {
        faults: Some("500:1".parse().unwrap()),
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap();
    let run = Run::start(&sb, sb.token(), 30, Vec::new());
    run.until("the failing alert", Duration::from_secs(180), |r| {
        !r.opened("api_failing").is_empty()
    })
    .await;
    assert!(
        run.metrics()
            .contains("proxydash_api_up{profile=\"main\"} 0")
    );
    sb.clear_requests();
    let from = run.started.elapsed();
    run.until_elapsed(from + Duration::from_secs(600)).await;
    // The client retries a 5xx of a GET itself (3 attempts): each request the planner
    // lets go is up to three answers.
    let sent = sb.requests().len();
    println!("{sent} requests in 10 minutes while failing");
    assert!(
        sent <= 3 * 12,
        "{sent} requests in 10 minutes while failing"
    );
    run.stop().await;
}

/// Issue 45.3: `r` while the API does not answer: from the first failure, the API is
/// asked again every ten seconds (not after a whole retry), so its return is noticed
/// within that; after an outage, what the screen shows is read first, and the status line
/// says the API answers again.
#[tokio::test(start_paused = true)]
async fn after_an_outage_the_return_is_noticed_within_ten_seconds_and_the_screen_goes_first() {
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let mut s = support::session(
        &sb,
        Duration::from_secs(5),
        Some(Duration::from_secs(30)),
        (120, 40),
    );
    support::wait_idle(&mut s, Duration::from_secs(120)).await;
    sb.set_faults(Some("drop:1".parse().unwrap()));
    sb.clear_requests();
    s.press(crossterm::event::KeyCode::Char('r'));
    // Until every attempt of what `r` sent has failed (the client's own retries too).
    s.until("the refresh's requests lost", |app| {
        app.in_flight() == 0 && sb.requests().iter().filter(|r| r.status == 0).count() >= 3
    })
    .await;
    // The next check comes ten seconds after the failure, not at the read's next retry.
    let failed = Instant::now();
    let lost = sb.requests().len();
    s.until("the next check", |_| sb.requests().len() > lost)
        .await;
    let checked = failed.elapsed();
    println!("the next check {checked:?} after the failure");
    assert!(checked <= Duration::from_secs(11), "{checked:?}");
    // An outage: unreachable, said in the header.
    s.until("unreachable", |app| {
        app.connection().unreachable_since().is_some()
    })
    .await;
    sb.set_faults(None);
    let back = Instant::now();
    s.until("the API answers again", |app| {
        app.connection().unreachable_since().is_none()
    })
    .await;
    let noticed = back.elapsed();
    println!("the API's return noticed after {noticed:?}");
    assert!(noticed <= Duration::from_secs(11), "{noticed:?}");
    assert!(
        format!("{:?}", s.app.status().shown()).contains("The API answers again"),
        "{:?}",
        s.app.status().shown()
    );
    let before = sb.requests().len();
    support::wait_idle(&mut s, Duration::from_secs(120)).await;
    // What was read after the return: the Services tab's list before the sweep's network
    // lists.
    let answered: Vec<String> = sb.requests()[before..]
        .iter()
        .filter(|r| r.status == 200)
        .map(|r| r.path.clone())
        .collect();
    let services = answered.iter().position(|p| p == "/api/services");
    let network = answered
        .iter()
        .position(|p| p.starts_with("/api/networkstatus"));
    assert!(
        services.is_some() && (network.is_none() || services < network),
        "{answered:?}"
    );
}
