//! Target 5: few bytes to the terminal. Moving the selection one row writes under 1 KB; an
//! unchanged frame writes nothing. Measured through the real crossterm backend writing into
//! a byte counter.

mod common;

use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proxydash::app::{App, Msg};
use proxydash::term::quiet::QuietBackend;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Clone, Default)]
struct Counter(Arc<AtomicUsize>);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.fetch_add(buf.len(), Ordering::Relaxed);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The backend the dashboard uses: crossterm behind the quiet wrapper.
type Backend = QuietBackend<CrosstermBackend<Counter>>;

fn terminal(counter: &Counter, (w, h): (u16, u16)) -> Terminal<Backend> {
    Terminal::with_options(
        QuietBackend::new(CrosstermBackend::new(counter.clone())),
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, w, h)),
        },
    )
    .expect("a fixed viewport needs no terminal")
}

fn draw(t: &mut Terminal<Backend>, app: &App) {
    t.draw(|f| proxydash::ui::draw(app, f))
        .expect("counter never fails");
}

fn bytes_of(counter: &Counter, f: impl FnOnce()) -> usize {
    let before = counter.0.load(Ordering::Relaxed);
    f();
    counter.0.load(Ordering::Relaxed) - before
}

fn bench(c: &mut Criterion) {
    for size in [(80, 24), (200, 50)] {
        let counter = Counter::default();
        let mut t = terminal(&counter, size);
        let mut app = with_services(10_000, size);
        draw(&mut t, &app);
        let unchanged = bytes_of(&counter, || draw(&mut t, &app));
        let mut moved = 0;
        for _ in 0..20 {
            app.update(Msg::Key(KeyEvent::new(
                KeyCode::Char('j'),
                KeyModifiers::NONE,
            )));
            moved = moved.max(bytes_of(&counter, || draw(&mut t, &app)));
        }
        println!(
            "{}×{}: unchanged frame {unchanged} bytes, one row down (worst of 20) {moved} bytes",
            size.0, size.1
        );
        report(
            &format!("unchanged frame bytes {}x{}", size.0, size.1),
            unchanged as f64,
            "= 0",
            unchanged == 0,
        );
        report(
            &format!("selection move bytes {}x{}", size.0, size.1),
            moved as f64,
            "< 1024",
            moved < 1024,
        );
    }
    let counter = Counter::default();
    let mut t = terminal(&counter, (200, 50));
    let mut app = with_services(10_000, (200, 50));
    c.bench_function("bytes/move-selection-and-draw", |b| {
        b.iter(|| {
            app.update(Msg::Key(KeyEvent::new(
                KeyCode::Char('j'),
                KeyModifiers::NONE,
            )));
            draw(&mut t, &app);
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
