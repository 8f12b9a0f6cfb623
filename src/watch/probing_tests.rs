use super::*;
use crate::api::{IpListType, ServiceStatus};

fn t0() -> DateTime<Utc> {
    "2026-03-01T12:00:00Z".parse().unwrap()
}

fn secs(n: i64) -> chrono::Duration {
    chrono::Duration::seconds(n)
}

fn service(id: u64, status: ServiceStatus, t: Option<ProductType>) -> ServiceFacts {
    let mut s = ServiceFacts::new(id, status);
    s.product_type = t;
    s
}

fn list(n: usize) -> IpList {
    let raw: String = (0..n)
        .map(|i| format!("127.0.0.{}:8080:u:p\n", 10 + i))
        .collect();
    IpList::parse(IpListType::HttpAuth, IpListFormat::Txt, raw)
}

fn reads(actions: &[Action]) -> Vec<u64> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Read(Request::IpList { service_id, .. }) => Some(*service_id),
            _ => None,
        })
        .collect()
}

fn started(actions: Vec<Action>) -> Option<(Vec<Sampled>, bool)> {
    actions.into_iter().find_map(|a| match a {
        Action::Start(batch, complete) => Some((batch, complete)),
        _ => None,
    })
}

#[test]
fn a_round_waits_for_its_lists_reads_a_few_at_once_and_never_overlaps() {
    let every = Duration::from_secs(30);
    let mut p = Prober::new(every, 20, t0());
    let services = vec![
        service(1, ServiceStatus::Active, Some(ProductType::Fpr)),
        service(2, ServiceStatus::Active, Some(ProductType::Ppr)),
        service(3, ServiceStatus::Active, Some(ProductType::Fpr)),
        service(4, ServiceStatus::Suspended, Some(ProductType::Fpr)),
        service(5, ServiceStatus::Active, None),
    ];
    let first = p.tick(t0(), &services);
    assert_eq!(reads(&first), [1, 2], "two at once, the live ones only");
    assert!(started(first).is_none(), "the lists are awaited");
    p.on_list(1, Ok(&list(3)), t0());
    p.on_list(2, Ok(&list(2)), t0());
    let next = p.tick(t0() + secs(1), &services);
    assert_eq!(reads(&next), [3]);
    assert!(started(next).is_none());
    p.on_list(3, Ok(&list(1)), t0());
    let (batch, complete) = started(p.tick(t0() + secs(2), &services)).expect("a round");
    assert!(complete, "every live service's list was read");
    assert_eq!(
        batch.iter().map(|s| s.service_id).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert!(p.is_running());
    // Due again while it runs: nothing starts.
    assert!(started(p.tick(t0() + secs(60), &services)).is_none());
    assert_eq!(p.next_wakeup(t0() + secs(60)), None);
    let said = p.done(&Round {
        took: Duration::from_secs(58),
        ..Round::default()
    });
    assert_eq!(said.len(), 1, "an overrun is said once");
    assert!(
        started(p.tick(t0() + secs(60), &services)).is_some(),
        "back to back"
    );
    assert_eq!(p.rounds(), 2);
}

#[test]
fn a_long_list_is_sampled_in_turn_and_a_failed_read_leaves_the_round_incomplete() {
    let every = Duration::from_secs(30);
    let mut p = Prober::new(every, 2, t0());
    let services = vec![
        service(1, ServiceStatus::Active, Some(ProductType::Fpr)),
        service(2, ServiceStatus::Active, Some(ProductType::Fpr)),
    ];
    p.tick(t0(), &services);
    p.on_list(1, Ok(&list(5)), t0());
    let said = p.on_list(2, Err("HTTP 500".into()), t0());
    assert_eq!(said.len(), 1, "a failed read is said");
    let actions = p.tick(t0(), &services);
    assert!(
        reads(&actions).is_empty(),
        "not read again before a round passed"
    );
    assert!(
        actions
            .iter()
            .any(|a| matches!(a, Action::Log(l) if l.contains("checked 2 proxies a round"))),
        "sampling is said"
    );
    let (batch, complete) = started(actions).unwrap();
    assert!(!complete);
    let hosts =
        |b: &[Sampled]| -> Vec<String> { b[0].targets.iter().map(|t| t.host.clone()).collect() };
    assert_eq!(hosts(&batch), ["127.0.0.10", "127.0.0.11"]);
    assert_eq!(batch[0].listed, 5);
    p.done(&Round::default());
    let later = t0() + secs(31);
    let actions = p.tick(later, &services);
    assert_eq!(reads(&actions), [2], "tried again after a round");
    // The round waits for the read at most one `every`.
    assert!(started(actions).is_none());
    let (batch, _) = started(p.tick(later + secs(30), &services)).expect("after its wait");
    assert_eq!(hosts(&batch), ["127.0.0.12", "127.0.0.13"]);
    assert!(
        p.on_list(2, Err("again".into()), later).is_empty(),
        "said once"
    );
}

#[test]
fn a_read_never_answered_frees_its_place_and_is_asked_again() {
    let every = Duration::from_secs(30);
    let mut p = Prober::new(every, 20, t0());
    let services: Vec<ServiceFacts> = (1..=3)
        .map(|id| service(id, ServiceStatus::Active, Some(ProductType::Fpr)))
        .collect();
    assert_eq!(reads(&p.tick(t0(), &services)), [1, 2]);
    // No answer ever comes to either: both places stay taken until given up.
    assert!(reads(&p.tick(t0() + secs(300), &services)).is_empty());
    let give_up = t0() + chrono::Duration::from_std(READ_GIVE_UP).unwrap();
    assert_eq!(
        reads(&p.tick(give_up, &services)),
        [3],
        "the lost ones rest a round"
    );
    // An answer that comes after all is one nobody waits for.
    assert!(p.on_list(1, Ok(&list(1)), give_up).is_empty());
    p.on_list(3, Ok(&list(1)), give_up);
    assert_eq!(reads(&p.tick(give_up + secs(31), &services)), [1, 2]);
}

/// A round falls due at its time: a wakeup that comes a little late (or a tick given the
/// time it went to sleep) must not push it back by a whole round.
#[test]
fn a_due_round_is_woken_for_at_once_and_rounds_keep_their_distance() {
    let every = Duration::from_secs(60);
    let mut p = Prober::new(every, 20, t0());
    let services = vec![service(1, ServiceStatus::Active, Some(ProductType::Fpr))];
    // Nothing live yet (the services or their types not read): nothing to wake for, and
    // the first round stays due for when one is.
    assert!(started(p.tick(t0(), &[])).is_none());
    assert_eq!(p.next_wakeup(t0()), None);
    assert_eq!(reads(&p.tick(t0() + secs(1), &services)), [1]);
    // While its list is read, a due round waits for it (at most a round).
    assert_eq!(p.next_wakeup(t0() + secs(1)), Some(t0() + secs(60)));
    p.on_list(1, Ok(&list(2)), t0() + secs(2));
    // Read: due at once, even for a wakeup that comes late.
    assert_eq!(p.next_wakeup(t0() + secs(3)), Some(t0()));
    assert!(started(p.tick(t0() + secs(3), &services)).is_some());
    p.done(&Round {
        took: Duration::from_secs(30),
        ..Round::default()
    });
    assert_eq!(p.next_wakeup(t0() + secs(33)), Some(t0() + secs(63)));
    // A tick a moment early does nothing; the one at the time starts it.
    assert!(started(p.tick(t0() + secs(62), &services)).is_none());
    assert!(started(p.tick(t0() + secs(63), &services)).is_some());
}
