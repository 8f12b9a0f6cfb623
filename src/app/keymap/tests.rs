//! The key table's tests: what each context's keys do, and what the footer and help say.

use super::*;

fn ctx(tab: Tab) -> Context {
    Context {
        read_only: false,
        switchable: true,
        tab,
        popup: None,
        editing_filter: false,
        typing: false,
    }
}

fn key(c: KeyCode, m: KeyModifiers) -> KeyEvent {
    KeyEvent::new(c, m)
}

#[test]
fn keys_resolve_by_context() {
    let main = ctx(Tab::Services);
    assert_eq!(
        action_for(&main, &key(KeyCode::Char('q'), KeyModifiers::NONE)),
        Some(Action::Quit)
    );
    assert_eq!(
        action_for(&main, &key(KeyCode::Char('G'), KeyModifiers::SHIFT)),
        Some(Action::Bottom)
    );
    assert_eq!(
        action_for(&main, &key(KeyCode::Char('v'), KeyModifiers::NONE)),
        Some(Action::TogglePassword)
    );
    assert_eq!(
        action_for(&main, &key(KeyCode::Char('s'), KeyModifiers::NONE)),
        Some(Action::CycleSort)
    );
    assert_eq!(
        action_for(
            &ctx(Tab::Products),
            &key(KeyCode::Char('s'), KeyModifiers::NONE)
        ),
        Some(Action::CycleSort)
    );
    let typing = Context {
        read_only: false,
        switchable: true,
        editing_filter: true,
        ..main
    };
    assert_eq!(
        action_for(&typing, &key(KeyCode::Char('q'), KeyModifiers::NONE)),
        None
    );
    assert_eq!(
        action_for(&typing, &key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Some(Action::ForceQuit)
    );
    assert_eq!(
        action_for(&typing, &key(KeyCode::Esc, KeyModifiers::NONE)),
        Some(Action::Back)
    );
    assert_eq!(
        action_for(&main, &key(KeyCode::Tab, KeyModifiers::SHIFT)),
        Some(Action::PrevTab)
    );
}

#[test]
fn the_footer_comes_from_the_bindings() {
    let f = footer(&ctx(Tab::Products));
    assert!(f.contains(&("s".to_owned(), "sort")));
    assert!(f.contains(&("1-6".to_owned(), "tabs")));
    assert!(f.contains(&("q".to_owned(), "quit")));
    assert!(!footer(&ctx(Tab::Usage)).iter().any(|(_, w)| *w == "sort"));
    // Every footer entry is a key that really does something in that context.
    for tab in Tab::ALL {
        let c = ctx(tab);
        for b in bindings_for(&c).filter(|b| b.footer.is_some()) {
            let first = b.keys[0];
            let mods = if first.ctrl {
                KeyModifiers::CONTROL
            } else {
                KeyModifiers::NONE
            };
            assert_eq!(
                action_for(&c, &key(first.code, mods)),
                Some(b.action),
                "{tab:?} {:?}",
                b.action
            );
        }
    }
}

#[test]
fn a_read_only_profile_does_not_advertise_the_write_keys() {
    let words = |c: &Context| footer(c).into_iter().map(|(_, w)| w).collect::<Vec<_>>();
    let mut c = ctx(Tab::Services);
    assert!(words(&c).contains(&"bind IP"));
    c.read_only = true;
    let shown = words(&c);
    for write in ["bind IP", "passwd", "refresh IPs"] {
        assert!(!shown.contains(&write), "{write} in {shown:?}");
    }
    assert!(shown.contains(&"IP list"), "reading stays: {shown:?}");
    assert!(!help(&c).iter().any(|(_, h)| h.contains("Bind an IP")));
    // The key still answers, to say why nothing opens.
    let b = KeyEvent::new(KeyCode::Char('b'), KeyModifiers::NONE);
    assert_eq!(action_for(&c, &b), Some(Action::BindIp));
}

#[test]
fn the_profile_switch_is_advertised_only_with_somewhere_to_go() {
    let words = |c: &Context| footer(c).into_iter().map(|(_, w)| w).collect::<Vec<_>>();
    let mut c = ctx(Tab::Services);
    assert!(words(&c).contains(&"profile"));
    c.switchable = false;
    assert!(!words(&c).contains(&"profile"), "{:?}", words(&c));
    assert!(!help(&c).iter().any(|(_, h)| h.contains("profile")));
    let p = KeyEvent::new(KeyCode::Char('P'), KeyModifiers::NONE);
    assert_eq!(action_for(&c, &p), Some(Action::SwitchProfile));
}
