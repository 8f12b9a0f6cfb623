//! Issue 47.2: many rows at once. `space` marks the highlighted row (the row says `✓`, the
//! title counts the marks), Esc clears them, and what acts on a row acts on every marked
//! row: `a` and `u` on Alerts, your actions (`{service_ids}`, or once per row with
//! `per_row`).

use super::alerts::alerting;
use super::render;
use crate::alerts::marks::MarkChange;
use crate::app::{AppSettings, Command};
use crate::config::actions;
use crate::testkit::*;
use crossterm::event::KeyCode;

#[test]
fn space_marks_the_row_the_title_counts_and_esc_clears_them() {
    let mut h = Harness::loaded();
    h.key(' ');
    h.key('j');
    h.key('j');
    h.key(' ');
    let screen = render(&mut h.app, 120, 30);
    assert!(screen.contains("Services · 3 · 2 marked"), "{screen}");
    // The mark's cell: the second of the highlight column, beside `▶` when selected.
    assert!(screen.contains("│ ✓5001 Static US 25"), "{screen}");
    assert!(screen.contains("│▶✓5003 Rotating 50GB"), "{screen}");
    assert!(screen.contains("│  5002 Rotating 10GB"), "{screen}");
    assert_eq!(
        h.app.table(crate::app::Tab::Services).marked_ids(),
        [5001, 5003]
    );
    // Space again unmarks.
    h.key(' ');
    assert_eq!(h.app.table(crate::app::Tab::Services).marked_ids(), [5001]);
    // Esc clears the marks first, then (another Esc) the filter.
    h.key('/');
    h.keys("50");
    h.code(KeyCode::Enter);
    h.code(KeyCode::Esc);
    assert!(
        h.app
            .table(crate::app::Tab::Services)
            .marked_ids()
            .is_empty()
    );
    assert_eq!(h.status_text(), "Marks cleared");
    assert_eq!(h.app.table(crate::app::Tab::Services).filter(), "50");
    h.code(KeyCode::Esc);
    assert_eq!(h.app.table(crate::app::Tab::Services).filter(), "");
    let screen = render(&mut h.app, 120, 30);
    assert!(!screen.contains("marked"), "{screen}");
}

#[test]
fn a_form_with_marks_says_it_is_for_the_highlighted_row_only() {
    let mut h = Harness::loaded();
    h.key(' ');
    h.key('u');
    assert_eq!(
        h.status_text(),
        "The form is for the highlighted row only; the 1 marked rows are kept"
    );
    assert!(!h.app.popups().is_empty());
    assert_eq!(h.app.table(crate::app::Tab::Services).marked_count(), 1);
}

#[test]
fn a_acknowledges_every_marked_alert() {
    let mut h = alerting();
    h.key('6');
    h.key('g');
    let open = h.app.alerts().open_count();
    assert!(open >= 2, "{open}");
    h.key(' ');
    h.key('j');
    h.key(' ');
    let screen = render(&mut h.app, 120, 30);
    assert!(screen.contains("2 marked"), "{screen}");
    let cmds = h.key('a');
    let acks = cmds
        .iter()
        .filter(|c| matches!(c, Command::Mark(MarkChange::Ack(_))))
        .count();
    assert_eq!(acks, 2, "{cmds:?}");
    assert!(
        h.status_text().starts_with("Acknowledged 2 ("),
        "{}",
        h.status_text()
    );
}

fn with_actions(text: &[&str]) -> Harness {
    let written: Vec<(String, toml::Value)> = text
        .iter()
        .map(|t| ("config.toml line 7".to_owned(), toml::from_str(t).unwrap()))
        .collect();
    let (list, bad) = actions::read(&written);
    assert!(bad.is_empty(), "{bad:?}");
    let (actions, said) = crate::app::user_actions::check_keys(list);
    assert!(said.is_empty(), "{said:?}");
    let mut h = Harness::with(AppSettings {
        actions,
        ..settings()
    });
    let cmds = h.app.start();
    h.settle(cmds);
    h
}

fn argvs(cmds: &[Command]) -> Vec<Vec<String>> {
    cmds.iter()
        .filter_map(|c| match c {
            Command::RunAction(r) => Some(r.argv.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn an_action_gets_the_marked_ids_or_runs_once_per_marked_row() {
    let mut h = with_actions(&[
        "key = \"X\"\ndescription = \"Push\"\ncommand = [\"pm\", \"push\", \"{service_ids}\", \"ids={service_ids}\"]\n",
        "key = \"Y\"\ndescription = \"One\"\nper_row = true\ncommand = [\"pm\", \"one\", \"--id={service_id}\"]\n",
    ]);
    // Without marks: the highlighted service.
    assert_eq!(argvs(&h.key('X')), [["pm", "push", "5001", "ids=5001"]]);
    h.key(' ');
    h.key('j');
    h.key('j');
    h.key(' ');
    assert_eq!(
        argvs(&h.key('X')),
        [["pm", "push", "5001", "5003", "ids=5001 5003"]]
    );
    assert_eq!(
        argvs(&h.key('Y')),
        [["pm", "one", "--id=5001"], ["pm", "one", "--id=5003"]]
    );
}
