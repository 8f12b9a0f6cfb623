//! The status line: one line saying what failed and why.
//!
//! [`error_line`] is the one helper that turns a failed request into that line: what the
//! request was for, then the error's own text (which carries the server's message where it
//! sent one). A 401 names the profile. Each failure is kept under its request until the
//! same request succeeds or the user dismisses the line with Esc; the newest is shown, with
//! how many others are pending.
//!
//! A [`Notice`] is the other kind of line: what an action did ("copied", "written", "the
//! IP list can be refreshed again") or why a key did nothing ("read-only"). There is one
//! at a time; whichever of the notice and the newest failure came last is shown, and Esc
//! dismisses both.
//!
//! A notice *holds* the line until the person acts again (a key): an alert announced
//! meanwhile waits its turn ([`StatusLine::notify_below`]) and comes at the next key, so
//! the outcome of what the person just did (`✓ … IP list updated`) is not replaced
//! within seconds by an unrelated alert (the Alerts tab and its count show it at once).
//!
//! A *pinned* notice is an outcome that must not be lost from view (an order placed,
//! refused, or of unknown outcome): it is shown before anything the person did not do
//! (a background failure, an alert, the connection's news: [`StatusLine::tell`]) until
//! Esc dismisses it or the person does something else: the latest outcome of what the
//! person did is always what the line shows (issue 45), the older ones are in `m`.
//!
//! Every failure and notice also goes into the [`MessageLog`] (`m` opens it), with the
//! time the app last set with [`StatusLine::set_now`] and its level.

use super::messages::{Level, MessageLog};
use crate::api::{ApiError, Request};
use chrono::{DateTime, Utc};

/// What a request was for, in the user's words: `Services`, `Service 5001` (each
/// endpoint's row of the table in [`crate::api::request`] says it).
pub fn what(request: &Request) -> String {
    request.what()
}

/// The status line for a failed request: `Services: Unauthenticated: check the token
/// (profile work)`, `Service 5001: Unprocessable Entity`.
pub fn error_line(request: &Request, error: &ApiError, profile: &str) -> String {
    let why = match error {
        ApiError::Unauthenticated => {
            format!("Unauthenticated: check the token (profile {profile})")
        }
        ApiError::InvalidCredentialsFormat | ApiError::InvalidAuthorizationHeader => {
            format!("{error}: check the token (profile {profile})")
        }
        other => other.to_string(),
    };
    let line = format!("{}: {why}", what(request));
    crate::text::sanitize(&line).into_owned()
}

/// The status line for a list cut at the client's cap ([`crate::api::limits`]): the
/// entries after the first `kept` are not shown.
pub fn cut_line(request: &Request, kept: usize) -> String {
    format!(
        "{}: list cut: only the first {} entries are kept (proxydash's limit)",
        what(request),
        crate::text::count(kept as u64)
    )
}

/// A line that is not a failed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub kind: NoticeKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    /// Something was done.
    Done,
    /// A key did nothing, and why.
    Info,
    /// Something may not be as the user expects (an order's outcome is unknown).
    Warn,
    /// An action failed (a copy, a file, a write whose form is closed).
    Error,
}

/// What the status line shows now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown<'a> {
    /// The newest failed request and how many others are pending.
    Failure(&'a str, usize),
    Notice(&'a Notice),
}

impl NoticeKind {
    pub fn level(self) -> Level {
        match self {
            NoticeKind::Done => Level::Success,
            NoticeKind::Info => Level::Info,
            NoticeKind::Warn => Level::Warn,
            NoticeKind::Error => Level::Error,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct StatusLine {
    /// Pending failures, oldest first.
    errors: Vec<(Request, String)>,
    notice: Option<Notice>,
    /// The notice came after the newest failure.
    notice_on_top: bool,
    /// Shown before anything else until dismissed.
    pinned: Option<Notice>,
    /// The notice holds the line until the person's next key.
    held: bool,
    /// An alert announced while the line was held: shown at the next key.
    waiting: Option<(Notice, bool)>,
    /// When what is shown was last replaced (several accounts show the newest).
    shown_at: DateTime<Utc>,
    log: MessageLog,
    /// The time entries are logged with (set by the app before each message it handles).
    now: DateTime<Utc>,
}

impl StatusLine {
    /// Records (or replaces) the failure of `request`.
    pub fn report(&mut self, request: &Request, line: String) {
        self.log.push(self.now, Level::Error, &line);
        self.errors.retain(|(r, _)| r != request);
        self.errors.push((request.clone(), line));
        self.notice_on_top = false;
        self.shown_at = self.now;
    }

    /// Shows the outcome of something the person did (replacing the previous one, a
    /// pinned one too: the newest outcome is the one shown), sanitized like every server
    /// text.
    pub fn notify(&mut self, kind: NoticeKind, text: impl AsRef<str>) {
        self.pinned = None;
        self.tell(kind, text);
        self.held = true;
    }

    /// Shows news the person did not ask for (the connection lost or back, a countdown
    /// over, a file that could not be written in the background): over older lines, but
    /// not over a pinned outcome, and holding the line for nothing.
    pub fn tell(&mut self, kind: NoticeKind, text: impl AsRef<str>) {
        let text = crate::text::sanitize(text.as_ref()).into_owned();
        self.log.push(self.now, kind.level(), &text);
        self.notice = Some(Notice { text, kind });
        self.notice_on_top = true;
        self.waiting = None;
        self.shown_at = self.now;
    }

    /// The person pressed a key: a notice no longer holds the line, and an alert that
    /// waited for it is shown.
    pub fn person_acted(&mut self) {
        self.held = false;
        if let Some((notice, on_top)) = self.waiting.take() {
            self.notice = Some(notice);
            self.notice_on_top = on_top && self.errors.is_empty();
            self.shown_at = self.now;
        }
    }

    /// When what is shown was last replaced.
    pub fn shown_at(&self) -> DateTime<Utc> {
        self.shown_at
    }

    /// A notice holds the line (see the module docs).
    pub fn is_held(&self) -> bool {
        self.held && self.notice.is_some()
    }

    /// Shows a notice that stays until Esc, above failures and later notices (and logs it).
    pub fn pin(&mut self, kind: NoticeKind, text: impl AsRef<str>) {
        let text = crate::text::sanitize(text.as_ref()).into_owned();
        self.log.push(self.now, kind.level(), &text);
        self.pinned = Some(Notice { text, kind });
        self.shown_at = self.now;
    }

    /// Records a line in the log only (what a form on screen already shows).
    pub fn log(&mut self, level: Level, text: impl AsRef<str>) {
        let text = crate::text::sanitize(text.as_ref()).into_owned();
        self.log.push(self.now, level, &text);
    }

    /// The time the next entries are logged with.
    pub fn set_now(&mut self, now: DateTime<Utc>) {
        self.now = now;
    }

    pub fn messages(&self) -> &MessageLog {
        &self.log
    }

    /// The log, taken (this one starts empty).
    pub fn take_messages(&mut self) -> MessageLog {
        std::mem::take(&mut self.log)
    }

    /// `older` goes before what this log already holds.
    pub fn continue_messages(&mut self, older: MessageLog) {
        let newer = std::mem::replace(&mut self.log, older);
        self.log.extend(newer);
    }

    pub fn pinned(&self) -> Option<&Notice> {
        self.pinned.as_ref()
    }

    /// Shows a notice that does not cover a pending failure: it is shown now if no request
    /// has failed, else once the failures are cleared (and logged either way). Alert
    /// announcements use this: the Alerts tab and its count carry them meanwhile.
    pub fn notify_below(&mut self, kind: NoticeKind, text: impl AsRef<str>) {
        let text = crate::text::sanitize(text.as_ref()).into_owned();
        self.log.push(self.now, kind.level(), &text);
        if self.is_held() {
            self.waiting = Some((Notice { text, kind }, true));
            return;
        }
        self.notice = Some(Notice { text, kind });
        self.notice_on_top = self.errors.is_empty();
        self.shown_at = self.now;
    }

    pub fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }

    /// What to draw: the notice if it is newer than the newest failure.
    pub fn shown(&self) -> Option<Shown<'_>> {
        if let Some(p) = &self.pinned {
            return Some(Shown::Notice(p));
        }
        match (&self.notice, self.current()) {
            (Some(n), _) if self.notice_on_top => Some(Shown::Notice(n)),
            (_, Some((line, more))) => Some(Shown::Failure(line, more)),
            (Some(n), None) => Some(Shown::Notice(n)),
            (None, None) => None,
        }
    }

    /// `request` succeeded: its failure no longer applies.
    pub fn clear(&mut self, request: &Request) {
        self.errors.retain(|(r, _)| r != request);
    }

    /// The connection came back: failed reads are asked again anyway, so their lines go
    /// (a read the server still refuses is reported again when it answers); a write's
    /// failure stays, as nothing will send it again.
    pub fn clear_reads(&mut self) {
        self.errors.retain(|(r, _)| r.is_write());
    }

    /// Esc: dismiss every message.
    pub fn dismiss(&mut self) -> bool {
        let had = !self.errors.is_empty() || self.notice.is_some() || self.pinned.is_some();
        self.errors.clear();
        self.notice = None;
        self.pinned = None;
        self.held = false;
        self.waiting = None;
        had
    }

    /// How many failures are pending besides the one shown (the log holds them all).
    pub fn more(&self) -> usize {
        match self.shown() {
            Some(Shown::Failure(_, more)) => more,
            _ => self.errors.len(),
        }
    }

    /// The newest failure and how many others are pending.
    pub fn current(&self) -> Option<(&str, usize)> {
        self.errors
            .last()
            .map(|(_, line)| (line.as_str(), self.errors.len() - 1))
    }

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 45: an order's outcome stays above background news, and gives way to the
    /// next thing the person does; the log keeps both.
    #[test]
    fn the_latest_outcome_of_what_the_person_did_is_shown() {
        let mut s = StatusLine::default();
        s.pin(NoticeKind::Done, "Order of product 11: service 1014");
        s.report(&Request::Credit, "Credit: timeout".into());
        s.tell(NoticeKind::Error, "The API is unreachable");
        s.notify_below(NoticeKind::Warn, "Alert warn: …");
        assert!(matches!(s.shown(), Some(Shown::Notice(n)) if n.text.starts_with("Order of")));
        s.notify(
            NoticeKind::Done,
            "IP list of 1001 sent to the terminal clipboard",
        );
        assert!(
            matches!(s.shown(), Some(Shown::Notice(n)) if n.text.starts_with("IP list of 1001"))
        );
        let log: Vec<&str> = s
            .messages()
            .newest_first()
            .map(|e| e.text.as_str())
            .collect();
        assert!(
            log.iter().any(|l| l.starts_with("Order of product 11")),
            "{log:?}"
        );
    }

    #[test]
    fn lines_name_the_request_and_the_cause() {
        assert_eq!(
            error_line(&Request::Services, &ApiError::Unauthenticated, "work"),
            "Services: Unauthenticated: check the token (profile work)"
        );
        let e = ApiError::Unprocessable {
            kind: crate::api::Unprocessable::Generic,
            message: "Unprocessable Entity ".into(),
        };
        assert_eq!(
            error_line(&Request::Service(5001), &e, "x"),
            "Service 5001: Unprocessable Entity"
        );
        let e = ApiError::Connect {
            url: "http://127.0.0.1:9/api/services".into(),
            cause: "connection refused".into(),
        };
        assert_eq!(
            error_line(&Request::Services, &e, "x"),
            "Services: Cannot reach http://127.0.0.1:9/api/services: connection refused"
        );
    }

    #[test]
    fn a_success_clears_its_own_failure_only() {
        let mut s = StatusLine::default();
        s.report(&Request::Services, "a".into());
        s.report(&Request::Credit, "b".into());
        assert_eq!(s.current(), Some(("b", 1)));
        s.clear(&Request::Credit);
        assert_eq!(s.current(), Some(("a", 0)));
        s.clear(&Request::Services);
        assert!(s.is_empty());
    }

    #[test]
    fn the_newer_of_notice_and_failure_is_shown() {
        let mut s = StatusLine::default();
        assert_eq!(s.shown(), None);
        s.report(&Request::Services, "a".into());
        s.notify(NoticeKind::Done, "copied\u{1b}[2J");
        assert!(matches!(s.shown(), Some(Shown::Notice(n)) if n.text == "copied"));
        s.report(&Request::Credit, "b".into());
        assert_eq!(s.shown(), Some(Shown::Failure("b", 1)));
        s.clear(&Request::Credit);
        s.clear(&Request::Services);
        assert!(matches!(s.shown(), Some(Shown::Notice(_))));
        assert!(s.dismiss());
        assert_eq!(s.shown(), None);
    }

    #[test]
    fn a_notice_below_waits_for_the_failures_to_clear() {
        let mut s = StatusLine::default();
        s.report(&Request::Credit, "credit failed".into());
        s.notify_below(NoticeKind::Info, "Alert warn: …");
        assert_eq!(s.shown(), Some(Shown::Failure("credit failed", 0)));
        s.clear(&Request::Credit);
        assert!(matches!(s.shown(), Some(Shown::Notice(n)) if n.text == "Alert warn: …"));
        s.notify_below(NoticeKind::Info, "Alert info: …");
        assert!(matches!(s.shown(), Some(Shown::Notice(n)) if n.text == "Alert info: …"));
    }

    /// Issue 36.11: the outcome of what the person did stays until their next key; an
    /// alert announced meanwhile waits its turn.
    #[test]
    fn an_alert_waits_behind_the_outcome_until_the_next_key() {
        let mut s = StatusLine::default();
        s.notify(NoticeKind::Done, "Service 1003: IP list updated");
        s.notify_below(NoticeKind::Warn, "Alert warn: due in 3 days");
        assert!(matches!(s.shown(), Some(Shown::Notice(n)) if n.text.contains("IP list updated")));
        assert!(
            s.messages()
                .newest_first()
                .any(|e| e.text.contains("due in 3 days"))
        );
        s.person_acted();
        assert!(matches!(s.shown(), Some(Shown::Notice(n)) if n.text.contains("due in 3 days")));
        s.notify_below(NoticeKind::Warn, "Alert warn: another");
        assert!(matches!(s.shown(), Some(Shown::Notice(n)) if n.text.contains("another")));
    }
}
