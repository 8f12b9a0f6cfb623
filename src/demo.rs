//! The demo account (`--demo`, for the dashboard and the scripting commands): the built-in
//! sandbox on loopback, when this binary has it. The sandbox (and axum with it) is the
//! default cargo feature `sandbox`; `cargo build --no-default-features` leaves it out, and
//! then `--demo` and `proxydash sandbox` say so and exit instead of starting it.

/// What `--demo` and `proxydash sandbox` answer in a build without the sandbox.
pub const NO_SANDBOX: &str =
    "this build has no sandbox (built without the cargo feature `sandbox`)";

#[cfg(feature = "sandbox")]
pub use crate::sandbox::SandboxHandle as Server;

/// No server can run in a build without the sandbox: a value of this type cannot exist.
#[cfg(not(feature = "sandbox"))]
#[derive(Debug)]
pub enum Server {}

#[cfg(not(feature = "sandbox"))]
impl Server {
    pub fn base_url(&self) -> String {
        match *self {}
    }

    pub fn token(&self) -> &str {
        match *self {}
    }

    pub fn judge_url(&self) -> Option<String> {
        match *self {}
    }
}

/// The demo sandbox: ephemeral, with its proxies (so a probe has something to check on
/// loopback), limited to `rate_limit` requests a minute when given.
#[cfg(feature = "sandbox")]
pub async fn start(rate_limit: Option<u32>) -> Result<Server, String> {
    use crate::sandbox::{Sandbox, SandboxConfig};
    Sandbox::start(SandboxConfig {
        rate_limit,
        proxies: true,
        ..SandboxConfig::ephemeral()
    })
    .await
    .map_err(|e| e.to_string())
}

#[cfg(not(feature = "sandbox"))]
pub async fn start(_rate_limit: Option<u32>) -> Result<Server, String> {
    Err(NO_SANDBOX.into())
}
