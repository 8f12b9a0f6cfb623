//! Redraw only when something visible changed (issue 15.4): the loop draws after a batch
//! only when [`App::take_redraw`] says so.

use crate::app::{AppSettings, Msg};
use crate::scheduler::{Source, View};
use crate::testkit::*;
use crossterm::event::KeyCode;

fn view(left: u32) -> View {
    View {
        limit: 60,
        left,
        source: Source::Headers,
        paused_for: None,
        next_in: None,
        throttled: 0,
        claimed: None,
        asked_pause: None,
        elsewhere: 0,
    }
}

fn loaded_and_drawn() -> Harness {
    let mut h = Harness::loaded();
    h.app.take_redraw();
    h
}

#[test]
fn a_budget_report_that_reads_the_same_does_not_redraw() {
    let mut h = loaded_and_drawn();
    h.send(Msg::Budget(view(12)));
    assert!(h.app.take_redraw(), "the first budget shows a label");
    h.send(Msg::Budget(view(12)));
    assert!(
        !h.app.take_redraw(),
        "the same label again: nothing to draw"
    );
    h.send(Msg::Budget(view(11)));
    assert!(h.app.take_redraw(), "12 left became 11 left");
}

#[test]
fn a_tick_before_anything_is_due_does_not_redraw() {
    let mut h = loaded_and_drawn();
    h.advance(1);
    h.send(Msg::Tick);
    assert!(!h.app.take_redraw());
    // The engine's reads show as activity.
    h.advance(30);
    h.send(Msg::Sent(crate::api::Request::Services));
    assert!(h.app.take_redraw());
}

#[test]
fn keys_redraw_and_a_visible_countdown_redraws_every_tick() {
    let mut h = loaded_and_drawn();
    h.code(KeyCode::Down);
    assert!(h.app.take_redraw());
    let mut throttles = crate::iplist_throttle::Throttles::default();
    throttles.set(5001, t0() + chrono::Duration::seconds(30));
    let mut h = Harness::with(AppSettings {
        iplist: crate::app::settings::IpListStart {
            throttles,
            ..Default::default()
        },
        refresh: None,
        ..settings()
    });
    let cmds = h.app.start();
    h.settle(cmds);
    h.app.take_redraw();
    h.advance(1);
    h.send(Msg::Tick);
    assert!(h.app.take_redraw(), "the countdown shows one second less");
}
