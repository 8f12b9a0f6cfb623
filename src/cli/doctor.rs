//! `proxydash doctor`: checks that a profile is set up to work, one line per check with
//! the reason, before a dashboard or a cron job finds out the hard way.
//!
//! The API is asked one cheap read (the credit) through the scheduler like every request
//! (the account's saved budget, the client's bounded bodies); nothing else is sent. Secrets
//! are never printed: a credential is named by its kind and where it came from.

use super::{AccountArgs, Options, Subcommand};
use crate::api::{ApiClient, Credentials};
use crate::config::file::FileConfig;
use crate::config::selection::{Unnamed, profiles};
use crate::config::{ConfigError, Settings, file};
use crate::scheduler::{Budget, Door, store::Store};
use crate::script::{Failure, output, status};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[path = "doctor/rate_limit.rs"]
mod rate_limit;
#[path = "doctor/state_files.rs"]
mod state_files;

/// Check the setup: the config file, the credentials, the file's permissions, one read of
/// the API and its rate limit, the state directory.
///
/// One line per check of each profile selected: ✓ fine, ! worth knowing, ✗ a problem, with
/// the reason. Asks the API one cheap read (the credit); never prints a secret.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Example:\n  proxydash doctor\n  proxydash doctor --all-profiles\n  \
proxydash doctor --json | jq '.[] | select(.ok | not)'\n\n\
Exit status: 0 when no check failed (warnings allowed); otherwise that of the first failed \
check: 2 the config file or the credentials, 3 authentication, 5 unreachable, 6 throttled, \
1 anything else (permissions, the state directory, another API error).")]
pub struct DoctorArgs {
    /// Print the checks as JSON: an array of {"profile", "check", "level", "ok",
    /// "detail"} (level: ok, warn or fail).
    #[arg(long, default_value_if("jq", clap::builder::ArgPredicate::IsPresent, "true"))]
    pub json: bool,
    /// Filter the JSON with a jq expression (implies --json).
    #[arg(long, value_name = "EXPR", value_parser = crate::script::jq::parse)]
    pub jq: Option<crate::script::jq::Jq>,
    #[command(flatten)]
    pub account: AccountArgs,
}

/// How a check came out; a failure carries its exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Pass,
    Warn,
    /// Not known (the server did not say): `?`, neither a pass nor a failure.
    Unknown,
    Fail(u8),
}

struct Check {
    /// The profile checked, when one is named or several are (the text names it before
    /// the check when several are).
    profile: Option<String>,
    name: String,
    mark: Mark,
    detail: String,
}

fn check(name: &str, mark: Mark, detail: impl Into<String>) -> Check {
    Check {
        profile: None,
        name: name.to_owned(),
        mark,
        detail: detail.into(),
    }
}

impl Subcommand for DoctorArgs {
    async fn run(&self, options: &Options) -> ExitCode {
        let mut given = options.clone();
        given.connection = options.connection.with(&self.account);
        // A config file that does not parse still gets its line: then the one selection.
        let selected = match given.demo {
            true => vec![None],
            false => profiles(&given, Unnamed::DefaultProfile)
                .unwrap_or_else(|_| vec![given.connection.profile.first().cloned()]),
        };
        let several = selected.len() > 1;
        let mut checks = Vec::new();
        for name in selected {
            let mut one = given.clone();
            one.connection.profile = name.clone().into_iter().collect();
            one.connection.all_profiles = false;
            for mut c in profile_checks(&one).await {
                if several || name.is_some() {
                    c.profile = Some(name.clone().unwrap_or_else(|| "default".into()));
                }
                checks.push(c);
            }
        }
        let text = if self.json {
            json(&checks)
        } else {
            lines(&checks, several)
        };
        if let Err(e) = crate::script::jq::answer(&text, self.jq.as_ref()) {
            eprintln!("proxydash: {}", output::sanitize(&e));
            return ExitCode::from(status::FAILED);
        }
        let failed = checks.iter().find_map(|c| match c.mark {
            Mark::Fail(code) => Some(code),
            _ => None,
        });
        ExitCode::from(failed.unwrap_or(status::OK))
    }
}

/// The checks of one profile, in order.
async fn profile_checks(options: &Options) -> Vec<Check> {
    let path = options.connection.account.config.clone().or_else(file::default_path);
    let (config, read) = config_check(options.demo, path.as_deref());
    let config_failed = matches!(config.mark, Mark::Fail(_));
    let mut checks = vec![config];
    // With --demo: its sandbox, alive while the API is asked (to the end of this function).
    let mut sandbox = None;
    let settings = match options.demo {
        // At the demo's own limit, as the dashboard's demo runs it: its headers are read.
        true => match crate::demo::start(Some(crate::demo::RATE_LIMIT)).await {
            Ok(server) => crate::demo::settings(options, sandbox.insert(server))
                .map_err(|e| e.to_string()),
            Err(e) => Err(format!("cannot start the demo sandbox: {e}")),
        },
        false => Settings::resolve(options).map_err(|e| with_error_output(&e, path.as_deref())),
    };
    checks.push(match (&settings, config_failed) {
        // The file's problem is the config check's line; said once.
        (Err(_), true) => check(
            "credentials",
            Mark::Fail(status::USAGE),
            "not resolved: the config file cannot be used (see above)",
        ),
        _ => credentials_check(&settings, read.as_ref(), options),
    });
    if let (Some(path), Some(read)) = (&path, &read) {
        checks.push(permissions_check(path, read));
    }
    if let Ok(settings) = &settings {
        checks.extend(actions_check(settings));
    }
    match &settings {
        Ok(settings) => checks.extend(api_checks(settings, options.demo).await),
        Err(_) => checks.push(check("api", Mark::Warn, "not asked: no usable account")),
    }
    checks.push(state_check());
    let profile = settings.as_ref().ok().map(|s| s.profile.as_str());
    checks.push(state_files::state_files_check(profile));
    checks
}

/// Your own actions (`config::actions`): how many read, and each one left out with its
/// line and why (a missing key, an unknown placeholder, a key a tab already uses). None
/// written: no line.
fn actions_check(settings: &Settings) -> Option<Check> {
    let written: Vec<&String> = settings
        .warnings
        .iter()
        .filter(|w| w.starts_with("action at "))
        .collect();
    let (kept, said) = crate::app::user_actions::check_keys(settings.actions.clone());
    if kept.is_empty() && written.is_empty() && said.is_empty() {
        return None;
    }
    let problems: Vec<String> = written.into_iter().cloned().chain(said).collect();
    let count = crate::text::counted(kept.len() as u64, "action", "actions");
    Some(if problems.is_empty() {
        check("actions", Mark::Pass, format!("{count} of yours read"))
    } else {
        check(
            "actions",
            Mark::Warn,
            format!("{count} of yours read; {}", problems.join("; ")),
        )
    })
}

/// The config file: found, readable, parses. Answers what it holds.
fn config_check(demo: bool, path: Option<&Path>) -> (Check, Option<FileConfig>) {
    if demo {
        let c = check("config", Mark::Pass, "not read: --demo runs on a built-in sandbox");
        return (c, None);
    }
    let Some(path) = path else {
        let why = "no config directory (set XDG_CONFIG_HOME or HOME); flags and environment only";
        return (check("config", Mark::Warn, why), None);
    };
    let shown = crate::files::tilde(path);
    match file::load(path) {
        Ok(Some((config, _))) => {
            let c = check("config", Mark::Pass, format!("{shown}: read and parsed"));
            (c, Some(config))
        }
        Ok(None) => {
            let why = format!("{shown}: none; the account comes from flags and environment");
            (check("config", Mark::Warn, why), None)
        }
        Err(e) => (check("config", Mark::Fail(status::USAGE), clean(&e)), None),
    }
}

/// Where a secret used came from, in the order they win: the command line's flag, the
/// environment, the profile's command, the profile's key.
fn source(
    flag: &str,
    variable: &str,
    given: bool,
    command: Option<&str>,
    key: &str,
) -> String {
    let on_command_line = std::env::args().any(|a| a == flag || a.starts_with(&format!("{flag}=")));
    let in_environment = std::env::var_os(variable).is_some_and(|v| !v.is_empty());
    match (given, on_command_line, in_environment, command) {
        (true, true, _, _) => format!("the {flag} flag"),
        (true, false, true, _) => format!("the environment variable {variable}"),
        (_, _, _, Some(command)) => format!("the profile's {command}"),
        _ => format!("the profile's {key} key"),
    }
}

/// The credentials resolve (a `token_command` runs, a key is there), named by kind and
/// by the source used (the flag, the variable, the profile's command or key), never shown.
fn credentials_check(
    settings: &Result<Settings, String>,
    read: Option<&FileConfig>,
    options: &Options,
) -> Check {
    let settings = match settings {
        Ok(s) => s,
        Err(e) => return check("credentials", Mark::Fail(status::USAGE), clean(e)),
    };
    let profile = read.and_then(|f| f.profiles.get(&settings.profile));
    let given = &options.connection.account;
    let kind = match &settings.credentials {
        Credentials::Token(_) => {
            let command = profile
                .and_then(|p| p.token_command.as_ref())
                .map(|_| "token_command");
            let from = source(
                "--token",
                "PROXYDASH_TOKEN",
                given.token.is_some(),
                command,
                "token",
            );
            format!("a token from {from}")
        }
        Credentials::Login { .. } => {
            let command = profile
                .and_then(|p| p.password_command.as_ref())
                .map(|_| "password_command");
            let from = source(
                "--password",
                "PROXYDASH_PASSWORD",
                given.password.is_some(),
                command,
                "password",
            );
            format!("a login and a password from {from}")
        }
    };
    let detail = format!(
        "profile {}: {kind} (not shown) for {}",
        settings.profile,
        clean(&settings.base_url)
    );
    check("credentials", Mark::Pass, detail)
}

/// A file that holds a key is readable by its owner only (unix).
fn permissions_check(path: &Path, read: &FileConfig) -> Check {
    let holds_key = read
        .profiles
        .values()
        .any(|p| p.token.is_some() || p.password.is_some());
    if !holds_key {
        return check("permissions", Mark::Pass, "the config file holds no key");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map_or(0, |m| m.permissions().mode() & 0o777);
        if mode & 0o077 != 0 {
            let why = format!(
                "mode {mode:04o} and it holds a key: others can read it; chmod 600 {}",
                crate::files::tilde(path)
            );
            return check("permissions", Mark::Fail(status::FAILED), why);
        }
        check("permissions", Mark::Pass, format!("mode {mode:04o}: only you can read the key"))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        check("permissions", Mark::Pass, "not checked on this system")
    }
}

/// One read of the credit through the scheduler, and what the budget learned from it.
async fn api_checks(settings: &Settings, demo: bool) -> Vec<Check> {
    let client = match ApiClient::new(settings.client_config()) {
        Ok(c) => c,
        Err(e) => return vec![check("api", Mark::Fail(status::USAGE), clean(&e.to_string()))],
    };
    // The account's budget as every command keeps it (none for the demo's new sandbox).
    let store = Store::default_location().filter(|_| !demo);
    let key = settings.budget_key();
    let budget = match &store {
        // What is wrong with the file is said by the state folder's check.
        Some(store) => Budget::of(store.load(&key, settings.max_rpm).0),
        None => settings.budget(),
    }
    .patience(crate::script::PATIENCE);
    // Counted with the profile's other processes, as every command's reads are.
    let log = crate::scheduler::SendLog::for_account(&settings.profile, &key).filter(|_| !demo);
    let budget = match log {
        Some(log) => budget.shared(log),
        None => budget,
    };
    let client = Door::new(client, budget.clone()).client;
    let started = Instant::now();
    let answer = client.credit().await;
    let took = started.elapsed().as_millis();
    if let Some(store) = &store {
        // Losing it only means the next command starts from less knowledge.
        let with_sends = budget.send_log().is_none_or(|l| l.is_off());
        let _ = store.save(&key, &budget.snapshot(), with_sends);
    }
    // A refusal with a status (a 400, a 401) is an answer too: the server spoke.
    let answered = answer.as_ref().map_or_else(|e| e.status().is_some(), |_| true);
    let api = match answer {
        Ok(c) => check(
            "api",
            Mark::Pass,
            format!("answered the credit read in {took} ms (credit {})", output::money(c.credit)),
        ),
        Err(error) => {
            let failure = Failure::Api {
                what: "Read the credit".into(),
                error,
            };
            let detail = failure.shown(Some(&settings.profile));
            check("api", Mark::Fail(failure.status()), detail)
        }
    };
    vec![api, rate_limit::rate_limit_check(&budget, settings.max_rpm, answered)]
}

/// The state directory (history, budget, alerts) can be written.
fn state_check() -> Check {
    let Some(dir) = crate::files::state_dir() else {
        let why = "no state directory (set XDG_STATE_HOME or HOME)";
        return check("state", Mark::Fail(status::FAILED), why);
    };
    let shown = crate::files::tilde(&dir);
    let probe: PathBuf = dir.join(format!(".doctor-{}", std::process::id()));
    let written = crate::files::create_private_dir(&dir)
        .and_then(|()| std::fs::write(&probe, b"doctor"))
        .and_then(|()| std::fs::remove_file(&probe));
    match written {
        Ok(()) => check("state", Mark::Pass, format!("{shown}: writable")),
        Err(e) => check(
            "state",
            Mark::Fail(status::FAILED),
            format!("{shown}: not writable: {e}"),
        ),
    }
}

/// A settings error; a failing `token_command` or `password_command` with how it ended
/// and how much it wrote to standard error, never what: its error output may hold the
/// secret (`auth error: token SECRETtok… expired`), so the user is told to run it by hand,
/// where what it says is theirs alone. Said here, where the user looks for why.
fn with_error_output(e: &ConfigError, file: Option<&std::path::Path>) -> String {
    let ConfigError::Command { failed, .. } = e else {
        return e.to_string();
    };
    let wrote = match failed.error_bytes {
        0 => "it wrote nothing to standard error".to_owned(),
        n if n > crate::config::secrets::MAX_OUTPUT => format!(
            "it wrote more than {} KiB to standard error (not shown: it may hold the secret)",
            crate::config::secrets::MAX_OUTPUT >> 10
        ),
        n => format!(
            "it wrote {n} byte{} to standard error (not shown: it may hold the secret)",
            if n == 1 { "" } else { "s" }
        ),
    };
    let place = file.map_or_else(
        || "your config file".to_owned(),
        |f| clean(&f.display().to_string()),
    );
    format!(
        "{e}; {wrote}; to see what it says, run the command of {} (in {place}) by hand in a shell",
        failed.key
    )
}

/// Server or file text made safe for one line.
fn clean(text: &str) -> String {
    output::sanitize(text).into_owned()
}

fn lines(checks: &[Check], several: bool) -> String {
    let named = |c: &Check| match &c.profile {
        Some(p) if several => format!("{p}: {}", c.name),
        _ => c.name.clone(),
    };
    let width = checks.iter().map(|c| named(c).chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for c in checks {
        let mark = match c.mark {
            Mark::Pass => '✓',
            Mark::Warn => '!',
            Mark::Unknown => '?',
            Mark::Fail(_) => '✗',
        };
        out.push_str(&format!("{mark} {:<width$}  {}\n", named(c), c.detail));
    }
    out
}

fn json(checks: &[Check]) -> String {
    let rows: Vec<_> = checks
        .iter()
        .map(|c| {
            let level = match c.mark {
                Mark::Pass => "ok",
                Mark::Warn => "warn",
                Mark::Unknown => "unknown",
                Mark::Fail(_) => "fail",
            };
            serde_json::json!({
                "profile": c.profile,
                "check": c.name,
                "level": level,
                "ok": !matches!(c.mark, Mark::Fail(_)),
                "detail": c.detail,
            })
        })
        .collect();
    output::json(&rows)
}
