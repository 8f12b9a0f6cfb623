//! IP lists: choose, fetch, view, copy, write.

use crate::api::*;
use crate::app::forms::iplist;
use crate::app::popups::PopupKind;
use crate::app::{Command, Msg};
use crate::clipboard::{ClipboardError, Copied};
use crate::testkit::*;
use crossterm::event::KeyCode;
use std::path::PathBuf;

const RAW: &str = "203.0.113.1:8000:user:p@ss\n203.0.113.2:8000:user:p@ss\n";

fn viewing() -> Harness {
    let mut h = Harness::loaded();
    h.key('i');
    assert_eq!(
        h.app.context().popup,
        Some(PopupKind::Step(&iplist::CHOOSE))
    );
    let sent = fetches(&h.code(KeyCode::Enter));
    // A read: its answer finds this form by its parameters.
    let expected = Request::ip_list(5001, IpListType::HttpAuth, IpListFormat::Txt);
    assert_eq!(sent, vec![expected.clone()]);
    assert_eq!(h.app.context().popup, Some(PopupKind::FormBusy));
    assert!(fetches(&h.code(KeyCode::Enter)).is_empty());
    h.ok(
        expected,
        Response::IpList(IpList::parse(
            IpListType::HttpAuth,
            IpListFormat::Txt,
            RAW.into(),
        )),
    );
    assert_eq!(h.app.context().popup, Some(PopupKind::Step(&iplist::VIEW)));
    h
}

fn copy_of(cmds: &[Command]) -> (String, String) {
    match cmds {
        [Command::Copy { what, text }] => (what.clone(), text.clone()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_chooser_picks_type_and_format() {
    let mut h = Harness::loaded();
    h.key('j');
    h.key('i');
    h.key('j');
    h.code(KeyCode::Tab);
    h.key('j');
    let sent = fetches(&h.code(KeyCode::Enter));
    assert_eq!(
        sent,
        vec![Request::ip_list(
            5002,
            IpListType::PprSocks,
            IpListFormat::Json
        )],
        "ppr defaults to ppr-http; one down is ppr-socks; txt → json"
    );
}

#[test]
fn y_copies_as_served_and_shift_y_as_urls() {
    let mut h = viewing();
    let (what, text) = copy_of(&h.key('y'));
    assert_eq!(text, RAW);
    assert_eq!(what, "IP list of service 5001 (2 entries, as served)");
    h.send(Msg::Copied {
        what,
        result: Ok(Copied::Osc52),
    });
    assert_eq!(
        h.status_text(),
        "IP list of service 5001 (2 entries, as served) sent to the terminal clipboard (OSC 52)"
    );
    let (what, text) = copy_of(&h.key('Y'));
    assert_eq!(
        text,
        "http://user:p%40ss@203.0.113.1:8000\nhttp://user:p%40ss@203.0.113.2:8000\n"
    );
    h.send(Msg::Copied {
        what: what.clone(),
        result: Ok(Copied::System),
    });
    assert_eq!(
        h.status_text(),
        "IP list of service 5001 (2 entries, as URLs) copied to the clipboard"
    );
    h.send(Msg::Copied {
        what,
        result: Err(ClipboardError::TooLarge { bytes: 250_000 }),
    });
    assert!(h.status_text().ends_with("press w to write it to a file"));
}

#[test]
fn w_writes_never_overwrites_and_lets_the_name_be_changed() {
    let mut h = viewing();
    assert!(h.key('w').is_empty());
    assert_eq!(h.app.context().popup, Some(PopupKind::Step(&iplist::SAVE)));
    assert!(h.app.context().typing);
    let cmds = h.code(KeyCode::Enter);
    assert_eq!(
        cmds,
        vec![Command::WriteFile {
            path: PathBuf::from("iplist-5001-http-auth.txt"),
            contents: RAW.into(),
        }]
    );
    assert!(h.code(KeyCode::Enter).is_empty(), "one write at a time");
    h.send(Msg::Written {
        path: "iplist-5001-http-auth.txt".into(),
        result: Err("/home/u/iplist-5001-http-auth.txt already exists; choose another name".into()),
    });
    let Some(f) = crate::app::tests::top::iplist(&h) else {
        panic!()
    };
    assert!(
        f.save
            .as_ref()
            .unwrap()
            .error
            .as_deref()
            .unwrap()
            .contains("already exists")
    );
    // Still open, editable: a new name.
    h.code(KeyCode::Backspace);
    h.code(KeyCode::Backspace);
    h.code(KeyCode::Backspace);
    h.keys("list");
    let cmds = h.code(KeyCode::Enter);
    assert!(
        matches!(&cmds[..], [Command::WriteFile { path, .. }] if path == &PathBuf::from("iplist-5001-http-auth.list"))
    );
    h.send(Msg::Written {
        path: "iplist-5001-http-auth.list".into(),
        result: Ok("/home/u/iplist-5001-http-auth.list".into()),
    });
    assert_eq!(h.app.context().popup, Some(PopupKind::Step(&iplist::VIEW)));
    assert_eq!(
        h.status_text(),
        "IP list of service 5001 written to /home/u/iplist-5001-http-auth.list"
    );
    // A second `w` offers the name after the file just written, at once (issue 45).
    h.key('w');
    let cmds = h.code(KeyCode::Enter);
    assert!(
        matches!(&cmds[..], [Command::WriteFile { path, .. }] if path == &PathBuf::from("/home/u/iplist-5001-http-auth (1).list")),
        "{cmds:?}"
    );
}

#[test]
fn the_view_scrolls_and_esc_closes() {
    let mut h = viewing();
    h.key('G');
    h.key('j');
    h.code(KeyCode::PageDown);
    let Some(f) = crate::app::tests::top::iplist(&h) else {
        panic!()
    };
    assert_eq!(f.view.as_ref().unwrap().top, 0, "two lines fit on one page");
    h.code(KeyCode::Esc);
    assert!(h.app.popups().is_empty());
}

/// Issue 16.8: a file that exists is never replaced; the prompt offers the free name
/// beside it, and Enter writes that.
#[test]
fn w_on_an_existing_file_offers_a_free_name() {
    let mut h = viewing();
    h.key('w');
    h.code(KeyCode::Enter);
    h.send(Msg::FileExists {
        path: "/home/u/iplist-5001-http-auth.txt".into(),
        free: Some("/home/u/iplist-5001-http-auth (1).txt".into()),
    });
    let Some(f) = crate::app::tests::top::iplist(&h) else {
        panic!()
    };
    let save = f.save.as_ref().unwrap();
    assert_eq!(save.path.value(), "/home/u/iplist-5001-http-auth (1).txt");
    let error = save.error.as_deref().unwrap();
    assert!(
        error.contains("/home/u/iplist-5001-http-auth.txt exists")
            && error.contains("Enter writes iplist-5001-http-auth (1).txt"),
        "{error}"
    );
    let cmds = h.code(KeyCode::Enter);
    assert!(
        matches!(&cmds[..], [Command::WriteFile { path, .. }] if path == &PathBuf::from("/home/u/iplist-5001-http-auth (1).txt")),
        "{cmds:?}"
    );
}

/// Issue 45: `y` on a Services row copies its first proxy as `host:port:user:pass` (its
/// IP list asked for as the person waits), says what it copied, and leaves them on the
/// row.
#[test]
fn y_on_a_service_row_copies_its_first_proxy() {
    let mut h = Harness::loaded();
    let sent = fetches(&h.key('y'));
    let expected = Request::ip_list(5001, IpListType::HttpAuth, IpListFormat::Txt);
    assert_eq!(sent, vec![expected.clone()]);
    assert_eq!(h.app.context().popup, Some(PopupKind::FormBusy));
    let cmds = h.ok(
        expected,
        Response::IpList(IpList::parse(
            IpListType::HttpAuth,
            IpListFormat::Txt,
            RAW.into(),
        )),
    );
    let (what, text) = copy_of(&cmds);
    assert_eq!(text, "203.0.113.1:8000:user:p@ss");
    assert_eq!(
        what,
        "First proxy of service 5001 (host:port:user:pass, http-auth)"
    );
    assert!(h.app.popups().is_empty(), "back on the row");
    h.send(Msg::Copied {
        what,
        result: Ok(Copied::Osc52),
    });
    assert_eq!(
        h.status_text(),
        "First proxy of service 5001 (host:port:user:pass, http-auth) sent to the terminal clipboard (OSC 52)"
    );
}

/// Issue 47.2: `y` with marked services fetches each one's list after the one before
/// and copies them all, each headed by its ID, once the last is in.
#[test]
fn y_on_marked_services_copies_every_list_each_headed_by_its_id() {
    let mut h = Harness::loaded();
    h.key(' ');
    h.key('j');
    h.key('j');
    h.key(' ');
    let first = Request::ip_list(5001, IpListType::HttpAuth, IpListFormat::Txt);
    assert_eq!(fetches(&h.key('y')), vec![first.clone()]);
    let list = |t: IpListType, raw: &str| {
        Response::IpList(IpList::parse(t, IpListFormat::Txt, raw.into()))
    };
    let cmds = h.ok(first, list(IpListType::HttpAuth, RAW));
    // Then the next marked one, in its kind's type.
    let second = Request::ip_list(5003, IpListType::PprHttp, IpListFormat::Txt);
    assert_eq!(fetches(&cmds), vec![second.clone()]);
    let cmds = h.ok(
        second,
        list(IpListType::PprHttp, "gw.example.net:9000:u:p\n"),
    );
    let (what, text) = copy_of(&cmds);
    assert_eq!(
        text,
        format!("# service 5001\n{RAW}# service 5003\ngw.example.net:9000:u:p\n")
    );
    assert_eq!(
        what,
        "IP lists of services 5001, 5003 (each headed by its ID)"
    );
    assert_eq!(h.app.context().popup, None);
}
