//! The keep-bound state machine under a fake clock: a fake server answers its reads and
//! writes, and the tests count what it sent.

use super::*;
use chrono::TimeZone;

const EVERY: Duration = Duration::from_secs(300);

fn ip(s: &str) -> Ipv4Addr {
    s.parse().unwrap()
}

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 0, 0, 0).unwrap()
}

/// A server holding each service's bound IP; answers every read and write at once.
struct Fake {
    kb: KeepBound,
    bound: BTreeMap<u64, Option<Ipv4Addr>>,
    public: Ipv4Addr,
    reads: u64,
    writes: u64,
    logs: Vec<String>,
    /// Answers the next write with this error instead of carrying it out.
    fail_write: Option<ApiError>,
    /// Carry out the write, then lose its answer.
    lose_write: bool,
}

impl Fake {
    fn new(services: &[u64], bound: &str, public: &str, dry_run: bool) -> Self {
        Self {
            kb: KeepBound::new(services, EVERY, dry_run, start()),
            bound: services.iter().map(|&s| (s, Some(ip(bound)))).collect(),
            public: ip(public),
            reads: 0,
            writes: 0,
            logs: Vec::new(),
            fail_write: None,
            lose_write: false,
        }
    }

    fn run(&mut self, mut actions: Vec<Action>, now: DateTime<Utc>) {
        while let Some(action) = actions.pop() {
            let more = match action {
                Action::LookupIp => self.kb.on_ip(Ok(self.public), now),
                Action::Read(id) => {
                    self.reads += 1;
                    let b = self.bound[&id];
                    self.kb.on_read(id, Ok(b), now)
                }
                Action::Rebind(id, to) => {
                    self.writes += 1;
                    if let Some(e) = self.fail_write.take() {
                        self.kb.on_rebind(id, Err(&e), now)
                    } else if std::mem::take(&mut self.lose_write) {
                        self.bound.insert(id, Some(to));
                        let lost = ApiError::Timeout {
                            url: "http://127.0.0.1/api/service/1".into(),
                            secs: 30,
                        };
                        self.kb.on_rebind(id, Err(&lost), now)
                    } else {
                        self.bound.insert(id, Some(to));
                        self.kb.on_rebind(id, Ok(()), now)
                    }
                }
                Action::Log(line) => {
                    self.logs.push(line);
                    Vec::new()
                }
            };
            actions.extend(more);
        }
    }

    /// Runs `checks` check intervals from `from`; returns the time after the last.
    fn checks(&mut self, checks: u32, from: DateTime<Utc>) -> DateTime<Utc> {
        let mut now = from;
        for _ in 0..checks {
            let actions = self.kb.tick(now);
            self.run(actions, now);
            now += chrono::Duration::from_std(EVERY).unwrap();
        }
        now
    }
}

#[test]
fn an_unchanged_ip_never_rebinds_over_ten_thousand_checks() {
    let mut f = Fake::new(&[1001, 1002], "45.83.221.5", "45.83.221.5", false);
    f.checks(10_000, start());
    assert_eq!(f.writes, 0);
    assert_eq!(f.kb.rebinds(), 0);
    // One read each to learn the bound IP, then nothing: an unchanged IP costs no request.
    assert_eq!(f.reads, 2);
}

#[test]
fn a_changed_ip_rebinds_within_one_check_and_only_once() {
    let mut f = Fake::new(&[1001], "45.83.221.5", "45.83.221.5", false);
    let now = f.checks(3, start());
    f.public = ip("45.83.222.7");
    // The very next check (one interval later at most) rebinds.
    let now = f.checks(1, now);
    assert_eq!(f.writes, 1);
    assert_eq!(f.bound[&1001], Some(ip("45.83.222.7")));
    assert!(
        f.logs
            .iter()
            .any(|l| l.contains("rebound service 1001 to 45.83.222.7 (was 45.83.221.5)")),
        "{:?}",
        f.logs
    );
    f.checks(1000, now);
    assert_eq!(f.writes, 1);
}

#[test]
fn a_refused_rebind_is_not_tried_again_until_the_ip_changes() {
    let mut f = Fake::new(&[1001], "45.83.221.5", "45.83.222.7", false);
    f.fail_write = Some(ApiError::Unprocessable {
        kind: crate::api::Unprocessable::IpAlreadyBound,
        message: "Unprocessable Entity. IP already binded".into(),
    });
    let now = f.checks(100, start());
    assert_eq!(f.writes, 1);
    assert!(f.logs.iter().any(|l| l.contains("refused")), "{:?}", f.logs);
    f.public = ip("45.83.222.8");
    f.checks(1, now);
    assert_eq!(f.writes, 2);
}

#[test]
fn a_lost_answer_reads_the_service_before_anything_else_and_sends_nothing_more_if_it_took() {
    let mut f = Fake::new(&[1001], "45.83.221.5", "45.83.222.7", false);
    f.lose_write = true;
    let now = f.checks(1, start());
    assert_eq!(f.writes, 1);
    let reads = f.reads;
    // The backoff ends within the next intervals: the service is read, the IP is found
    // bound, and no second write goes out.
    f.checks(20, now);
    assert_eq!(f.writes, 1, "{:?}", f.logs);
    assert!(f.reads > reads);
    assert!(
        f.logs.iter().any(|l| l.contains("was lost")),
        "{:?}",
        f.logs
    );
}

#[test]
fn a_lost_answer_that_did_not_take_is_sent_once_more_after_a_read() {
    let mut f = Fake::new(&[1001], "45.83.221.5", "45.83.222.7", false);
    f.fail_write = Some(ApiError::Timeout {
        url: "http://127.0.0.1/".into(),
        secs: 30,
    });
    f.checks(20, start());
    assert_eq!(f.writes, 2);
    assert_eq!(f.bound[&1001], Some(ip("45.83.222.7")));
}

#[test]
fn a_dry_run_says_once_and_writes_nothing() {
    let mut f = Fake::new(&[1001], "45.83.221.5", "45.83.222.7", true);
    f.checks(50, start());
    assert_eq!(f.writes, 0);
    let said = f
        .logs
        .iter()
        .filter(|l| l.contains("would rebind service 1001 to 45.83.222.7"))
        .count();
    assert_eq!(said, 1, "{:?}", f.logs);
}

#[test]
fn a_failing_lookup_backs_off() {
    let mut kb = KeepBound::new(&[1001], EVERY, false, start());
    let mut now = start();
    let mut waits = Vec::new();
    for _ in 0..8 {
        assert_eq!(kb.tick(now), vec![Action::LookupIp]);
        kb.on_ip(Err("no answer".into()), now);
        let next = kb.next_wakeup().unwrap();
        waits.push((next - now).num_seconds());
        now = next;
    }
    assert_eq!(waits[..4], [600, 1200, 2400, 3600]);
    assert!(waits.iter().all(|w| *w <= 3600));
    // Nothing is asked between two checks.
    assert!(kb.tick(now - chrono::Duration::seconds(1)).is_empty());
}
