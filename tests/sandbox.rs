//! End-to-end tests of the sandbox over real HTTP on loopback, with a plain reqwest client
//! (never `ApiClient`: the sandbox is tested as the spec describes the server).

// One file per subject, in `tests/sandbox/`.
#[path = "sandbox/auth.rs"]
mod auth;
#[path = "sandbox/conformance.rs"]
mod conformance;
#[path = "sandbox/endpoints.rs"]
mod endpoints;
#[path = "sandbox/errors.rs"]
mod errors;
#[path = "sandbox/faults.rs"]
mod faults;
#[path = "sandbox/iplists.rs"]
mod iplists;
#[path = "sandbox/keepalive.rs"]
mod keepalive;
#[path = "sandbox/load.rs"]
mod load;
#[path = "sandbox/orders.rs"]
mod orders;
#[path = "sandbox/updates.rs"]
mod updates;

use base64::Engine as _;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Duration;

pub async fn start() -> SandboxHandle {
    start_with(|_| {}).await
}

pub async fn start_with(edit: impl FnOnce(&mut SandboxConfig)) -> SandboxHandle {
    let mut config = SandboxConfig::ephemeral();
    edit(&mut config);
    Sandbox::start(config).await.expect("the sandbox starts")
}

pub fn http(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .timeout(timeout)
        .build()
        .expect("client")
}

pub fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s)
}

/// A raw client for one sandbox, sending the spec's headers.
pub struct Api {
    pub http: reqwest::Client,
    pub base: String,
    pub auth: Option<String>,
}

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub content_type: Option<String>,
    pub headers: reqwest::header::HeaderMap,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    /// Asserts a 200 and returns the JSON body.
    pub fn ok(&self) -> Value {
        assert_eq!(self.status, 200, "body: {}", self.body);
        self.json()
    }

    /// Asserts status and `{"error": message}`.
    pub fn assert_error(&self, status: u16, message: &str) {
        assert_eq!(self.status, status, "body: {}", self.body);
        assert_eq!(
            self.json(),
            serde_json::json!({ "error": message }),
            "{}",
            self.body
        );
        assert_eq!(self.content_type.as_deref(), Some("application/json"));
    }

    /// Asserts status and an exact plain-text body.
    pub fn assert_text(&self, status: u16, text: &str) {
        assert_eq!(self.status, status, "body: {}", self.body);
        assert_eq!(self.body, text);
        let ct = self.content_type.as_deref().unwrap_or_default();
        assert!(ct.starts_with("text/plain"), "{ct}");
    }
}

impl Api {
    pub fn new(handle: &SandboxHandle) -> Self {
        Self {
            http: http(Duration::from_secs(10)),
            base: handle.base_url(),
            auth: Some(format!("Basic {}", handle.token())),
        }
    }

    pub fn with_auth(handle: &SandboxHandle, auth: Option<&str>) -> Self {
        Self {
            auth: auth.map(str::to_owned),
            ..Self::new(handle)
        }
    }

    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> reqwest::RequestBuilder {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut rb = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json");
        if let Some(auth) = &self.auth {
            rb = rb.header("Authorization", auth);
        }
        if let Some(body) = body {
            rb = rb.body(body.to_owned());
        }
        rb
    }

    pub async fn send(&self, method: &str, path: &str, body: Option<&str>) -> Reply {
        let response = self
            .request(method, path, body)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let content_type = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = response.text().await.expect("body");
        Reply {
            status,
            body,
            content_type,
            headers,
        }
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send("GET", path, None).await
    }

    pub async fn post(&self, path: &str, body: &str) -> Reply {
        self.send("POST", path, Some(body)).await
    }

    pub async fn put(&self, path: &str, body: &str) -> Reply {
        self.send("PUT", path, Some(body)).await
    }
}

pub fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect()
}

pub fn set<'a>(items: &[&'a str]) -> BTreeSet<&'a str> {
    items.iter().copied().collect()
}

/// A number that live servers may send as a string.
pub fn num(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().expect("f64"),
        Value::String(s) => s.parse().unwrap_or_else(|_| panic!("not numeric: {s:?}")),
        other => panic!("not a number: {other}"),
    }
}

pub fn array(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}"))
}
