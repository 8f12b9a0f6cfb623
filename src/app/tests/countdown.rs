//! The update_list throttle with a fake clock: the countdown, no request while it runs,
//! the tick it asks for, its end, and the state file.

use crate::api::*;
use crate::app::{AppSettings, Command, Msg};
use crate::testkit::*;
use chrono::NaiveDateTime;
use crossterm::event::KeyCode;

fn refresh_request(id: u64) -> Request {
    Request::UpdateService {
        service_id: id,
        update: Box::new(ServiceUpdate {
            update_list: true,
            ..ServiceUpdate::default()
        }),
    }
}

/// t0 is 14:03:05; the server names 14:07:17 (4m 12s later).
fn throttled(at: &str) -> ApiError {
    ApiError::Throttled {
        next_possible: Some(NaiveDateTime::parse_from_str(at, "%Y-%m-%d %H:%M:%S").unwrap()),
        message: format!("Too Many Attempts (updateList). Next update possible: {at}"),
    }
}

fn saved(cmds: &[Command]) -> Option<&crate::iplist_throttle::Throttles> {
    cmds.iter().find_map(|c| match c {
        Command::SaveThrottles(t) => Some(t),
        _ => None,
    })
}

fn refreshed_and_refused(settings: AppSettings, at: &str) -> (Harness, Vec<Command>) {
    let mut h = Harness::with(settings);
    let cmds = h.app.start();
    h.settle(cmds);
    h.key('u');
    assert!(crate::app::tests::top::refresh(&h).is_some());
    let sent = h.code(KeyCode::Enter);
    assert_eq!(fetches(&sent), vec![refresh_request(5001)]);
    // The app's first form request: ticket 1, which routes the answer to this form.
    assert_eq!(tickets(&sent), vec![Ticket(1)]);
    let cmds = h.fail_as(Some(Ticket(1)), refresh_request(5001), throttled(at));
    (h, cmds)
}

#[test]
fn a_429_starts_a_countdown_that_is_saved_shown_and_respected() {
    let (mut h, cmds) = refreshed_and_refused(settings(), "2026-01-02 14:07:17");
    let until = saved(&cmds).expect("SaveThrottles").until(5001, t0());
    assert_eq!(until, Some(t0() + chrono::Duration::seconds(252)));
    assert_eq!(
        h.app.countdown(5001).as_deref(),
        Some("next refresh in 4m 12s (at 14:07:17 local)")
    );
    // While it runs, u says so and sends nothing.
    h.code(KeyCode::Esc);
    assert!(h.key('u').is_empty());
    assert!(h.app.popups().is_empty());
    assert_eq!(
        h.status_text(),
        "Service 5001: next refresh in 4m 12s (at 14:07:17 local)"
    );
    // Other services are not throttled.
    h.key('j');
    h.key('u');
    assert!(crate::app::tests::top::refresh(&h).is_some_and(|f| f.service_id == 5002));
    h.code(KeyCode::Esc);
    h.key('k');

    // Shown on the Services tab: a tick every second, aligned to the label's changes.
    h.advance(1);
    assert_eq!(
        h.app.next_wakeup(),
        Some(t0() + chrono::Duration::seconds(2))
    );
    assert!(h.send(Msg::Tick).is_empty());
    assert_eq!(
        h.app.countdown(5001).as_deref(),
        Some("next refresh in 4m 11s (at 14:07:17 local)")
    );
    // Not shown: only the end wakes the app (the auto-refresh is further off or later).
    h.key('3');
    let end = t0() + chrono::Duration::seconds(252);
    assert!(h.app.next_wakeup().unwrap() <= end);
    assert!(h.app.next_wakeup().unwrap() > t0() + chrono::Duration::seconds(2));

    // The end: the status line says so, the state file forgets.
    h.advance(251);
    let cmds = h.send(Msg::Tick);
    assert!(saved(&cmds).expect("saved").is_empty());
    assert_eq!(
        h.status_text(),
        "Service 5001: the IP list can be refreshed again"
    );
    h.key('1');
    h.key('u');
    assert!(crate::app::tests::top::refresh(&h).is_some());
}

#[test]
fn the_countdown_ticks_only_while_visible_and_needs_no_refresh_interval() {
    let (mut h, _) = refreshed_and_refused(
        AppSettings {
            refresh: None,
            ..settings()
        },
        "2026-01-02 14:07:17",
    );
    // The refresh form shows the countdown: tick in a second.
    assert_eq!(
        h.app.next_wakeup(),
        Some(t0() + chrono::Duration::seconds(1))
    );
    h.code(KeyCode::Esc);
    h.key('2');
    assert_eq!(
        h.app.next_wakeup(),
        Some(t0() + chrono::Duration::seconds(252)),
        "off screen: only the end"
    );
    h.advance(300);
    h.send(Msg::Tick);
    assert_eq!(h.app.next_wakeup(), None, "nothing left to wait for");
}

#[test]
fn the_server_offset_is_applied_to_the_429_time() {
    let (h, _) = refreshed_and_refused(
        AppSettings {
            iplist: crate::app::settings::IpListStart {
                server_zone: "+02:00".parse().unwrap(),
                ..Default::default()
            },
            ..settings()
        },
        "2026-01-02 16:07:17",
    );
    assert_eq!(
        h.app.countdown(5001).as_deref(),
        Some("next refresh in 4m 12s (at 14:07:17 local)")
    );
}

#[test]
fn countdowns_from_the_state_file_survive_a_restart() {
    let mut throttles = crate::iplist_throttle::Throttles::default();
    throttles.set(5001, t0() + chrono::Duration::seconds(30));
    throttles.set(5002, t0() - chrono::Duration::seconds(30));
    let mut h = Harness::with(AppSettings {
        iplist: crate::app::settings::IpListStart {
            throttles,
            ..Default::default()
        },
        ..settings()
    });
    let cmds = h.app.start();
    let kept = saved(&cmds).expect("the ended one is dropped from the file");
    assert!(kept.until(5001, t0()).is_some());
    assert!(kept.until(5002, t0()).is_none());
    h.settle(cmds);
    assert!(h.key('u').is_empty());
    assert_eq!(
        h.status_text(),
        "Service 5001: next refresh in 30s (at 14:03:35 local)"
    );
}

/// Issue 11.11: a 429 naming 9999-12-31 is believed for 7 days at most, the countdown
/// shows its date and what the server named, and `x` clears it so `u` works again.
#[test]
fn a_far_future_429_is_capped_dated_and_can_be_cleared() {
    let (mut h, cmds) = refreshed_and_refused(settings(), "9999-12-31 23:59:59");
    let saved = saved(&cmds).expect("SaveThrottles");
    assert_eq!(
        saved.until(5001, t0()),
        Some(t0() + crate::iplist_throttle::BELIEVED_AT_MOST)
    );
    assert_eq!(
        h.app.countdown(5001).as_deref(),
        Some("next refresh in 7d 00h (at 2026-01-09 14:03:05 local); the server named 9999-12-31")
    );
    assert!(
        h.status_text().contains("names 9999-12-31 23:59:59")
            && h.status_text().contains("7 days at most"),
        "{}",
        h.status_text()
    );
    h.code(KeyCode::Esc);
    assert!(h.key('u').is_empty(), "still counting down");
    let cmds = h.key('x');
    assert!(saved_is_empty(&cmds));
    assert_eq!(h.app.countdown(5001), None);
    assert!(
        h.status_text().contains("countdown cleared"),
        "{}",
        h.status_text()
    );
    h.key('u');
    assert!(crate::app::tests::top::refresh(&h).is_some_and(|f| f.service_id == 5001));
}

fn saved_is_empty(cmds: &[Command]) -> bool {
    saved(cmds).is_some_and(|t| t.is_empty())
}
