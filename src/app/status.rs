//! The status line: one line saying what failed and why.
//!
//! [`error_line`] is the one helper that turns a failed request into that line: what the
//! request was for, then the error's own text (which carries the server's message where it
//! sent one). A 401 names the profile. Each failure is kept under its request until the
//! same request succeeds or the user dismisses the line with Esc; the newest is shown, with
//! how many others are pending.

use crate::api::{ApiError, Request};

/// What a request was for, in the user's words: `Services`, `Service 5001`.
pub fn what(request: &Request) -> String {
    match request {
        Request::Clients => "Clients".into(),
        Request::Stats(id) => format!("Usage of service {id}"),
        Request::Rate(id) => format!("Rate of service {id}"),
        Request::Product(id) => format!("Product {id}"),
        Request::Order { product_id, .. } => format!("Order of product {product_id}"),
        Request::Products => "Products".into(),
        Request::ProductsOrderedBy(field) => format!("Products by {field}"),
        Request::NetworkErrors(id) => format!("Servers in error of service {id}"),
        Request::NetworkInactive(id) => format!("Inactive servers of service {id}"),
        Request::Credit => "Credit".into(),
        Request::Invoices => "Invoices".into(),
        Request::Invoice(id) => format!("Invoice {id}"),
        Request::Service(id) => format!("Service {id}"),
        Request::Services => "Services".into(),
        Request::UpdateService { service_id, .. } => format!("Update of service {service_id}"),
        Request::IpList { service_id, .. } => format!("IP list of service {service_id}"),
    }
}

/// The status line for a failed request: `Services: Unauthenticated: check the token
/// (profile work)`, `Service 5001: Unprocessable Entity`.
pub fn error_line(request: &Request, error: &ApiError, profile: &str) -> String {
    let why = match error {
        ApiError::Unauthenticated
        | ApiError::InvalidCredentialsFormat
        | ApiError::InvalidAuthorizationHeader => {
            format!("{error}: check the token (profile {profile})")
        }
        other => other.to_string(),
    };
    let line = format!("{}: {why}", what(request));
    crate::ui::text::sanitize(&line).into_owned()
}

#[derive(Clone, Debug, Default)]
pub struct StatusLine {
    /// Pending failures, oldest first.
    errors: Vec<(Request, String)>,
    /// The latest thing the user should know that is not a failure ("sent to the terminal
    /// clipboard", a warning about the config file); shown while no failure is pending.
    notice: Option<String>,
}

impl StatusLine {
    /// Records (or replaces) the failure of `request`.
    pub fn report(&mut self, request: &Request, line: String) {
        self.errors.retain(|(r, _)| r != request);
        self.errors.push((request.clone(), line));
    }

    /// `request` succeeded: its failure no longer applies.
    pub fn clear(&mut self, request: &Request) {
        self.errors.retain(|(r, _)| r != request);
    }

    /// Esc: dismiss every message.
    pub fn dismiss(&mut self) -> bool {
        let had = !self.errors.is_empty() || self.notice.is_some();
        self.errors.clear();
        self.notice = None;
        had
    }

    /// Shows `line` (sanitised) until another notice replaces it or Esc dismisses it.
    pub fn notify(&mut self, line: &str) {
        self.notice = Some(crate::ui::text::sanitize(line).into_owned());
    }

    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The newest failure and how many others are pending.
    pub fn current(&self) -> Option<(&str, usize)> {
        self.errors
            .last()
            .map(|(_, line)| (line.as_str(), self.errors.len() - 1))
    }

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty() && self.notice.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
