use crate::api::{Request, Response, SortField};
use crate::app::Command;
use crate::app::Msg;
use crate::app::popups::invoice::InvoiceViewer;
use crate::app::popups::{Popup, PopupKind};
use crate::app::tabs::Tab;
use crate::app::testdata as td;
use crate::testkit::*;
use crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

#[test]
fn digits_tab_and_backtab_switch_tabs() {
    let mut h = Harness::loaded();
    assert_eq!(h.app.tab(), Tab::Services);
    h.key('3');
    assert_eq!(h.app.tab(), Tab::Billing);
    h.key('5');
    assert_eq!(h.app.tab(), Tab::Usage);
    h.code(KeyCode::Tab);
    assert_eq!(h.app.tab(), Tab::Alerts);
    h.code(KeyCode::Tab);
    assert_eq!(h.app.tab(), Tab::Clients);
    h.code(KeyCode::Tab);
    assert_eq!(h.app.tab(), Tab::Services, "Tab wraps around");
    h.code(KeyCode::BackTab);
    assert_eq!(h.app.tab(), Tab::Clients, "Shift-Tab wraps back");
    h.code(KeyCode::BackTab);
    assert_eq!(h.app.tab(), Tab::Alerts);
    h.code(KeyCode::BackTab);
    assert_eq!(h.app.tab(), Tab::Usage);
    h.key('6');
    assert_eq!(h.app.tab(), Tab::Alerts);
    h.key('2');
    assert_eq!(h.app.tab(), Tab::Products);
    h.key('1');
    assert_eq!(h.app.tab(), Tab::Services);
    h.key('9');
    assert_eq!(h.app.tab(), Tab::Services, "no tab 9");
}

fn with_many_services(n: u64) -> Harness {
    let mut h = Harness::new();
    h.send(Msg::Resize(100, 30));
    let _ = h.app.start();
    let list = (1..=n).map(td::summary).collect();
    let _ = h.ok(Request::Services, Response::Services(list));
    h
}

#[test]
fn moving_paging_top_and_bottom() {
    let mut h = with_many_services(100);
    let sel = |h: &Harness| h.app.services().selected().map(|s| s.service_id);
    assert_eq!(sel(&h), Some(1));
    h.key('j');
    h.code(KeyCode::Down);
    assert_eq!(sel(&h), Some(3));
    h.key('k');
    assert_eq!(sel(&h), Some(2));
    h.code(KeyCode::Up);
    h.code(KeyCode::Up);
    assert_eq!(sel(&h), Some(1), "stops at the top");
    let page = crate::ui::layout::table_rows(
        &h.app,
        Tab::Services,
        ratatui::layout::Rect::new(0, 0, 100, 30),
    )
    .unwrap()
    .height as u64;
    h.code(KeyCode::PageDown);
    assert_eq!(sel(&h), Some(1 + page));
    h.code(KeyCode::PageUp);
    assert_eq!(sel(&h), Some(1));
    h.key('G');
    assert_eq!(sel(&h), Some(100));
    h.key('j');
    assert_eq!(sel(&h), Some(100), "stops at the bottom");
    h.key('g');
    assert_eq!(sel(&h), Some(1));
    h.code(KeyCode::End);
    assert_eq!(sel(&h), Some(100));
    h.code(KeyCode::Home);
    assert_eq!(sel(&h), Some(1));
}

#[test]
fn moving_onto_a_service_with_a_cached_detail_fetches_nothing() {
    let mut h = with_many_services(3);
    // The chain asked every detail; pretend 2's answer was lost and forgotten.
    let _ = h.ok(
        Request::Service(2),
        Response::Service(td::service(2, crate::api::ProductType::Ppr)),
    );
    let cmds = h.key('j');
    assert!(fetches(&cmds).is_empty(), "detail 2 is cached: {cmds:?}");
}

#[test]
fn products_detail_is_fetched_on_selection_and_cached() {
    let mut h = Harness::loaded();
    let cmds = h.key('2');
    assert_eq!(
        fetches(&cmds),
        vec![Request::Product(1)],
        "shown, so fetched"
    );
    h.settle(cmds);
    let cmds = h.key('j');
    assert_eq!(fetches(&cmds), vec![Request::Product(2)]);
    let cmds = h.key('k');
    assert!(fetches(&cmds).is_empty(), "product 1 is cached");
    let cmds = h.key('j');
    assert!(fetches(&cmds).is_empty(), "product 2 is in flight");
}

#[test]
fn filter_types_keeps_and_clears() {
    let mut h = Harness::loaded();
    assert_eq!(h.app.services().table.len(), 3);
    h.key('/');
    assert!(h.app.context().editing_filter);
    h.keys("rotating");
    assert_eq!(h.app.services().table.filter(), "rotating");
    assert_eq!(h.app.services().table.len(), 2);
    let cmds = h.key('q');
    assert!(!h.app.should_quit(), "q while typing goes into the filter");
    assert!(!cmds.contains(&Command::Quit));
    assert_eq!(h.app.services().table.filter(), "rotatingq");
    assert_eq!(h.app.services().table.len(), 0);
    h.code(KeyCode::Backspace);
    h.keys(" 10");
    assert_eq!(h.app.services().table.len(), 1);
    h.code(KeyCode::Enter);
    assert!(!h.app.context().editing_filter, "Enter leaves the input");
    assert_eq!(
        h.app.services().table.filter(),
        "rotating 10",
        "and keeps the filter"
    );
    assert_eq!(h.app.services().selected().unwrap().service_id, 5002);
    h.code(KeyCode::Esc);
    assert_eq!(h.app.services().table.filter(), "");
    assert_eq!(h.app.services().table.len(), 3);
    assert!(!h.app.should_quit());
}

#[test]
fn filter_matches_any_visible_text_and_esc_while_typing_clears() {
    let mut h = Harness::loaded();
    h.key('/');
    h.keys("suspended");
    assert_eq!(h.app.services().table.len(), 1);
    h.code(KeyCode::Esc);
    assert!(!h.app.context().editing_filter);
    assert_eq!(h.app.services().table.len(), 3);
    h.key('/');
    h.send(Msg::Paste("2026-01-05\nignored".into()));
    assert_eq!(h.app.services().table.filter(), "2026-01-05");
    assert_eq!(h.app.services().selected().unwrap().service_id, 5002);
}

#[test]
fn each_tab_has_its_own_filter() {
    let mut h = Harness::loaded();
    h.keys("/zzz");
    h.code(KeyCode::Enter);
    h.key('3');
    assert_eq!(h.app.billing().table.filter(), "");
    assert_eq!(h.app.billing().table.len(), 3);
    h.key('1');
    assert_eq!(h.app.services().table.filter(), "zzz");
}

#[test]
fn sort_cycles_through_the_six_fields() {
    let mut h = Harness::loaded();
    h.key('2');
    assert_eq!(h.app.products().sort_label(), "server order");
    let mut seen = Vec::new();
    for _ in 0..7 {
        let cmds = h.key('s');
        let sort = h.app.products().sort.clone().unwrap();
        assert!(
            fetches(&cmds).contains(&Request::ProductsOrderedBy(sort.clone())),
            "{cmds:?}"
        );
        seen.push(sort.clone());
        h.answer(&Request::ProductsOrderedBy(sort));
    }
    assert_eq!(&seen[..6], SortField::ALL);
    assert_eq!(seen[6], SortField::ALL[0], "wraps around");
    assert_eq!(h.app.products().sort_label(), "sorted by productId");
    h.key('s');
    assert_eq!(h.app.products().sort_label(), "sorted by productName");
}

#[test]
fn a_list_for_a_sort_no_longer_chosen_is_ignored() {
    let mut h = Harness::loaded();
    h.key('2');
    h.key('s'); // productId, in flight
    h.key('s'); // productName, in flight
    let _ = h.ok(
        Request::ProductsOrderedBy(SortField::ProductId),
        Response::ProductsOrderedBy(vec![td::product_summary(99)].into()),
    );
    assert_ne!(h.app.products().rows()[0].product_id, 99);
    assert!(h.app.products().list().is_loading());
    let _ = h.ok(
        Request::ProductsOrderedBy(SortField::ProductName),
        Response::ProductsOrderedBy(vec![td::product_summary(42)].into()),
    );
    assert_eq!(h.app.products().rows()[0].product_id, 42);
}

#[test]
fn v_shows_and_hides_the_password() {
    let mut h = Harness::loaded();
    assert!(!h.app.services().show_password);
    h.key('v');
    assert!(h.app.services().show_password);
    h.key('v');
    assert!(!h.app.services().show_password);
    h.key('2');
    h.key('v');
    assert!(!h.app.services().show_password, "v is a Services key");
}

#[test]
fn enter_on_billing_opens_the_invoice_and_esc_closes_it() {
    let mut h = Harness::loaded();
    h.key('3');
    h.key('j');
    let cmds = h.code(KeyCode::Enter);
    assert_eq!(fetches(&cmds), vec![Request::Invoice(102)]);
    assert_eq!(h.app.popups(), &[Popup::Invoice(InvoiceViewer(102))]);
    // The popup gets the keys: j does not move the table under it.
    h.key('j');
    assert_eq!(h.app.billing().selected().unwrap().id, 102);
    h.key('?');
    assert_eq!(
        h.app.popups().iter().map(Popup::kind).collect::<Vec<_>>(),
        [
            PopupKind::Shows(&crate::app::popups::invoice::INFO),
            PopupKind::Shows(&crate::app::popups::help::INFO)
        ]
    );
    assert_eq!(h.app.popups()[0], Popup::Invoice(InvoiceViewer(102)));
    h.code(KeyCode::Esc);
    assert_eq!(h.app.popups(), &[Popup::Invoice(InvoiceViewer(102))]);
    h.answer(&Request::Invoice(102));
    assert!(h.app.billing().invoice(102).is_ready());
    h.code(KeyCode::Esc);
    assert!(h.app.popups().is_empty());
    assert!(!h.app.should_quit());
}

#[test]
fn esc_never_quits() {
    let mut h = Harness::loaded();
    for tab in ['1', '2', '3', '4', '5'] {
        h.key(tab);
        for _ in 0..3 {
            let cmds = h.code(KeyCode::Esc);
            assert!(!cmds.contains(&Command::Quit));
        }
        h.key('/');
        h.code(KeyCode::Esc);
        h.key('?');
        h.code(KeyCode::Esc);
        h.code(KeyCode::Esc);
    }
    assert!(!h.app.should_quit());
}

#[test]
fn q_quits_and_ctrl_c_quits_from_anywhere() {
    let mut h = Harness::loaded();
    let cmds = h.key('q');
    assert!(h.app.should_quit());
    assert_eq!(cmds, vec![Command::Quit]);

    let mut h = Harness::loaded();
    h.key('/');
    h.keys("abc");
    let cmds = h.ctrl('c');
    assert!(h.app.should_quit(), "Ctrl-C quits while typing a filter");
    assert!(cmds.contains(&Command::Quit));

    let mut h = Harness::loaded();
    h.key('?');
    h.ctrl('c');
    assert!(h.app.should_quit(), "Ctrl-C quits from a popup");
}

#[test]
fn help_is_a_popup_toggled_by_question_mark() {
    let mut h = Harness::loaded();
    h.key('?');
    assert_eq!(
        h.app.popups().iter().map(Popup::kind).collect::<Vec<_>>(),
        [PopupKind::Shows(&crate::app::popups::help::INFO)]
    );
    h.key('?');
    assert!(h.app.popups().is_empty());
}

#[test]
fn enter_on_network_shows_the_service() {
    let mut h = Harness::loaded();
    h.key('4');
    assert_eq!(h.app.network().rows.len(), 3);
    h.key('G');
    h.code(KeyCode::Enter);
    assert_eq!(h.app.tab(), Tab::Services);
    assert_eq!(h.app.services().selected().unwrap().service_id, 5003);
}

fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Msg {
    Msg::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

#[test]
fn mouse_clicks_tabs_and_rows_and_scrolls() {
    let mut h = Harness::loaded();
    h.send(Msg::Resize(100, 30));
    let screen = crate::ui::layout::screen(ratatui::layout::Rect::new(0, 0, 100, 30)).unwrap();
    let (_, billing) = crate::ui::layout::tab_titles(screen.tabs, 0)[2];
    h.send(mouse(
        MouseEventKind::Down(MouseButton::Left),
        billing.x + 2,
        billing.y,
    ));
    assert_eq!(h.app.tab(), Tab::Billing);
    let rows = crate::ui::layout::table_rows(
        &h.app,
        Tab::Billing,
        ratatui::layout::Rect::new(0, 0, 100, 30),
    )
    .unwrap();
    h.send(mouse(
        MouseEventKind::Down(MouseButton::Left),
        rows.x + 3,
        rows.y + 2,
    ));
    assert_eq!(h.app.billing().selected().unwrap().id, 103);
    h.send(mouse(MouseEventKind::ScrollUp, rows.x, rows.y));
    assert_eq!(h.app.billing().selected().unwrap().id, 101);

    let mut h = Harness::with(crate::app::AppSettings {
        mouse: false,
        ..settings()
    });
    h.send(mouse(
        MouseEventKind::Down(MouseButton::Left),
        billing.x + 2,
        billing.y,
    ));
    assert_eq!(h.app.tab(), Tab::Services, "mouse off");
}

#[test]
fn keys_of_a_later_issue_and_of_other_contexts_do_nothing() {
    let mut h = Harness::loaded();
    for tab in ['1', '2', '3', '4', '5'] {
        h.key(tab);
        // `P` (profiles) is a later issue's; Y/w belong to the IP-list view, and `y`
        // to it and to Services (the first proxy).
        for c in ['y', 'Y', 'w', 'P'] {
            if tab == '1' && c == 'y' {
                continue;
            }
            let cmds = h.key(c);
            assert!(cmds.is_empty(), "{tab}{c}: {cmds:?}");
        }
    }
    // The action keys only act on their own tab.
    h.key('3');
    for c in ['o', 'b', 'p', 'u', 'i'] {
        assert!(h.key(c).is_empty(), "{c}");
    }
    assert!(h.app.popups().is_empty());
    assert!(!h.app.should_quit());
}
