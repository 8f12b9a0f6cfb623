//! The failures of spec section 7 as values, and how each one is answered on the wire.
//!
//! The business rules ([`super::state`]) return a [`Failure`] and know nothing of HTTP;
//! this file alone decides status codes and bodies, so the exact texts of the spec (the
//! trailing space of `Unprocessable Entity `, the spelling `binded`) live in one place.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDateTime;

pub const UNAUTHENTICATED: &str = "Unauthenticated";
pub const INVALID_AUTHORIZATION_HEADER: &str = "Invalid Authorization header";
pub const INVALID_CREDENTIALS_FORMAT: &str = "Invalid credentials format";
/// With the trailing space, exactly as the spec writes it.
pub const GENERIC: &str = "Unprocessable Entity ";
pub const PRODUCT_NOT_FOUND: &str = "Unprocessable Entity or product ID not found";
pub const NOT_ENOUGH_FUNDS: &str = "Unprocessed entity or not enough funds to order";
pub const INCORRECT_POSTED_DATA: &str = "Unprocessable Entity. Incorrect posted data";
pub const CLIENT_ID_NOT_FOUND: &str = "Unprocessable Entity. ClientID not found";
pub const INVALID_IPV4: &str = "Unprocessable Entity. Invalid IPv4 format";
pub const IP_ALREADY_BINDED: &str = "Unprocessable Entity. IP already binded";

/// One row of spec section 7 (the authentication rows are answered by [`super::auth`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// 422 `Unprocessable Entity `.
    Generic,
    /// 422 `Unprocessable Entity or product ID not found`.
    ProductNotFound,
    /// 422 `Unprocessed entity or not enough funds to order`.
    NotEnoughFunds,
    /// 422 `Unprocessable Entity. Incorrect posted data`.
    IncorrectPostedData,
    /// 422 `Unprocessable Entity. ClientID not found` (endpoint 5).
    ClientNotFound,
    /// 400 JSON `Unprocessable Entity. ClientID not found` (endpoints 8, 9, 15).
    ServiceClientNotFound,
    /// 422 `Unprocessable Entity. Invalid IPv4 format`.
    InvalidIpv4,
    /// 422 `Unprocessable Entity. IP already binded`.
    IpAlreadyBinded,
    /// 429: the next possible `update_list`, UTC, already rounded up to a whole second.
    Throttled { next: NaiveDateTime },
}

impl Failure {
    pub fn status(&self) -> StatusCode {
        match self {
            Failure::ServiceClientNotFound => StatusCode::BAD_REQUEST,
            Failure::Throttled { .. } => StatusCode::TOO_MANY_REQUESTS,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        }
    }

    pub fn message(&self) -> String {
        match self {
            Failure::Generic => GENERIC.into(),
            Failure::ProductNotFound => PRODUCT_NOT_FOUND.into(),
            Failure::NotEnoughFunds => NOT_ENOUGH_FUNDS.into(),
            Failure::IncorrectPostedData => INCORRECT_POSTED_DATA.into(),
            Failure::ClientNotFound | Failure::ServiceClientNotFound => CLIENT_ID_NOT_FOUND.into(),
            Failure::InvalidIpv4 => INVALID_IPV4.into(),
            Failure::IpAlreadyBinded => IP_ALREADY_BINDED.into(),
            Failure::Throttled { next } => format!(
                "Too Many Attempts (updateList). Next update possible: {}",
                next.format("%Y-%m-%d %H:%M:%S")
            ),
        }
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        json_error(self.status(), &self.message())
    }
}

/// `{"error": "..."}` with the given status.
pub fn json_error(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "error": message }).to_string();
    with_type(status, body, "application/json")
}

/// A plain-text answer (the 400 and 401 rows of section 7, and 404).
pub fn text(status: StatusCode, message: &'static str) -> Response {
    with_type(status, message.to_owned(), "text/plain; charset=utf-8")
}

pub fn with_type(
    status: StatusCode,
    body: impl Into<axum::body::Body>,
    mime: &'static str,
) -> Response {
    let mut response = (status, body.into()).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn messages_are_the_spec_texts() {
        assert_eq!(Failure::Generic.message(), "Unprocessable Entity ");
        assert_eq!(
            Failure::ServiceClientNotFound.status(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            Failure::ClientNotFound.status(),
            StatusCode::UNPROCESSABLE_ENTITY
        );
        let next = NaiveDate::from_ymd_opt(2026, 1, 2)
            .and_then(|d| d.and_hms_opt(3, 4, 5))
            .expect("valid date");
        assert_eq!(
            Failure::Throttled { next }.message(),
            "Too Many Attempts (updateList). Next update possible: 2026-01-02 03:04:05"
        );
    }
}
