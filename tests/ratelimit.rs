//! The scheduler end to end against a rate-limited sandbox on loopback: the real app,
//! fetcher, budget and views, headless. The sandbox and the budget count in a window of
//! two seconds instead of a minute; the rules are the same (`src/scheduler/bucket.rs`,
//! `src/sandbox/ratelimit.rs`).
//!
//! Time: every test runs on tokio's paused clock. The budget's waits, the sandbox's window
//! and latency, the client's timeouts and the app's clock (`support::tokio_clock`) are all
//! tokio's, so a window passes as soon as every task is waiting for it: no test waits real
//! seconds, and none checks how long anything took. Every wait for an answer has a limit
//! on that clock, so a budget that never lets a request go fails the test (saying what it
//! waited for) instead of hanging it.

use crate::support;

use proxydash::api::{ApiClient, ClientConfig, Credentials, Loaded, OrderRequest, Request, Ticket};
use proxydash::app::{App, AppSettings, Msg};
use proxydash::clipboard::Recording;
use proxydash::effects::Effects;
use proxydash::headless::{OFFLINE_MY_IP_URL, Session};
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use proxydash::scheduler::fetcher::Fetched;
use proxydash::scheduler::{Bucket, Budget, Door, Lane};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::Instant;

const WINDOW: Duration = Duration::from_secs(2);
/// The longest any test waits for an answer, on tokio's clock: many windows, reached only
/// when the budget holds a request forever.
const LIMIT: Duration = Duration::from_secs(60);

async fn sandbox(limit: u32, headers: bool, scale: Option<usize>) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        rate_limit: Some(limit),
        rate_limit_headers: headers,
        rate_window: WINDOW,
        scale,
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

fn budgeted(sb: &SandboxHandle) -> Door {
    Door::new(client(sb), Budget::new(Bucket::with_window(None, WINDOW)))
}

/// A session with a budget of the test's window, on tokio's clock.
fn session(sb: &SandboxHandle) -> Session {
    let settings = AppSettings {
        profile: "demo".into(),
        base_url: sb.base_url(),
        refresh: None,
        mouse: false,
        ..AppSettings::default()
    };
    let clock = support::tokio_clock();
    let effects = Effects::new(
        proxydash::account::start(settings.engine_config(), budgeted(sb), clock.clone()),
        Box::new(Recording::default()),
        OFFLINE_MY_IP_URL.into(),
        None,
    );
    Session::with(App::new(settings, clock), effects, (120, 40))
}

/// The session's next message, or a panic naming `what` once `give_up` has passed on
/// tokio's clock.
async fn next_msg(s: &mut Session, sb: &SandboxHandle, give_up: Instant, what: &str) -> Msg {
    match tokio::time::timeout_at(give_up, s.effects.next_msg()).await {
        Ok(Some(msg)) => msg,
        Ok(None) => panic!("the session stopped answering while waiting for {what}"),
        Err(_) => panic!(
            "no answer within {LIMIT:?} while waiting for {what}: {} requests sent, {} in \
             flight; the budget holds them?",
            sb.requests().len(),
            s.app.in_flight()
        ),
    }
}

/// The fetcher's next result, or a panic once [`LIMIT`] has passed on tokio's clock.
async fn next_result(results: &mut UnboundedReceiver<Fetched>) -> Loaded {
    tokio::time::timeout(LIMIT, results.recv())
        .await
        .expect("an answer within the limit: the budget holds the request?")
        .expect("the fetcher runs")
        .loaded
}

/// Feeds answers to the session until nothing is in flight; the screens seen meanwhile.
async fn run_until_idle(s: &mut Session, sb: &SandboxHandle) -> Vec<String> {
    let give_up = Instant::now() + LIMIT;
    let mut screens = Vec::new();
    let mut idle = s.effects.account().idle();
    // Until the engine has nothing in flight and nothing due (not a moment between two
    // of its sends).
    loop {
        idle.borrow_and_update();
        if s.effects.account().is_settled() && s.app.in_flight() == 0 {
            break;
        }
        tokio::select! {
            msg = next_msg(s, sb, give_up, "every request to be answered") => {
                s.send(msg);
                screens.push(s.screen());
            }
            _ = idle.changed() => {}
        }
    }
    screens
}

/// "Services checked: A of B" on the Network tab: every swept service was checked (the
/// scaled account has Terminated, Cancelled and Fraud services, which are not swept).
#[track_caller]
fn all_checked(screen: &str) {
    let after = screen
        .split("Services checked: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no summary:\n{screen}"));
    let words: Vec<&str> = after.split_whitespace().take(3).collect();
    assert_eq!(words[1], "of", "{screen}");
    assert_eq!(words[0], words[2], "{screen}");
    assert!(words[0].parse::<usize>().unwrap() >= 10, "{screen}");
}

fn throttled(sb: &SandboxHandle) -> usize {
    sb.requests().iter().filter(|r| r.status == 429).count()
}

#[tokio::test(start_paused = true)]
async fn with_the_headers_no_request_is_refused_and_every_sweep_completes() {
    let sb = sandbox(20, true, Some(30)).await;
    let mut s = session(&sb);
    s.press(crossterm::event::KeyCode::Char('4'));
    let screens = run_until_idle(&mut s, &sb).await;
    let sent = sb.requests().len();
    assert!(sent > 40, "more than two windows' worth: {sent}");
    assert_eq!(throttled(&sb), 0, "no 429 when the server tells its limit");
    let screen = s.screen();
    all_checked(&screen);
    assert!(
        screen.contains("20/min · "),
        "the learned limit in the header:\n{screen}"
    );
    // Held back by the budget is never called a failure.
    assert!(screens.iter().all(|s| !s.contains("failed")));
}

#[tokio::test(start_paused = true)]
async fn without_the_headers_the_default_holds_and_nothing_is_refused() {
    // The server takes 60 a window and says nothing: the assumed 60 a window (spread
    // evenly) never meets its limit.
    let sb = sandbox(60, false, Some(40)).await;
    let mut s = session(&sb);
    s.press(crossterm::event::KeyCode::Char('4'));
    let screens = run_until_idle(&mut s, &sb).await;
    assert_eq!(throttled(&sb), 0, "no 429");
    all_checked(&s.screen());
    assert!(screens.iter().all(|s| !s.contains("failed")));
}

/// Send times (tokio's clock, seconds from the start, to 10 ms) of the requests `sb` saw
/// while `s` ran with an auto-refresh for `run`.
async fn send_times(s: &mut Session, sb: &SandboxHandle, run: Duration) -> Vec<f64> {
    let start = Instant::now();
    let (mut times, mut seen) = (Vec::new(), 0);
    while start.elapsed() < run {
        if let Ok(Some(msg)) =
            tokio::time::timeout(Duration::from_millis(10), s.effects.next_msg()).await
        {
            s.send(msg);
        }
        if s.app.next_wakeup().is_some_and(|at| at <= s.app.now()) {
            s.send(Msg::Tick);
        }
        let now = sb.requests().len();
        let at = start.elapsed().as_secs_f64();
        times.extend(std::iter::repeat_n(at, now - seen));
        seen = now;
    }
    times
}

/// The most sends in any span of `span` seconds.
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

#[tokio::test(start_paused = true)]
async fn silence_is_not_permission() {
    // A server with 300 services that never says a limit and never answers 429 (a real
    // one might ban, bill or drop instead): the dashboard refreshing every 5 s keeps to
    // the documented 60 a minute, spread over it, and never raises it on its own.
    let sb = Sandbox::start(SandboxConfig {
        scale: Some(300),
        ..SandboxConfig::ephemeral()
    })
    .await
    .expect("sandbox starts");
    let settings = AppSettings {
        profile: "demo".into(),
        base_url: sb.base_url(),
        refresh: Some(Duration::from_secs(5)),
        mouse: false,
        ..AppSettings::default()
    };
    let budget = Budget::new(Bucket::new(None));
    let clock = support::tokio_clock();
    let effects = Effects::new(
        proxydash::account::start(
            settings.engine_config(),
            Door::new(client(&sb), budget.clone()),
            clock.clone(),
        ),
        Box::new(Recording::default()),
        OFFLINE_MY_IP_URL.into(),
        None,
    );
    let mut s = Session::with(App::new(settings, clock), effects, (120, 40));
    s.press(crossterm::event::KeyCode::Char('4'));
    let times = send_times(&mut s, &sb, Duration::from_secs(200)).await;
    let (minute, second) = (busiest(&times, 60.0), busiest(&times, 1.0));
    assert!(minute <= 60, "{minute} requests in the busiest minute");
    assert!(second <= 6, "{second} requests in the busiest second");
    assert!(times.len() >= 150, "it kept working: {} sent", times.len());
    assert_eq!(budget.view().limit, 60, "the assumed limit never grew");
}

#[tokio::test(start_paused = true)]
async fn the_selected_services_detail_goes_before_the_sweep() {
    let sb = sandbox(20, true, Some(30)).await;
    let mut s = session(&sb);
    // Ask for a detail while the sweep is under way: many requests queued behind the budget.
    let give_up = Instant::now() + LIMIT;
    while sb.requests().len() < 25 {
        let msg = next_msg(&mut s, &sb, give_up, "25 requests to be sent").await;
        s.send(msg);
    }
    // The engine hands the scheduler a window of its plan at a time; the rest waits in
    // the engine.
    assert!(
        s.app.in_flight() > 0,
        "a sweep waits: {}",
        s.app.in_flight()
    );
    let pressed = sb.requests().len();
    let pressed_at = Instant::now();
    s.press(crossterm::event::KeyCode::Char('G'));
    let last = s.app.services().selected().expect("a service").service_id;
    let asked = Request::Service(last);
    let give_up = Instant::now() + LIMIT;
    while s.app.services().detail(last).value().is_none() {
        let msg = next_msg(&mut s, &sb, give_up, "the selected service's detail").await;
        s.send(msg);
    }
    let log = sb.requests();
    let at = log
        .iter()
        .position(|r| r.path == format!("/{}", asked.path()))
        .expect("the detail was sent");
    // It was answered within 2 s of the press (tokio's clock), and nothing the scheduler
    // let go after the press went ahead of it: what the server saw before it are reads
    // already on their way when the key was pressed (at most the six at once; the first
    // screen's burst sends several together). Queued behind the sweep it took 28-57 s.
    let waited = pressed_at.elapsed();
    assert!(waited <= Duration::from_secs(2), "{waited:?}");
    let ahead: Vec<&str> = log[pressed.min(at)..at]
        .iter()
        .map(|r| r.path.as_str())
        .collect();
    assert!(
        at >= pressed && ahead.len() < proxydash::scheduler::bucket::POLITE_CONCURRENCY,
        "the detail went first when the budget allowed: pressed at request {pressed}, sent as {at}, after {ahead:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_write_refused_by_the_limit_is_answered_as_it_is_and_never_resent() {
    let sb = sandbox(1, false, None).await;
    // Another program spends the window.
    client(&sb).credit().await.unwrap();
    let (handle, mut results) = proxydash::scheduler::fetcher::spawn(budgeted(&sb), 4);
    let orders = sb.state().orders;
    handle.fetch(
        Request::order(
            11,
            OrderRequest {
                clientid: 101,
                setip: None,
            },
        ),
        Lane::Person,
    );
    let loaded = next_result(&mut results).await;
    assert!(loaded.request().is_write());
    let e = loaded.error().expect("refused").clone();
    assert!(e.is_rate_limited(), "{e}");
    assert!(e.to_string().contains("try again"), "{e}");
    // Two windows pass (on the paused clock: no real time), long past the pause after
    // which a GET would be sent again: the POST is not.
    tokio::time::sleep(WINDOW * 2).await;
    let posts = sb.requests().iter().filter(|r| r.method == "POST").count();
    assert_eq!(posts, 1, "sent once");
    assert_eq!(sb.state().orders, orders);
}

/// The same order sent twice through the engine, as two attempts: two POSTs (a write is
/// never merged with another), each answered with its own attempt's ticket.
#[tokio::test(start_paused = true)]
async fn two_sends_of_the_same_order_are_two_posts_each_answered_with_its_ticket() {
    use proxydash::account::Event;
    let sb = sandbox(100, true, None).await;
    let orders = sb.state().orders;
    let config = proxydash::account::Config::new("demo", &sb.base_url(), None);
    let (handle, mut events) =
        proxydash::account::start(config, budgeted(&sb), support::tokio_clock());
    let order = Request::order(
        11,
        OrderRequest {
            clientid: 101,
            setip: None,
        },
    );
    handle.send(order.clone(), Ticket(1));
    handle.send(order.clone(), Ticket(2));
    let mut answered = Vec::new();
    while answered.len() < 2 {
        let event = tokio::time::timeout(LIMIT, events.recv()).await;
        match event
            .expect("an answer within the limit")
            .expect("the engine runs")
        {
            Event::Loaded { loaded, ticket } if loaded.request() == order => {
                assert!(loaded.error().is_none(), "{loaded:?}");
                answered.push(ticket);
            }
            _ => {}
        }
    }
    answered.sort();
    assert_eq!(answered, vec![Some(Ticket(1)), Some(Ticket(2))]);
    assert_eq!(sb.state().orders, orders + 2, "two orders placed");
}

#[tokio::test(start_paused = true)]
async fn a_get_refused_by_the_limit_is_sent_again_after_the_pause() {
    let sb = sandbox(1, true, None).await;
    client(&sb).credit().await.unwrap();
    let (handle, mut results) = proxydash::scheduler::fetcher::spawn(budgeted(&sb), 4);
    handle.fetch(Request::Credit, Lane::Person);
    let loaded = next_result(&mut results).await;
    assert!(matches!(loaded, Loaded::Credit(Ok(_))), "{loaded:?}");
    let statuses: Vec<u16> = sb.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, vec![200, 429, 200]);
}

#[tokio::test(start_paused = true)]
async fn at_most_six_requests_reach_the_server_at_once() {
    // No limit and no headers: nothing tells the client to hold back but politeness.
    let sb = Sandbox::start(SandboxConfig {
        latency: Duration::from_millis(100),
        scale: Some(60),
        ..SandboxConfig::ephemeral()
    })
    .await
    .expect("sandbox starts");
    let mut s = session(&sb);
    let give_up = Instant::now() + LIMIT;
    let mut most = 0;
    while s.app.in_flight() > 0 || sb.requests().is_empty() {
        assert!(
            Instant::now() < give_up,
            "still {} in flight after {LIMIT:?} (tokio's clock)",
            s.app.in_flight()
        );
        // A look at the server every 10 ms of the latency's clock.
        if let Ok(Some(msg)) =
            tokio::time::timeout(Duration::from_millis(10), s.effects.next_msg()).await
        {
            s.send(msg);
        }
        // Unanswered requests at the server now.
        let open = sb.requests().iter().filter(|r| r.status == 0).count();
        most = most.max(open);
    }
    assert!(sb.requests().len() > 60, "a burst's worth asked");
    assert!((2..=6).contains(&most), "{most} at once");
}
