//! Target 3: a full dashboard in the fewest round trips. With the sandbox answering every
//! request after 200 ms, the time from start to every tab's first data is at most 1.3× the
//! least the scheduler allows: the dependency chain is two requests deep (the lists, then
//! the per-service calls), and since issue 10 at most
//! [`POLITE_CONCURRENCY`](proxydash::scheduler::bucket::POLITE_CONCURRENCY) requests are at
//! the host at once, so `n` requests need at least `max(2, ⌈n / 6⌉)` round trips. The old
//! figure (the chain alone, as if the server took every request at once) is printed beside
//! it for comparison.

mod common;

use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::app::{App, AppSettings, Clock};
use proxydash::clipboard::Off;
use proxydash::effects::Effects;
use proxydash::headless::Session;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use proxydash::scheduler::bucket::POLITE_CONCURRENCY;
use std::sync::Arc;
use std::time::{Duration, Instant};

const LATENCY: Duration = Duration::from_millis(200);

async fn time_to_full_dashboard(sb: &SandboxHandle) -> (Duration, usize) {
    let before = sb.requests().len();
    let client = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap();
    let clock: Clock = Arc::new(chrono::Utc::now);
    let settings = AppSettings {
        refresh: None,
        mouse: false,
        ..AppSettings::default()
    };
    let effects = Effects::new(
        proxydash::account::start(settings.engine_config(), client, clock.clone()),
        Box::new(Off),
        String::new(),
        None,
    );
    let started = Instant::now();
    let mut s = Session::with(App::new(settings, clock), effects, (120, 40));
    while s.app.in_flight() > 0 && started.elapsed() < Duration::from_secs(60) {
        match s.effects.next_msg().await {
            Some(msg) => s.send(msg),
            None => break,
        }
    }
    (started.elapsed(), sb.requests().len() - before)
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let sb = rt.block_on(async {
        Sandbox::start(SandboxConfig {
            latency: LATENCY,
            ..SandboxConfig::ephemeral()
        })
        .await
        .unwrap()
    });
    let mut runs = Vec::new();
    let mut requests = 0;
    for _ in 0..5 {
        let (took, n) = rt.block_on(time_to_full_dashboard(&sb));
        runs.push(took);
        requests = n;
    }
    runs.sort();
    let took = runs[runs.len() / 2];
    let chain = LATENCY * 2;
    let waves = requests.div_ceil(POLITE_CONCURRENCY).max(2);
    let minimum = LATENCY * waves as u32;
    let ratio = took.as_secs_f64() / minimum.as_secs_f64();
    println!(
        "start-up with {} ms latency: {} requests, every tab filled in {} (least with {} at once: {} round trips, {}; chain alone {}, ratio {:.2}; one by one {})",
        LATENCY.as_millis(),
        requests,
        ms(took),
        POLITE_CONCURRENCY,
        waves,
        ms(minimum),
        ms(chain),
        took.as_secs_f64() / chain.as_secs_f64(),
        ms(LATENCY * requests as u32)
    );
    report(
        "start-up / least round trips at the polite concurrency",
        ratio,
        "≤ 1.3",
        ratio <= 1.3,
    );
    c.bench_function("startup/latency-200ms", |b| {
        b.iter(|| rt.block_on(time_to_full_dashboard(&sb)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(20));
    targets = bench
}
criterion_main!(benches);
