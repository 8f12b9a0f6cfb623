//! Every form in its states (empty, invalid, in flight, done, failed), as snapshots at
//! 100×30; each is also drawn at 80×24, where everything it says must still be on screen.

use super::render;
use crate::api::*;
use crate::app::Msg;
use crate::testkit::*;
use chrono::NaiveDateTime;
use crossterm::event::KeyCode;
use std::net::Ipv4Addr;

/// Checks the 80×24 rendering shows every text, then snapshots 100×30.
fn check(name: &str, mut h: Harness, texts: &[&str]) {
    let small = render(&mut h.app, 80, 24);
    for t in texts {
        assert!(small.contains(t), "{name} at 80×24 lacks {t:?}:\n{small}");
    }
    let screen = render(&mut h.app, 100, 30);
    for t in texts {
        assert!(
            screen.contains(t),
            "{name} at 100×30 lacks {t:?}:\n{screen}"
        );
    }
    insta::assert_snapshot!(name, screen);
}

fn write_of(cmds: Vec<crate::app::Command>) -> Request {
    fetches(&cmds)
        .into_iter()
        .find(Request::is_write)
        .expect("a write was sent")
}

fn clients() -> Vec<Client> {
    (0..7)
        .map(|i| Client {
            id: 101 + i,
            email: format!("client{i}@example.com"),
        })
        .collect()
}

fn order() -> Harness {
    let mut h = Harness::loaded();
    let cmds = h.key('2');
    h.settle(cmds);
    let cmds = h.key('o');
    h.settle(cmds);
    h.ok(Request::Clients, Response::Clients(clients()));
    h
}

fn confirmed(credit: f64) -> Harness {
    let mut h = order();
    h.read_through_engine(Request::Credit, Response::Credit(Credit { credit }));
    h.code(KeyCode::Down);
    h.code(KeyCode::Tab);
    h.keys("203.0.113.9");
    h.code(KeyCode::Enter);
    h
}

#[test]
fn order_form() {
    check(
        "order_empty",
        order(),
        &[
            "Order product 1",
            "Proxy plan 1 · fpr (static) · $11.00",
            "$1,234.50 → $1,223.50 after this order",
            "7 of 7 clients",
            "client0@example.com",
            "optional: an IPv4 to bind",
        ],
    );

    let mut h = order();
    h.keys("client1");
    h.code(KeyCode::Tab);
    h.keys("203.0.113.256");
    h.code(KeyCode::Enter);
    check("order_invalid", h, &["1 of 7 clients", "✗ 256 is over 255"]);

    let mut h = order();
    h.keys("zzz");
    h.code(KeyCode::Enter);
    check("order_no_client", h, &["✗ No client matches \"zzz\"."]);

    check(
        "order_confirm_short_credit",
        confirmed(5.0),
        &[
            "Order product 1 · confirm",
            "Proxy plan 1 (product 1, fpr (static))",
            "client1@example.com (client 102)",
            "203.0.113.9",
            "$5.00 (short of the price by $6.00)",
            "⚠ The credit shown is $6.00 short of the price:",
            "Enter still sends it",
            "Runway     does not cover what is owed today (unchanged)",
            "⚠ The credit already does not cover what is owed today",
        ],
    );

    let mut h = confirmed(1234.5);
    h.code(KeyCode::Enter);
    check(
        "order_in_flight",
        h,
        &["⟳ Placing the order… (Enter does nothing until the server answers)"],
    );

    let mut h = confirmed(1234.5);
    let sent = write_of(h.code(KeyCode::Enter));
    h.ok(
        sent,
        Response::Order(OrderResult {
            service_id: 5004,
            order_id: Some(15004),
            invoice_id: Some(7021),
            amount: 11.0,
            ip: Some("203.0.113.9".into()),
        }),
    );
    check(
        "order_done",
        h,
        &[
            "✓ Ordered Proxy plan 1",
            "5004",
            "15004",
            "7021",
            "$11.00",
            "being refreshed",
        ],
    );

    let mut h = confirmed(1234.5);
    let sent = write_of(h.code(KeyCode::Enter));
    h.fail(
        sent,
        ApiError::Unprocessable {
            kind: Unprocessable::ClientIdNotFound,
            message: "Unprocessable Entity. ClientID not found".into(),
        },
    );
    check(
        "order_failed",
        h,
        &["✗ Unprocessable Entity. ClientID not found", "203.0.113.9"],
    );

    let mut h = confirmed(1234.5);
    let sent = write_of(h.code(KeyCode::Enter));
    h.fail(
        sent,
        ApiError::Timeout {
            url: "https://api.example.com/api/product/1".into(),
            secs: 30,
        },
    );
    check(
        "order_outcome_unknown",
        h,
        &["✗ Outcome unknown:", "check them before"],
    );

    // Checked, then Enter again: the confirmation wants the product ID typed.
    let mut h = confirmed(1234.5);
    let sent = write_of(h.code(KeyCode::Enter));
    let cmds = h.fail(
        sent,
        ApiError::Timeout {
            url: "https://api.example.com/api/product/1".into(),
            secs: 30,
        },
    );
    h.settle(cmds);
    h.code(KeyCode::Enter);
    h.code(KeyCode::Enter);
    check(
        "order_confirm_in_doubt",
        h,
        &[
            "⚠ This product's order sent at 14:03:05 has an unknown outcome:",
            "no new service or invoice since",
            "›Product ID [",
            "✗ Not sent: type the product ID (1), then Enter",
        ],
    );
}

#[test]
fn message_log() {
    let mut h = Harness::loaded();
    h.fail(Request::Invoices, ApiError::Unauthenticated);
    h.advance(61);
    h.app.notify("Copied the IP list of 5001");
    h.key('m');
    check(
        "messages",
        h,
        &[
            // The first sweep's alerts are the baseline: one summary, after the next.
            "Messages · 1 of 2 · newest first",
            "14:04:06 • info    Copied the IP list of 5001",
            "14:03:05 ✗ error   Invoices: Unauthenticated: check the token",
        ],
    );
}

#[test]
fn order_form_while_clients_load() {
    let mut h = Harness::loaded();
    let cmds = h.key('2');
    h.settle(cmds);
    h.key('o');
    check("order_loading", h, &["Loading clients…"]);
}

fn bind() -> Harness {
    let mut h = Harness::loaded();
    h.send(Msg::MyIp(Ok(Ipv4Addr::new(45, 83, 222, 23))));
    h.key('b');
    h
}

#[test]
fn bind_ip_form() {
    check(
        "bind_empty",
        bind(),
        &[
            "Bind IP · service 5001",
            "203.0.113.5 (not this machine)",
            "45.83.222.23",
            "[203.0.113.5",
            "Ctrl-L: use this machine's public IP",
        ],
    );

    let mut h = bind();
    h.ctrl('u');
    h.keys("203.0.113.05");
    h.code(KeyCode::Enter);
    check(
        "bind_invalid",
        h,
        &["[203.0.113.05", "✗ 05 has a leading zero"],
    );

    let mut h = bind();
    h.ctrl('u');
    h.keys("45.83.222.200");
    h.code(KeyCode::Enter);
    check("bind_in_flight", h, &["⟳ Binding…"]);

    // Issue 26.7: the address already bound, and one no proxy user comes from, are
    // refused with the reason and nothing is sent.
    let mut h = bind();
    assert!(
        fetches(&h.code(KeyCode::Enter))
            .iter()
            .all(|r| !r.is_write())
    );
    check(
        "bind_already_bound",
        h,
        &["✗ 203.0.113.5 is already bound to service 5001;"],
    );
    let mut h = bind();
    h.ctrl('u');
    h.keys("10.0.0.7");
    assert!(
        fetches(&h.code(KeyCode::Enter))
            .iter()
            .all(|r| !r.is_write())
    );
    check("bind_private", h, &["✗ 10.0.0.7 is a private address"]);

    let mut h = bind();
    h.ctrl('u');
    h.keys("45.83.222.200");
    let sent = write_of(h.code(KeyCode::Enter));
    h.ok(
        sent,
        Response::UpdateService(UpdateResult {
            setip: Some(UpdateOutcome {
                success: "IP address updated successfully".into(),
            }),
            ..UpdateResult::default()
        }),
    );
    check("bind_done", h, &["✓ IP address updated successfully"]);

    let mut h = bind();
    h.ctrl('u');
    h.keys("45.83.222.200");
    let sent = write_of(h.code(KeyCode::Enter));
    h.fail(
        sent,
        ApiError::Unprocessable {
            kind: Unprocessable::IpAlreadyBound,
            message: "Unprocessable Entity. IP already binded".into(),
        },
    );
    check(
        "bind_failed",
        h,
        &["✗ Unprocessable Entity. IP already binded"],
    );
}

fn password() -> Harness {
    let mut h = Harness::loaded();
    h.key('p');
    h
}

#[test]
fn password_form() {
    check(
        "password_empty",
        password(),
        &["New proxy password · service 5001", "›New", "Repeat"],
    );

    let mut h = password();
    h.keys("hunter22");
    h.code(KeyCode::Tab);
    h.keys("hunter2");
    h.code(KeyCode::Enter);
    let screen = render(&mut h.app, 100, 30);
    assert!(!screen.contains("hunter"), "masked:\n{screen}");
    check(
        "password_invalid",
        h,
        &["••••••••", "✗ The two passwords differ."],
    );

    // Issue 26.7: a weak password is warned about before it is sent.
    let mut h = password();
    h.keys("hunter22");
    h.code(KeyCode::Tab);
    h.keys("hunter22");
    assert!(
        fetches(&h.code(KeyCode::Enter))
            .iter()
            .all(|r| !r.is_write())
    );
    check(
        "password_weak",
        h,
        &["✗ Weak: 8 characters, under 12", "Ctrl-G"],
    );

    // Ctrl-G: a strong one in both fields, masked.
    let mut h = password();
    h.ctrl('g');
    let screen = render(&mut h.app, 100, 30);
    assert_eq!(
        screen.matches("••••••••••••••••••••").count(),
        2,
        "{screen}"
    );
    check(
        "password_generated",
        h,
        &["✓ generated: 20 letters and digits"],
    );

    let mut h = password();
    h.keys("Hunter22-strong");
    h.code(KeyCode::Tab);
    h.keys("Hunter22-strong");
    let sent = write_of(h.code(KeyCode::Enter));
    check("password_in_flight", h, &["⟳ Changing the password…"]);

    let mut h = password();
    h.keys("Hunter22-strong");
    h.code(KeyCode::Tab);
    h.keys("Hunter22-strong");
    h.code(KeyCode::Enter);
    h.ok(
        sent.clone(),
        Response::UpdateService(UpdateResult::default()),
    );
    check("password_done", h, &["✓ Password updated successfully"]);

    let mut h = password();
    h.keys("Hunter22-strong");
    h.code(KeyCode::Tab);
    h.keys("Hunter22-strong");
    h.code(KeyCode::Enter);
    h.fail(
        sent,
        ApiError::Unprocessable {
            kind: Unprocessable::IncorrectPostedData,
            message: "Unprocessable Entity. Incorrect posted data".into(),
        },
    );
    check(
        "password_failed",
        h,
        &["✗ Unprocessable Entity. Incorrect posted data"],
    );
}

fn refresh() -> Harness {
    let mut h = Harness::loaded();
    h.key('u');
    h
}

fn throttled() -> Harness {
    let mut h = refresh();
    let sent = write_of(h.code(KeyCode::Enter));
    h.fail(
        sent,
        ApiError::Throttled {
            next_possible: NaiveDateTime::parse_from_str(
                "2026-01-02 14:07:17",
                "%Y-%m-%d %H:%M:%S",
            )
            .ok(),
            message: "Too Many Attempts (updateList). Next update possible: 2026-01-02 14:07:17"
                .into(),
        },
    );
    h
}

#[test]
fn refresh_form() {
    check(
        "refresh_confirm",
        refresh(),
        &[
            "Refresh IP list · service 5001",
            "Refresh the IP list of service 5001 (Static US 25)?",
            "Enter refreshes, Esc cancels.",
        ],
    );

    let mut h = refresh();
    h.code(KeyCode::Enter);
    check("refresh_in_flight", h, &["⟳ Refreshing…"]);

    let mut h = refresh();
    let sent = write_of(h.code(KeyCode::Enter));
    h.ok(sent, Response::UpdateService(UpdateResult::default()));
    check("refresh_done", h, &["✓ IP list updated successfully"]);

    check(
        "refresh_throttled",
        throttled(),
        &[
            "next refresh in 4m 12s (at 14:07:17 local)",
            "✗ Too Many Attempts (updateList).",
            "2026-01-02 14:07:17",
        ],
    );
}

#[test]
fn the_countdown_in_the_row_and_the_detail() {
    let mut h = throttled();
    h.code(KeyCode::Enter);
    h.advance(2);
    let small = render(&mut h.app, 80, 24);
    // The countdown follows the product's name, which stays.
    assert!(
        small.contains("│▶ 5001 Static US 25 ⟳ 4m 10s Active"),
        "{small}"
    );
    assert!(
        small.contains("next refresh in 4m 10s (at 14:07:17 local)"),
        "{small}"
    );
    check(
        "services_throttled",
        h,
        &["next refresh in 4m 10s (at 14:07:17 local)"],
    );
}

fn chooser() -> Harness {
    let mut h = Harness::loaded();
    h.key('i');
    h
}

fn list_of(n: usize) -> IpList {
    let raw: String = (0..n)
        .map(|i| {
            format!(
                "10.{}.{}.{}:8000:user5001:pw-5001\n",
                i / 65536,
                i / 256 % 256,
                i % 256
            )
        })
        .collect();
    IpList::parse(IpListType::HttpAuth, IpListFormat::Txt, raw)
}

fn viewing(n: usize) -> Harness {
    let mut h = chooser();
    let sent = fetches(&h.code(KeyCode::Enter)).remove(0);
    h.ok(sent, Response::IpList(list_of(n)));
    h
}

#[test]
fn iplist_form() {
    check(
        "iplist_chooser",
        chooser(),
        &[
            "IP list · service 5001",
            "▶ http-auth",
            "▶ txt",
            "Enter fetches",
        ],
    );

    let mut h = chooser();
    h.code(KeyCode::Enter);
    check("iplist_in_flight", h, &["⟳ Fetching the list…"]);

    let mut h = chooser();
    let sent = fetches(&h.code(KeyCode::Enter)).remove(0);
    h.fail(sent, unprocessable());
    check("iplist_failed", h, &["✗ Unprocessable Entity"]);

    let mut h = viewing(100_000);
    h.code(KeyCode::PageDown);
    h.key('j');
    check(
        "iplist_view",
        h,
        &[
            "IP list 5001 · http-auth txt · 100,000 entries",
            "lines 18–",
            "10.0.0.19:8000:user5001:••••••••",
        ],
    );

    // The passwords are hidden as the detail hides its own; `v` shows them, and the copy
    // keeps them whatever is shown (issue 45).
    let mut h = viewing(3);
    let screen = render(&mut h.app, 120, 30);
    assert!(!screen.contains("pw-5001"), "{screen}");
    h.key('v');
    let screen = render(&mut h.app, 120, 30);
    assert!(
        screen.contains("10.0.0.1:8000:user5001:pw-5001"),
        "{screen}"
    );
    h.key('v');
    let copied = h.key('y');
    assert!(
        copied.iter().any(
            |c| matches!(c, crate::app::Command::Copy { text, .. } if text.contains("pw-5001"))
        ),
        "{copied:?}"
    );

    let mut h = viewing(3);
    h.key('w');
    // The full path is shown before writing: a relative name is in the current folder.
    let cwd = std::env::current_dir().unwrap();
    let preview = format!("→ {}", cwd.join("iplist-5001-http-auth.txt").display());
    let screen = render(&mut h.app, 200, 30);
    assert!(screen.contains(&preview), "{preview}:\n{screen}");
    // The snapshot with an absolute name, so it does not depend on where tests run.
    h.ctrl('u');
    h.keys("/srv/lists/5001.txt");
    check(
        "iplist_save",
        h,
        &[
            "Write the IP list to a file",
            "[/srv/lists/5001.txt",
            "→ /srv/lists/5001.txt",
            "never replaces a file",
        ],
    );

    let mut h = viewing(3);
    h.key('w');
    h.code(KeyCode::Enter);
    h.send(Msg::Written {
        path: "iplist-5001-http-auth.txt".into(),
        result: Err(
            "/home/user/iplist-5001-http-auth.txt already exists; choose another name".into(),
        ),
    });
    check(
        "iplist_save_exists",
        h,
        &["✗ /home/user/iplist-5001-http-auth.txt already exists;"],
    );

    let mut h = viewing(3);
    h.key('w');
    h.code(KeyCode::Enter);
    h.send(Msg::Written {
        path: "iplist-5001-http-auth.txt".into(),
        result: Ok("/home/user/iplist-5001-http-auth.txt".into()),
    });
    check(
        "iplist_written",
        h,
        &[
            "written to /home/user/iplist-5001-http-auth.txt",
            "lines 1–3 of 3",
        ],
    );
}

#[test]
fn the_status_line_points_at_the_message_log_at_any_width() {
    let mut h = Harness::loaded();
    h.fail(Request::Invoices, ApiError::Unauthenticated);
    h.fail(Request::Credit, ApiError::Unauthenticated);
    let wide = render(&mut h.app, 120, 30);
    assert!(
        wide.contains(
            "Credit: Unauthenticated: check the token (profile work)  (+1 more · m: messages)"
        ),
        "{wide}"
    );
    let narrow = render(&mut h.app, 80, 24);
    assert!(
        narrow
            .contains(" ✗ Credit: Unauthenticated: check the token (profile work)  (+1 more · m) "),
        "the message whole, the pointer short: {narrow}"
    );
}

fn invoice_number() -> Harness {
    let mut h = Harness::loaded();
    let cmds = h.key('3');
    h.settle(cmds);
    h.key('#');
    h
}

#[test]
fn invoice_number_form() {
    check(
        "invoice_number_empty",
        invoice_number(),
        &[
            "Open invoice",
            "The invoice number, as its e-mail gives it.",
            "›Number",
            "Enter open",
        ],
    );

    let mut h = invoice_number();
    h.keys("#7021");
    h.code(KeyCode::Enter);
    check(
        "invoice_number_invalid",
        h,
        &["#7021", "✗ Digits only: \"#\" is not one."],
    );

    let mut h = invoice_number();
    h.keys("102");
    h.code(KeyCode::Enter);
    check("invoice_number_in_flight", h, &["⟳ Fetching invoice 102…"]);

    let mut h = invoice_number();
    h.keys("999");
    h.code(KeyCode::Enter);
    h.ok(Request::Invoice(999), Response::Invoice(Vec::new()));
    check(
        "invoice_number_not_found",
        h,
        &["999", "✗ No invoice 999 on this account."],
    );

    let mut h = invoice_number();
    h.keys("102");
    h.code(KeyCode::Enter);
    h.answer(&Request::Invoice(102));
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("Invoice 102"), "{screen}");
    assert!(
        !screen.contains("Open invoice"),
        "the viewer took its place:\n{screen}"
    );
}

fn service_number() -> Harness {
    let mut h = Harness::loaded();
    h.key('#');
    h
}

#[test]
fn service_number_form() {
    check(
        "service_number_empty",
        service_number(),
        &["Open service", "›Service", "Enter open"],
    );

    let mut h = service_number();
    h.keys("50o1");
    h.code(KeyCode::Enter);
    check(
        "service_number_invalid",
        h,
        &["50o1", "✗ Digits only: \"o\" is not one."],
    );

    let mut h = service_number();
    h.keys("7001");
    h.code(KeyCode::Enter);
    check("service_number_in_flight", h, &["⟳ Fetching service 7001…"]);

    let mut h = service_number();
    h.keys("7001");
    h.code(KeyCode::Enter);
    let found = Service {
        product_name: "Residential DE 5GB".into(),
        ..crate::app::testdata::service(7001, ProductType::Ppr)
    };
    h.ok(Request::Service(7001), Response::Service(found));
    check(
        "service_number_not_listed",
        h,
        &[
            "Service 7001",
            "✓ Not in the Services list",
            "Product    Residential DE 5GB",
            "Status     Active",
            "Price",
        ],
    );

    let mut h = service_number();
    h.keys("5003");
    h.code(KeyCode::Enter);
    h.answer(&Request::Service(5003));
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("Service 5003"), "{screen}");
    assert!(
        !screen.contains("Open service"),
        "the detail took its place:\n{screen}"
    );
}

/// Any form's look given as data: every kind of row where it says, and the terminal cursor
/// in the focused field while it takes typing.
#[test]
fn a_look_given_as_data_is_drawn_row_by_row_with_the_cursor_in_the_field() {
    use crate::app::columns::Tone;
    use crate::app::forms::{FormRow, FormState, FormView, TextField};
    use ratatui::backend::{Backend, TestBackend};
    use ratatui::{Terminal, layout::Position};
    let mut field = TextField::default();
    field.paste("abc");
    let state = FormState::Failed("The server says no".into());
    let draw = |typing: bool| {
        let view = FormView::new("A look", (50, 10))
            .row(FormRow::text("Some text", Tone::Dim))
            .row(FormRow::Field {
                label: "Name",
                field: &field,
                focused: true,
                typing,
            })
            .row(FormRow::Error(Some("Not a name")))
            .row(FormRow::Hint("a hint".into(), Tone::Good))
            .row(FormRow::Value {
                label: "Value",
                text: "42".into(),
                tone: Tone::Title,
            })
            .at(6)
            .row(FormRow::State {
                state: &state,
                sending: "Sending…".into(),
                done: String::new(),
            });
        let mut terminal = Terminal::new(TestBackend::new(60, 12)).unwrap();
        let theme = crate::ui::theme::Theme::default();
        let body = ratatui::layout::Rect::new(0, 0, 60, 12);
        let app = crate::app::App::new(Default::default(), std::sync::Arc::new(chrono::Utc::now));
        terminal
            .draw(|f| view.draw(f, body, &app.form_data(), &theme))
            .unwrap();
        let cursor = terminal.backend_mut().get_cursor_position().unwrap();
        (terminal.backend().to_string(), cursor)
    };
    let (screen, cursor) = draw(true);
    let lines: Vec<&str> = screen.lines().collect();
    let row = |i: usize| lines[2 + i];
    assert!(lines[1].contains("╭ A look "), "{screen}");
    assert!(row(0).contains("│Some text"), "{screen}");
    assert!(row(1).contains("│›Name       [abc"), "{screen}");
    assert!(row(2).contains("│             ✗ Not a name"), "{screen}");
    assert!(row(3).contains("│             a hint"), "{screen}");
    assert!(row(4).contains("│Value      42"), "{screen}");
    assert!(row(5).trim_matches(['"', '│', ' ']).is_empty(), "{screen}");
    assert!(row(6).contains("│✗ The server says no"), "{screen}");
    // Inside starts at (6, 2): `›Name       [` is 13 wide, then 3 characters typed.
    assert_eq!(cursor, Position::new(6 + 13 + 3, 3));
    let (_, cursor) = draw(false);
    assert_eq!(
        cursor,
        Position::new(0, 0),
        "not put where nothing is typed"
    );
}

/// The confirmation says what the order does to the day the credit runs short (the
/// engine's money ahead, with the order paid today and renewed monthly).
#[test]
fn the_confirmation_says_what_the_order_does_to_the_runway() {
    // $150 covers the unpaid $49.99 and the renewals until April; $11 more today and
    // each month after brings the day a month earlier.
    let mut h = confirmed(150.0);
    let screen = render(&mut h.app, 100, 30);
    assert!(
        screen.contains("Runway     covers renewals until 2026-04-30 → 2026-03-31"),
        "{screen}"
    );
    assert!(!screen.contains("already does not cover"), "{screen}");
    let mut h = confirmed(1000.0);
    let screen = render(&mut h.app, 100, 30);
    assert!(
        screen.contains("Runway     covers every renewal for a year (unchanged)"),
        "{screen}"
    );
}
