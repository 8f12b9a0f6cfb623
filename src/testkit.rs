//! A harness for driving [`App`] in tests: a fake clock, key helpers, and a standard
//! account built from [`crate::app::testdata`]. It stands in for the run loop and the
//! account engine's task at once: [`Harness::settle`] runs a real [`Engine`] beside the
//! app, synchronously, answering what it plans with the standard account.

use crate::account::Engine;
use crate::api::{ApiError, Loaded, ProductType, Request, Response, ServiceSummary, Ticket};
use crate::app::testdata as td;
use crate::app::{App, AppSettings, Clock, Command, Msg};
use chrono::{DateTime, TimeZone, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Harness {
    pub app: App,
    pub now: Arc<Mutex<DateTime<Utc>>>,
    /// The account engine the app observes (see [`Harness::settle`]).
    pub engine: Engine,
    /// Every read the harness answered for the engine, in order.
    pub asked: Vec<Request>,
    /// The services list the account answers (the standard one until a test changes it).
    pub listed: Vec<ServiceSummary>,
    /// The alert transitions that reached delivery ([`Command::Alert`]) in `settle`.
    pub delivered: Vec<crate::alerts::Transition>,
    /// The notices they were announced in (the baseline's summary, digests).
    pub announced: Vec<crate::alerts::Notice>,
    /// The history questions asked ([`Command::AskHistory`]) in `settle`.
    pub history_asked: Vec<crate::history::Query>,
    /// Answers that replace the standard account's, by request.
    pub answers: std::collections::HashMap<Request, Response>,
    /// The writes the app sent ([`Command::Write`]) and no answer took yet, oldest first:
    /// [`Harness::ok`] and [`Harness::fail`] answer the oldest of a request with its ticket.
    pub writes: Vec<(Request, Ticket)>,
}

/// 2026-01-02 14:03:05 UTC.
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 2, 14, 3, 5).unwrap()
}

pub fn settings() -> AppSettings {
    AppSettings {
        profile: "work".into(),
        base_url: "https://api.example.com".into(),
        demo: false,
        refresh: Some(Duration::from_secs(30)),
        mouse: true,
        ..AppSettings::default()
    }
}

/// The requests among some commands (reads and writes), in order.
pub fn fetches(cmds: &[Command]) -> Vec<Request> {
    cmds.iter()
        .filter_map(|c| match c {
            Command::Fetch(r) | Command::Write { request: r, .. } => Some(r.clone()),
            _ => None,
        })
        .collect()
}

/// The tickets of the writes among some commands, in order.
pub fn tickets(cmds: &[Command]) -> Vec<Ticket> {
    cmds.iter()
        .filter_map(|c| match c {
            Command::Write { ticket, .. } => Some(*ticket),
            _ => None,
        })
        .collect()
}

/// The standard account: three services (5001 fpr, 5002 and 5003 ppr).
pub fn services() -> Vec<ServiceSummary> {
    vec![
        ServiceSummary {
            product_name: "Static US 25".into(),
            ..td::summary(5001)
        },
        ServiceSummary {
            product_name: "Rotating 10GB".into(),
            status: crate::api::ServiceStatus::Pending,
            nextduedate: Some(td::date("2026-01-05")),
            ..td::summary(5002)
        },
        ServiceSummary {
            product_name: "Rotating 50GB".into(),
            status: crate::api::ServiceStatus::Suspended,
            nextduedate: Some(td::date("2025-12-30")),
            ..td::summary(5003)
        },
    ]
}

pub fn type_of(id: u64) -> ProductType {
    if id == 5001 {
        ProductType::Fpr
    } else {
        ProductType::Ppr
    }
}

pub fn unprocessable() -> ApiError {
    ApiError::Unprocessable {
        kind: crate::api::Unprocessable::Generic,
        message: "Unprocessable Entity ".into(),
    }
}

impl Harness {
    pub fn new() -> Self {
        Self::with(settings())
    }

    pub fn with(settings: AppSettings) -> Self {
        let now = Arc::new(Mutex::new(t0()));
        let n = now.clone();
        let clock: Clock = Arc::new(move || *n.lock().unwrap());
        let app = App::new(settings, clock);
        let engine = Engine::new(app.engine_config());
        let mut h = Self {
            app,
            now,
            engine,
            asked: Vec::new(),
            listed: services(),
            delivered: Vec::new(),
            announced: Vec::new(),
            history_asked: Vec::new(),
            answers: std::collections::HashMap::new(),
            writes: Vec::new(),
        };
        let (w, ht) = h.app.size();
        h.send(Msg::Resize(w, ht));
        h
    }

    pub fn advance(&mut self, secs: i64) {
        let mut now = self.now.lock().unwrap();
        *now += chrono::Duration::seconds(secs);
    }

    /// Feeds `msg`, then hands the app what a frame measures ([`crate::ui::measure`]), as
    /// the run loop does after drawing (the harness stands in for the loop, which alone
    /// knows both app and ui).
    pub fn send(&mut self, msg: Msg) -> Vec<Command> {
        let mut out = self.app.update(msg);
        let (w, h) = self.app.size();
        let view = crate::ui::measure(&self.app, ratatui::layout::Rect::new(0, 0, w, h));
        out.extend(self.app.measured(view));
        for c in &out {
            if let Command::Write { request, ticket } = c {
                self.writes.push((request.clone(), *ticket));
            }
        }
        out
    }

    pub fn key(&mut self, c: char) -> Vec<Command> {
        let mods = if c.is_ascii_uppercase() {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        self.send(Msg::Key(KeyEvent::new(KeyCode::Char(c), mods)))
    }

    pub fn keys(&mut self, s: &str) -> Vec<Command> {
        s.chars().flat_map(|c| self.key(c)).collect()
    }

    pub fn code(&mut self, code: KeyCode) -> Vec<Command> {
        let mods = if code == KeyCode::BackTab {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        self.send(Msg::Key(KeyEvent::new(code, mods)))
    }

    pub fn ctrl(&mut self, c: char) -> Vec<Command> {
        self.send(Msg::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::CONTROL,
        )))
    }

    pub fn paste(&mut self, text: &str) -> Vec<Command> {
        self.send(Msg::Paste(text.to_owned()))
    }

    /// The popup on top.
    pub fn top(&self) -> Option<&crate::app::popups::Popup> {
        self.app.popups().last()
    }

    /// The text of what the status line shows.
    pub fn status_text(&self) -> String {
        use crate::app::status::Shown;
        match self.app.status().shown() {
            Some(Shown::Failure(line, _)) => line.to_owned(),
            Some(Shown::Notice(n)) => n.text.clone(),
            None => String::new(),
        }
    }

    /// Answers `request` with `response`, which must be its endpoint's (a test's mistake
    /// otherwise, so it panics).
    /// A write is answered with the ticket of its oldest send not answered yet.
    pub fn ok(&mut self, request: Request, response: Response) -> Vec<Command> {
        let ticket = self.ticket_of(&request);
        self.ok_as(ticket, request, response)
    }

    /// Answers `request` with `response` and `ticket` (another attempt's, one never given).
    pub fn ok_as(
        &mut self,
        ticket: Option<Ticket>,
        request: Request,
        response: Response,
    ) -> Vec<Command> {
        let loaded = Loaded::pair(request, Ok(response)).expect("the answer of another endpoint");
        self.send(Msg::Loaded { loaded, ticket })
    }

    /// Answers a read as the engine's task does: to the engine first, then to the app,
    /// with the money ahead when it changed ([`Harness::ok`] tells the app alone).
    pub fn read_through_engine(&mut self, request: Request, response: Response) -> Vec<Command> {
        let loaded = Loaded::pair(request, Ok(response)).expect("the answer of another endpoint");
        let ticket = None;
        let now = self.app.now();
        let answered = self.engine.answered(&loaded, now);
        let mut out = Vec::new();
        if let Some(types) = answered.types {
            out.extend(self.send(Msg::Types(types)));
        }
        if let Some(c) = answered.connection {
            out.extend(self.send(Msg::Connection(c)));
        }
        out.extend(self.send(Msg::Loaded { loaded, ticket }));
        if self.engine.refresh_money(now) {
            let money = self.engine.money().cloned();
            out.extend(self.send(Msg::Money(money)));
        }
        out
    }

    /// Fails `request` (a write: its oldest send not answered yet) with `error`.
    pub fn fail(&mut self, request: Request, error: ApiError) -> Vec<Command> {
        let ticket = self.ticket_of(&request);
        self.fail_as(ticket, request, error)
    }

    /// Fails `request` with `error` and `ticket`.
    pub fn fail_as(
        &mut self,
        ticket: Option<Ticket>,
        request: Request,
        error: ApiError,
    ) -> Vec<Command> {
        let loaded = request.failed(error);
        self.send(Msg::Loaded { loaded, ticket })
    }

    /// The ticket of the oldest send of the write `request` not answered yet (taken).
    fn ticket_of(&mut self, request: &Request) -> Option<Ticket> {
        let i = self.writes.iter().position(|(r, _)| r == request)?;
        Some(self.writes.remove(i).1)
    }

    /// Answers a request the way the standard account would.
    pub fn answer(&mut self, request: &Request) -> Vec<Command> {
        match self.answer_of(request) {
            Some(loaded) => self.send(Msg::loaded(loaded)),
            None => Vec::new(),
        }
    }

    /// The standard account's answer to `request` (`None` for writes and IP lists).
    pub fn answer_of(&self, request: &Request) -> Option<Loaded> {
        if let Some(response) = self.answers.get(request) {
            return Loaded::pair(request.clone(), Ok(response.clone()));
        }
        let response = match request {
            Request::Services => Response::Services(self.listed.clone()),
            Request::Service(id) => Response::Service(crate::api::Service {
                product_name: services()
                    .iter()
                    .find(|s| s.service_id == *id)
                    .map(|s| s.product_name.clone())
                    .unwrap_or_default(),
                ..td::service(*id, type_of(*id))
            }),
            Request::Stats(id) | Request::Rate(id) if type_of(*id) == ProductType::Fpr => {
                return Some(request.failed(unprocessable()));
            }
            Request::Stats(_) => Response::Stats(td::stats(14)),
            Request::Rate(id) => Response::Rate(if *id == 5002 {
                td::rate(4_500.0, 10_000.0)
            } else {
                td::rate(13_200.0, 10_000.0)
            }),
            Request::NetworkErrors(id) => Response::NetworkErrors(if *id == 5001 {
                vec!["198.51.100.7".into(), "198.51.100.9".into()]
            } else {
                vec![]
            }),
            Request::NetworkInactive(id) => Response::NetworkInactive(if *id == 5003 {
                vec!["192.0.2.44".into()]
            } else {
                vec![]
            }),
            Request::Products => Response::Products((1..=4).map(td::product_summary).collect()),
            Request::ProductsOrderedBy(_) => {
                Response::ProductsOrderedBy((1..=4).map(td::product_summary).collect())
            }
            Request::Product(id) => Response::Product(td::product(*id, ProductType::Fpr)),
            Request::Credit => Response::Credit(crate::api::Credit { credit: 1234.5 }),
            Request::Invoices => Response::Invoices(
                vec![
                    td::invoice(101),
                    crate::api::Invoice {
                        status: crate::api::InvoiceStatus::Unpaid,
                        date_paid: None,
                        amount: 49.99,
                        ..td::invoice(102)
                    },
                    crate::api::Invoice {
                        status: crate::api::InvoiceStatus::Refunded,
                        date_refunded: Some(td::date("2025-12-20")),
                        ..td::invoice(103)
                    },
                ]
                .into(),
            ),
            Request::Invoice(id) => Response::Invoice(vec![td::invoice(*id)]),
            _ => return None,
        };
        Loaded::pair(request.clone(), Ok(response))
    }

    /// Carries out `cmds` as the run loop and the engine's task would, and everything
    /// they lead to, until nothing is asked: the engine's reads and the app's one-offs are
    /// answered by the standard account ([`Harness::answer_of`]), its events go to the
    /// app, and its sweeps too.
    pub fn settle(&mut self, cmds: Vec<Command>) {
        let mut cmds: std::collections::VecDeque<Command> = cmds.into();
        loop {
            let now = self.app.now();
            let mut asked = Vec::new();
            while let Some(cmd) = cmds.pop_front() {
                match cmd {
                    Command::Fetch(r) | Command::Write { request: r, .. }
                        if self.engine.ask(&r, now) =>
                    {
                        asked.push(r)
                    }
                    Command::Focus(f) => self.engine.set_focus(f),
                    Command::Refresh(kinds) => self.engine.refresh(&kinds),
                    Command::Mark(change) => {
                        self.engine.mark(change);
                        let marks = self.engine.marks().clone();
                        cmds.extend(self.send(Msg::Marked(marks)));
                    }
                    Command::Alert(n) => {
                        self.delivered.extend(n.transitions().iter().cloned());
                        self.announced.push(n);
                    }
                    Command::AskHistory(q) => self.history_asked.push(q),
                    _ => {}
                }
            }
            while let Some((r, _)) = self.engine.next_request(now, true) {
                cmds.extend(self.send(Msg::Sent(r.clone())));
                asked.push(r);
            }
            if asked.is_empty() {
                match self.engine.sweep(now) {
                    Some(swept) => {
                        cmds.extend(self.send(Msg::Swept(swept)));
                        continue;
                    }
                    None if cmds.is_empty() => return,
                    None => continue,
                }
            }
            for r in asked {
                self.asked.push(r.clone());
                let Some(loaded) = self.answer_of(&r) else {
                    continue;
                };
                let answered = self.engine.answered(&loaded, now);
                if let Some(types) = answered.types {
                    cmds.extend(self.send(Msg::Types(types)));
                }
                if let Some(c) = answered.connection {
                    cmds.extend(self.send(Msg::Connection(c)));
                }
                cmds.extend(self.send(Msg::loaded(loaded)));
            }
            // As the engine's task does after each batch of answers.
            if self.engine.refresh_money(now) {
                let money = self.engine.money().cloned();
                cmds.extend(self.send(Msg::Money(money)));
            }
        }
    }

    /// Starts the app and answers everything.
    pub fn loaded() -> Self {
        let mut h = Self::new();
        let cmds = h.app.start();
        h.settle(cmds);
        h
    }
}
