//! The Alerts tab: the alert book (open alerts and the recently resolved ones) and the
//! rows it lists, rebuilt after each sweep.
//!
//! Order: open alerts first, critical first, then the newest; then resolved ones, the
//! most recently resolved first (see [`AlertBook::listing`]). The selection follows its
//! alert across rebuilds. Its look is [`look`].

pub mod look;

use super::{Intent, Tab, TabCx, TabData, TabPane};
use crate::account::Kind;
use crate::alerts::marks::{Ack, MarkChange, Marks, alert_id, who};
use crate::alerts::{Alert, AlertBook, Rules};
use crate::app::Command;
use crate::app::columns::{CellText, Column, Tone};
use crate::app::keymap::Action;
use crate::app::status::NoticeKind;
use crate::app::table::{TableView, search_key};
use std::hash::{Hash, Hasher};

#[derive(Debug)]
pub struct AlertsTab {
    pub rules: Rules,
    pub book: AlertBook,
    /// Acknowledgements and silences, as the engine applies them.
    pub marks: Marks,
    /// What the table lists, in its order.
    pub rows: Vec<Alert>,
    pub table: TableView,
    /// Data the rules read arrived since the last sweep: sweep once nothing is in flight.
    pub sweep_due: bool,
    /// The book's open alerts and the most severe level among them, worked out when it
    /// changes: the tab line shows both at every frame, and walking the book visits
    /// every rule's track of every service.
    open: (usize, Option<crate::alerts::Level>),
}

impl Default for AlertsTab {
    fn default() -> Self {
        Self::new(Rules::default(), Vec::new())
    }
}

impl AlertsTab {
    pub fn new(rules: Rules, open: Vec<Alert>) -> Self {
        let mut book = AlertBook::new(&rules);
        book.restore(open);
        let mut tab = Self {
            rules,
            book,
            marks: Marks::default(),
            rows: Vec::new(),
            table: TableView::default(),
            sweep_due: false,
            open: (0, None),
        };
        // The alerts' cells are short and bounded: fixed widths, not measured.
        tab.table.set_natural(vec![10, 8, 13, 16, 40, 11]);
        tab.rebuild();
        tab
    }

    pub fn selected(&self) -> Option<&Alert> {
        self.table.selected_row().and_then(|i| self.rows.get(i))
    }

    pub fn open_count(&self) -> usize {
        self.open.0
    }

    /// The most severe level of the open alerts.
    pub fn worst_open(&self) -> Option<crate::alerts::Level> {
        self.open.1
    }

    /// `silenced` (it wins: nothing is delivered), `acked`, or nothing: how an alert is
    /// being handled.
    pub fn mark(&self, a: &Alert, now: chrono::DateTime<chrono::Utc>) -> &'static str {
        if a.resolved.is_some() {
            ""
        } else if self.marks.silence(&a.key, now).is_some() {
            "silenced"
        } else if self.marks.ack(&a.key).is_some() {
            "acked"
        } else {
            ""
        }
    }

    /// The open alerts by how they are handled: nobody yet, acknowledged, silenced.
    pub fn counts(&self, now: chrono::DateTime<chrono::Utc>) -> Counts {
        let mut c = Counts::default();
        for a in self.book.open() {
            match self.mark(a, now) {
                "silenced" => c.silenced += 1,
                "acked" => c.acked += 1,
                _ => c.open += 1,
            }
        }
        c
    }

    pub fn rebuild(&mut self) {
        self.open = (
            self.book.open_count(),
            self.book.open().map(|a| a.level).max(),
        );
        self.rows = self.book.listing().into_iter().cloned().collect();
        let keys = self
            .rows
            .iter()
            .map(|a| {
                let state = if a.resolved.is_some() {
                    "resolved"
                } else if self.marks.ack(&a.key).is_some() {
                    "open acknowledged"
                } else {
                    "open"
                };
                search_key([
                    a.level.as_str(),
                    a.key.rule.as_str(),
                    &a.key.subject.to_string(),
                    &a.message,
                    state,
                ])
            })
            .collect();
        let ids = self.rows.iter().map(row_id).collect();
        self.table.set_rows(keys, ids);
    }
}

/// Open alerts by how they are handled (the Alerts titles: one account's and All's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Open and neither acknowledged nor silenced: what needs a person.
    pub open: usize,
    pub acked: usize,
    pub silenced: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.open += other.open;
        self.acked += other.acked;
        self.silenced += other.silenced;
    }
}

impl Counts {
    /// `49 open · 2 acked · 1 silenced`, the parts that are not 0; empty when nothing is
    /// open.
    pub fn words(self) -> String {
        let parts = [
            (self.open, "open"),
            (self.acked, "acked"),
            (self.silenced, "silenced"),
        ];
        parts
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, word)| format!("{} {word}", crate::text::count(*n as u64)))
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

/// An alert's identity in the table: its key and when it began.
fn row_id(a: &Alert) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (a.key, a.first_seen).hash(&mut h);
    h.finish()
}

/// The Alerts columns as the dashboard over several accounts lists them (the Alerts pane
/// of one account lays its table out by itself, with the message taking the rest).
pub const COLUMNS: [Column; 6] = [
    Column::text("Level", 0, 10),
    Column::text("Marked", 2, 8),
    Column::text("Subject", 3, 13),
    Column::text("Rule", 4, 16),
    Column::text("Message", 1, 20),
    Column::text("Since", 5, 11),
];

impl TabPane for AlertsTab {
    fn key(&mut self, action: Action, cx: &mut TabCx<'_>) -> bool {
        match action {
            Action::Acknowledge => self.acknowledge(cx),
            Action::Unsilence => self.unsilence(cx),
            _ => return false,
        }
        true
    }

    fn table(&self) -> &TableView {
        &self.table
    }
    fn table_mut(&mut self) -> &mut TableView {
        &mut self.table
    }
    fn columns(&self, _data: &TabData<'_>) -> Vec<Column> {
        COLUMNS.to_vec()
    }
    fn cells(&self, data: &TabData<'_>, i: usize) -> Vec<CellText> {
        self.rows
            .get(i)
            .map_or_else(Vec::new, |a| cells(data, a, self.mark(a, data.now)))
    }
    /// The alerts rest on everything.
    fn refresh(&mut self, cx: &mut TabCx<'_>) {
        cx.send(Command::Refresh(Kind::ALL.to_vec()));
    }
    /// The alert's subject: its service, its invoice, or the credit.
    fn open(&mut self, cx: &mut TabCx<'_>) {
        use crate::alerts::Subject;
        match self.selected().map(|a| a.key.subject) {
            Some(Subject::Service(id)) => cx.intend(Intent::GoTo(Tab::Services, id)),
            Some(Subject::Invoice(id)) => cx.intend(Intent::GoTo(Tab::Billing, id)),
            Some(Subject::Account) => cx.intend(Intent::Show(Tab::Billing)),
            Some(Subject::Data(kind)) => cx.intend(Intent::Show(match kind {
                Kind::Services | Kind::ServiceDetail => Tab::Services,
                Kind::Network => Tab::Network,
                Kind::Rate | Kind::Stats => Tab::Usage,
                Kind::Products | Kind::ProductDetail => Tab::Products,
                Kind::Clients => Tab::Clients,
                Kind::Credit | Kind::Invoices | Kind::Invoice => Tab::Billing,
            })),
            None => {}
        }
    }
}

fn cells(data: &TabData<'_>, a: &Alert, mark_word: &str) -> Vec<CellText> {
    use crate::alerts::Level;
    let tone = match (a.resolved, a.level) {
        (Some(_), _) => Tone::Dim,
        (None, Level::Critical) => Tone::Bad,
        (None, Level::Warn) => Tone::Warn,
        (None, Level::Info) => Tone::Base,
    };
    let mark = if a.resolved.is_some() { "✓" } else { "●" };
    let rest = if a.resolved.is_some() {
        Tone::Dim
    } else {
        Tone::Base
    };
    let since = crate::text::short_time(data.now, data.offset, a.first_seen);
    vec![
        CellText::new(format!("{mark} {}", a.level.as_str())).tone(tone),
        CellText::new(mark_word).tone(Tone::Dim),
        CellText::new(a.key.subject.to_string()).tone(rest),
        CellText::new(a.key.rule.as_str()).tone(rest),
        CellText::new(message(data.offset, a)).tone(rest),
        CellText::new(since).tone(Tone::Dim),
    ]
}

/// The alert's words; an open one its last full sweep could not check says since when it
/// was last checked (it stays open: missing data resolves nothing).
pub fn message(offset: chrono::FixedOffset, a: &Alert) -> String {
    let text = crate::text::sanitize(&a.message).into_owned();
    match a.not_checked(offset) {
        Some(when) if a.resolved.is_none() => format!("{text} ({when})"),
        _ => text,
    }
}

impl AlertsTab {
    /// The alert of the table's row `id`.
    pub fn by_row_id(&self, id: u64) -> Option<&Alert> {
        self.rows.iter().find(|a| row_id(a) == id)
    }

    /// What `a`, `u` and `s` act on: the marked alerts (in the order shown), else the
    /// selected one.
    pub fn targets(&self) -> Vec<&Alert> {
        let marked = self.table.marked_ids();
        if marked.is_empty() {
            return self.selected().into_iter().collect();
        }
        (marked.iter())
            .filter_map(|id| self.by_row_id(*id))
            .collect()
    }

    /// `a` on Alerts: the selected open alert (or every marked one) is acknowledged (the
    /// engine holds its deliveries back from its next sweep).
    fn acknowledge(&mut self, cx: &mut TabCx<'_>) {
        let targets = self.targets();
        let mut done = Vec::new();
        let mut skipped = Vec::new();
        for a in &targets {
            let id = alert_id(&a.key);
            if a.resolved.is_some() {
                skipped.push(format!("{id} is resolved: nothing to acknowledge"));
            } else if let Some(ack) = self.marks.ack(&a.key) {
                skipped.push(format!("{id} is already acknowledged by {}", ack.by));
            } else {
                let ack = Ack {
                    key: a.key,
                    by: who(),
                    at: cx.now(),
                };
                cx.send(Command::Mark(MarkChange::Ack(ack)));
                done.push(id);
            }
        }
        let line = match (done.as_slice(), targets.len()) {
            ([], _) => skipped.join("; "),
            ([one], 1) => format!("Acknowledged {one}: not delivered again until it resolves"),
            (done, _) => acted("Acknowledged", done, &skipped),
        };
        if !line.is_empty() {
            let kind = if done.is_empty() {
                NoticeKind::Info
            } else {
                NoticeKind::Done
            };
            cx.notify(kind, line);
        }
    }

    /// `u` on Alerts: the silence covering the selected alert (or each marked one) ends
    /// now.
    fn unsilence(&mut self, cx: &mut TabCx<'_>) {
        let targets = self.targets();
        let mut ended: Vec<String> = Vec::new();
        let mut skipped = Vec::new();
        for a in &targets {
            match self.marks.silence(&a.key, cx.now()) {
                Some(s) if ended.contains(&s.id) => {}
                Some(s) => {
                    cx.send(Command::Mark(MarkChange::Unsilence(s.id.clone())));
                    if targets.len() == 1 {
                        let line = format!("Silence {} ({}) ended", s.id, s.target.describe());
                        cx.notify(NoticeKind::Done, line);
                        return;
                    }
                    ended.push(s.id.clone());
                }
                None => skipped.push(format!("No silence covers {}", alert_id(&a.key))),
            }
        }
        let line = match ended.as_slice() {
            [] => skipped.join("; "),
            ended => acted("Ended the silences", ended, &skipped),
        };
        if !line.is_empty() {
            let kind = if ended.is_empty() {
                NoticeKind::Info
            } else {
                NoticeKind::Done
            };
            cx.notify(kind, line);
        }
    }
}

/// What a key did over several marked alerts: `Acknowledged 3 (a1, a2, a3); 1 skipped:
/// a4 is resolved…`.
fn acted(verb: &str, done: &[String], skipped: &[String]) -> String {
    let mut line = format!("{verb} {} ({})", done.len(), done.join(", "));
    if !skipped.is_empty() {
        line.push_str(&format!(
            "; {} skipped: {}",
            skipped.len(),
            skipped.join("; ")
        ));
    }
    line
}
