//! Target 1: tables cost what the screen shows. Rendering a tab at 200×50 with 100,000 rows
//! takes at most 1.5× the time with 100 rows.

mod common;

use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proxydash::app::{App, Msg};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const SIZE: (u16, u16) = (200, 50);

fn draw(terminal: &mut Terminal<TestBackend>, app: &App) {
    terminal
        .draw(|f| proxydash::ui::draw(app, f))
        .expect("test backend");
}

fn tab(app: &mut App, key: char) {
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char(key),
        KeyModifiers::NONE,
    )));
}

/// A tab's key and how to fill an app with N of its rows.
type Case = (&'static str, char, fn(u64, (u16, u16)) -> App);

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("render");
    group.sample_size(30);
    let cases: [Case; 5] = [
        ("services", '1', with_services),
        ("products", '2', with_products),
        ("invoices", '3', with_invoices),
        ("network", '4', with_network_rows),
        // The IP-list view is a popup: the tab key under it changes nothing.
        ("ip-list view", '\0', with_ip_list),
    ];
    for (name, key, build) in cases {
        let mut small = build(100, SIZE);
        let mut large = build(100_000, SIZE);
        tab(&mut small, key);
        tab(&mut large, key);
        let mut terminal = Terminal::new(TestBackend::new(SIZE.0, SIZE.1)).unwrap();
        let t_small = median(200, || draw(&mut terminal, &small));
        let t_large = median(200, || draw(&mut terminal, &large));
        let ratio = t_large.as_secs_f64() / t_small.as_secs_f64();
        println!(
            "{name}: 100 rows {}, 100,000 rows {}",
            ms(t_small),
            ms(t_large)
        );
        report(
            &format!("render {name} 100k/100 ratio"),
            ratio,
            "≤ 1.5",
            ratio <= 1.5,
        );
        group.bench_function(format!("{name}/100"), |b| {
            b.iter(|| draw(&mut terminal, &small))
        });
        group.bench_function(format!("{name}/100000"), |b| {
            b.iter(|| draw(&mut terminal, &large))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
