//! The command palette and the command log, driven through `App::update`: what the
//! palette finds, that Enter runs an action through its key's own path (the same form, the
//! same confirmation, the same refusals), and what the command log lists.

use super::forms::{clients, writes};
use crate::api::*;
use crate::app::forms::bind_ip;
use crate::app::forms::iplist;
use crate::app::forms::{order, refresh};
use crate::app::palette::candidates::{Kind, Target};
use crate::app::palette::{Act, MAX_SHOWN};
use crate::app::popups::{Popup, PopupKind};
use crate::app::tabs::Tab;
use crate::app::{AppSettings, Command, Msg};
use crate::clipboard::Copied;
use crate::testkit::*;
use crossterm::event::KeyCode;

fn palette(h: &Harness) -> &crate::app::palette::Palette {
    match h.top() {
        Some(Popup::Palette(p)) => p,
        other => panic!("no palette on top: {other:?}"),
    }
}

/// Opens the palette with `:` and types `query`.
fn find(h: &mut Harness, query: &str) {
    assert!(h.key(':').is_empty());
    assert_eq!(
        h.app.context().popup,
        Some(PopupKind::Shows(&crate::app::palette::INFO))
    );
    assert!(h.app.context().typing, "the query takes typing");
    h.keys(query);
}

/// The first match of `kind`.
fn first_of(h: &Harness, kind: Kind) -> Option<Target> {
    palette(h)
        .shown()
        .find(|c| c.kind == kind)
        .map(|c| c.target.clone())
}

/// Moves the highlight to the action `act` and presses Enter.
fn run(h: &mut Harness, act: Act) -> Vec<Command> {
    let at = palette(h)
        .shown()
        .position(|c| c.target == Target::Action(act))
        .unwrap_or_else(|| panic!("{act:?} not listed"));
    for _ in 0..at {
        h.code(KeyCode::Down);
    }
    h.code(KeyCode::Enter)
}

#[test]
fn a_fragment_of_the_bound_ip_finds_the_service() {
    let mut h = Harness::loaded();
    // The selected service's detail is loaded: it says 5001 is bound to 203.0.113.5.
    assert!(h.app.services().detail(5001).is_ready());
    find(&mut h, "113.5");
    assert_eq!(first_of(&h, Kind::Service), Some(Target::Service(5001)));
    assert_eq!(
        palette(&h).selected().map(|c| c.kind),
        Some(Kind::Service),
        "the best match: {:?}",
        palette(&h).shown().take(3).collect::<Vec<_>>()
    );
    // A fragment that is in no address finds no service.
    h.ctrl('u');
    h.keys("113.9");
    assert_eq!(first_of(&h, Kind::Service), None);
    // Enter goes there: the Services tab, the row selected.
    h.key('2');
    assert_eq!(h.app.tab(), Tab::Services, "typed, not a tab key");
}

#[test]
fn a_fragment_of_the_product_name_finds_the_service_and_enter_selects_it() {
    let mut h = Harness::loaded();
    h.key('2');
    assert_eq!(h.app.tab(), Tab::Products);
    // "50" alone is also in 5002's ID; "50gb" is 5003's product.
    find(&mut h, "tating 50gb");
    assert_eq!(first_of(&h, Kind::Service), Some(Target::Service(5003)));
    assert_eq!(
        palette(&h).selected().map(|c| c.target.clone()),
        Some(Target::Service(5003))
    );
    h.code(KeyCode::Enter);
    assert!(h.top().is_none(), "the palette closed");
    assert_eq!(h.app.tab(), Tab::Services);
    assert_eq!(h.app.services().table.selected_id(), Some(5003));
}

#[test]
fn enter_on_bind_opens_the_same_form_as_the_key_and_sends_nothing() {
    let mut by_key = Harness::loaded();
    assert!(writes(&by_key.key('b')).is_empty());
    let keyed = crate::app::tests::top::bind(&by_key).cloned();
    assert!(keyed.is_some(), "{:?}", by_key.top());

    let mut h = Harness::loaded();
    find(&mut h, "bind");
    let shown = palette(&h).selected().cloned().unwrap();
    assert_eq!(shown.target, Target::Action(Act::Bind(5001)));
    assert_eq!(
        shown.command.as_deref(),
        Some("proxydash bind 5001 <IP>"),
        "the default profile needs no --profile"
    );
    let cmds = h.code(KeyCode::Enter);
    assert!(writes(&cmds).is_empty(), "{cmds:?}");
    assert_eq!(h.app.context().popup, Some(PopupKind::Step(&bind_ip::STEP)));
    assert_eq!(crate::app::tests::top::bind(&h).cloned(), keyed);
    // The form's Enter sends the one PUT, as after `b`.
    h.ctrl('u');
    h.keys("45.83.222.77");
    let sent = writes(&h.code(KeyCode::Enter));
    assert_eq!(sent.len(), 1, "{sent:?}");
}

#[test]
fn the_confirmations_are_still_asked() {
    // Refresh: the confirmation opens, nothing is sent until its Enter.
    let mut h = Harness::loaded();
    find(&mut h, "refresh ip");
    let cmds = run(&mut h, Act::RefreshList(5001));
    assert!(writes(&cmds).is_empty());
    assert_eq!(h.app.context().popup, Some(PopupKind::Step(&refresh::STEP)));
    assert_eq!(writes(&h.code(KeyCode::Enter)).len(), 1);

    // Order: the form, then its confirmation, then the one POST.
    let mut h = Harness::loaded();
    let cmds = h.key('2');
    h.settle(cmds);
    find(&mut h, "order");
    let product = h.app.products().table.selected_id().unwrap();
    let cmds = run(&mut h, Act::Order(product));
    assert!(writes(&cmds).is_empty());
    assert!(fetches(&cmds).contains(&Request::Clients));
    assert_eq!(h.app.context().popup, Some(PopupKind::Step(&order::EDIT)));
    h.ok(Request::Clients, Response::Clients(clients()));
    assert!(writes(&h.code(KeyCode::Enter)).is_empty(), "Enter checks");
    assert_eq!(
        h.app.context().popup,
        Some(PopupKind::Step(&order::CONFIRM))
    );
    assert_eq!(writes(&h.code(KeyCode::Enter)).len(), 1);
}

#[test]
fn a_read_only_profile_refuses_the_palettes_writes_as_the_keys() {
    let mut h = Harness::with(AppSettings {
        read_only: true,
        ..settings()
    });
    let cmds = h.app.start();
    h.settle(cmds);
    find(&mut h, "bind");
    let note = palette(&h).selected().map(|c| c.note.clone());
    assert_eq!(note.as_deref(), Some("b · off: read-only"));
    h.code(KeyCode::Esc);
    for (query, act) in [
        ("bind", Act::Bind(5001)),
        ("passw", Act::Password(5001)),
        ("refresh ip", Act::RefreshList(5001)),
    ] {
        find(&mut h, query);
        let cmds = run(&mut h, act);
        assert!(writes(&cmds).is_empty());
        assert!(h.top().is_none(), "{act:?} opened {:?}", h.top());
        assert!(h.status_text().contains("read-only"), "{}", h.status_text());
    }
}

#[test]
fn the_command_log_lists_what_was_carried_out_with_the_profile() {
    let mut h = Harness::with(AppSettings {
        cli_args: vec!["--profile".into(), "work".into()],
        ..settings()
    });
    let cmds = h.app.start();
    h.settle(cmds);
    find(&mut h, "bind");
    assert_eq!(
        palette(&h)
            .selected()
            .and_then(|c| c.command.clone())
            .as_deref(),
        Some("proxydash bind 5001 <IP> --profile work")
    );
    h.code(KeyCode::Enter);
    h.ctrl('u');
    h.keys("45.83.222.77");
    let sent = writes(&h.code(KeyCode::Enter));
    assert!(
        h.app.command_log().is_empty(),
        "nothing is done until answered"
    );
    let ok = Response::UpdateService(UpdateResult::default());
    h.ok(sent[0].clone(), ok);
    let lines: Vec<&str> = h
        .app
        .command_log()
        .entries()
        .map(|e| e.line.as_str())
        .collect();
    assert_eq!(lines, ["proxydash bind 5001 45.83.222.77 --profile work"]);
    // A refused write is not listed; `L` shows the log and `y` copies it.
    h.code(KeyCode::Esc);
    h.key('p');
    h.keys("Str0ng-enough-pw");
    h.code(KeyCode::Tab);
    h.keys("Str0ng-enough-pw");
    let sent = writes(&h.code(KeyCode::Enter));
    h.fail(sent[0].clone(), unprocessable());
    assert_eq!(h.app.command_log().len(), 1);
    h.code(KeyCode::Esc);
    h.key('L');
    assert_eq!(
        h.app.context().popup,
        Some(PopupKind::Shows(&crate::app::popups::command_log::INFO))
    );
    let copied = h.key('y');
    assert_eq!(
        copied,
        [Command::Copy {
            what: "Command log (1 line)".into(),
            text: "proxydash bind 5001 45.83.222.77 --profile work\n".into()
        }]
    );
}

#[test]
fn copy_ip_list_fetches_copies_and_logs_and_its_proxies_are_found() {
    let mut h = Harness::loaded();
    find(&mut h, "copy");
    run(&mut h, Act::CopyIpList(5001));
    assert_eq!(
        h.app.context().popup,
        Some(PopupKind::Step(&iplist::CHOOSE))
    );
    let sent = fetches(&h.code(KeyCode::Enter));
    assert_eq!(sent.len(), 1, "{sent:?}");
    let raw = "45.86.1.20:8000:u:p\n45.86.1.21:8000:u:p\n";
    let list = IpList::parse(IpListType::HttpAuth, IpListFormat::Txt, raw.into());
    let cmds = h.ok(sent[0].clone(), Response::IpList(list));
    let Some(Command::Copy { what, text }) =
        cmds.iter().find(|c| matches!(c, Command::Copy { .. }))
    else {
        panic!("not copied: {cmds:?}")
    };
    assert_eq!(text, raw);
    assert!(
        h.app.command_log().is_empty(),
        "listed once the clipboard took it"
    );
    h.send(Msg::Copied {
        what: what.clone(),
        result: Ok(Copied::System),
    });
    let lines: Vec<&str> = h
        .app
        .command_log()
        .entries()
        .map(|e| e.line.as_str())
        .collect();
    assert_eq!(
        lines,
        ["proxydash iplist 5001 --type http-auth --format txt"]
    );
    assert!(crate::app::tests::top::iplist(&h).is_some());
    // The list's proxy IPs are found from now on.
    h.code(KeyCode::Esc);
    h.key('j');
    find(&mut h, "86.1.21");
    assert_eq!(first_of(&h, Kind::Service), Some(Target::Service(5001)));
}

#[test]
fn tab_on_a_service_lists_its_actions() {
    let mut h = Harness::loaded();
    find(&mut h, "5002");
    assert_eq!(
        palette(&h).selected().map(|c| c.target.clone()),
        Some(Target::Service(5002))
    );
    h.code(KeyCode::Tab);
    let p = palette(&h);
    assert_eq!(p.service, Some(5002));
    assert_eq!(p.query.value(), "");
    assert_eq!(
        p.selected().map(|c| c.target.clone()),
        Some(Target::Action(Act::Bind(5002)))
    );
    // Esc closes; nothing else changed.
    h.code(KeyCode::Esc);
    assert!(h.top().is_none());
    assert_eq!(h.app.tab(), Tab::Services);
}

#[test]
fn ten_thousand_services_are_searched_and_only_the_best_kept() {
    let mut h = Harness::new();
    let listed = (0..10_000u64)
        .map(|i| ServiceSummary {
            product_name: format!(
                "Plan {} {}",
                i % 7,
                ["alpha", "beta", "gamma"][i as usize % 3]
            ),
            ..crate::app::testdata::summary(100_000 + i)
        })
        .collect();
    // The list alone (the engine's reads of 10,000 services' details are not the point).
    h.ok(Request::Services, Response::Services(listed));
    find(&mut h, "p");
    assert!(palette(&h).match_count() >= 10_000);
    assert!(palette(&h).shown().len() <= MAX_SHOWN);
    h.keys("lan 3 gam");
    let p = palette(&h);
    assert!(
        p.match_count() > 0 && p.match_count() < 10_000,
        "{}",
        p.match_count()
    );
    assert!(
        p.shown()
            .all(|c| c.kind != Kind::Service || c.text.contains("Plan 3"))
    );
    // Backspace widens again.
    for _ in 0..9 {
        h.code(KeyCode::Backspace);
    }
    assert!(palette(&h).match_count() >= 10_000);
    // Any key, any paste, on an empty account or full one: no panic.
    h.paste("\u{1b}[31m\u{202e}\n\n");
    h.code(KeyCode::Enter);
}

#[test]
fn an_action_for_a_service_gone_from_the_list_opens_nothing_on_another() {
    let mut h = Harness::loaded();
    find(&mut h, "5003");
    h.code(KeyCode::Tab);
    assert_eq!(palette(&h).service, Some(5003));
    // The list changes under the open palette: 5003 is gone.
    let listed: Vec<ServiceSummary> = services().into_iter().take(2).collect();
    h.ok(Request::Services, Response::Services(listed));
    h.keys("bind");
    let cmds = run(&mut h, Act::Bind(5003));
    assert!(writes(&cmds).is_empty());
    assert!(h.top().is_none(), "{:?}", h.top());
    assert!(
        h.status_text().contains("5003 is not listed"),
        "{}",
        h.status_text()
    );
    // A filter or `!` hiding a listed service is cleared instead.
    h.keys("/rot");
    h.code(KeyCode::Enter);
    find(&mut h, "static");
    h.code(KeyCode::Enter);
    assert_eq!(h.app.services().table.selected_id(), Some(5001));
    assert_eq!(h.app.services().table.filter(), "");
}

/// Issue 47.3: `:` verbs, as in k9s and vim, listed first and run by Enter through their
/// key's path; a wrong argument says what it needs; `↑` brings back what was run.
#[test]
fn verbs_jump_open_and_quit_and_the_palette_remembers_them() {
    let mut h = Harness::loaded();
    find(&mut h, "svc 5003");
    assert_eq!(palette(&h).selected().map(|c| c.kind), Some(Kind::Verb));
    h.code(KeyCode::Enter);
    assert_eq!(h.app.tab(), Tab::Services);
    assert_eq!(h.app.table(Tab::Services).selected_id(), Some(5003));
    assert!(
        matches!(h.top(), Some(Popup::Service(_))),
        "the detail is open: {:?}",
        h.top()
    );
    h.code(KeyCode::Esc);

    // A verb with a wrong argument says what it needs and keeps the query.
    find(&mut h, "svc abc");
    h.code(KeyCode::Enter);
    assert_eq!(h.status_text(), "\"abc\" is not an ID: :svc SERVICE-ID");
    assert_eq!(palette(&h).query.value(), "svc abc");
    h.code(KeyCode::Esc);

    // The theme, at once.
    find(&mut h, "theme light");
    h.code(KeyCode::Enter);
    assert_eq!(h.app.settings().look, crate::config::Look::Light);

    // `↑` on the first line brings back the queries run, newest first.
    find(&mut h, "");
    h.code(KeyCode::Up);
    assert_eq!(palette(&h).query.value(), "theme light");
    h.code(KeyCode::Up);
    assert_eq!(palette(&h).query.value(), "svc 5003");
    h.code(KeyCode::Down);
    assert_eq!(palette(&h).query.value(), "theme light");
    h.code(KeyCode::Esc);

    // `:q` quits, as `q` does.
    find(&mut h, "q");
    h.code(KeyCode::Enter);
    assert!(h.app.should_quit());
}

/// `Tab` on a row keeps what the palette knows: the queries run before, and your actions.
#[test]
fn tab_on_a_row_keeps_the_history() {
    let mut h = Harness::loaded();
    find(&mut h, "refresh");
    h.code(KeyCode::Enter);
    find(&mut h, "5003");
    h.code(KeyCode::Tab);
    assert_eq!(palette(&h).service, Some(5003));
    assert_eq!(palette(&h).history, ["refresh"]);
    h.code(KeyCode::Up);
    assert_eq!(palette(&h).query.value(), "refresh");
    assert_eq!(palette(&h).selected().map(|c| c.kind), Some(Kind::Verb));
}
