//! The command palette and the command log, drawn at 80×24 and 120×40.

use super::render;
use crate::api::{Response, UpdateResult};
use crate::app::Command;
use crate::testkit::*;
use crossterm::event::KeyCode;
use insta::assert_snapshot;

#[test]
fn palette_80x24_shows_the_command_line_of_the_action() {
    let mut h = Harness::loaded();
    h.keys(":bind");
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("$ proxydash bind 5001 <IP>"), "{screen}");
    assert!(
        screen.contains("action   bind IP · service 5001 Static US 25"),
        "{screen}"
    );
    assert!(
        screen.contains("Enter go/run"),
        "the footer says the palette's keys: {screen}"
    );
    assert_snapshot!(screen);
}

#[test]
fn palette_120x40_lists_the_actions_with_their_command_lines() {
    let mut h = Harness::loaded();
    h.key(':');
    let screen = render(&mut h.app, 120, 40);
    for line in [
        "$ proxydash bind 5001 <IP>",
        "$ proxydash password 5001",
        "$ proxydash refresh-list 5001",
        "$ proxydash iplist 5001 --type http-auth",
        "$ proxydash probe 5001",
        "$ proxydash order 1 --client <CLIENT_ID>",
    ] {
        assert!(screen.contains(line), "{line} not in\n{screen}");
    }
    // The highlighted action's line is repeated whole on the last line.
    assert!(screen.contains("││$ proxydash bind 5001 <IP>"), "{screen}");
    assert_snapshot!(screen);
}

#[test]
fn palette_120x40_finds_a_service_by_its_bound_ip() {
    let mut h = Harness::loaded();
    h.keys(":113.5");
    let screen = render(&mut h.app, 120, 40);
    assert!(
        screen.contains("▶ service  5001  Static US 25  203.0.113.5"),
        "{screen}"
    );
    assert!(screen.contains("Enter goes to it · Tab lists its actions"));
    assert_snapshot!(screen);
}

#[test]
fn command_log_lists_the_bind_as_a_command_line() {
    let mut h = Harness::loaded();
    h.keys(":bind");
    h.code(KeyCode::Enter);
    h.ctrl('u');
    h.keys("45.83.222.77");
    let sent: Vec<_> = h
        .code(KeyCode::Enter)
        .into_iter()
        .filter_map(|c| match c {
            Command::Write { request, .. } => Some(request),
            _ => None,
        })
        .collect();
    h.ok(
        sent[0].clone(),
        Response::UpdateService(UpdateResult::default()),
    );
    h.code(KeyCode::Esc);
    h.key('L');
    let screen = render(&mut h.app, 80, 24);
    assert!(
        screen.contains("14:03:05 proxydash bind 5001 45.83.222.77"),
        "{screen}"
    );
    assert!(screen.contains("y copy all"), "{screen}");
    assert_snapshot!(screen);
}

/// Issue 45.5: on the demo every line names its sandbox and token; at 120 columns the
/// subcommand and its arguments still come first and whole (the account's options after
/// them, where a cut costs only the address).
#[test]
fn the_subcommand_comes_first_and_whole_with_a_long_account() {
    let mut h = crate::testkit::Harness::with(crate::app::AppSettings {
        cli_args: crate::demo::command_args("http://127.0.0.1:40091"),
        ..crate::testkit::settings()
    });
    let cmds = h.app.start();
    h.settle(cmds);
    h.key(':');
    let screen = render(&mut h.app, 120, 40);
    for line in [
        "$ proxydash bind 5001 <IP> --base-url",
        "$ proxydash order 1 --client <CLIENT_ID> --base-url",
        "$ proxydash refresh-list 5001 --base-url",
    ] {
        assert!(screen.contains(line), "{line} not in\n{screen}");
    }
}
