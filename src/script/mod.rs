//! The command line for scripts: `proxydash services`, `proxydash bind 1001 --mine`, … One
//! subcommand per thing a script reads or does, on the same [`ApiClient`] as the dashboard.
//!
//! # Output
//!
//! - Standard output holds the answer and nothing else: a table (aligned columns with
//!   headers, or `Label:  value` lines for one item) or, with `--json`, one pretty-printed
//!   JSON document in the API's own field names (the [`crate::api`] models serialized
//!   back, e.g. `{"service_id": 1001, "bindedip": "192.0.2.50", …}`).
//! - Standard error holds prompts and errors. An error is one line: `proxydash: ` + what
//!   failed + `: ` + the [`ApiError`] message (`proxydash: Stats of service 1001:
//!   Unprocessable Entity`).
//!
//! # Exit status
//!
//! | status | when |
//! |---|---|
//! | 0 | success |
//! | 1 | the API answered an error, or the network failed; also a file that cannot be written (or already exists), a failed public-IP lookup, an order declined at the prompt |
//! | 2 | bad usage, before anything is sent: clap's own errors, no account or an unusable base URL, an invalid IPv4 address, a password given as an argument, `order` without `--yes` when standard input is not a terminal, an empty or mistyped new password |
//!
//! # Choices
//!
//! - `service ID` masks the proxy password (`********`, last row) unless
//!   `--show-password`; in `--json` the `password` member is `null` unless
//!   `--show-password`. It is the user's own secret, but a table ends up in screenshots
//!   and logs; asking for it is one flag.
//! - A missing date (or value) is `—`, as in the dashboard ([`crate::ui::text::MISSING`]).
//! - Server text is sanitised in tables and error lines (control characters and escape
//!   sequences removed). `iplist` prints the list byte for byte into a pipe or file; on a
//!   terminal its lines are sanitised too.
//! - Writes (`order`, `bind`, `password`, `refresh-list`) are sent once. When the answer is
//!   lost ([`ApiError::outcome_unknown`]) the message says the outcome is unknown and how
//!   to check it, and the status is 1.
//! - `order` shows the product, its price and the credit and asks `[y/N]` (on standard
//!   error, answer on standard input) unless `--yes`; declining exits 1, nothing sent.
//! - `--demo` works here too: the commands run against an in-process sandbox with fresh
//!   demo data, gone when the command ends.
//! - A closed pipe on standard output (`| head`) ends the output quietly; the status is
//!   the command's.

mod billing;
mod catalog;
mod input;
mod iplist;
mod order;
pub mod output;
mod services;
mod update;

use crate::api::{ApiClient, ApiError};
use crate::cli::{Cli, Command, CompletionsArgs};
use crate::config::Settings;
use crate::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use std::process::ExitCode;

/// Why a subcommand failed, which decides the exit status.
#[derive(Debug)]
pub enum Failure {
    /// Bad usage, found before anything was sent: status 2.
    Usage(String),
    /// The API or the network failed `what`: status 1.
    Api { what: String, error: ApiError },
    /// Anything else after the usage was right (a file, the IP lookup, a declined
    /// order): status 1.
    Failed(String),
}

impl Failure {
    pub fn api(what: impl Into<String>) -> impl FnOnce(ApiError) -> Failure {
        let what = what.into();
        move |error| Failure::Api { what, error }
    }

    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Usage(_) => ExitCode::from(2),
            Failure::Api { .. } | Failure::Failed(_) => ExitCode::from(1),
        }
    }

    /// [`Failure::message`] as printed: what may hold server text is sanitised; a usage
    /// message is our own words (and user input already sanitised), so its line breaks
    /// stay.
    fn shown(&self, profile: Option<&str>) -> String {
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
            Failure::Api {
                what,
                error: ApiError::Unauthenticated,
            } => {
                let profile = profile.map_or_else(String::new, |p| format!(" (profile {p:?})"));
                format!(
                    "{what}: Unauthenticated{profile}: check the token (--token or PROXYDASH_TOKEN), or the login and password"
                )
            }
            Failure::Api { what, error } => format!("{what}: {error}"),
        }
    }
}

/// What a subcommand prints on success.
pub type Printed = Result<String, Failure>;

/// The account a subcommand talks to, connected on first use (so usage errors are found
/// before an account is needed, and `completions` needs none).
pub struct Session<'a> {
    cli: &'a Cli,
    /// With `--demo`: the sandbox, alive as long as the session.
    sandbox: Option<SandboxHandle>,
    /// The profile of the account, once connected.
    profile: Option<String>,
}

impl<'a> Session<'a> {
    fn new(cli: &'a Cli) -> Self {
        Self {
            cli,
            sandbox: None,
            profile: None,
        }
    }

    /// The client for the configured account (or the demo sandbox). An account that is
    /// missing or unusable is a usage error.
    pub async fn client(&mut self) -> Result<ApiClient, Failure> {
        let settings = if self.cli.demo {
            if self.sandbox.is_none() {
                let handle = Sandbox::start(SandboxConfig::ephemeral())
                    .await
                    .map_err(|e| Failure::Failed(format!("cannot start the demo sandbox: {e}")))?;
                self.sandbox = Some(handle);
            }
            let sandbox = self.sandbox.as_ref().expect("started above");
            Settings::demo(self.cli, sandbox.base_url(), sandbox.token())
                .map_err(|e| Failure::Usage(e.to_string()))?
        } else {
            Settings::resolve(self.cli).map_err(|e| Failure::Usage(e.to_string()))?
        };
        self.profile = Some(settings.profile.clone());
        ApiClient::new(settings.client_config()).map_err(|e| Failure::Usage(e.to_string()))
    }
}

/// Runs a scripting subcommand and answers the exit status (see the module docs).
pub async fn run(cli: &Cli, command: &Command) -> ExitCode {
    let mut session = Session::new(cli);
    let result = dispatch(&mut session, command).await;
    let profile = session.profile.take();
    drop(session);
    match result {
        Ok(text) => match output::emit(&text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("proxydash: {e}");
                ExitCode::from(1)
            }
        },
        Err(failure) => {
            eprintln!("proxydash: {}", failure.shown(profile.as_deref()));
            failure.exit_code()
        }
    }
}

async fn dispatch(s: &mut Session<'_>, command: &Command) -> Printed {
    match command {
        Command::Sandbox(_) | Command::Config(_) => {
            Err(Failure::Usage("not a scripting subcommand".into()))
        }
        Command::Completions(args) => Ok(completions(args)),
        Command::Clients(o) => catalog::clients(s, o).await,
        Command::Products(a) => catalog::products(s, a).await,
        Command::Product(a) => catalog::product(s, a).await,
        Command::Order(a) => order::order(s, a).await,
        Command::Services(o) => services::services(s, o).await,
        Command::Service(a) => services::service(s, a).await,
        Command::Bind(a) => update::bind(s, a).await,
        Command::Password(a) => update::password(s, a).await,
        Command::RefreshList(a) => update::refresh_list(s, a).await,
        Command::Iplist(a) => iplist::iplist(s, a).await,
        Command::Credit(o) => billing::credit(s, o).await,
        Command::Invoices(o) => billing::invoices(s, o).await,
        Command::Invoice(a) => billing::invoice(s, a).await,
        Command::Stats(a) => services::stats(s, a).await,
        Command::Rate(a) => services::rate(s, a).await,
        Command::Network(a) => services::network(s, a).await,
    }
}

fn completions(args: &CompletionsArgs) -> String {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut command, "proxydash", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_kind_of_failure() {
        assert_eq!(Failure::Usage("x".into()).exit_code(), ExitCode::from(2));
        assert_eq!(Failure::Failed("x".into()).exit_code(), ExitCode::from(1));
        let api = Failure::api("List services")(ApiError::Unauthenticated);
        assert_eq!(api.exit_code(), ExitCode::from(1));
        let line = api.message(Some("work"));
        assert!(line.starts_with("List services: Unauthenticated (profile \"work\")"));
        assert!(line.contains("--token"), "{line}");
        assert!(!api.message(None).contains("profile"));
    }
}
