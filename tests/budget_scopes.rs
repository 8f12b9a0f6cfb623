//! The budget's scopes and its sharing, end to end on loopback (issue 46 items 3 and 4):
//! the real fetcher, budget and client against the in-process sandbox, on tokio's paused
//! clock (the sandbox's and the budget's windows are two seconds, as in `ratelimit.rs`).
//!
//! - A route's own limit (the sandbox's IP-list limit, off by default) holds that route
//!   alone: a person's read of another route goes at once.
//! - Three programs on one token, each with its sweep, keep one budget through
//!   their shared send log: no answer 429 with the headers, at most the limit in any
//!   window without.

use crate::support;

use proxydash::api::{
    ApiClient, ClientConfig, Credentials, IpListFormat, IpListType, Loaded, Request,
};
use proxydash::app::{App, AppSettings, Msg};
use proxydash::clipboard::Recording;
use proxydash::effects::Effects;
use proxydash::headless::{OFFLINE_MY_IP_URL, Session};
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use proxydash::scheduler::fetcher::Fetched;
use proxydash::scheduler::{Bucket, Budget, Door, Lane, SendLog};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::Instant;

const WINDOW: Duration = Duration::from_secs(2);
/// The longest any test waits for an answer, on tokio's clock.
const LIMIT: Duration = Duration::from_secs(60);

async fn sandbox(limit: u32, headers: bool, ip_list: Option<u32>) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        rate_limit: Some(limit),
        rate_limit_headers: headers,
        rate_window: WINDOW,
        ip_list_rate_limit: ip_list,
        scale: Some(30),
        ..SandboxConfig::ephemeral()
    })
    .await
    .expect("sandbox starts")
}

fn client(sb: &SandboxHandle) -> ApiClient {
    ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap()
}

fn lists() -> Vec<Request> {
    let types = [
        IpListType::HttpIp,
        IpListType::SocksIp,
        IpListType::HttpAuth,
    ];
    let formats = [IpListFormat::Txt, IpListFormat::Csv];
    types
        .iter()
        .flat_map(|t| {
            formats
                .iter()
                .map(|f| Request::ip_list(1001, t.clone(), f.clone()))
        })
        .collect()
}

/// Issue 46.3: an IP list answered with `X-RateLimit-Limit: 5` made a service's detail
/// wait 24 s behind it. The IP lists keep their route's pace; the detail goes at once.
#[tokio::test(start_paused = true)]
async fn a_routes_own_limit_never_holds_a_read_of_another_route() {
    let sb = sandbox(60, true, Some(5)).await;
    let budget = Budget::new(Bucket::with_window(None, WINDOW));
    let door = Door::new(client(&sb), budget.clone());
    let (fetcher, mut results) = proxydash::scheduler::fetcher::spawn(door, 8);
    // The account's figure first (two routes show 60), then one IP list (its own 5).
    fetcher.fetch(Request::Services, Lane::Screen);
    fetcher.fetch(Request::Credit, Lane::Screen);
    let lists = lists();
    fetcher.fetch(lists[0].clone(), Lane::Person);
    for _ in 0..3 {
        next(&mut results).await;
    }
    // A person asks five more IP lists, then a service's detail.
    for list in &lists[1..] {
        fetcher.fetch(list.clone(), Lane::Person);
    }
    fetcher.fetch(Request::Service(1001), Lane::Person);
    let mut order = Vec::new();
    while order.len() < 6 {
        let loaded: Loaded = next(&mut results).await;
        order.push(loaded.request());
    }
    let detail = order
        .iter()
        .position(|r| *r == Request::Service(1001))
        .expect("the detail was answered");
    assert!(
        detail <= 2,
        "the detail went behind the IP lists: {order:?}"
    );
    assert_eq!(budget.view().limit, 60, "the account keeps its own limit");
    let refused = sb.requests().iter().filter(|r| r.status == 429).count();
    assert_eq!(refused, 0, "the IP lists kept to their route's limit");
}

/// The fetcher's next answer, or a panic once [`LIMIT`] has passed on tokio's clock.
async fn next(results: &mut UnboundedReceiver<Fetched>) -> Loaded {
    tokio::time::timeout(LIMIT, results.recv())
        .await
        .expect("an answer within the limit: the budget holds the request?")
        .expect("the fetcher runs")
        .loaded
}

/// A dashboard's session on `sb` whose budget keeps to the send log at `log`.
fn session(sb: &SandboxHandle, log: &std::path::Path, refresh: Duration) -> Session {
    let settings = AppSettings {
        profile: "shop".into(),
        base_url: sb.base_url(),
        refresh: Some(refresh),
        mouse: false,
        ..AppSettings::default()
    };
    let clock = support::tokio_clock();
    let shared = SendLog::with_window(log.to_owned(), WINDOW).anchored(
        proxydash::scheduler::now(),
        chrono::Utc::now().timestamp_millis(),
    );
    let budget = Budget::new(Bucket::with_window(None, WINDOW)).shared(shared);
    let effects = Effects::new(
        proxydash::account::start(
            settings.engine_config(),
            Door::new(client(sb), budget),
            clock.clone(),
        ),
        Box::new(Recording::default()),
        OFFLINE_MY_IP_URL.into(),
        None,
    );
    Session::with(App::new(settings, clock), effects, (120, 40))
}

/// Runs the sessions for `run` of tokio's clock; the times (seconds from the start) the
/// sandbox saw a request at.
async fn run_all(all: &mut [Session], sb: &SandboxHandle, run: Duration) -> Vec<f64> {
    let start = Instant::now();
    let (mut times, mut seen) = (Vec::new(), 0);
    while start.elapsed() < run {
        for s in all.iter_mut() {
            if let Ok(Some(msg)) =
                tokio::time::timeout(Duration::from_millis(5), s.effects.next_msg()).await
            {
                s.send(msg);
            }
            if s.app.next_wakeup().is_some_and(|at| at <= s.app.now()) {
                s.send(Msg::Tick);
            }
        }
        let now = sb.requests().len();
        let at = start.elapsed().as_secs_f64();
        times.extend(std::iter::repeat_n(at, now - seen));
        seen = now;
    }
    times
}

/// A dashboard on the Network tab and two more programs sweeping (as `watch` does),
/// all refreshing every second, on one token and one send log.
fn three(sb: &SandboxHandle, log: &std::path::Path) -> Vec<Session> {
    let mut all: Vec<Session> = (0..3)
        .map(|_| session(sb, log, Duration::from_secs(1)))
        .collect();
    all[0].press(crossterm::event::KeyCode::Char('4'));
    all
}

fn busiest(times: &[f64], span: f64) -> usize {
    (0..times.len())
        .map(|i| {
            times[i..]
                .iter()
                .take_while(|t| **t < times[i] + span)
                .count()
        })
        .max()
        .unwrap_or(0)
}

/// Issue 46.4: two `watch`es and a dashboard on one token met 14 answers 429 in their
/// first minute, each spending the whole budget. Sharing the send log, together they keep
/// to the server's limit.
#[tokio::test(start_paused = true)]
async fn three_programs_sharing_the_send_log_meet_no_429() {
    let sb = sandbox(20, true, None).await;
    let dir = support::temp_dir("budget-shared-headers");
    let log = dir.join("shop.log");
    let mut all = three(&sb, &log);
    let times = run_all(&mut all, &sb, WINDOW * 10).await;
    let refused = sb.requests().iter().filter(|r| r.status == 429).count();
    assert_eq!(refused, 0, "{} sent", times.len());
    // 20 a window of two seconds, counted over three (the budget's margin of a second):
    // about 130 in twenty seconds.
    assert!(
        times.len() >= 110,
        "they kept the token busy: {}",
        times.len()
    );
    let written = std::fs::read_to_string(&log).expect("the send log");
    assert!(written.lines().count() > 0);
}

/// Without the headers, the three keep to the assumed limit together: never more in any
/// window than one program alone may send.
#[tokio::test(start_paused = true)]
async fn three_programs_sharing_the_send_log_keep_the_assumed_limit_together() {
    // The server takes 60 a window and says nothing.
    let sb = sandbox(60, false, None).await;
    let dir = support::temp_dir("budget-shared-silent");
    let log = dir.join("shop.log");
    let mut all = three(&sb, &log);
    let times = run_all(&mut all, &sb, WINDOW * 10).await;
    let window = (WINDOW + Duration::from_millis(33)).as_secs_f64();
    let most = busiest(&times, window);
    assert!(most <= 60, "{most} in the busiest window");
    let refused = sb.requests().iter().filter(|r| r.status == 429).count();
    assert_eq!(refused, 0);
}
