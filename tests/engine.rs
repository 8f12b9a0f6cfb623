//! The account engine end to end against the sandbox on loopback (issue 22's "done
//! when"): `watch`'s observer on an engine, and the dashboard headless, on tokio's paused
//! clock (`support::tokio_clock`): the engine's timers, the client's timeouts and the
//! sandbox's rate window all run on it, so minutes cost no real time, and every wait is
//! for a named state under a limit on that clock.

use crate::support;

use proxydash::account::{self, Config};
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::metrics::Board;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use proxydash::scheduler::{Bucket, Budget, Door};
use proxydash::watch::output::{Captured, Output};
use proxydash::watch::setup::JsonLines;
use proxydash::watch::watcher::{Options, Watcher};
use std::time::Duration;
use tokio::time::Instant;

pub(crate) fn client(sb: &SandboxHandle) -> ApiClient {
    let mut config = ClientConfig::new(sb.base_url(), Credentials::Token(sb.token().into()));
    config.request_timeout = Duration::from_secs(5);
    config.connect_timeout = Duration::from_secs(5);
    ApiClient::new(config).unwrap()
}

/// A watcher of `sb` with `refresh`, its alert lines captured and its metrics on a board.
pub(crate) fn watcher(
    sb: &SandboxHandle,
    refresh: u64,
    client: impl Into<Door>,
) -> (Watcher, Captured, Board) {
    let clock = support::tokio_clock();
    let captured = Captured::default();
    // Alerts and log lines both, one line each.
    let output = Output::spawn(Box::new(captured.clone()), Box::new(captured.clone())).unwrap();
    let engine = account::start(
        Config::new("main", &sb.base_url(), Some(Duration::from_secs(refresh))),
        client,
        clock.clone(),
    );
    let sink = JsonLines {
        output: output.clone(),
        profile: "main".into(),
        then: None,
    };
    let board = Board::default();
    let options = Options {
        clock,
        speed: 1,
        verbose: 2,
        board: Some(board.clone()),
        keep: None,
        history: None,
        on_alert: None,
        probe: None,
    };
    let w = Watcher::new("main", engine, Box::new(sink), output, options);
    (w, captured, board)
}

/// The alert lines of `rule` with `state`.
fn alert_lines(captured: &Captured, rule: &str, state: &str) -> usize {
    captured
        .text()
        .lines()
        .filter(|l| {
            l.contains(&format!("\"rule\":\"{rule}\""))
                && l.contains(&format!("\"state\":\"{state}\""))
        })
        .count()
}

/// Waits on tokio's clock until `holds`, checking every simulated second; panics naming
/// `what` after `limit` of that clock.
pub(crate) async fn until(
    what: &str,
    limit: Duration,
    mut holds: impl FnMut() -> bool,
) -> Duration {
    let started = Instant::now();
    while !holds() {
        assert!(started.elapsed() < limit, "not {what} within {limit:?}");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    started.elapsed()
}

/// Service 1003 of the built-in seed is a ppr service well under its limit.
const PPR: u64 = 1003;

#[tokio::test(start_paused = true)]
async fn usage_that_climbs_past_its_limit_opens_its_alert_in_watch_and_metrics_follow() {
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let (w, captured, board) = watcher(&sb, 10, client(&sb));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let run = tokio::spawn(w.run(stopped));
    // Read once at its modest usage, then it climbs far past its limit.
    until(
        "the ppr service's rate read",
        Duration::from_secs(60),
        || {
            sb.requests()
                .iter()
                .any(|r| r.path == format!("/api/rate/{PPR}") && r.status == 200)
        },
    )
    .await;
    assert!(sb.set_daily_usage(PPR, 1_000_000.0));
    let started = Instant::now();
    while alert_lines(&captured, "rate_limit", "opened") == 0 {
        let rates: Vec<_> = sb
            .requests()
            .iter()
            .filter(|r| r.path == format!("/api/rate/{PPR}"))
            .map(|r| r.status)
            .collect();
        assert!(
            started.elapsed() < Duration::from_secs(150),
            "no rate_limit alert within 150 s; rate of {PPR} answered {rates:?}; {} requests; out:\n{}",
            sb.requests().len(),
            captured.text()
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    let took = started.elapsed();
    let ratio = board
        .read()
        .unwrap()
        .get("main")
        .and_then(|m| m.services.iter().find(|s| s.service_id == PPR)?.rate_ratio);
    assert!(ratio.is_some_and(|r| r >= 0.95), "ratio {ratio:?}");
    let scraped = proxydash::metrics::scrape(&board);
    assert!(
        scraped.contains("proxydash_api_up{profile=\"main\"} 1"),
        "{scraped}"
    );
    println!("opened {took:?} after the climb");
    let _ = stop.send(true);
    run.await.unwrap().unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_stopped_api_opens_one_unreachable_alert_the_gauge_drops_and_both_recover() {
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let (w, captured, board) = watcher(&sb, 30, client(&sb));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let run = tokio::spawn(w.run(stopped));
    let up = |board: &Board| board.read().unwrap().get("main").and_then(|m| m.api_up);
    until("the API seen up", Duration::from_secs(60), || {
        up(&board) == Some(true)
    })
    .await;
    sb.set_faults(Some("drop:1".parse().unwrap()));
    sb.clear_requests();
    let down_at = Instant::now();
    until("the gauge at 0", Duration::from_secs(40), || {
        up(&board) == Some(false)
    })
    .await;
    until("one unreachable alert", Duration::from_secs(100), || {
        alert_lines(&captured, "api_unreachable", "opened") == 1
    })
    .await;
    // Stopped for 100 s in all: still exactly one alert, and the requests sent into the
    // void were the plan's until three silent failures made it unreachable (10 s at
    // least, at the sweep's pace of 59 a minute, each attempt of a failing read a token of
    // that pace) and those already handed to the scheduler, then one probe every 10 s;
    // each with the client's own retries of a lost connection (3 attempts).
    let left = Duration::from_secs(100).saturating_sub(down_at.elapsed());
    tokio::time::sleep(left).await;
    assert_eq!(alert_lines(&captured, "api_unreachable", "opened"), 1);
    let sent = sb.requests().len();
    assert!(
        sent <= (14 + 9) * 3,
        "{sent} requests while the API was down"
    );
    assert!(
        captured.text().contains("the API is unreachable since"),
        "{}",
        captured.text()
    );
    sb.set_faults(None);
    until("the alert resolved", Duration::from_secs(90), || {
        alert_lines(&captured, "api_unreachable", "resolved") == 1
    })
    .await;
    assert_eq!(up(&board), Some(true));
    let _ = stop.send(true);
    run.await.unwrap().unwrap();
}

/// Behind a 60-a-minute server limit, 100 services (50 live), `refresh = 30`, five
/// minutes: after the first minute no 429, and every live service's network lists and
/// every ppr rate read at least twice, whichever tab is on screen (here: the engine alone,
/// as `watch` runs it, and the dashboard on its Usage and Services tabs).
#[tokio::test(start_paused = true)]
async fn behind_a_limit_every_live_service_is_read_twice_in_five_minutes_and_no_429_after_the_first()
 {
    for tab in [None, Some('5'), Some('1')] {
        let sb = Sandbox::start(SandboxConfig {
            rate_limit: Some(60),
            rate_limit_headers: true,
            rate_window: Duration::from_secs(60),
            scale: Some(100),
            ..SandboxConfig::ephemeral()
        })
        .await
        .unwrap();
        let budgeted = Door::new(
            client(&sb),
            Budget::new(Bucket::with_window(None, Duration::from_secs(60))),
        );
        let start = Instant::now();
        let mut session = None;
        let mut watcher_stop = None;
        match tab {
            None => {
                let (w, _, _) = watcher(&sb, 30, budgeted);
                let (stop, stopped) = tokio::sync::watch::channel(false);
                tokio::spawn(w.run(stopped));
                watcher_stop = Some(stop);
            }
            Some(key) => {
                let settings = proxydash::app::AppSettings {
                    base_url: sb.base_url(),
                    refresh: Some(Duration::from_secs(30)),
                    mouse: false,
                    ..Default::default()
                };
                let clock = support::tokio_clock();
                let effects = proxydash::effects::Effects::new(
                    account::start(settings.engine_config(), budgeted, clock.clone()),
                    Box::new(proxydash::clipboard::Recording::default()),
                    proxydash::headless::OFFLINE_MY_IP_URL.into(),
                    None,
                );
                let mut s = proxydash::headless::Session::with(
                    proxydash::app::App::new(settings, clock),
                    effects,
                    (120, 40),
                );
                s.press(crossterm::event::KeyCode::Char(key));
                session = Some(s);
            }
        }
        // Five minutes: the dashboard's messages are taken as they come.
        while start.elapsed() < Duration::from_secs(300) {
            match session.as_mut() {
                Some(s) => {
                    if let Ok(Some(msg)) =
                        tokio::time::timeout(Duration::from_secs(1), s.effects.next_msg()).await
                    {
                        s.send(msg);
                    }
                }
                None => tokio::time::sleep(Duration::from_secs(1)).await,
            }
        }
        let requests = sb.requests();
        if let Some(stop) = watcher_stop {
            let _ = stop.send(true);
        }
        drop(session);
        // The first minute's requests are the budget learning the server's figure.
        let late_429 = requests.iter().skip(60).filter(|r| r.status == 429).count();
        assert_eq!(late_429, 0, "429s after the first minute ({tab:?})");
        // No type probe: no usage read answered "not a rotating service".
        let probes = requests
            .iter()
            .filter(|r| r.path.starts_with("/api/rate/") && r.status == 422)
            .count();
        assert_eq!(probes, 0, "type-probe 422s ({tab:?})");
        let answered = |path: String| {
            requests
                .iter()
                .filter(|r| r.path == path && r.status == 200)
                .count()
        };
        // Every live service, as the server lists them (asked afterwards, once the
        // server's window has room: the engine may have spent it).
        let lister = Door::new(
            client(&sb),
            Budget::new(Bucket::with_window(None, Duration::from_secs(60))),
        );
        let services = loop {
            match lister.services().await {
                Ok(list) => break list,
                Err(e) if e.is_rate_limited() => {
                    tokio::time::sleep(Duration::from_secs(5)).await;
                }
                Err(e) => panic!("the services list: {e}"),
            }
        };
        let mut short = Vec::new();
        let mut rates = 0;
        for s in services
            .iter()
            .filter(|s| proxydash::app::is_swept(&s.status))
        {
            let id = s.service_id;
            let errors = answered(format!("/api/networkstatus/errors/{id}"));
            let inactive = answered(format!("/api/networkstatus/inactive/{id}"));
            if errors < 2 || inactive < 2 {
                short.push(format!("{id}: errors {errors}, inactive {inactive}"));
            }
            let rate = answered(format!("/api/rate/{id}"));
            if rate > 0 {
                rates += 1;
                if rate < 2 {
                    short.push(format!("{id}: rate {rate}"));
                }
            }
        }
        assert!(rates > 0, "no ppr rate read ({tab:?})");
        let mut by_kind = std::collections::BTreeMap::new();
        for r in &requests {
            let kind: String = r.path.trim_end_matches(|c: char| c.is_ascii_digit()).into();
            *by_kind.entry((kind, r.status)).or_insert(0) += 1;
        }
        assert!(
            short.is_empty(),
            "read fewer than twice in five minutes ({tab:?}): {short:?}; {} requests: {by_kind:?}",
            requests.len()
        );
    }
}

/// Two engines of one profile at once, as the dashboard's and `watch`'s, sharing the
/// profile's history file: a silence the first is asked for is written there and holds
/// in the second from its sweeps on, on the real clock (the marks are written and read on
/// a thread of their own).
#[tokio::test(flavor = "multi_thread")]
async fn a_silence_asked_of_one_engine_holds_in_another_of_the_same_profile() {
    use proxydash::account::Event;
    use proxydash::alerts::marks::{MarkChange, Silence, Target};
    use proxydash::alerts::{Change, Rule, Subject};
    use proxydash::history::marks::{MarksDb, MarksFile};
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let path = support::temp_dir("marks").join("history-main.sqlite");
    let clock: account::Clock = std::sync::Arc::new(chrono::Utc::now);
    let engine = |path: &std::path::Path| {
        let budgeted = Door::new(
            client(&sb),
            Budget::new(Bucket::with_window(None, Duration::from_secs(60))),
        );
        account::spawn(account::Setup {
            config: Config::new("main", &sb.base_url(), Some(Duration::from_secs(1))),
            door: budgeted,
            clock: clock.clone(),
            speed: 1,
            history: None,
            alert_file: None,
            types_file: None,
            marks_file: Some(MarksFile::spawn(path.to_owned())),
            seen: None,
        })
    };
    // Generous: alone this takes a fraction of a second, but CI runs it beside 400 others.
    let started = std::time::Instant::now();
    let limit = started + Duration::from_secs(180);
    // The dashboard's engine silences service 1006 (Suspended in the seed).
    let (dashboard, mut dashboard_events) = engine(&path);
    let now = chrono::Utc::now();
    dashboard.mark(MarkChange::Silence(Silence {
        id: "d45b0a".into(),
        target: Target {
            rule: None,
            service: Some(1006),
        },
        until: now + chrono::Duration::hours(1),
        reason: "moving racks".into(),
        by: "tester".into(),
        created: now,
    }));
    // Told back at once, and written to the file.
    loop {
        match tokio::time::timeout(Duration::from_secs(60), dashboard_events.recv()).await {
            Ok(Some(Event::Marked(m))) if m.find("d45b0a").is_some() => break,
            Ok(Some(_)) => {}
            other => panic!("no Marked event after {:?}: {other:?}", started.elapsed()),
        }
    }
    // A file the engine's writer holds past the busy timeout (a loaded machine) is one
    // that reads a moment later: not yet written, not a failure.
    let written = |path: &std::path::Path| {
        MarksDb::open(path)
            .and_then(|db| db.load())
            .is_ok_and(|m| m.find("d45b0a").is_some())
    };
    while !written(&path) {
        assert!(
            std::time::Instant::now() < limit,
            "never written in {:?}",
            started.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // `watch`'s engine, started after: its sweeps hold 1006 back, and not 1007.
    let (_watch, mut watch_events) = engine(&path);
    let (mut marked, mut opened_1007) = (false, false);
    while !(marked && opened_1007) {
        let left = limit.saturating_duration_since(std::time::Instant::now());
        let event = tokio::time::timeout(left, watch_events.recv()).await;
        match event {
            Ok(Some(Event::Marked(m))) => marked |= m.find("d45b0a").is_some(),
            Ok(Some(Event::Swept(swept))) => {
                assert!(
                    swept.marks.find("d45b0a").is_some(),
                    "the sweep went without the file's marks (marked {marked}, after {:?})",
                    started.elapsed()
                );
                for t in &swept.transitions {
                    assert_ne!(t.alert.key.subject, Subject::Service(1006), "{t:?}");
                    opened_1007 |= t.alert.key
                        == proxydash::alerts::AlertKey {
                            rule: Rule::ServiceStatus,
                            subject: Subject::Service(1007),
                        }
                        && t.change == Change::Opened;
                }
                if opened_1007 {
                    assert!(
                        swept
                            .book
                            .open()
                            .any(|a| a.key.subject == Subject::Service(1006)),
                        "listed, only not delivered"
                    );
                }
            }
            Ok(Some(_)) => {}
            other => {
                panic!(
                    "watch's engine after {:?}: marked {marked}, 1007 opened {opened_1007}: {other:?}",
                    started.elapsed()
                )
            }
        }
    }
    drop(dashboard);
}
