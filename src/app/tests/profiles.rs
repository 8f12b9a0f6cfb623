//! `P`: switching profiles.

use crate::app::AppSettings;
use crate::app::popups::Popup;
use crate::testkit::*;
use crossterm::event::KeyCode;

fn with_profiles(profiles: &[&str], current: &str) -> Harness {
    Harness::with(AppSettings {
        profile: current.into(),
        profiles: crate::app::settings::Profiles {
            names: profiles.iter().map(|p| (*p).to_owned()).collect(),
            ..Default::default()
        },
        ..settings()
    })
}

#[test]
fn p_lists_the_profiles_and_enter_asks_the_loop_to_reconnect() {
    let mut h = with_profiles(&["main", "monitor", "work"], "main");
    let cmds = h.key('P');
    assert!(cmds.is_empty(), "choosing sends nothing: {cmds:?}");
    assert!(matches!(h.top(), Some(Popup::Profiles(p)) if p.selected == 0));
    h.key('j');
    h.key('j');
    h.key('j'); // stays on the last one
    assert!(matches!(h.top(), Some(Popup::Profiles(p)) if p.selected == 2));
    h.code(KeyCode::Enter);
    assert!(h.app.popups().is_empty());
    assert_eq!(
        h.app.shell_mut().take_profile_switch().as_deref(),
        Some("work")
    );
    assert_eq!(h.app.shell_mut().take_profile_switch(), None, "taken once");
}

#[test]
fn choosing_the_current_profile_or_esc_changes_nothing() {
    let mut h = with_profiles(&["main", "work"], "work");
    h.key('P');
    assert!(
        matches!(h.top(), Some(Popup::Profiles(p)) if p.selected == 1),
        "the cursor starts on the current one"
    );
    h.code(KeyCode::Enter);
    assert_eq!(h.app.shell_mut().take_profile_switch(), None);
    h.key('P');
    h.key('k');
    h.code(KeyCode::Esc);
    assert!(h.app.popups().is_empty());
    assert_eq!(h.app.shell_mut().take_profile_switch(), None);
}

#[test]
fn without_other_profiles_p_says_why() {
    let mut h = with_profiles(&[], "default");
    h.key('P');
    assert!(h.app.popups().is_empty());
    assert!(
        h.status_text().contains("proxydash config init"),
        "{}",
        h.status_text()
    );
}

/// Issue 26.6: the message log of the session before a switch goes on under the new one,
/// with a line that marks the switch.
#[test]
fn a_profile_switch_keeps_the_message_log() {
    let mut before = with_profiles(&["main", "work"], "main");
    before.send(crate::app::Msg::Diagnostic("Something under main".into()));
    let log = before.app.shell_mut().take_message_log();
    let mut after = with_profiles(&["main", "work"], "work");
    after.send(crate::app::Msg::Diagnostic("First under work".into()));
    after.app.shell_mut().continue_message_log(log, "main");
    let texts: Vec<String> = after
        .app
        .status()
        .messages()
        .newest_first()
        .map(|e| e.text.clone())
        .collect();
    assert_eq!(
        texts,
        [
            "Switched from profile main to profile work",
            "First under work",
            "Something under main"
        ],
        "{texts:#?}"
    );
}
