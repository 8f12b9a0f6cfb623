//! Authentication (spec section 5) on every endpoint.
//!
//! Rules, in order:
//! 1. No `Authorization` header → 401 `Unauthenticated`.
//! 2. A header that is not `Basic <credentials>` (another scheme, no space, not visible
//!    ASCII) → 400 `Invalid Authorization header`. The scheme name is matched without
//!    regard to case, as HTTP says.
//! 3. `<credentials>` equal to the configured token → accepted. The relation between the
//!    token and the login is "not shown"; here the token is used verbatim, never decoded.
//! 4. `<credentials>` that decode as base64 (padding optional) to UTF-8 `login:password`
//!    (split at the first colon) → accepted if that is the configured pair, else 401
//!    `Unauthenticated` (well-formed but wrong credentials).
//! 5. `<credentials>` shaped like a generated token (32–128 characters, letters and
//!    digits only, like [`super::DEMO_TOKEN`]) that is not the token → 401
//!    `Unauthenticated`: a wrong or revoked token is a failed login, not a format error.
//! 6. Anything else (empty, not base64, no colon after decoding, not UTF-8) → 400
//!    `Invalid credentials format`.
//!
//! Unknown paths answer 404 before authentication (the route is looked up first).

use super::bodies::BASE64_LENIENT;
use super::errors::{
    INVALID_AUTHORIZATION_HEADER, INVALID_CREDENTIALS_FORMAT, UNAUTHENTICATED, text,
};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use base64::Engine as _;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct AuthConfig {
    pub token: String,
    pub login: Option<(String, String)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Accepted,
    Unauthenticated,
    InvalidHeader,
    InvalidFormat,
}

pub fn check(header: Option<&HeaderValue>, config: &AuthConfig) -> Verdict {
    let Some(header) = header else {
        return Verdict::Unauthenticated;
    };
    let Ok(value) = header.to_str() else {
        return Verdict::InvalidHeader;
    };
    let credentials = match value.split_once(' ') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("basic") => rest.trim(),
        _ if value.trim().eq_ignore_ascii_case("basic") => "",
        _ => return Verdict::InvalidHeader,
    };
    if credentials.is_empty() {
        return Verdict::InvalidFormat;
    }
    if !config.token.is_empty() && credentials == config.token {
        return Verdict::Accepted;
    }
    let decoded = BASE64_LENIENT
        .decode(credentials)
        .ok()
        .and_then(|b| String::from_utf8(b).ok());
    if let Some((login, password)) = decoded.as_deref().and_then(|d| d.split_once(':')) {
        let matches = config
            .login
            .as_ref()
            .is_some_and(|(l, p)| l == login && p == password);
        return if matches {
            Verdict::Accepted
        } else {
            Verdict::Unauthenticated
        };
    }
    if looks_like_token(credentials) {
        return Verdict::Unauthenticated;
    }
    Verdict::InvalidFormat
}

fn looks_like_token(s: &str) -> bool {
    (32..=128).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The middleware on every API route.
pub async fn require(
    State(auth): State<Arc<AuthConfig>>,
    request: Request,
    next: Next,
) -> Response {
    match check(request.headers().get(header::AUTHORIZATION), &auth) {
        Verdict::Accepted => next.run(request).await,
        Verdict::Unauthenticated => text(StatusCode::UNAUTHORIZED, UNAUTHENTICATED),
        Verdict::InvalidHeader => text(StatusCode::BAD_REQUEST, INVALID_AUTHORIZATION_HEADER),
        Verdict::InvalidFormat => text(StatusCode::BAD_REQUEST, INVALID_CREDENTIALS_FORMAT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> AuthConfig {
        AuthConfig {
            token: super::super::DEMO_TOKEN.into(),
            login: Some(("demo".into(), "demo-password".into())),
        }
    }

    fn verdict(h: &str) -> Verdict {
        check(Some(&HeaderValue::from_str(h).expect("header")), &config())
    }

    #[test]
    fn the_rules_in_order() {
        assert_eq!(check(None, &config()), Verdict::Unauthenticated);
        assert_eq!(
            verdict(&format!("Basic {}", super::super::DEMO_TOKEN)),
            Verdict::Accepted
        );
        assert_eq!(
            verdict(&format!("basic {}", super::super::DEMO_TOKEN)),
            Verdict::Accepted
        );
        let pair = BASE64_LENIENT.encode("demo:demo-password");
        assert_eq!(verdict(&format!("Basic {pair}")), Verdict::Accepted);
        let wrong = BASE64_LENIENT.encode("demo:nope");
        assert_eq!(verdict(&format!("Basic {wrong}")), Verdict::Unauthenticated);
        assert_eq!(
            verdict("Basic AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIII1234"),
            Verdict::Unauthenticated
        );
        assert_eq!(verdict("Bearer abc"), Verdict::InvalidHeader);
        assert_eq!(verdict("Basic"), Verdict::InvalidFormat);
        assert_eq!(verdict("Basicabc"), Verdict::InvalidHeader);
        assert_eq!(verdict(""), Verdict::InvalidHeader);
        assert_eq!(verdict("Basic !!not base64!!"), Verdict::InvalidFormat);
        assert_eq!(
            verdict(&format!("Basic {}", BASE64_LENIENT.encode("no colon here"))),
            Verdict::InvalidFormat
        );
    }

    #[test]
    fn without_a_login_pair_every_pair_is_refused() {
        let config = AuthConfig {
            token: "t".repeat(40),
            login: None,
        };
        let pair = BASE64_LENIENT.encode("demo:demo-password");
        let h = HeaderValue::from_str(&format!("Basic {pair}")).expect("header");
        assert_eq!(check(Some(&h), &config), Verdict::Unauthenticated);
    }
}
