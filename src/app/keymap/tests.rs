//! The key table's tests: what each context's keys do, and what the footer and help say.

use super::*;
use crate::app::keymap::{FormKind, form_openers};

fn ctx(tab: Tab) -> Context {
    Context {
        read_only: false,
        switchable: true,
        accounts: crate::app::keymap::Accounts::Alone,
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
        accounts: crate::app::keymap::Accounts::Alone,
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
    assert!(f.contains(&(Tab::KEYS.to_owned(), "tabs")));
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
    let bind = Action::OpenForm(FormKind::BindIp);
    assert_eq!(action_for(&c, &b), Some(bind));
    assert!(bind.writes());
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

/// The popups a context can have on top, with the tab under them; a form's steps with and
/// without a field taking typing.
fn popup_contexts() -> Vec<(String, Context)> {
    use crate::app::PopupKind::{FormBusy, FormDone, Shows};
    use crate::app::popups::{accounts, client, command_log, help, invoice, messages};
    use crate::app::popups::{product, profiles, service};
    let mut out = Vec::new();
    for (tab, kind) in [
        (Tab::Services, Shows(&help::INFO)),
        (Tab::Billing, Shows(&invoice::INFO)),
        (Tab::Services, Shows(&service::INFO)),
        (Tab::Network, Shows(&service::INFO)),
        (Tab::Products, Shows(&product::INFO)),
        (Tab::Services, Shows(&profiles::INFO)),
        (Tab::Services, Shows(&messages::INFO)),
        (Tab::Services, Shows(&crate::app::probe::view::INFO)),
        (Tab::Services, FormBusy),
        (Tab::Services, FormDone),
        (Tab::Services, Shows(&crate::app::palette::INFO)),
        (Tab::Billing, Shows(&command_log::INFO)),
        (Tab::Clients, Shows(&client::INFO)),
        (Tab::Products, Shows(&accounts::INFO)),
    ] {
        let c = Context {
            popup: Some(kind),
            // The palette's query takes typing.
            typing: kind == Shows(&crate::app::palette::INFO),
            ..ctx(tab)
        };
        out.push((format!("{} · {}", tab.title(), kind.title()), c));
    }
    for (tab, kind) in form_steps() {
        for typing in [false, true] {
            let c = Context {
                popup: Some(kind),
                typing,
                ..ctx(tab)
            };
            let typed = if typing { " · typing" } else { "" };
            out.push((format!("{} · {}{typed}", tab.title(), kind.title()), c));
        }
    }
    out
}

/// Every step of every registered form, with the tab its form opens on.
fn form_steps() -> Vec<(Tab, crate::app::popups::PopupKind)> {
    let mut out = Vec::new();
    for (kind, form) in form_openers() {
        let tab = form
            .scopes
            .iter()
            .find_map(|s| match s {
                Scope::Tab(t) => Some(*t),
                _ => None,
            })
            .unwrap_or(Tab::Services);
        for step in kind.steps() {
            out.push((tab, crate::app::popups::PopupKind::Step(step)));
        }
    }
    out
}

/// What an action is called in the pinned listing (a form's opening key by the form's
/// first step).
fn action_name(a: Action) -> String {
    match a {
        Action::OpenForm(kind) => {
            format!("open({})", kind.steps()[0].title)
        }
        other => format!("{other:?}"),
    }
}

/// The keys the pinned listing presses: every printable character, Ctrl with a letter, and
/// the named keys.
fn probe_keys() -> Vec<KeyEvent> {
    let mut keys: Vec<KeyEvent> = (' '..='~')
        .map(|c| key(KeyCode::Char(c), KeyModifiers::NONE))
        .collect();
    keys.extend(('a'..='z').map(|c| key(KeyCode::Char(c), KeyModifiers::CONTROL)));
    keys.extend(
        [
            KeyCode::Enter,
            KeyCode::Esc,
            KeyCode::Tab,
            KeyCode::BackTab,
            KeyCode::Backspace,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Home,
            KeyCode::End,
            KeyCode::PageUp,
            KeyCode::PageDown,
        ]
        .map(|c| key(c, KeyModifiers::NONE)),
    );
    keys
}

/// One context's footer, help and keys, as text.
fn listing(name: &str, c: &Context) -> String {
    let mut out = format!("== {name}\nfooter:");
    for (k, word) in footer(c) {
        out.push_str(&format!(" [{k} {word}]"));
    }
    out.push_str("\nhelp:\n");
    for (k, text) in help(c) {
        out.push_str(&format!("  {k:>10}  {text}\n"));
    }
    out.push_str("keys:");
    for event in probe_keys() {
        if let Some(a) = action_for(c, &event) {
            let label = Key {
                code: event.code,
                ctrl: event.modifiers.contains(KeyModifiers::CONTROL),
            }
            .label();
            let writes = if a.writes() { "!" } else { "" };
            out.push_str(&format!(" [{label} {}{writes}]", action_name(a)));
        }
    }
    out.push('\n');
    out
}

/// Every context's footer, help and keys, pinned: moving bindings between tables (a form's
/// step keys and opening key beside the form) must change neither what a key does nor
/// what the footer and help say about it.
#[test]
fn every_contexts_keys_footer_and_help_are_pinned() {
    let mut contexts: Vec<(String, Context)> = Vec::new();
    for tab in Tab::ALL {
        contexts.push((tab.title().to_owned(), ctx(tab)));
        let filtering = Context {
            editing_filter: true,
            ..ctx(tab)
        };
        contexts.push((format!("{} · filter", tab.title()), filtering));
    }
    contexts.extend(popup_contexts());
    let mut out = String::new();
    for (name, c) in contexts {
        for read_only in [false, true] {
            let c = Context { read_only, ..c };
            let ro = if read_only { " · read-only" } else { "" };
            out.push_str(&listing(&format!("{name}{ro}"), &c));
        }
    }
    insta::assert_snapshot!(out);
}

#[test]
fn the_palette_opens_on_every_tab_and_its_query_takes_the_letters() {
    let colon = key(KeyCode::Char(':'), KeyModifiers::NONE);
    let ctrl_p = key(KeyCode::Char('p'), KeyModifiers::CONTROL);
    for tab in Tab::ALL {
        assert_eq!(
            action_for(&ctx(tab), &colon),
            Some(Action::Palette),
            "{tab:?}"
        );
        assert_eq!(
            action_for(&ctx(tab), &ctrl_p),
            Some(Action::Palette),
            "{tab:?}"
        );
        let big_l = key(KeyCode::Char('L'), KeyModifiers::SHIFT);
        assert_eq!(action_for(&ctx(tab), &big_l), Some(Action::CommandLog));
    }
    let palette = Context {
        popup: Some(crate::app::PopupKind::Shows(&crate::app::palette::INFO)),
        typing: true,
        ..ctx(Tab::Services)
    };
    for c in ['q', 'j', '?', '1', ':', 'L', 'y'] {
        let typed = key(KeyCode::Char(c), KeyModifiers::NONE);
        assert_eq!(action_for(&palette, &typed), None, "{c} is typed");
    }
    let quit = key(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(action_for(&palette, &quit), Some(Action::ForceQuit));
    let enter = key(KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(action_for(&palette, &enter), Some(Action::Submit));
    let esc = key(KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(action_for(&palette, &esc), Some(Action::Back));
    // Not while a form's field takes typing: `:` is text there.
    let typing_form = Context {
        popup: Some(crate::app::popups::PopupKind::Step(
            &crate::app::forms::bind_ip::STEP,
        )),
        typing: true,
        ..ctx(Tab::Services)
    };
    assert_eq!(action_for(&typing_form, &colon), None);
}
