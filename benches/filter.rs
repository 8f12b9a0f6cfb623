//! Target 2: typing one character into `/` on 100,000 rows updates the view in under 16 ms
//! of work on the UI task (the update and the draw of the frame after it).

mod common;

use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proxydash::app::{App, Msg};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::{Duration, Instant};

fn key(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

/// Types `text` then erases it, timing each keystroke with the frame drawn after it.
fn keystrokes(app: &mut App, terminal: &mut Terminal<TestBackend>, text: &str) -> Vec<Duration> {
    let mut times = Vec::new();
    let mut one = |app: &mut App, code| {
        let start = Instant::now();
        key(app, code);
        terminal.draw(|f| proxydash::ui::draw(app, f)).unwrap();
        times.push(start.elapsed());
    };
    for c in text.chars() {
        one(app, KeyCode::Char(c));
    }
    for _ in text.chars() {
        one(app, KeyCode::Backspace);
    }
    times
}

fn bench(c: &mut Criterion) {
    let mut app = with_services(100_000, (200, 50));
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    key(&mut app, KeyCode::Char('/'));
    let mut all = Vec::new();
    for _ in 0..5 {
        // "Product of 9" narrows step by step; erasing widens again.
        all.extend(keystrokes(&mut app, &mut terminal, "product of 9"));
    }
    all.sort();
    let median = all[all.len() / 2];
    let worst = all[all.len() - 1];
    println!(
        "filter keystroke on 100,000 rows: median {}, worst {}",
        ms(median),
        ms(worst)
    );
    report(
        "filter keystroke worst (ms)",
        worst.as_secs_f64() * 1000.0,
        "< 16 ms",
        worst < Duration::from_millis(16),
    );
    c.bench_function("filter/type-and-erase-100k", |b| {
        b.iter(|| keystrokes(&mut app, &mut terminal, "of 9"))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
