//! Alerts in the dashboard: the account engine sweeps the rules (off the UI task, see
//! [`crate::account`]); here is what a sweep's transitions do (a status line, the Alerts
//! tab, and [`Command::Alert`] for the bell and the `on_alert` command), and what a
//! change of the connection says.

use super::tabs::Tab;
use super::{App, Command, status};
use crate::alerts::{Change, Level, Transition};

impl App {
    /// The engine swept the rules: the Alerts tab shows its book, the status line the
    /// most severe transition, and each transition goes on to the bell and `on_alert`.
    pub(super) fn on_swept(&mut self, swept: crate::account::Swept, out: &mut Vec<Command>) {
        self.alerts.book = swept.book;
        self.alerts.rebuild();
        self.history.note_sweep();
        if swept.transitions.is_empty() {
            return;
        }
        self.announce(&swept.transitions);
        out.extend(swept.transitions.into_iter().map(Command::Alert));
    }

    /// The connection changed: said in the status line when it is lost and when it comes
    /// back (the header shows it all along).
    pub(super) fn on_connection(&mut self, c: crate::account::Connection) {
        use crate::account::Link;
        let was_down = matches!(self.connection.link, Link::Unreachable { .. });
        self.connection = c;
        match c.link {
            Link::Unreachable { .. } => {
                let line = format!(
                    "The API is {}; the data shown stays, marked with its age",
                    c.describe(self.now(), self.utc_offset)
                );
                self.status.notify(status::NoticeKind::Error, line);
            }
            Link::Online if was_down => {
                self.status.clear_reads();
                self.status
                    .notify(status::NoticeKind::Done, "The API answers again");
            }
            _ => {}
        }
    }

    /// The status line for a sweep's transitions: the most severe, and how many more.
    fn announce(&mut self, transitions: &[Transition]) {
        let Some(first) = transitions.first() else {
            return;
        };
        let a = &first.alert;
        let what = match first.change {
            Change::Opened => format!("{}: {}", a.level.as_str(), a.message),
            Change::Escalated { .. } => format!("now {}: {}", a.level.as_str(), a.message),
            Change::Repeated => format!("still {}: {}", a.level.as_str(), a.message),
            Change::Resolved => format!("resolved: {}", a.message),
        };
        let more = match transitions.len() - 1 {
            0 => String::new(),
            n => format!(" (+{n} more on tab {})", Tab::Alerts.number()),
        };
        let kind = match (first.change, a.level) {
            (Change::Resolved, _) => status::NoticeKind::Done,
            (_, Level::Critical) => status::NoticeKind::Error,
            (_, Level::Warn) => status::NoticeKind::Warn,
            _ => status::NoticeKind::Info,
        };
        // Below a pending failure: the fault guarantees keep a failed request on screen,
        // and the tab line's count shows the alerts meanwhile.
        self.status
            .notify_below(kind, format!("Alert {what}{more}"));
    }
}
