//! Alerts in the dashboard: the account engine sweeps the rules (off the UI task, see
//! [`crate::account`]); here is what a sweep's transitions do (a status line, the Alerts
//! tab, and [`Command::Alert`] for the bell and the `on_alert` command), and what a
//! change of the connection says.

use super::Tab;
use super::tabs::alerts::AlertsTab;
use super::{Command, Mirror, Shell, status};
use crate::alerts::marks::Marks;
use crate::alerts::{Change, DigestKind, Level, Notice, Transition};

impl AlertsTab {
    /// The engine swept the rules: the Alerts tab shows its book, the status line the
    /// most severe notice, and each notice goes on to the bell and `on_alert` (the
    /// baseline and many changes at once are one notice each: [`crate::alerts::herald`]).
    pub(super) fn on_swept(
        &mut self,
        shell: &mut Shell,
        swept: crate::account::Swept,
        out: &mut Vec<Command>,
    ) {
        self.book = swept.book;
        self.marks = swept.marks;
        self.rebuild();
        if swept.notices.is_empty() {
            return;
        }
        announce(shell, &swept.notices);
        out.extend(swept.notices.into_iter().map(Command::Alert));
    }

    /// The engine's acknowledgements and silences (asked here or in another process).
    pub(super) fn on_marked(&mut self, marks: Marks) {
        self.marks = marks;
        self.rebuild();
    }
}

/// The status line for a sweep's notices: the most severe, and how many more.
fn announce(shell: &mut Shell, notices: &[Notice]) {
    // The most severe; at one level news before the baseline's summary.
    let news = |n: &Notice| !matches!(n, Notice::Digest(d) if d.kind == DigestKind::Baseline);
    let Some(first) = notices.iter().max_by_key(|n| (n.level(), news(n))) else {
        return;
    };
    let (what, kind, shown) = match first {
        Notice::One(t) => (one(t), tone(t.change, t.alert.level), 1),
        Notice::Digest(d) => {
            let level = d.worst_level();
            let kind = if d.open.is_empty() {
                status::NoticeKind::Done
            } else {
                tone(Change::Opened, level)
            };
            (d.summary(), kind, d.total)
        }
    };
    let all: usize = notices
        .iter()
        .map(|n| match n {
            Notice::One(_) => 1,
            Notice::Digest(d) => d.total,
        })
        .sum();
    let more = match all.saturating_sub(shown) {
        0 => String::new(),
        n => format!(" (+{n} more on tab {})", Tab::Alerts.number()),
    };
    // Below a pending failure: the fault guarantees keep a failed request on screen,
    // and the tab line's count shows the alerts meanwhile.
    let line = match first {
        Notice::One(_) => format!("Alert {what}{more}"),
        Notice::Digest(_) => format!("{what}{more}"),
    };
    shell.status.notify_below(kind, line);
}

/// One transition in the status line's words.
fn one(t: &Transition) -> String {
    let a = &t.alert;
    match t.change {
        Change::Opened => format!("{}: {}", a.level.as_str(), a.message),
        Change::Escalated { .. } => format!("now {}: {}", a.level.as_str(), a.message),
        Change::Repeated => format!("still {}: {}", a.level.as_str(), a.message),
        // The message says what was wrong ("… is unreachable since …"): said after the
        // rule, as what no longer holds, so the end of a failure never reads as one.
        Change::Resolved => format!(
            "resolved ({}): no longer \"{}\"",
            a.key.rule.as_str(),
            a.message
        ),
        Change::Notice => format!("notice: {}", a.message),
    }
}

fn tone(change: Change, level: Level) -> status::NoticeKind {
    match (change, level) {
        (Change::Resolved, _) => status::NoticeKind::Done,
        (_, Level::Critical) => status::NoticeKind::Error,
        (_, Level::Warn) => status::NoticeKind::Warn,
        _ => status::NoticeKind::Info,
    }
}

impl Mirror {
    /// The connection changed: said in the status line when it is lost and when it comes
    /// back (the header shows it all along).
    pub(super) fn on_connection(&mut self, shell: &mut Shell, c: crate::account::Connection) {
        use crate::account::Link;
        let was_down = c.down().is_none() && self.connection.down().is_some();
        let went_down = c.down().map(|(state, _)| state) != self.connection.down().map(|(s, _)| s);
        self.connection = c;
        match c.link {
            Link::Unreachable { .. } | Link::Failing { .. } | Link::Unauthorized { .. }
                if went_down =>
            {
                let line = format!(
                    "The API is {}; the data shown stays, marked with its age",
                    c.describe(shell.now(), shell.utc_offset)
                );
                // The reads that got no answer are this outage, said once here (and in
                // the header): their lines must not come back one by one at the next key.
                // They are asked again when the API answers (the log keeps them).
                shell.status.clear_reads();
                shell.status.tell(status::NoticeKind::Error, line);
            }
            Link::Online if was_down => {
                shell.status.clear_reads();
                shell
                    .status
                    .tell(status::NoticeKind::Done, "The API answers again");
            }
            _ => {}
        }
    }
}
