//! Settings: what the command line and the environment say, checked and in one place.
//!
//! Precedence is flags, then environment variables (clap reads both), then defaults.
//! Secrets are held as [`Secret`], so `Debug` of the settings never shows them.

use crate::api::{ClientConfig, Credentials};
use crate::cli::Cli;
use crate::secret::Secret;
use std::time::Duration;

/// Everything the dashboard needs to start, except a sandbox it may have to start first.
#[derive(Clone, Debug)]
pub struct Settings {
    pub profile: String,
    pub base_url: String,
    pub credentials: Credentials,
    pub refresh: Option<Duration>,
    pub mouse: bool,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    pub allow_insecure_http: bool,
}

/// Why settings could not be made; shown to the user as it is, with exit status 2.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "No account configured.\n\
         Try the built-in sandbox:  proxydash --demo\n\
         Or name an account with --base-url and --token (or --login and --password),\n\
         or the variables PROXYDASH_BASE_URL and PROXYDASH_TOKEN (or PROXYDASH_LOGIN and PROXYDASH_PASSWORD)."
    )]
    NoAccount,
    #[error("{0}")]
    Invalid(String),
}

impl Settings {
    /// Settings for a real account, from flags and environment.
    pub fn resolve(cli: &Cli) -> Result<Self, ConfigError> {
        let c = &cli.connection;
        let credentials = match (&c.token, &c.login, &c.password) {
            (Some(token), _, _) if !token.trim().is_empty() => {
                Credentials::Token(Secret::new(token.trim()))
            }
            (_, Some(login), Some(password)) => {
                Credentials::login(login.clone(), password.as_str())
            }
            (_, Some(_), None) => {
                return Err(ConfigError::Invalid(
                    "--login needs a password: set PROXYDASH_PASSWORD (or --password)".into(),
                ));
            }
            _ => return Err(ConfigError::NoAccount),
        };
        let base_url = c
            .base_url
            .clone()
            .filter(|u| !u.trim().is_empty())
            .ok_or_else(|| {
                ConfigError::Invalid(
                    "No base URL: pass --base-url or set PROXYDASH_BASE_URL".into(),
                )
            })?;
        Ok(Self::with(cli, "default", base_url, credentials))
    }

    /// Settings for the in-process sandbox at `base_url`.
    pub fn demo(cli: &Cli, base_url: String, token: &str) -> Self {
        Self::with(
            cli,
            "demo",
            base_url,
            Credentials::Token(Secret::new(token)),
        )
    }

    fn with(cli: &Cli, profile: &str, base_url: String, credentials: Credentials) -> Self {
        let c = &cli.connection;
        Self {
            profile: profile.into(),
            base_url,
            credentials,
            refresh: (cli.refresh > 0).then(|| Duration::from_secs(cli.refresh)),
            mouse: cli.mouse,
            connect_timeout: Duration::from_secs(c.connect_timeout.max(1)),
            request_timeout: Duration::from_secs(c.timeout.max(1)),
            allow_insecure_http: c.allow_insecure_http,
        }
    }

    pub fn client_config(&self) -> ClientConfig {
        ClientConfig {
            connect_timeout: self.connect_timeout,
            request_timeout: self.request_timeout,
            allow_insecure_http: self.allow_insecure_http,
            ..ClientConfig::new(self.base_url.clone(), self.credentials.clone())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn parse(args: &[&str]) -> Cli {
        Cli::try_parse_from(std::iter::once("proxydash").chain(args.iter().copied())).unwrap()
    }

    #[test]
    fn token_flag_wins_and_is_redacted_in_debug() {
        let cli = parse(&[
            "--base-url",
            "https://api.example.com",
            "--token",
            "sekrit-token",
        ]);
        let s = Settings::resolve(&cli).unwrap();
        assert_eq!(s.credentials, Credentials::Token("sekrit-token".into()));
        assert!(!format!("{s:?}").contains("sekrit-token"));
    }

    #[test]
    fn login_without_password_is_refused() {
        let cli = parse(&["--base-url", "https://x", "--login", "alice"]);
        assert!(matches!(
            Settings::resolve(&cli),
            Err(ConfigError::Invalid(_))
        ));
    }

    #[test]
    fn refresh_zero_turns_auto_refresh_off() {
        let cli = parse(&["--base-url", "https://x", "--token", "t", "--refresh", "0"]);
        assert_eq!(Settings::resolve(&cli).unwrap().refresh, None);
    }
}
