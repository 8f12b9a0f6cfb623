//! The key map in form contexts: letters are text in a field, the form's own keys work,
//! and every key the footer advertises does what it says.

use crate::app::forms::{bind_ip, iplist, order};
use crate::app::keymap::form_openers;
use crate::app::keymap::{self, Action, Context};
use crate::app::popups::PopupKind;
use crate::app::tabs::Tab;
use crossterm::event::{KeyCode, KeyModifiers};

fn kev(code: KeyCode, mods: KeyModifiers) -> crossterm::event::KeyEvent {
    crossterm::event::KeyEvent::new(code, mods)
}

#[test]
fn in_a_form_field_keys_are_text_but_the_form_keys_work() {
    let typing = Context {
        read_only: false,
        switchable: true,
        accounts: crate::app::keymap::Accounts::Alone,
        tab: Tab::Products,
        popup: Some(PopupKind::Step(&order::EDIT)),
        editing_filter: false,
        typing: true,
    };
    for c in ['q', 'j', 'y', '?', 'o', '1', '/'] {
        assert_eq!(
            keymap::action_for(&typing, &kev(KeyCode::Char(c), KeyModifiers::NONE)),
            None,
            "{c} is text"
        );
    }
    for (code, action) in [
        (KeyCode::Enter, Action::Submit),
        (KeyCode::Esc, Action::Back),
        (KeyCode::Tab, Action::NextField),
        (KeyCode::Down, Action::Down),
    ] {
        assert_eq!(
            keymap::action_for(&typing, &kev(code, KeyModifiers::NONE)),
            Some(action)
        );
    }
    assert_eq!(
        keymap::action_for(&typing, &kev(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Some(Action::ForceQuit)
    );
    let bind = Context {
        read_only: false,
        switchable: true,
        accounts: crate::app::keymap::Accounts::Alone,
        popup: Some(PopupKind::Step(&bind_ip::STEP)),
        ..typing
    };
    assert_eq!(
        keymap::action_for(&bind, &kev(KeyCode::Char('l'), KeyModifiers::CONTROL)),
        Some(bind_ip::USE_MY_IP)
    );
    let view = Context {
        read_only: false,
        switchable: true,
        accounts: crate::app::keymap::Accounts::Alone,
        popup: Some(PopupKind::Step(&iplist::VIEW)),
        typing: false,
        ..typing
    };
    for (c, action) in [
        ('y', Action::Copy),
        ('Y', Action::CopyUrls),
        ('w', Action::WriteFile),
    ] {
        assert_eq!(
            keymap::action_for(&view, &kev(KeyCode::Char(c), KeyModifiers::NONE)),
            Some(action)
        );
    }
    assert_eq!(
        keymap::footer(&view),
        vec![
            ("?".to_owned(), "help"),
            ("y".to_owned(), "copy"),
            ("Y".to_owned(), "copy URLs"),
            ("w".to_owned(), "write file"),
            ("v".to_owned(), "passwords"),
            ("Esc".to_owned(), "close"),
        ]
    );
}

#[test]
fn every_form_footer_entry_does_what_it_says_and_none_is_shadowed() {
    // Every step of every registered form, and the busy and finished forms.
    let steps = form_openers().flat_map(|(kind, _)| kind.steps());
    let kinds: Vec<PopupKind> = steps
        .map(PopupKind::Step)
        .chain([PopupKind::FormBusy, PopupKind::FormDone])
        .collect();
    for kind in kinds {
        for typing in [false, true] {
            let c = Context {
                read_only: false,
                switchable: true,
                accounts: crate::app::keymap::Accounts::Alone,
                tab: Tab::Services,
                popup: Some(kind),
                editing_filter: false,
                typing,
            };
            let f = keymap::footer(&c);
            let mut keys: Vec<&String> = f.iter().map(|(k, _)| k).collect();
            keys.dedup();
            assert_eq!(keys.len(), f.len(), "{kind:?}: {f:?}");
            for b in keymap::effective(&c)
                .into_iter()
                .filter(|b| b.footer.is_some())
            {
                let first = b.keys[0];
                let mods = if first.ctrl {
                    KeyModifiers::CONTROL
                } else {
                    KeyModifiers::NONE
                };
                assert_eq!(
                    keymap::action_for(&c, &kev(first.code, mods)),
                    Some(b.action),
                    "{kind:?}"
                );
            }
        }
    }
}
