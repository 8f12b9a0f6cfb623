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

    pub fn my_ip_url(&self) -> String {
        match *self {}
    }
}

/// Requests a minute the demo sandbox answers: the common framework's default for an API,
/// so the demo shows proxydash working within a real limit.
pub const RATE_LIMIT: u32 = 60;

/// The demo sandbox: ephemeral, with its proxies (so a probe has something to check on
/// loopback), limited to `rate_limit` requests a minute when given.
pub async fn start(rate_limit: Option<u32>) -> Result<Server, String> {
    start_scaled(rate_limit, None).await
}

/// [`start`] with `scale` generated services instead of the seed's (one of the accounts
/// of `--demo --all-profiles`, so the accounts do not all look alike).
#[cfg(feature = "sandbox")]
pub async fn start_scaled(rate_limit: Option<u32>, scale: Option<usize>) -> Result<Server, String> {
    use crate::sandbox::{Sandbox, SandboxConfig};
    Sandbox::start(SandboxConfig {
        rate_limit,
        proxies: true,
        scale,
        ..SandboxConfig::ephemeral()
    })
    .await
    .map_err(|e| e.to_string())
}

#[cfg(not(feature = "sandbox"))]
pub async fn start_scaled(
    _rate_limit: Option<u32>,
    _scale: Option<usize>,
) -> Result<Server, String> {
    Err(NO_SANDBOX.into())
}

/// The options that name the demo's running sandbox on a command line (the palette's
/// and the command log's lines): its address and its public demo token (it holds no real
/// account), so a line acts on what the dashboard shows while it runs.
#[cfg(feature = "sandbox")]
pub fn command_args(base_url: &str) -> Vec<String> {
    vec![
        "--base-url".into(),
        base_url.into(),
        "--token".into(),
        crate::sandbox::DEMO_TOKEN.into(),
    ]
}

/// A build without the sandbox has no demo.
#[cfg(not(feature = "sandbox"))]
pub fn command_args(_base_url: &str) -> Vec<String> {
    vec!["--demo".into()]
}

/// The settings of the demo account on `server`: the command line's look and feel, the
/// sandbox's probe judge, and its `/myip` for this machine's address (Ctrl-L, `bind
/// --mine`), so a demo asks nothing of any server on the internet; no fallbacks.
pub fn settings(
    cli: &crate::options::Options,
    server: &Server,
) -> Result<crate::config::Settings, crate::config::ConfigError> {
    let mut settings = crate::config::Settings::demo(cli, server.base_url(), server.token())?;
    settings.probe = crate::config::ProbeSettings::demo(server.judge_url());
    settings.my_ip_url = server.my_ip_url();
    settings.my_ip_fallbacks.clear();
    Ok(settings)
}

#[cfg(all(test, feature = "sandbox"))]
mod tests {
    use clap::Parser;

    /// Issue 26.8: the demo's my-IP lookup (Ctrl-L, `bind --mine`) stays on its sandbox.
    #[tokio::test]
    async fn the_demo_looks_up_this_machines_ip_on_its_sandbox() {
        let server = super::start(None).await.unwrap();
        /// The options alone, as the command line gives them.
        #[derive(clap::Parser)]
        struct Given {
            #[command(flatten)]
            options: crate::options::Options,
        }
        let given = Given::parse_from(["proxydash", "--demo"]);
        let settings = super::settings(&given.options, &server).unwrap();
        let url = url::Url::parse(&settings.my_ip_url).unwrap();
        assert_eq!(url.host_str(), Some("127.0.0.1"), "{url}");
        assert!(settings.my_ip_fallbacks.is_empty());
        let ip = crate::effects::lookup_my_ip(&settings.my_ip_url, false)
            .await
            .unwrap();
        // The sandbox's own answer (a public address: a documentation one is refused).
        assert_eq!(ip, std::net::Ipv4Addr::new(45, 83, 220, 10));
    }
}
