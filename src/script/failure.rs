//! Why a scripting subcommand failed, the exit status that says so, and the line (or, with
//! `--json`, the JSON document) that tells the user.
//!
//! The status is decided in one place, [`Failure::status`], so a new kind of error (the
//! scheduler's budget, say) is one more arm there; a new status is one more row in the
//! README's exit-status table (checked by `tests/readme.rs`).

use super::output;
use crate::api::{ApiError, Unprocessable};
use chrono::NaiveDateTime;
use std::process::ExitCode;

/// The exit statuses, named; the README's exit-status table says when each is used.
pub mod status {
    pub const OK: u8 = 0;
    pub const FAILED: u8 = 1;
    pub const USAGE: u8 = 2;
    pub const AUTH: u8 = 3;
    pub const NOT_FOUND: u8 = 4;
    pub const UNREACHABLE: u8 = 5;
    pub const THROTTLED: u8 = 6;
    pub const READ_ONLY: u8 = 7;
}

/// Why a subcommand failed, which decides the exit status.
#[derive(Debug)]
pub enum Failure {
    /// Bad usage, found before anything was sent.
    Usage(String),
    /// The API or the network failed `what`; the status follows the error.
    Api { what: String, error: ApiError },
    /// A read of one item by its ID (`service 9999`) that the server refused in a way that
    /// means "no such ID": the spec has no 404, only 422 `Unprocessable Entity` and its
    /// "product ID not found" / "ClientID not found" variants.
    /// `answer` is what the server said (its message, or that it sent nothing).
    NotFound { what: String, answer: String },
    /// Anything else after the usage was right (a file, the IP lookup, a declined
    /// order, a write whose outcome is unknown).
    Failed(String),
    /// The answer is printed, and what it found makes the status 1 (`probe` with a dead
    /// proxy): `output` goes to standard output, `why` to standard error.
    Found { output: String, why: String },
    /// An IP-list refresh the server throttles (its 429 names `next`, on its own clock):
    /// `when` says it as the dashboard does (`next refresh in 4m 59s (at 15:14:57)`).
    TooSoon {
        what: String,
        next: NaiveDateTime,
        when: String,
    },
}

impl Failure {
    pub fn api(what: impl Into<String>) -> impl FnOnce(ApiError) -> Failure {
        let what = what.into();
        move |error| Failure::Api { what, error }
    }

    /// Like [`Failure::api`] for the read of one item by its ID, where a refusal of the
    /// ID is a not-found.
    pub fn read(what: impl Into<String>) -> impl FnOnce(ApiError) -> Failure {
        let what = what.into();
        move |error| {
            if means_not_found(&error) {
                Failure::NotFound {
                    what,
                    answer: error.to_string(),
                }
            } else {
                Failure::Api { what, error }
            }
        }
    }

    /// The exit status: the one function that maps a failure to its number.
    ///
    /// A write whose answer was lost is a [`Failure::Failed`] (1), never "unreachable"
    /// (5): a script that retries on 5 must not send an order twice.
    pub fn status(&self) -> u8 {
        match self {
            Failure::Usage(_) => status::USAGE,
            Failure::NotFound { .. } => status::NOT_FOUND,
            Failure::Failed(_) | Failure::Found { .. } => status::FAILED,
            Failure::TooSoon { .. } => status::THROTTLED,
            Failure::Api { error, .. } => match error {
                ApiError::Unauthenticated
                | ApiError::InvalidAuthorizationHeader
                | ApiError::InvalidCredentialsFormat => status::AUTH,
                ApiError::ClientIdNotFound { .. } => status::NOT_FOUND,
                ApiError::Unprocessable {
                    kind: Unprocessable::ProductNotFound | Unprocessable::ClientIdNotFound,
                    ..
                } => status::NOT_FOUND,
                ApiError::Connect { .. } | ApiError::Timeout { .. } => status::UNREACHABLE,
                ApiError::Transport { .. } => status::UNREACHABLE,
                ApiError::Throttled { .. } => status::THROTTLED,
                ApiError::Http { status: 429, .. }
                | ApiError::RateLimited { .. }
                | ApiError::SavedPause { .. } => status::THROTTLED,
                ApiError::ReadOnly => status::READ_ONLY,
                ApiError::Config(_) => status::USAGE,
                _ => status::FAILED,
            },
        }
    }

    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.status())
    }

    /// [`Failure::message`] as printed: what may hold server text is sanitised; a usage
    /// message is our own words (and user input already sanitised), so its line breaks
    /// stay.
    pub fn shown(&self, profile: Option<&str>) -> String {
        match self {
            Failure::Usage(m) => m.clone(),
            other => output::sanitize(&other.message(profile)).into_owned(),
        }
    }

    /// The one line shown on standard error, after `proxydash: `. A 401 names the
    /// profile (when one was in use) and says what to check.
    pub fn message(&self, profile: Option<&str>) -> String {
        match self {
            Failure::Usage(m) | Failure::Failed(m) => m.clone(),
            Failure::Found { why, .. } => why.clone(),
            Failure::Api {
                what,
                error: ApiError::Unauthenticated,
            } => {
                let profile = profile.map_or_else(String::new, |p| format!(" (profile {p:?})"));
                format!(
                    "{what}: Unauthenticated{profile}: check the token (--token or PROXYDASH_TOKEN), or the login and password"
                )
            }
            Failure::Api {
                what,
                error:
                    error @ (ApiError::InvalidAuthorizationHeader | ApiError::InvalidCredentialsFormat),
            } => {
                // A 400 about the header is what a mistyped or truncated token gets: say so.
                let profile = profile.map_or_else(String::new, |p| format!(" (profile {p:?})"));
                format!(
                    "{what}: {error}{profile}: the server could not read the credentials; check the token \
                     (--token or PROXYDASH_TOKEN: the API token exactly as generated in the account area), \
                     or the login and password"
                )
            }
            Failure::Api {
                what,
                error: error @ ApiError::Throttled { next_possible, .. },
            } => match next_possible {
                Some(t) => format!(
                    "{what}: too soon. Next update possible: {} (server time)",
                    t.format("%Y-%m-%d %H:%M:%S")
                ),
                None => format!("{what}: {error}"),
            },
            Failure::NotFound { what, answer } => {
                format!("{what}: not found (the server answered: {answer})")
            }
            Failure::TooSoon { what, next, when } => format!(
                "{what}: too soon: {when}; the server named {} on its clock",
                next.format("%Y-%m-%d %H:%M:%S")
            ),
            Failure::Api { what, error } => format!("{what}: {error}"),
        }
    }

    /// A short name of the kind, for the `--json` error document.
    fn kind(&self) -> &'static str {
        match self.status() {
            status::USAGE => "usage",
            status::AUTH => "authentication",
            status::NOT_FOUND => "not_found",
            status::UNREACHABLE => "unreachable",
            status::THROTTLED => "throttled",
            status::READ_ONLY => "read_only",
            _ => "failed",
        }
    }

    /// The next possible time of a throttled IP-list refresh (the server's wall clock).
    fn next_possible(&self) -> Option<NaiveDateTime> {
        match self {
            Failure::TooSoon { next, .. } => Some(*next),
            Failure::Api {
                error: ApiError::Throttled { next_possible, .. },
                ..
            } => *next_possible,
            _ => None,
        }
    }

    /// With `--json`, what standard output holds on failure: one object, so a script
    /// that parses the output always gets JSON
    /// (`{"error": …, "kind": "throttled", "exit_status": 6, "next_possible": …}`).
    pub fn json(&self, profile: Option<&str>) -> String {
        let mut doc = serde_json::json!({
            "error": self.shown(profile),
            "kind": self.kind(),
            "exit_status": self.status(),
        });
        if let Some(t) = self.next_possible() {
            doc["next_possible"] = t.format("%Y-%m-%d %H:%M:%S").to_string().into();
        }
        output::json(&doc)
    }
}

/// The answers that mean "no such ID" on a read of one item.
fn means_not_found(error: &ApiError) -> bool {
    match error {
        ApiError::ClientIdNotFound { .. } => true,
        ApiError::Unprocessable { kind, .. } => matches!(
            kind,
            Unprocessable::Generic
                | Unprocessable::ProductNotFound
                | Unprocessable::ClientIdNotFound
        ),
        ApiError::Http { status: 404, .. } => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unprocessable(message: &str) -> ApiError {
        ApiError::Unprocessable {
            kind: Unprocessable::classify(message),
            message: message.into(),
        }
    }

    #[test]
    fn every_kind_of_failure_has_its_status() {
        let api = |e| Failure::api("x")(e).status();
        assert_eq!(Failure::Usage("x".into()).status(), 2);
        assert_eq!(Failure::Failed("x".into()).status(), 1);
        assert_eq!(api(ApiError::Unauthenticated), 3);
        assert_eq!(api(ApiError::InvalidCredentialsFormat), 3);
        assert_eq!(
            api(unprocessable("Unprocessable Entity. ClientID not found")),
            4
        );
        assert_eq!(
            api(unprocessable(
                "Unprocessable Entity or product ID not found"
            )),
            4
        );
        let timeout = ApiError::Timeout {
            url: "u".into(),
            secs: 1,
        };
        assert_eq!(api(timeout), 5);
        let refused = ApiError::Connect {
            url: "u".into(),
            cause: "refused".into(),
        };
        assert_eq!(api(refused), 5);
        let throttled = ApiError::Throttled {
            next_possible: None,
            message: "Too Many Attempts".into(),
        };
        assert_eq!(api(throttled), 6);
        assert_eq!(api(ApiError::ReadOnly), 7);
        assert_eq!(api(unprocessable("Unprocessable Entity ")), 1);
        let read = Failure::read("Read service 9999")(unprocessable("Unprocessable Entity "));
        assert_eq!(read.status(), 4);
        assert!(read.message(None).contains("not found"), "{read:?}");
        let funds = Failure::read("x")(unprocessable(
            "Unprocessed entity or not enough funds to order",
        ));
        assert_eq!(funds.status(), 1);
    }

    #[test]
    fn a_401_names_the_profile_and_what_to_check() {
        let api = Failure::api("List services")(ApiError::Unauthenticated);
        let line = api.message(Some("work"));
        assert!(line.starts_with("List services: Unauthenticated (profile \"work\")"));
        assert!(line.contains("--token"), "{line}");
        assert!(!api.message(None).contains("profile"));
    }

    #[test]
    fn a_400_about_the_credentials_points_at_the_token() {
        for error in [
            ApiError::InvalidAuthorizationHeader,
            ApiError::InvalidCredentialsFormat,
        ] {
            let shown = error.to_string();
            let line = Failure::api("List services")(error).message(Some("work"));
            assert!(line.starts_with(&format!("List services: {shown} (profile \"work\")")));
            assert!(line.contains("check the token"), "{line}");
        }
    }

    #[test]
    fn the_json_error_carries_the_next_possible_time() {
        let t = chrono::NaiveDate::from_ymd_opt(2026, 11, 22)
            .unwrap()
            .and_hms_opt(14, 5, 0)
            .unwrap();
        let f = Failure::api("Refresh")(ApiError::Throttled {
            next_possible: Some(t),
            message: "Too Many Attempts".into(),
        });
        let doc: serde_json::Value = serde_json::from_str(&f.json(None)).unwrap();
        assert_eq!(doc["next_possible"], "2026-11-22 14:05:00");
        assert_eq!(doc["kind"], "throttled");
        assert_eq!(doc["exit_status"], 6);
    }
}
