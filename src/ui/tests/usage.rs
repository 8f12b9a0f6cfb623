//! The Usage chart read off the screen: the range, the cursor's readings, the limit and
//! the projection, at 80×24 and 200×60, against figures worked out by hand.
//!
//! The standard account's service 5002 has used 4,500 of 10,000; its statistics end on
//! 2026-01-01 (today is 2026-01-02), the last seven days 800, 1,200, 500, 900, 200, 600
//! and 1,000: 5,200 / 7 = 742.9 a day. 5,500 left is 7.4 days: the limit is reached
//! during the eighth day, 2026-01-10.

use super::render;
use crate::testkit::Harness;
use crossterm::event::KeyCode;

fn on_5002() -> Harness {
    let mut h = Harness::loaded();
    let cmds = h.key('5');
    h.settle(cmds);
    while h.app.usage().selected() != Some(5002) {
        let cmds = h.key('j');
        h.settle(cmds);
    }
    h
}

#[test]
fn the_chart_reads_the_use_day_by_day_and_the_projection_at_80x24_and_200x60() {
    let mut h = on_5002();
    for (w, ht) in [(80, 24), (200, 60)] {
        let screen = render(&mut h.app, w, ht);
        assert!(screen.contains("Usage · 5002 · 7 d"), "{screen}");
        assert!(screen.contains("◆ 2026-01-02: 4,500 used"), "{screen}");
        assert!(
            screen.contains("limit on 2026-01-10 (8 days at 743/day)"),
            "{screen}"
        );
        // The limit (10,000) is drawn, so the axis goes above it.
        assert!(screen.contains("12,000"), "{screen}");
    }
    // A day back: the use at the end of 01-01 (today's use is not known yet) and that
    // day's own; another: 1,000 less.
    h.code(KeyCode::Left);
    let screen = render(&mut h.app, 80, 24);
    assert!(
        screen.contains("◆ 2026-01-01: 4,500 used (+1,000 that day)"),
        "{screen}"
    );
    h.code(KeyCode::Left);
    let screen = render(&mut h.app, 80, 24);
    assert!(
        screen.contains("◆ 2025-12-31: 3,500 used (+600 that day)"),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
    // Thirty days: from 12-04; the cursor starts at today again.
    h.key('t');
    let screen = render(&mut h.app, 200, 60);
    assert!(screen.contains("Usage · 5002 · 30 d"), "{screen}");
    assert!(screen.contains("12-04"), "{screen}");
    assert!(screen.contains("◆ 2026-01-02: 4,500 used"), "{screen}");
    insta::assert_snapshot!(screen);
    // Far back the use worked back is never below 0: 4,500 less 9,100 of later days.
    for _ in 0..40 {
        h.code(KeyCode::Left);
    }
    let screen = render(&mut h.app, 200, 60);
    assert!(screen.contains("◆ 2025-12-04: 0 used"), "{screen}");
}

#[test]
fn over_the_limit_the_detail_says_so_and_24_hours_without_history_shows_now() {
    let mut h = on_5002();
    while h.app.usage().selected() == Some(5002) {
        let cmds = h.key('j');
        h.settle(cmds);
    }
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("over the limit already"), "{screen}");
    h.key('t');
    h.key('t');
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("· 24 h"), "{screen}");
    assert!(screen.contains("◆ 14:03: 13,200 used"), "{screen}");
}
