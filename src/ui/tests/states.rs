//! Loading, empty and error states of every tab, and the demo badge.

use super::render;
use crate::api::{ApiError, ProductType, Request, Response};
use crate::app::testdata as td;
use crate::app::{AppSettings, Msg};
use crate::testkit::*;
use insta::assert_snapshot;

fn started() -> Harness {
    let mut h = Harness::with(AppSettings {
        demo: true,
        ..settings()
    });
    let _ = h.app.start();
    h
}

fn empty() -> Harness {
    let mut h = Harness::new();
    let _ = h.app.start();
    let _ = h.read_through_engine(Request::Services, Response::Services(vec![]));
    let _ = h.read_through_engine(Request::Products, Response::Products(vec![].into()));
    let _ = h.read_through_engine(Request::Invoices, Response::Invoices(vec![].into()));
    let _ = h.read_through_engine(Request::Clients, Response::Clients(vec![]));
    let _ = h.read_through_engine(
        Request::Credit,
        Response::Credit(crate::api::Credit { credit: 0.0 }),
    );
    h
}

fn failed() -> Harness {
    let mut h = Harness::new();
    let _ = h.app.start();
    for r in [
        Request::Services,
        Request::Products,
        Request::Credit,
        Request::Invoices,
        Request::Clients,
    ] {
        let _ = h.fail(r, ApiError::Unauthenticated);
    }
    h
}

#[test]
fn loading_every_tab() {
    for (key, name) in [
        ('1', "services"),
        ('2', "products"),
        ('3', "billing"),
        ('4', "network"),
        ('5', "usage"),
        ('7', "clients"),
    ] {
        let mut h = started();
        h.key(key);
        insta::assert_snapshot!(format!("loading_{name}"), render(&mut h.app, 100, 30));
    }
}

#[test]
fn empty_every_tab() {
    for (key, name) in [
        ('1', "services"),
        ('2', "products"),
        ('3', "billing"),
        ('4', "network"),
        ('5', "usage"),
        ('7', "clients"),
    ] {
        let mut h = empty();
        h.key(key);
        insta::assert_snapshot!(format!("empty_{name}"), render(&mut h.app, 100, 30));
    }
}

#[test]
fn error_every_tab() {
    for (key, name) in [
        ('1', "services"),
        ('2', "products"),
        ('3', "billing"),
        ('4', "network"),
        ('5', "usage"),
        ('7', "clients"),
    ] {
        let mut h = failed();
        h.key(key);
        let screen = render(&mut h.app, 100, 30);
        assert!(
            screen.contains("Unauthenticated: check the token (profile work)"),
            "{screen}"
        );
        insta::assert_snapshot!(format!("error_{name}"), screen);
    }
}

#[test]
fn stale_services_keep_their_rows() {
    let mut h = Harness::loaded();
    h.advance(90);
    h.key('r');
    let _ = h.fail(
        Request::Services,
        ApiError::Connect {
            url: "https://api.example.com/api/services".into(),
            cause: "connection refused".into(),
        },
    );
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("stale since 14:03:05"), "{screen}");
    assert!(screen.contains(
        "Services: Cannot reach https://api.example.com/api/services: connection refused"
    ));
    assert!(screen.contains("Static US 25"));
    assert_snapshot!(screen);
}

#[test]
fn fpr_only_account_says_so_in_usage() {
    let mut h = Harness::new();
    let _ = h.app.start();
    let _ = h.ok(Request::Services, Response::Services(vec![td::summary(7)]));
    let _ = h.ok(
        Request::Service(7),
        Response::Service(td::service(7, ProductType::Fpr)),
    );
    let _ = h.fail(Request::Stats(7), unprocessable());
    h.key('5');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("No rotating (ppr) services"), "{screen}");
    assert!(!screen.contains("Unprocessable"), "{screen}");
    assert_snapshot!(screen);
}

#[test]
fn unlimited_rate_and_server_text_is_sanitized() {
    let mut h = Harness::new();
    let _ = h.app.start();
    let evil = crate::api::ServiceSummary {
        product_name: "Evil\u{1b}[31mRed\u{1b}]0;pwned\u{7}\nName".into(),
        ..td::summary(8)
    };
    let _ = h.ok(Request::Services, Response::Services(vec![evil]));
    let _ = h.ok(
        Request::Service(8),
        Response::Service(td::service(8, ProductType::Ppr)),
    );
    let _ = h.ok(Request::Stats(8), Response::Stats(td::stats(30)));
    let _ = h.ok(Request::Rate(8), Response::Rate(td::rate(12_345.0, 0.0)));
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("EvilRed Name"), "{screen}");
    assert!(!screen.contains('\u{1b}'));
    h.key('5');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("no limit — 12,345 used"), "{screen}");
    assert_snapshot!(screen);
    let _ = h.send(Msg::Tick);
}

#[test]
fn the_plain_theme_uses_no_colour_and_keeps_state_readable() {
    use ratatui::style::Color;
    let mut h = Harness::loaded();
    let _ = h.app.update(Msg::Resize(100, 30));
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).unwrap();
    terminal
        .draw(|f| crate::ui::draw_with(&h.app, f, &crate::ui::theme::Theme::plain()))
        .unwrap();
    let buffer = terminal.backend().buffer();
    assert!(
        buffer
            .content()
            .iter()
            .all(|c| c.fg == Color::Reset && c.bg == Color::Reset)
    );
    let screen = terminal.backend().to_string();
    // States are words and symbols, not only colours.
    for word in ["Suspended", "in 3d!", "3d late!", "⚠ 2 err", "▶ 5001"] {
        assert!(screen.contains(word), "{word} missing:\n{screen}");
    }
}

#[test]
fn a_read_only_session_shows_its_badge_in_the_header() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut harness = Harness::with(AppSettings {
            read_only: true,
            ..settings()
        });
        let _ = harness.app.start();
        let screen = render(&mut harness.app, w, h);
        // The line that names the profile.
        let info = screen.lines().nth(1).unwrap_or_default();
        assert!(
            info.contains("profile work") && info.contains("READ-ONLY"),
            "{w}x{h}:\n{screen}"
        );
    }
    let mut writable = Harness::new();
    let _ = writable.app.start();
    assert!(!render(&mut writable.app, 80, 24).contains("READ-ONLY"));
}

#[test]
fn a_config_warning_and_a_wait_stay_in_the_header() {
    let mut h = Harness::with(AppSettings {
        warnings: vec!["chmod 600 ~/.config/proxydash/config.toml: it holds a secret".into()],
        ..settings()
    });
    let _ = h.app.start();
    let _ = h.fail(Request::Services, ApiError::Unauthenticated);
    let screen = render(&mut h.app, 80, 24);
    let info = screen.lines().nth(1).unwrap_or_default();
    assert!(info.contains("⚠ chmod 600 ~/.config/"), "{screen}");
    let screen = render(&mut h.app, 120, 40);
    let info = screen.lines().nth(1).unwrap_or_default();
    assert!(
        info.contains("⚠ chmod 600 ~/.config/proxydash/config.toml"),
        "{screen}"
    );
    h.app
        .set_waiting(Some("profile beta: waiting for its token_command…".into()));
    let screen = render(&mut h.app, 120, 40);
    let info = screen.lines().nth(1).unwrap_or_default();
    assert!(
        info.contains("⟳ profile beta: waiting for its token_command…"),
        "{screen}"
    );
}

/// A detail (a service's, a product's, an invoice's) says it is loading until its read
/// answers, and the failure in the status line's words when it fails.
#[test]
fn a_detail_says_it_is_loading_then_why_it_failed() {
    let mut h = Harness::new();
    let _ = h.app.start();
    let _ = h.ok(Request::Services, Response::Services(services()));
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("Loading the service…"), "{screen}");
    let _ = h.fail(Request::Service(5001), ApiError::Unauthenticated);
    let screen = render(&mut h.app, 100, 30);
    assert!(
        screen.contains("Unauthenticated: check the token (profile work)"),
        "{screen}"
    );
    assert!(!screen.contains("Loading the service…"), "{screen}");

    h.key('2');
    let _ = h.ok(
        Request::Products,
        Response::Products(vec![td::product_summary(11)].into()),
    );
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("Loading the product…"), "{screen}");

    h.key('3');
    let _ = h.ok(
        Request::Invoices,
        Response::Invoices(vec![td::invoice(7)].into()),
    );
    h.code(crossterm::event::KeyCode::Enter);
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("Loading the invoice…"), "{screen}");
}
