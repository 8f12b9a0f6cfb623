//! A stand-in for the public "what is my IP" services, for `watch --keep-bound` on
//! loopback: `GET /myip` answers the address set (plain text, as api.ipify.org does), and
//! `PUT /myip` with an IPv4 address as the body changes it, so a test (or a user trying
//! `--keep-bound` on the sandbox) can make "this machine's IP" change.
//!
//! Choices: not part of the API, so no authentication and no rate limit (the faults of
//! `--faults` still apply, as they do to every answer); it starts at 45.83.220.10, an
//! arbitrary public address (a documentation address would be refused as this machine's
//! IP, see [`crate::net::myip`]); a body that is not an IPv4 address answers 422 and changes
//! nothing.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::net::Ipv4Addr;
use std::sync::{Arc, Mutex, PoisonError};

/// The address the stub starts with.
pub const INITIAL: Ipv4Addr = Ipv4Addr::new(45, 83, 220, 10);

/// The address the stub answers.
#[derive(Debug)]
pub struct PublicIp(Mutex<Ipv4Addr>);

impl Default for PublicIp {
    fn default() -> Self {
        Self(Mutex::new(INITIAL))
    }
}

impl PublicIp {
    pub fn get(&self) -> Ipv4Addr {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn set(&self, ip: Ipv4Addr) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = ip;
    }
}

pub async fn get(State(public_ip): State<Arc<PublicIp>>) -> Response {
    format!("{}\n", public_ip.get()).into_response()
}

pub async fn put(State(public_ip): State<Arc<PublicIp>>, body: Bytes) -> Response {
    match std::str::from_utf8(&body)
        .ok()
        .and_then(|s| s.trim().parse::<Ipv4Addr>().ok())
    {
        Some(ip) => {
            public_ip.set(ip);
            format!("{ip}\n").into_response()
        }
        None => (StatusCode::UNPROCESSABLE_ENTITY, "not an IPv4 address\n").into_response(),
    }
}
