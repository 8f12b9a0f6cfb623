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
//! Decided in one function, [`Failure::status`], with the numbers named in [`status`].
//! What each means is written once, in the README's table ("Exit status, one meaning
//! each"), which `tests/readme.rs` checks against these numbers. Not found (4) is a
//! refusal of an ID: the spec has no 404, so a read of one item (`service`, `product`,
//! `invoice`, `stats`, `rate`, `network`, `iplist`) answered 422 `Unprocessable Entity`
//! (or its "product ID not found" / "ClientID not found" forms), and any request answered
//! "ClientID not found".
//!
//! With `--json` a failure after the usage was right also prints one JSON object on
//! standard output, so a script parsing it gets JSON (a usage error, 2, is found before
//! anything is asked and prints only its line, as clap's own errors do): `{"error": "<the line>", "kind": "throttled",
//! "exit_status": 6, "next_possible": "2026-11-22 14:05:00"}` (`next_possible` only on a
//! throttled refresh; `kind` is `failed`, `usage`, `authentication`, `not_found`,
//! `unreachable`, `throttled` or `read_only`).
//!
//! # Choices
//!
//! - `service ID` masks the proxy password (`********`, last row) unless
//!   `--show-password`; in `--json` the `password` member is `null` unless
//!   `--show-password`. It is the user's own secret, but a table ends up in screenshots
//!   and logs; asking for it is one flag.
//! - A missing date (or value) is `—`, as in the dashboard ([`crate::text::MISSING`]).
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
//! - Read-only (`--read-only`, or `read_only = true` in the profile) refuses `order`,
//!   `bind`, `password` and `refresh-list` before anything is sent (before the price
//!   question or the password prompt too), status 7. The client refuses writes as well
//!   ([`crate::api::ClientConfig::read_only`]), so no path can slip past.
//! - A warning about the settings (a config file holding a secret and readable by others)
//!   is printed once on standard error, `proxydash: warning: …`, before the answer.
//! - `network ID` with nothing in error or inactive says so ("all fine") rather than
//!   printing a bare header; `--json` is unchanged (two empty arrays).
//! - Every request takes a token of the account's request budget ([`crate::scheduler`]):
//!   one budget for every read of a command (`credit`'s four reads included), counting
//!   the sends of the profile's other processes (the shared send log: a loop of commands,
//!   scripts in parallel, a dashboard or `watch` beside them), and what earlier commands
//!   learned of the limits (`budget.json` of the state directory). A command waits for
//!   the budget (a line on standard error says how long, when it is more than a second or
//!   two, and names a route's own limit) instead of exceeding it; a pause longer than
//!   [`PATIENCE`] ends it with status 6 and the time. `--max-rpm` caps it.

mod accounts;
mod ahead;
pub mod alerts;
pub mod args;
mod billing;
mod catalog;
mod failure;
mod finish;
pub mod format;
pub mod history;
mod input;
mod iplist;
pub mod jq;
mod network;
mod order;
pub mod output;
mod probe;
mod services;
mod update;

use crate::api::{ApiClient, ApiError};
use crate::config::Settings;
use crate::demo::Server as SandboxHandle;
use crate::options::{AccountArgs, Options, Subcommand};
use std::process::ExitCode;

pub use alerts::{AlertsArgs, AlertsCommand};
pub use args::*;
pub use failure::{Failure, status};
pub use finish::run;
pub use format::{Form, FormatArgs};
pub use history::{HistoryCommand, HistoryExportArgs};

/// What a subcommand prints on success.
pub type Printed = Result<String, Failure>;

/// A scripting subcommand: what it prints, asked through a [`Session`] on the account.
/// Its arguments implement it, and it runs (as a [`Subcommand`]) the common way: the
/// account options after its name merged in, several accounts where it reads several,
/// the answer or the failure printed and the exit status decided ([`run`]).
// Run by `block_on` on the main thread: the future need not be `Send`.
#[allow(async_fn_in_trait)]
pub trait Script {
    /// Its `--json`, `--jq` and account options (`OutputArgs`); `None` when it has none of
    /// its own (then override [`Script::account`], [`Script::json`] and [`Script::jq`]
    /// where it has them).
    fn output(&self) -> Option<&OutputArgs>;
    /// What it prints on success, asked through the session.
    async fn print(&self, s: &mut Session<'_>) -> Printed;
    /// The account options given after the subcommand's name.
    fn account(&self) -> Option<&AccountArgs> {
        self.output().map(|o| &o.account)
    }
    /// Its `--format`, on a command that prints rows.
    fn format(&self) -> Option<Form> {
        None
    }
    /// Whether it asked for JSON (`--json`, `--jq`, `--format json`): its failures are
    /// then printed as JSON too (but with `--jq`).
    fn json(&self) -> bool {
        self.output().is_some_and(|o| o.json) || self.format() == Some(Form::Json)
    }
    /// Its `--jq` filter.
    fn jq(&self) -> Option<&jq::Jq> {
        self.output().and_then(|o| o.jq.as_ref())
    }
    /// The form of its answer: JSON when asked for, else its `--format` (a table by
    /// default).
    fn form(&self) -> Form {
        match self.json() {
            true => Form::Json,
            false => self.format().unwrap_or_default(),
        }
    }
    /// The read it is over several accounts, when it takes several.
    fn several(&self) -> Option<Several> {
        None
    }
}

/// The reads that take several accounts (`--all-profiles`, `--profile` repeated): see
/// `accounts.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Several {
    Services,
    Invoices,
    Credit,
    /// `network`, with the ID it was given (refused with several accounts).
    Network(Option<u64>),
}

impl<T: Script> Subcommand for T {
    async fn run(&self, options: &Options) -> ExitCode {
        run(options, self).await
    }
}

/// The account a subcommand talks to, connected on first use (so usage errors are found
/// before an account is needed, and `completions` needs none).
pub struct Session<'a> {
    cli: &'a Options,
    /// With `--demo`: the sandbox, alive as long as the session.
    sandbox: Option<SandboxHandle>,
    /// The profile of the account, once connected.
    profile: Option<String>,
    /// The settings say read-only, once connected.
    read_only: bool,
    /// Plain http:// is allowed to hosts that are not loopback (the my-IP lookup too).
    allow_insecure_http: bool,
    /// The account's budget, once connected: one for every read of the command.
    budget: Option<crate::scheduler::Budget>,
    /// The account's key in the budget's state file, when it is kept there.
    budget_key: Option<String>,
    /// How proxies are probed, once connected.
    probe: Option<crate::config::ProbeSettings>,
    /// The profile's history file and its days, once connected; `None` on the demo (its
    /// sandbox is new each run) or with `history_days = 0`.
    history: Option<(std::path::PathBuf, u32)>,
    /// The zone of the server's wall clock (the IP-list throttle's times), once connected.
    server_zone: crate::iplist_throttle::ServerZone,
    /// The profile is one of a config file (or named): messages name it. An account of
    /// flags and environment alone is the implicit `default`, which names nothing the
    /// user wrote (issue 45).
    profile_named: bool,
}

impl<'a> Session<'a> {
    fn new(cli: &'a Options) -> Self {
        Self {
            cli,
            sandbox: None,
            profile: None,
            read_only: false,
            allow_insecure_http: false,
            budget: None,
            budget_key: None,
            probe: None,
            history: None,
            server_zone: Default::default(),
            profile_named: false,
        }
    }

    /// The zone of the server's wall clock (after [`Session::client`]).
    pub fn server_zone(&self) -> crate::iplist_throttle::ServerZone {
        self.server_zone
    }

    /// The client for the configured account (or the demo sandbox). An account that is
    /// missing or unusable is a usage error.
    pub async fn client(&mut self) -> Result<ApiClient, Failure> {
        let settings = if self.cli.demo {
            if self.sandbox.is_none() {
                // With its proxies, so `probe` has something to check on loopback.
                let handle = crate::demo::start(None)
                    .await
                    .map_err(|e| Failure::Failed(format!("cannot start the demo sandbox: {e}")))?;
                self.sandbox = Some(handle);
            }
            let sandbox = self.sandbox.as_ref().expect("started above");
            crate::demo::settings(self.cli, sandbox).map_err(|e| Failure::Usage(e.to_string()))?
        } else {
            Settings::resolve(self.cli).map_err(|e| Failure::Usage(e.to_string()))?
        };
        if self.profile.is_none() {
            // Once per run, before the answer: the user should know, a script's output stays clean.
            for warning in &settings.warnings {
                eprintln!("proxydash: warning: {}", output::sanitize(warning));
            }
        }
        self.profile = Some(settings.profile.clone());
        self.profile_named =
            !settings.profiles.is_empty() || !self.cli.connection.profile.is_empty();
        self.read_only = settings.read_only;
        self.allow_insecure_http = settings.allow_insecure_http;
        self.probe = Some(settings.probe.clone());
        self.server_zone = settings.server_zone;
        self.history = (!self.cli.demo && settings.history_days > 0)
            .then(|| crate::history::file_for(&settings.profile))
            .flatten()
            .map(|path| (path, settings.history_days));
        let client =
            ApiClient::new(settings.client_config()).map_err(|e| Failure::Usage(e.to_string()))?;
        // One budget for the whole command, however many reads it makes (`credit` reads
        // four): each read counts the others' sends.
        let budget = match &self.budget {
            Some(budget) => budget.clone(),
            None => {
                let budget = self.budget_for(&settings);
                self.budget = Some(budget.clone());
                budget
            }
        };
        Ok(crate::scheduler::Door::new(client, budget).client)
    }

    /// The account's budget: what earlier commands learned (`budget.json`), the sends of
    /// the profile's other processes (the shared send log), this command's patience.
    fn budget_for(&mut self, settings: &Settings) -> crate::scheduler::Budget {
        // The demo's sandbox is new each time: nothing to remember or share about it.
        let kept = !self.cli.demo;
        let store = crate::scheduler::store::Store::default_location().filter(|_| kept);
        let key = settings.budget_key();
        let budget = match &store {
            Some(store) => {
                let (scopes, problem) = store.load(&key, settings.max_rpm);
                if let Some(problem) = problem {
                    eprintln!("proxydash: warning: {}", output::sanitize(&problem));
                }
                crate::scheduler::Budget::of(scopes)
            }
            None => settings.budget(),
        };
        let log = crate::scheduler::SendLog::for_account(&settings.profile, &key).filter(|_| kept);
        let budget = match log {
            Some(log) => {
                if let Some(problem) = log.check() {
                    eprintln!("proxydash: warning: {}", output::sanitize(&problem));
                }
                budget.shared(log)
            }
            None => budget,
        };
        if store.is_some() {
            self.budget_key = Some(key);
        }
        budget
            .patience(PATIENCE)
            .on_wait(std::sync::Arc::new(tell_wait))
    }

    /// Keeps what the budget learned for the next command.
    fn save_budget(&mut self) {
        let (Some(budget), Some(key), Some(store)) = (
            self.budget.take(),
            self.budget_key.take(),
            crate::scheduler::store::Store::default_location(),
        ) else {
            return;
        };
        let log = budget.send_log();
        if let Some(problem) = log.and_then(|log| log.problem()) {
            eprintln!("proxydash: warning: {}", output::sanitize(&problem));
        }
        // Without the shared log, the sends are kept here for the next command.
        let with_sends = log.is_none_or(|log| log.is_off());
        // Losing it only means the next command starts from less knowledge.
        let _ = store.save(&key, &budget.snapshot(), with_sends);
    }
}

/// The longest pause (a 429's, or the server's spent count) a command waits out before
/// sending: a longer one ends the command with status 6 and the time to try again,
/// instead of a process that seems to hang.
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(5);

/// Says on standard error when a command waits for the budget (a couple of seconds or
/// more), so a script that seems stuck explains itself; a route's own limit is named.
fn tell_wait(
    hold: crate::scheduler::Hold,
    wait: std::time::Duration,
    view: &crate::scheduler::View,
    route: Option<crate::scheduler::Route>,
) {
    let why = match hold {
        crate::scheduler::Hold::Paused => "the server's limit",
        crate::scheduler::Hold::Budget => "the request budget",
    };
    let of = route.map(|r| format!(" of {r}")).unwrap_or_default();
    eprintln!(
        "proxydash: waiting {} s for {why} ({} requests a minute{of})",
        wait.as_secs_f64().ceil(),
        view.limit
    );
}

impl Session<'_> {
    /// Whether plain http:// may go to a host that is not loopback (known once connected).
    pub fn allow_insecure_http(&self) -> bool {
        self.allow_insecure_http
    }

    /// The client for a write named `what`, refused (status 7, nothing sent) when the
    /// session is read-only. The client would refuse it too; this says so before any
    /// prompt or lookup.
    pub async fn writer(&mut self, what: &str) -> Result<ApiClient, Failure> {
        let client = self.client().await?;
        if self.read_only {
            return Err(Failure::Api {
                what: what.to_owned(),
                error: ApiError::ReadOnly,
            });
        }
        Ok(client)
    }

    /// Where `bind --mine` looks up this machine's address: `asked` (`--my-ip-url`), but
    /// on the demo the sandbox's own `/myip` unless another URL was given, so a demo stays
    /// on loopback.
    pub fn my_ip_url(&self, asked: &str) -> String {
        match &self.sandbox {
            Some(sandbox) if asked == crate::net::myip::DEFAULT_MY_IP_URL => sandbox.my_ip_url(),
            _ => asked.to_owned(),
        }
    }

    /// Writes `records` to the profile's history (what `probe` found), off the async
    /// workers; a history that cannot be written is a warning, never the command's failure.
    pub async fn remember(&self, records: Vec<crate::history::Record>) {
        let Some((path, days)) = self.history.clone() else {
            return;
        };
        if records.is_empty() {
            return;
        }
        let written = tokio::task::spawn_blocking(move || {
            let sweep = crate::history::Sweep {
                at: chrono::Utc::now(),
                records,
            };
            crate::history::Store::open(&path, days)
                .and_then(|mut store| store.write(&[sweep]))
                .map_err(|e| format!("{e} ({})", crate::files::tilde(&path)))
        })
        .await;
        if let Ok(Err(e)) = written {
            eprintln!(
                "proxydash: warning: history not saved: {}",
                output::sanitize(&e)
            );
        }
    }

    /// Keeps the IDs of a list read (`kind`) for the shell's completion ([`crate::seen`]):
    /// not on the demo (its sandbox is new each run).
    pub fn saw(&self, kind: crate::seen::Kind, entries: crate::seen::Entries) {
        if let Some(profile) = self.profile.as_deref().filter(|_| !self.cli.demo) {
            crate::seen::keep(profile, kind, entries);
        }
    }

    /// The probe settings of the account [`Session::client`] connected to.
    pub fn probe_settings(&self) -> crate::config::ProbeSettings {
        self.probe
            .clone()
            .unwrap_or_else(|| crate::config::ProbeSettings::demo(None))
    }
}
