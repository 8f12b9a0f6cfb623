use crate::api::{ApiError, ProductType, Request, Response};
use crate::app::Freshness;
use crate::app::testdata as td;
use crate::testkit::*;
use crossterm::event::KeyCode;

fn refused() -> ApiError {
    ApiError::Connect {
        url: "https://api.example.com/api/services".into(),
        cause: "connection refused".into(),
    }
}

#[test]
fn a_failed_refresh_keeps_the_data_marks_it_stale_and_says_why() {
    let mut h = Harness::loaded();
    h.advance(60);
    h.key('r');
    // The engine sends it (`r` asked it to) and says so.
    h.send(crate::app::Msg::Sent(Request::Services));
    assert_eq!(
        h.app.services().list().freshness(),
        Freshness::Refreshing(t0())
    );
    let _ = h.fail(Request::Services, refused());
    assert_eq!(h.app.services().rows().len(), 3, "the data stays");
    assert_eq!(h.app.services().list().freshness(), Freshness::Stale(t0()));
    assert_eq!(
        h.app.status().current(),
        Some((
            "Services: Cannot reach https://api.example.com/api/services: connection refused",
            0
        ))
    );
    // The same request succeeding clears the line.
    h.key('r');
    h.answer(&Request::Services);
    assert!(h.app.status().is_empty());
    assert!(h.app.services().list().is_ready());
}

#[test]
fn unauthenticated_names_the_profile() {
    let mut h = Harness::new();
    let _ = h.app.start();
    let cmds = h.fail(Request::Services, ApiError::Unauthenticated);
    assert!(fetches(&cmds).is_empty(), "no chain without services");
    assert_eq!(
        h.app.status().current(),
        Some((
            "Services: Unauthenticated: check the token (profile work)",
            0
        ))
    );
    let _ = h.fail(Request::Credit, ApiError::Unauthenticated);
    assert_eq!(
        h.app.status().current(),
        Some(("Credit: Unauthenticated: check the token (profile work)", 1))
    );
    h.code(KeyCode::Esc);
    assert!(h.app.status().is_empty(), "Esc dismisses the message");
    assert!(!h.app.should_quit());
}

#[test]
fn the_422_of_an_fpr_service_is_expected_and_not_shown() {
    let mut h = Harness::new();
    let _ = h.app.start();
    let _ = h.ok(Request::Services, Response::Services(services()));
    // Before the detail: held back.
    let _ = h.fail(Request::Stats(5001), unprocessable());
    assert!(h.app.status().is_empty());
    let _ = h.ok(
        Request::Service(5001),
        Response::Service(td::service(5001, ProductType::Fpr)),
    );
    assert!(h.app.status().is_empty());
    // After the detail: dropped.
    let _ = h.fail(Request::Rate(5001), unprocessable());
    assert!(h.app.status().is_empty());
    assert!(h.app.usage().services.is_empty());
}

#[test]
fn the_422_of_a_ppr_service_is_shown_once_its_type_is_known() {
    let mut h = Harness::new();
    let _ = h.app.start();
    let _ = h.ok(Request::Services, Response::Services(services()));
    // Before any detail, a 422 to stats reads as "not a rotating service".
    let _ = h.fail(Request::Stats(5002), unprocessable());
    assert!(h.app.status().is_empty());
    let _ = h.ok(
        Request::Service(5002),
        Response::Service(td::service(5002, ProductType::Ppr)),
    );
    // The detail says ppr: on the Usage tab its usage is asked again, and a 422 now is real.
    let cmds = h.key('5');
    assert!(fetches(&cmds).contains(&Request::Stats(5002)), "{cmds:?}");
    let _ = h.fail(Request::Stats(5002), unprocessable());
    assert_eq!(
        h.app.status().current(),
        Some(("Usage of service 5002: Unprocessable Entity", 0))
    );
}

#[test]
fn a_detail_failure_is_shown_with_what_it_was_for() {
    let mut h = Harness::new();
    let _ = h.app.start();
    let _ = h.ok(Request::Services, Response::Services(services()));
    let _ = h.fail(Request::Service(5001), unprocessable());
    assert_eq!(
        h.app.status().current(),
        Some(("Service 5001: Unprocessable Entity", 0))
    );
}

/// A list the client cut at its cap (`api::limits`) is shown, and the status line says it
/// was cut; a later whole list clears the line.
#[test]
fn a_list_cut_at_the_cap_says_so() {
    let mut h = Harness::new();
    let _ = h.app.start();
    let cap = crate::api::limits::list_cap(&Request::Invoices).unwrap();
    let invoices: Vec<_> = (0..cap as u64).map(td::invoice).collect();
    let _ = h.ok(Request::Invoices, Response::Invoices(invoices.into()));
    let (line, _) = h.app.status().current().expect("a status line");
    assert_eq!(
        line,
        "Invoices: list cut: only the first 100,000 entries are kept (proxydash's limit)"
    );
    let _ = h.ok(Request::Invoices, Response::Invoices(Vec::new().into()));
    assert!(h.app.status().is_empty());
}

/// While the API is unreachable the status line says so, and reads failing for the same
/// reason afterwards go to the message log instead of covering it.
#[test]
fn while_unreachable_the_outage_stays_on_the_status_line() {
    use crate::account::{Connection, Link};
    use crate::app::status::Shown;
    let mut h = Harness::loaded();
    let _ = h.fail(Request::Services, refused());
    let mut c = Connection::default();
    c.link = Link::Unreachable { since: t0() };
    c.last_answer = Some(t0());
    h.advance(12);
    h.send(crate::app::Msg::Connection(c));
    let shown = |h: &Harness| match h.app.status().shown() {
        Some(Shown::Notice(n)) => n.text.clone(),
        Some(Shown::Failure(line, _)) => line.to_owned(),
        None => String::new(),
    };
    assert!(
        shown(&h).starts_with("The API is unreachable since"),
        "{}",
        shown(&h)
    );
    h.advance(5);
    let _ = h.fail(Request::NetworkErrors(5001), refused());
    assert!(
        shown(&h).starts_with("The API is unreachable since"),
        "a later failed read does not cover the outage: {}",
        shown(&h)
    );
    let logged = h
        .app
        .status()
        .messages()
        .newest_first()
        .any(|m| m.text.contains("service 5001"));
    assert!(logged, "the failed read is in the message log");
    // A server's own refusal is news, not the outage: it is shown.
    let _ = h.fail(Request::Credit, ApiError::Unauthenticated);
    assert!(shown(&h).starts_with("Credit:"), "{}", shown(&h));
}

/// Issue 36.7: once the outage is said, the reads that failed on the way to it do not
/// come back one by one: an alert that waited for the person's next key (as the
/// `api_unreachable` alert does) is shown then, not a `Cannot reach` line of one read.
#[test]
fn after_the_outage_is_said_a_key_brings_back_no_failed_read() {
    use crate::account::{Connection, Link};
    use crate::app::status::{NoticeKind, Shown};
    let mut h = Harness::loaded();
    let _ = h.fail(Request::Services, refused());
    let mut c = Connection::default();
    c.link = Link::Unreachable { since: t0() };
    c.last_answer = Some(t0());
    h.advance(12);
    h.send(crate::app::Msg::Connection(c));
    h.app
        .shell_mut()
        .status
        .notify_below(NoticeKind::Error, "Alert critical: The API is unreachable");
    h.key('j');
    let shown = match h.app.status().shown() {
        Some(Shown::Notice(n)) => n.text.clone(),
        Some(Shown::Failure(line, _)) => line.to_owned(),
        None => String::new(),
    };
    assert_eq!(shown, "Alert critical: The API is unreachable");
    assert!(
        h.app
            .status()
            .messages()
            .newest_first()
            .any(|m| m.text.starts_with("Services: Cannot reach")),
        "the read's failure stays in the log"
    );
}
