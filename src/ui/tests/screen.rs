//! Issue 16's screen items, asserted on the rendered buffer: columns that fit, search by
//! visible text, local sorts, the problems toggle, help that scrolls, usage values, and
//! the smaller things (ended services, hidden passwords, marked servers, wrapped errors).

use super::render;
use crate::api::{ApiError, Request, Response, ServiceStatus};
use crate::app::Msg;
use crate::app::popups::Popup;
use crate::testkit::*;
use crossterm::event::KeyCode;

/// The row lines of the screen that start with the selection column and an ID.
fn row_ids(screen: &str) -> Vec<u64> {
    screen
        .lines()
        .filter_map(|l| {
            let l = l.trim_matches('"').trim_start_matches('│');
            let l = l.strip_prefix("▶ ").or_else(|| l.strip_prefix("  "))?;
            l.split_whitespace().next()?.parse().ok()
        })
        .collect()
}

#[test]
fn a_cut_cell_ends_with_an_ellipsis_and_numbers_are_never_cut() {
    let mut h = Harness::loaded();
    let screen = render(&mut h.app, 80, 24);
    // At 80 columns Proxies gives way ("⚠ 1 ina…") while IDs, dates and order numbers
    // stay whole.
    assert!(screen.contains("⚠ 1 ina…"), "{screen}");
    assert!(screen.contains("2025-12-30 15003│"), "{screen}");
    // Wide enough, nothing is cut and the detail sits beside the table.
    let wide = render(&mut h.app, 200, 40);
    assert!(wide.contains("Suspended ⚠ over limit"), "{wide}");
    assert!(wide.contains("⚠ 1 inactive"), "{wide}");
    assert!(wide.contains("││Service ID"), "{wide}");
}

#[test]
fn the_filter_matches_the_visible_cells() {
    let mut h = Harness::loaded();
    h.keys("/late");
    assert_eq!(h.app.services().table.len(), 1);
    let screen = render(&mut h.app, 100, 30);
    assert_eq!(row_ids(&screen), vec![5003], "{screen}");
    h.code(KeyCode::Esc);
    h.keys("/err");
    assert_eq!(h.app.services().table.len(), 1);
    h.code(KeyCode::Esc);
    h.keys("/over limit");
    assert_eq!(h.app.services().table.len(), 1);
}

#[test]
fn s_sorts_services_locally_and_the_title_says_how() {
    let mut h = Harness::loaded();
    // The list is not asked again: the sort is local.
    assert!(!fetches(&h.key('s')).contains(&Request::Services));
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("Services · 3 · by due date"), "{screen}");
    assert_eq!(row_ids(&screen), vec![5003, 5002, 5001], "{screen}");
    h.key('S');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("by due date ↓"), "{screen}");
    assert_eq!(row_ids(&screen), vec![5001, 5002, 5003], "{screen}");
    h.key('s');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("by status ↓"), "{screen}");
    h.key('s');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("by health ↓"), "{screen}");
}

/// Issue 26.4: by due date, ended services (here a terminated one, due longest ago) come
/// last in both directions.
#[test]
fn by_due_date_ended_services_are_last_both_ways() {
    let mut h = Harness::loaded();
    let mut list = crate::testkit::services();
    list.push(crate::api::ServiceSummary {
        product_name: "Old Static".into(),
        status: crate::api::ServiceStatus::Terminated,
        nextduedate: Some(crate::app::testdata::date("2025-06-01")),
        ..crate::app::testdata::summary(5004)
    });
    h.ok(Request::Services, crate::api::Response::Services(list));
    h.key('s');
    let screen = render(&mut h.app, 100, 30);
    assert_eq!(row_ids(&screen), vec![5003, 5002, 5001, 5004], "{screen}");
    h.key('S');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("by due date ↓"), "{screen}");
    assert_eq!(row_ids(&screen), vec![5001, 5002, 5003, 5004], "{screen}");
}

#[test]
fn billing_shows_the_unpaid_total_sorts_and_filters_the_problems() {
    let mut h = Harness::loaded();
    h.key('3');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("Unpaid  $49.99 in 1 invoice"), "{screen}");
    h.key('!');
    let screen = render(&mut h.app, 100, 30);
    assert!(
        screen.contains("Invoices · 1 of 3 · problems only (!)"),
        "{screen}"
    );
    assert_eq!(row_ids(&screen), vec![102], "{screen}");
    h.key('!');
    h.keys("ss");
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("by amount"), "{screen}");
    assert_eq!(row_ids(&screen)[0], 102, "{screen}");
}

#[test]
fn network_sorts_and_keeps_the_errors() {
    let mut h = Harness::loaded();
    h.key('4');
    h.key('!');
    let screen = render(&mut h.app, 100, 30);
    assert!(!screen.contains("192.0.2.44"), "{screen}");
    assert!(screen.contains("198.51.100.7"), "{screen}");
    h.key('!');
    h.key('s');
    h.key('S');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("by state ↓"), "{screen}");
    let inactive = screen.find("192.0.2.44").unwrap();
    assert!(inactive < screen.find("198.51.100.7").unwrap(), "{screen}");
}

#[test]
fn help_scrolls_to_every_key_at_80x24() {
    let mut h = Harness::loaded();
    h.key('?');
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("j/k PgUp/PgDn scroll"), "{screen}");
    assert!(!screen.contains("Ctrl-Z"), "{screen}");
    h.code(KeyCode::PageDown);
    h.code(KeyCode::PageDown);
    let screen = render(&mut h.app, 80, 24);
    for key in ["Ctrl-C", "Ctrl-Z", "Esc", " r ", " R "] {
        assert!(screen.contains(key), "{key} missing: {screen}");
    }
    // Back up, and no further than the top.
    for _ in 0..40 {
        h.key('k');
    }
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains(" 1–"), "{screen}");
}

#[test]
fn the_footer_says_when_help_has_more() {
    let mut h = Harness::loaded();
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("…? more"), "{screen}");
    let wide = render(&mut h.app, 200, 40);
    assert!(!wide.contains("…? more"), "{wide}");
}

#[test]
fn the_ip_list_help_is_titled_for_it() {
    let mut h = Harness::loaded();
    h.key('i');
    // The chooser is a form: its help names it.
    h.key('?');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("Keys · IP list"), "{screen}");
    assert!(!screen.contains("Keys · form"), "{screen}");
}

#[test]
fn a_service_the_server_cannot_check_is_marked_once_not_reported() {
    let mut h = Harness::loaded();
    let gone = || ApiError::ClientIdNotFound {
        message: "Unprocessable Entity. ClientID not found".into(),
    };
    h.fail(Request::NetworkErrors(5001), gone());
    h.fail(Request::NetworkInactive(5001), gone());
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("can't check"), "{screen}");
    assert!(!screen.contains("ClientID"), "{screen}");
    // The status line says nothing of it.
    let status = screen.lines().rev().nth(1).unwrap();
    assert!(
        !status.contains("5001") && !status.contains("Network"),
        "{status}"
    );
    // `!` counts it as a problem; the Pending 5002 is not one (issue 44: Pending needs
    // no person), the Suspended 5003 is.
    h.key('!');
    let ids = row_ids(&render(&mut h.app, 100, 30));
    assert!(ids.contains(&5001) && ids.contains(&5003), "{ids:?}");
    assert!(!ids.contains(&5002), "{ids:?}");
    // The Network summary counts it apart from failures.
    h.key('4');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("1 can't check"), "{screen}");
    assert!(!screen.contains("failed"), "{screen}");
}

#[test]
fn usage_names_its_unit_and_a_cursor_reads_one_day() {
    let mut h = Harness::loaded();
    // The selected service's statistics are read on sight.
    let cmds = h.key('5');
    h.settle(cmds);
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("requests or MB"), "{screen}");
    let newest = td_stats_title(&screen);
    h.code(KeyCode::Left);
    let screen = render(&mut h.app, 100, 30);
    let before = td_stats_title(&screen);
    assert_ne!(newest, before, "{screen}");
    h.code(KeyCode::Right);
    assert_eq!(td_stats_title(&render(&mut h.app, 100, 30)), newest);
}

/// The cursor's `◆ date: value` from the chart's title.
fn td_stats_title(screen: &str) -> String {
    let at = screen.find('◆').expect("a cursor title");
    screen[at..].chars().take(24).collect()
}

#[test]
fn an_ended_service_refuses_writes_before_sending() {
    let mut h = Harness::new();
    let cmds = h.app.start();
    h.settle(cmds);
    let mut list = services();
    list[1].status = ServiceStatus::Terminated;
    h.ok(Request::Services, Response::Services(list));
    h.key('j');
    for key in ['p', 'u', 'b'] {
        let out = h.key(key);
        assert!(out.is_empty(), "{key} sent {out:?}");
        assert!(h.app.popups().is_empty(), "{key} opened a form");
        assert!(
            h.status_text().contains("Service 5002 is Terminated"),
            "{}",
            h.status_text()
        );
    }
}

/// `v` in a service's viewer is the viewer's (it takes the key before the tab under it):
/// the password shows in the viewer, and again `v` hides it.
#[test]
fn v_in_the_service_viewer_shows_and_hides_its_password() {
    let mut h = Harness::loaded();
    h.code(KeyCode::Enter);
    assert!(matches!(h.top(), Some(Popup::Service(_))));
    h.key('v');
    assert!(h.app.services().show_password);
    let screen = render(&mut h.app, 100, 40);
    assert!(screen.contains("pw-500"), "{screen}");
    h.key('v');
    assert!(!h.app.services().show_password);
    let screen = render(&mut h.app, 100, 40);
    assert!(!screen.contains("pw-500"), "{screen}");
}

#[test]
fn moving_to_another_service_hides_the_password() {
    let mut h = Harness::loaded();
    h.key('v');
    assert!(h.app.services().show_password);
    h.key('j');
    assert!(!h.app.services().show_password);
    let screen = render(&mut h.app, 100, 30);
    assert!(!screen.contains("pw-500"), "{screen}");
}

#[test]
fn the_ip_list_viewer_marks_servers_in_error_and_inactive() {
    use crate::api::{IpList, IpListFormat, IpListType};
    let mut h = Harness::loaded();
    h.key('i');
    let out = h.code(KeyCode::Enter);
    let request = fetches(&out).into_iter().next().expect("the list request");
    let raw = "198.51.100.7:8000:u:p\n203.0.113.1:8000:u:p\n".to_owned();
    h.ok(
        request,
        Response::IpList(IpList::parse(IpListType::HttpAuth, IpListFormat::Txt, raw)),
    );
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("✗ 198.51.100.7:8000"), "{screen}");
    assert!(screen.contains("  203.0.113.1:8000"), "{screen}");
    assert!(screen.contains("○ inactive"), "{screen}");
}

#[test]
fn enter_opens_more_than_the_detail_pane() {
    let mut h = Harness::loaded();
    h.code(KeyCode::Enter);
    let screen = render(&mut h.app, 80, 24);
    // The servers in error (Network tab) and the invoices naming the service (Billing).
    assert!(screen.contains("✗ error    198.51.100.7"), "{screen}");
    assert!(screen.contains("#101"), "{screen}");
    h.code(KeyCode::Esc);
    h.key('2');
    h.code(KeyCode::Enter);
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("Your services of this product"), "{screen}");
}

#[test]
fn a_failed_my_ip_lookup_wraps_instead_of_being_cut() {
    let mut h = Harness::loaded();
    h.key('b');
    let long = "Cannot reach https://api.example.net/ip: connection refused (os error 111)";
    h.send(Msg::MyIp(Err(long.into())));
    h.ctrl('l');
    h.send(Msg::MyIp(Err(long.into())));
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("(os error 111)"), "{screen}");
}

/// Issue 26.5: the message log shows one line per different bind, each with its address,
/// service and account.
#[test]
fn the_message_log_says_what_each_bind_changed() {
    let mut h = Harness::loaded();
    for ip in ["45.83.222.1", "45.83.222.2"] {
        h.key('b');
        h.ctrl('u');
        h.keys(ip);
        let cmds = h.code(KeyCode::Enter);
        let sent = fetches(&cmds).into_iter().find(Request::is_write).unwrap();
        h.ok(
            sent,
            crate::api::Response::UpdateService(crate::api::UpdateResult {
                setip: Some(crate::api::UpdateOutcome {
                    success: "IP address updated successfully".into(),
                }),
                ..Default::default()
            }),
        );
        h.code(KeyCode::Esc);
    }
    h.key('m');
    let screen = render(&mut h.app, 160, 30);
    for ip in ["45.83.222.1", "45.83.222.2"] {
        let line = format!("Service 5001 (Static US 25, account work) · bind IP {ip}: IP address");
        assert!(screen.contains(&line), "{line}\n{screen}");
    }
    assert!(!screen.contains("(×2)"), "{screen}");
}

/// Issue 26.6: `P` shows each profile's URL and whether it is read-only.
#[test]
fn p_shows_each_profiles_url_and_read_only() {
    use crate::config::ProfileCard;
    let mut h = Harness::with(crate::app::AppSettings {
        profile: "main".into(),
        profiles: crate::app::settings::Profiles {
            names: vec!["main".into(), "monitor".into()],
            cards: vec![
                ProfileCard {
                    name: "main".into(),
                    base_url: Some("https://main.example".into()),
                    read_only: false,
                },
                ProfileCard {
                    name: "monitor".into(),
                    base_url: Some("https://monitor.example".into()),
                    read_only: true,
                },
            ],
        },
        ..settings()
    });
    h.key('P');
    let screen = render(&mut h.app, 100, 30);
    let line = |name: &str| {
        screen
            .lines()
            .find(|l| l.contains(&format!(" {name} ")) && l.contains("https://"))
            .unwrap_or_else(|| panic!("no {name}:\n{screen}"))
            .to_owned()
    };
    let main = line("main");
    assert!(
        main.contains("https://main.example") && main.contains("(current)"),
        "{main}"
    );
    assert!(!main.contains("read-only"), "{main}");
    let monitor = line("monitor");
    assert!(
        monitor.contains("https://monitor.example") && monitor.contains("read-only"),
        "{monitor}"
    );
}

/// Issue 26.1: `z` hides the detail pane (the list takes the body), zooms it (all but the
/// selected row), and shows it again; the app pages by the same rows.
#[test]
fn z_hides_zooms_and_shows_the_detail_pane() {
    use crate::app::tabs::{DetailPane, Tab};
    let mut h = Harness::loaded();
    let area = ratatui::layout::Rect::new(0, 0, 80, 24);
    let rows = |h: &Harness| {
        crate::ui::layout::table_rows(&h.app, Tab::Services, area)
            .unwrap()
            .height
    };
    let shown = rows(&h);
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("╭ Service 5001"), "{screen}");
    h.key('z');
    assert_eq!(h.app.services().detail_pane, DetailPane::Hidden);
    let screen = render(&mut h.app, 80, 24);
    assert!(!screen.contains("╭ Service 5001"), "{screen}");
    assert!(rows(&h) >= 16 && rows(&h) > shown, "{} rows", rows(&h));
    h.key('z');
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("╭ Service 5001"), "{screen}");
    assert!(screen.contains("Username"), "the whole detail: {screen}");
    assert_eq!(rows(&h), 1, "the selected row stays");
    h.key('z');
    assert_eq!(h.app.services().detail_pane, DetailPane::Shown);
    assert_eq!(rows(&h), shown);
}

/// Issue 26.1: every tab and the common popups draw at every size from the smallest that
/// is drawn at all up to 200×60, without a panic.
#[test]
fn every_tab_draws_at_every_size() {
    let mut h = Harness::loaded();
    for (w, hgt) in [
        (40, 8),
        (52, 11),
        (64, 16),
        (79, 23),
        (80, 24),
        (100, 20),
        (160, 20),
        (200, 60),
    ] {
        for tab in ['1', '2', '3', '4', '5', '6', '7'] {
            h.key(tab);
            let _ = render(&mut h.app, w, hgt);
        }
        // The Clients tab's card (Enter), too.
        h.code(KeyCode::Enter);
        let _ = render(&mut h.app, w, hgt);
        h.code(KeyCode::Esc);
        h.key('1');
        for popup in ["\r", "b", "p", "m", "?", ":", ":1001", "L"] {
            match popup {
                "\r" => {
                    h.code(KeyCode::Enter);
                }
                k => {
                    h.keys(k);
                }
            }
            let _ = render(&mut h.app, w, hgt);
            h.code(KeyCode::Esc);
            h.code(KeyCode::Esc);
        }
    }
}

/// Issue 26.2: a cut line ends in `…` and keeps its styles; one that fits is unchanged.
#[test]
fn a_cut_line_ends_in_an_ellipsis() {
    use crate::ui::widgets::fit_line;
    use ratatui::style::{Color, Style};
    use ratatui::text::{Line, Span};
    let red = Style::default().fg(Color::Red);
    let line = Line::from(vec![
        Span::raw("Bound IP  "),
        Span::styled("192.0.2.50 (not this machine)", red),
    ]);
    let cut = fit_line(line.clone(), 24);
    assert_eq!(cut.to_string(), "Bound IP  192.0.2.50 (n…");
    assert_eq!(cut.width(), 24);
    assert_eq!(cut.spans.last().unwrap().style, red);
    assert_eq!(fit_line(line.clone(), 39).to_string(), line.to_string());
    assert_eq!(
        fit_line(Line::from("日本語テキスト"), 7).to_string(),
        "日本語…"
    );
}

/// Issue 26.3: the Enter popup holds every field (username included), scrolls with j/k
/// when the screen is short, and lists the service's recent events (its binds here).
#[test]
fn the_service_popup_scrolls_and_shows_recent_events() {
    let mut h = Harness::loaded();
    h.key('b');
    h.ctrl('u');
    h.keys("45.83.222.200");
    let cmds = h.code(KeyCode::Enter);
    let sent = fetches(&cmds).into_iter().find(Request::is_write).unwrap();
    h.ok(
        sent,
        Response::UpdateService(crate::api::UpdateResult {
            setip: Some(crate::api::UpdateOutcome {
                success: "IP address updated successfully".into(),
            }),
            ..Default::default()
        }),
    );
    h.code(KeyCode::Esc);
    h.code(KeyCode::Enter);
    let screen = render(&mut h.app, 100, 40);
    assert!(screen.contains("Username      user5001"), "{screen}");
    assert!(screen.contains("Recent events"), "{screen}");
    assert!(
        screen.contains("bind IP 45.83.222.200: IP address updated successfully"),
        "{screen}"
    );
    // At 80×24 it does not fit: the title says where it is, j scrolls to the end.
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("· 1/"), "{screen}");
    assert!(!screen.contains("Recent events"), "{screen}");
    for _ in 0..40 {
        h.key('j');
    }
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("Recent events"), "{screen}");
    assert!(screen.contains("bind IP 45.83.222.200"), "{screen}");
    let scroll = |h: &Harness| match h.app.popups().last() {
        Some(Popup::Service(viewer)) => viewer.scroll,
        other => panic!("the service popup is on top: {other:?}"),
    };
    let end = scroll(&h);
    assert!(end > 0 && end < 40, "stops at the end: {end}");
    h.key('k');
    assert_eq!(scroll(&h), end - 1);
}

/// Issue 26.2: at 200×60 the tables' columns grow into the width and the detail beside
/// is wider than a third, instead of the room being left blank at the right.
#[test]
fn at_200_columns_the_tables_and_the_detail_use_the_width() {
    // Where the last column's header starts, as a share of the table's inner width: the
    // columns spread over the table rather than huddling at its left.
    let spread = |screen: &str| {
        let lines: Vec<&str> = screen.lines().collect();
        let row = lines.iter().position(|l| l.contains('▶')).unwrap();
        let inner: Vec<char> = lines[row - 1]
            .trim_matches('"')
            .chars()
            .skip(1)
            .take_while(|&c| c != '│')
            .collect();
        let used = inner.iter().rposition(|c| *c != ' ').unwrap_or(0);
        let last = inner[..used].iter().rposition(|c| *c == ' ').unwrap_or(0);
        last as f64 / inner.len() as f64
    };
    let mut h = Harness::loaded();
    let screen = render(&mut h.app, 200, 60);
    assert!(spread(&screen) > 0.8, "{screen}");
    // The detail beside takes more than a third.
    let top = screen.lines().nth(2).unwrap().trim_matches('"');
    let split = top
        .chars()
        .position(|c| c == '╭')
        .and_then(|_| top.chars().skip(1).position(|c| c == '╭'));
    let detail = 200 - 1 - split.expect("a detail beside");
    assert!(detail > 200 / 3, "{detail}: {screen}");
    // The names are wider than their text (the product name runs on in blank).
    assert!(screen.contains("Static US 25         "), "{screen}");
    for (tab, name) in [
        ('2', "Proxy plan 1"),
        ('3', "Proxy service #101"),
        ('4', "Static US 25"),
    ] {
        h.key(tab);
        let screen = render(&mut h.app, 200, 60);
        assert!(spread(&screen) > 0.8, "tab {tab}: {screen}");
        assert!(
            screen.contains(&format!("{name}          ")),
            "tab {tab}: {screen}"
        );
        // More rows: the table runs to the bottom of a 60-line screen.
        assert!(screen.lines().count() == 60);
    }
    // At 80×24 nothing is stretched that does not fit: the cuts still end in `…`.
    h.key('1');
    let narrow = render(&mut h.app, 80, 24);
    assert!(narrow.contains("⚠ 1 ina…"), "{narrow}");
}

/// Issue 45: the catalogue is read hourly, so five minutes after it came it is not stale;
/// the credit, read every refresh, is.
#[test]
fn the_catalogue_is_stale_only_past_its_own_hour() {
    let mut h = Harness::loaded();
    h.key('2');
    let cmds = h.key('2');
    h.settle(cmds);
    h.advance(5 * 60);
    let products = render(&mut h.app, 120, 40);
    assert!(products.contains("updated "), "{products}");
    assert!(!products.contains("⚠ updated"), "{products}");
    h.key('3');
    let billing = render(&mut h.app, 120, 40);
    assert!(billing.contains("⚠ updated"), "{billing}");
}

/// Issue 45: a narrow detail pane keeps its whole title (`Service 5001`, never `Service
/// 500`); the freshness on the right gives way.
#[test]
fn a_narrow_detail_pane_keeps_the_whole_service_id() {
    let mut h = Harness::loaded();
    h.advance(600);
    h.send(crate::app::Msg::Tick);
    for width in [40, 44, 50, 60] {
        let screen = render(&mut h.app, width, 30);
        assert!(screen.contains("╭ Service 5001 "), "{width}:\n{screen}");
    }
}
