//! Issue 12's last target: the UI stays responsive while probing (a key handled within one
//! frame). The dashboard (headless: the same app, effects and view as the terminal's loop)
//! runs against the in-process sandbox with 1,000 loopback proxies answering after 50 ms
//! behind the first service's IP list; `h` probes them 200 at a time. Every probe event
//! that reaches the UI task is fed to the app and followed by a frame, and after every
//! tenth a key (`j`/`k` in the probe view) is pressed and a frame drawn: the worst of those
//! UI-task steps must stay under one frame (16.7 ms at 60 frames a second). The probe runs
//! on tasks of its own, so what this measures is what each event costs the loop.

mod common;

use common::report;
use crossterm::event::KeyCode;
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::app::AppSettings;
use proxydash::app::probe::Stage;
use proxydash::clipboard::Off;
use proxydash::headless::Session;
use proxydash::probe::ProbeConfig;
use proxydash::sandbox::proxies::{Behaviour, Fixture};
use proxydash::sandbox::{Sandbox, SandboxConfig};
use std::time::{Duration, Instant};

const PROXIES: usize = 1000;
const FRAME: Duration = Duration::from_micros(16_667);

fn main() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(measure());
}

async fn measure() {
    let kinds = [
        Behaviour::Elite,
        Behaviour::Anonymous,
        Behaviour::Transparent,
    ];
    let fixtures = (0..PROXIES)
        .map(|i| Fixture::new(kinds[i % 3], 50))
        .collect();
    let sb = Sandbox::start(SandboxConfig {
        proxies: true,
        proxy_fixtures: Some(fixtures),
        // The generated account: its first service has a list far longer than the farm,
        // so the list served is the 1,000 proxies.
        scale: Some(20),
        ..SandboxConfig::ephemeral()
    })
    .await
    .expect("the sandbox starts");
    let client = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap();
    let settings = AppSettings {
        mouse: false,
        refresh: None,
        ..AppSettings::default()
    };
    let mut s = Session::start(settings, client, Box::new(Off), (120, 40));
    s.effects.set_probe(ProbeConfig {
        concurrency: 200,
        timeout: Duration::from_secs(10),
        probe_url: sb.judge_url(),
        loopback_only: true,
        allow_private: false,
    });
    s.settle().await;
    let service = s
        .app
        .services()
        .table
        .selected_id()
        .expect("a service is selected");
    s.press(KeyCode::Char('h'));
    s.screen();

    let mut steps: Vec<Duration> = Vec::new();
    let mut keys: Vec<Duration> = Vec::new();
    let started = Instant::now();
    let mut events = 0usize;
    let down = [KeyCode::Char('j'), KeyCode::Char('k')];
    while started.elapsed() < Duration::from_secs(60) {
        let done = s
            .app
            .probes()
            .get(service)
            .is_some_and(|r| r.stage == Stage::Done);
        if done {
            break;
        }
        let Ok(Some(msg)) =
            tokio::time::timeout(Duration::from_secs(5), s.effects.next_msg()).await
        else {
            break;
        };
        let t = Instant::now();
        s.send(msg);
        s.screen();
        steps.push(t.elapsed());
        events += 1;
        if events.is_multiple_of(10) {
            let t = Instant::now();
            s.press(down[(events / 10) % 2]);
            s.screen();
            keys.push(t.elapsed());
        }
    }
    let run = s.app.probes().get(service).expect("the probe ran");
    let checked = run.results.iter().filter(|r| r.is_some()).count();
    let took = started.elapsed();
    steps.sort();
    keys.sort();
    let at = |v: &[Duration], q: f64| {
        v.get(((v.len().max(1) - 1) as f64 * q) as usize)
            .copied()
            .unwrap_or_default()
    };
    println!(
        "probe of service {service} in the dashboard: {checked} of {PROXIES} proxies checked in {took:?}, {events} messages on the UI task"
    );
    println!(
        "UI step per message (update + frame): p50 {:?}, p99 {:?}, worst {:?}; key + frame: p50 {:?}, worst {:?} ({} keys)",
        at(&steps, 0.5),
        at(&steps, 0.99),
        at(&steps, 1.0),
        at(&keys, 0.5),
        at(&keys, 1.0),
        keys.len()
    );
    let worst = at(&steps, 1.0).max(at(&keys, 1.0));
    report(
        "worst UI-task step while probing 1,000 proxies, ms",
        worst.as_secs_f64() * 1000.0,
        "< 16.7 (one frame)",
        checked == PROXIES && worst < FRAME && !keys.is_empty(),
    );
}
