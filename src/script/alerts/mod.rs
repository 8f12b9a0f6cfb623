//! `proxydash alerts`: the open alerts of a profile as `watch` or the dashboard left them
//! (`alerts.json`), with the acknowledgements and silences of its history file; and the
//! changes to those, written where both read them before each sweep. No server is asked
//! and no credential resolved.
//!
//! Choices: acknowledging needs the alert to be open (a typo must not acknowledge
//! nothing and report success); silencing needs no alert (a service about to be worked
//! on can be silenced beforehand). Exit statuses are in `--help` and the README.

use crate::alerts::marks::{
    self, Ack, MarkChange, Marks, Silence, Target, alert_id, parse_alert_id, parse_duration,
};
use crate::alerts::store::AlertFile;
use crate::alerts::{Alert, Rule};
use crate::config::selection::{self, Unnamed};
use crate::history::marks::MarksDb;
use crate::options::{Options, Subcommand};
use crate::script::Form;
use chrono::{DateTime, Utc};
use clap::{Args, Subcommand as Subcommands};
use std::path::PathBuf;
use std::process::ExitCode;

mod list;
mod several;

use list::list;

/// Why a command failed, with its exit status.
enum Failed {
    /// 1: the file cannot be read or written.
    File(String),
    /// 1: some profiles' files could not be used; `text` is what was done in the others,
    /// printed all the same.
    Partly { text: String, why: String },
    /// 2: what was typed does not read.
    Usage(String),
    /// 4: no such open alert or silence.
    NotFound(String),
}

impl Subcommand for AlertsArgs {
    async fn run(&self, options: &Options) -> ExitCode {
        if options.demo {
            return crate::options::refuse_demo(
                "alerts",
                "the demo keeps its alerts and their marks in memory, in the dashboard or `watch` that runs it",
            );
        }
        run(options, self)
    }
}

pub fn run(cli: &Options, args: &AlertsArgs) -> ExitCode {
    // Profile names come from the config file: cleaned like server text (issue 46.7).
    use super::output::clean_lines;
    let mut args = args.clone();
    args.json |= args.jq.is_some() || args.format == Some(Form::Json);
    let done = match &args.command {
        Some(AlertsCommand::Rules) if args.jq.is_some() || args.format.is_some() => Err(
            Failed::Usage("alerts rules prints YAML: --jq and --format are not for it".into()),
        ),
        _ => run_at(cli, &args, Utc::now()),
    };
    let (text, failed) = match done {
        Ok(text) => (Some(text), None),
        Err(Failed::Partly { text, why }) => (Some(text), Some((1, why))),
        Err(Failed::File(w)) => (None, Some((1, w))),
        Err(Failed::Usage(w)) => (None, Some((2, w))),
        Err(Failed::NotFound(w)) => (None, Some((4, w))),
    };
    let mut code = 0;
    if let Some(text) = text {
        let mut shown = clean_lines(&text, args.json);
        if !shown.ends_with('\n') {
            shown.push('\n');
        }
        if let Err(e) = super::jq::answer(&shown, args.jq.as_ref()) {
            eprintln!("proxydash alerts: {}", clean_lines(&e, false));
            code = 1;
        }
    }
    if let Some((status, why)) = failed {
        eprintln!("proxydash alerts: {}", clean_lines(&why, false));
        code = status;
    }
    ExitCode::from(code)
}

/// The form of the list: JSON when asked for, else `--format` (a table by default).
fn form(args: &AlertsArgs) -> Form {
    match args.json {
        true => Form::Json,
        false => args.format.unwrap_or_default(),
    }
}

fn run_at(cli: &Options, args: &AlertsArgs, now: DateTime<Utc>) -> Result<String, Failed> {
    let mut with = cli.clone();
    with.connection = cli
        .connection
        .with_file(args.profile.as_ref(), args.config.as_ref());
    if args.all_profiles {
        with.connection.all_profiles = true;
        with.connection.profile.clear();
    }
    let command = args.command.clone().unwrap_or(AlertsCommand::List);
    if let AlertsCommand::Rules = command {
        return prometheus_rules(&with);
    }
    let named = &with.connection.profile;
    if with.connection.all_profiles || named.iter().any(|n| *n != named[0]) {
        let names = selection::profiles(&with, Unnamed::DefaultProfile)
            .map_err(|e| Failed::Usage(e.to_string()))?
            .into_iter()
            .flatten()
            .collect::<Vec<_>>();
        return several::several(&names, command, form(args), now);
    }
    if let AlertsCommand::Unsilence { id } = &command
        && named.is_empty()
    {
        return several::unsilence_anywhere(&with, id, args.json);
    }
    let (profile, _) =
        crate::config::profile_name(&with).map_err(|e| Failed::Usage(e.to_string()))?;
    let path = crate::history::file_for(&profile)
        .ok_or_else(|| Failed::File("no state directory (set XDG_STATE_HOME or HOME)".into()))?;
    let file_error = |e: rusqlite::Error| Failed::File(format!("{}: {e}", path.display()));
    let mut db = MarksDb::open(&path).map_err(file_error)?;
    let marks = db.load().map_err(file_error)?;
    let open = open_alerts(&profile);
    let (change, said) = match command {
        AlertsCommand::List => {
            return Ok(list(
                &[(profile.as_str(), open.as_slice(), &marks)],
                now,
                form(args),
            ));
        }
        AlertsCommand::Ack { id, by } => ack(&open, &id, by, now)?,
        AlertsCommand::Silence {
            rule,
            service,
            length,
            reason,
            edit,
            by,
        } => {
            let target = target(rule, service)?;
            silence(&marks, target, &length, &reason, edit, by, now)?
        }
        AlertsCommand::Unsilence { id } => unsilence(&marks, &id)?,
        AlertsCommand::Rules => return prometheus_rules(&with),
    };
    db.apply(&change).map_err(file_error)?;
    Ok(done(&change, said, None, args.json))
}

/// `alerts rules`: the profile's thresholds, refresh and `probe_every`, else the defaults
/// when no profile is configured (as the shipped file).
fn prometheus_rules(cli: &Options) -> Result<String, Failed> {
    use crate::config::{ConfigError, Settings};
    let (rules, refresh, probe_every) = match Settings::resolve_for_show(cli) {
        Ok(s) => (s.alert_rules, s.refresh, s.probe.every),
        Err(ConfigError::NoAccount) => (crate::alerts::Rules::default(), None, None),
        Err(e) => return Err(Failed::Usage(e.to_string())),
    };
    let refresh = refresh.unwrap_or(std::time::Duration::from_secs(
        crate::config::DEFAULT_REFRESH_SECS,
    ));
    // Rounds are off unless asked for; the rules then assume the usual cadence.
    let probe_every = probe_every.unwrap_or(crate::config::RULES_PROBE_EVERY);
    Ok(
        crate::alerts::policy::prometheus_yaml(&rules, refresh, probe_every)
            .trim_end()
            .to_owned(),
    )
}

/// The open alerts of `profile` as `watch` and the dashboard left them; what was wrong
/// with the file is said on standard error.
fn open_alerts(profile: &str) -> Vec<Alert> {
    let (open, said) = AlertFile::default_location()
        .map(|f| f.load_profile(profile))
        .unwrap_or_default();
    if let Some(said) = said {
        eprintln!("proxydash alerts: warning: {said}");
    }
    open
}

fn target(rule: Option<String>, service: Option<u64>) -> Result<Target, Failed> {
    Ok(Target {
        rule: rule
            .map(|r| r.parse::<Rule>())
            .transpose()
            .map_err(Failed::Usage)?,
        service,
    })
}

fn unsilence(marks: &Marks, id: &str) -> Result<(MarkChange, String), Failed> {
    let s = marks.find(id).ok_or_else(|| {
        Failed::NotFound(format!("no silence {id:?} (proxydash alerts lists them)"))
    })?;
    let said = format!("ended silence {} ({})", s.id, s.target.describe());
    Ok((MarkChange::Unsilence(s.id.clone()), said))
}

/// What a change prints: `said`, or with `--json` the line and the ID a script goes on
/// with (and the profiles it was made in, over several).
fn done(change: &MarkChange, said: String, profiles: Option<&[String]>, json: bool) -> String {
    if !json {
        return said;
    }
    // A script that silences wants the ID to end it with.
    let id = match change {
        MarkChange::Silence(s) => s.id.clone(),
        MarkChange::Unsilence(id) => id.clone(),
        MarkChange::Ack(a) => alert_id(&a.key),
        MarkChange::Unack(key) => alert_id(key),
    };
    match profiles {
        Some(p) => serde_json::json!({ "done": said, "id": id, "profiles": p }).to_string(),
        None => serde_json::json!({ "done": said, "id": id }).to_string(),
    }
}

fn ack(
    open: &[Alert],
    id: &str,
    by: Option<String>,
    now: DateTime<Utc>,
) -> Result<(MarkChange, String), Failed> {
    let key = parse_alert_id(id).map_err(Failed::Usage)?;
    if !open.iter().any(|a| a.key == key && a.resolved.is_none()) {
        return Err(Failed::NotFound(format!(
            "no open alert {} (proxydash alerts lists them)",
            alert_id(&key)
        )));
    }
    let by = clean_name(by);
    let said = format!("acknowledged {} by {by}", alert_id(&key));
    Ok((MarkChange::Ack(Ack { key, by, at: now }), said))
}

fn silence(
    marks: &Marks,
    target: Target,
    length: &str,
    reason: &str,
    edit: Option<String>,
    by: Option<String>,
    now: DateTime<Utc>,
) -> Result<(MarkChange, String), Failed> {
    if target.rule.is_none() && target.service.is_none() {
        return Err(Failed::Usage(
            "say what to silence: --rule, --service, or both".into(),
        ));
    }
    let length = parse_duration(length).map_err(Failed::Usage)?;
    let reason = crate::text::sanitize(reason.trim()).into_owned();
    if reason.is_empty() {
        return Err(Failed::Usage("--reason: say why".into()));
    }
    let id = match edit {
        Some(id) => marks
            .find(&id)
            .map(|s| s.id.clone())
            .ok_or_else(|| Failed::NotFound(format!("no silence {id:?} to edit")))?,
        None => marks::new_id(),
    };
    let s = Silence {
        id,
        target,
        until: now + length,
        reason,
        by: clean_name(by),
        created: now,
    };
    let said = format!(
        "silence {}: {} until {} UTC ({})",
        s.id,
        s.target.describe(),
        s.until.format("%Y-%m-%d %H:%M"),
        s.reason
    );
    Ok((MarkChange::Silence(s), said))
}

fn clean_name(by: Option<String>) -> String {
    by.map(|b| crate::text::truncate(&crate::text::sanitize(b.trim()), 32).into_owned())
        .filter(|b| !b.is_empty())
        .unwrap_or_else(marks::who)
}

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Example:\n  proxydash alerts\n  proxydash alerts ack service_status:1002\n  \
proxydash alerts silence --rule rate_limit --service 1003 --for 8h --reason \"load test\"\n  \
proxydash alerts unsilence 3fa2c1\n\n\
Exit status: 0 done; 1 the history file cannot be read or written; 2 bad usage (an ID, \
length or target that does not read); 4 no such open alert or silence."
)]
pub struct AlertsArgs {
    #[command(subcommand)]
    pub command: Option<AlertsCommand>,
    /// Print JSON instead of a table (the list) or a line (the others).
    #[arg(long, global = true)]
    pub json: bool,
    /// Filter the JSON with a jq expression (implies --json): each result on a line,
    /// strings without quotes.
    #[arg(long, value_name = "EXPR", value_parser = super::jq::parse, global = true)]
    pub jq: Option<super::jq::Jq>,
    /// How to print the list: table (the default), json (as --json), csv or tsv (the open
    /// alerts: a header row and the table's columns).
    #[arg(long, value_enum, value_name = "FORMAT", global = true,
          conflicts_with_all = ["json", "jq"])]
    pub format: Option<Form>,
    /// The profile [default: the config file's default_profile; `unsilence` looks in every
    /// profile].
    // Its own ID: clap copies a value of the top-level `--profile` into a global
    // argument of the same ID, the first of several only (`--profile a --profile b
    // alerts` would list `a` alone).
    #[arg(
        long = "profile",
        id = "alerts_profile",
        env = "PROXYDASH_PROFILE",
        value_name = "NAME",
        global = true,
        conflicts_with = "all_profiles"
    )]
    pub profile: Option<String>,
    /// Every profile of the config file: the list over all of them (a PROFILE column), an
    /// acknowledgement where the alert is open, a silence in each, an unsilence in each
    /// that holds it.
    #[arg(long, global = true)]
    pub all_profiles: bool,
    /// The config file that names the profiles.
    #[arg(long, env = "PROXYDASH_CONFIG", value_name = "PATH", global = true)]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Clone, Subcommands)]
pub enum AlertsCommand {
    /// List the open alerts (with their IDs), acknowledgements and silences (the default).
    List,
    /// Acknowledge an open alert: it stays listed and is not delivered again until it
    /// resolves.
    Ack {
        /// The alert's ID, as the list shows it (`service_status:1002`, `credit_low`).
        #[arg(value_name = "ID")]
        id: String,
        /// Who acknowledges [default: the login name].
        #[arg(long, value_name = "NAME")]
        by: Option<String>,
    },
    /// Silence a rule, a service, or a rule on a service for a while: nothing covered is
    /// delivered (to `on_alert`, by `watch`, in the status line) until it ends.
    Silence {
        /// The rule (`rate_limit`, `service_due`, …).
        #[arg(long, value_name = "RULE")]
        rule: Option<String>,
        /// The service.
        #[arg(long, value_name = "ID")]
        service: Option<u64>,
        /// How long: `90m`, `8h`, `2h30m`, `1d` (at most 90 days).
        #[arg(long = "for", value_name = "LENGTH")]
        length: String,
        /// Why (shown with the silence).
        #[arg(long, value_name = "TEXT")]
        reason: String,
        /// Edit this silence instead of adding one.
        #[arg(long, value_name = "SILENCE")]
        edit: Option<String>,
        /// Who silences [default: the login name].
        #[arg(long, value_name = "NAME")]
        by: Option<String>,
    },
    /// End a silence now.
    Unsilence {
        /// The silence's ID, as the list shows it.
        #[arg(value_name = "ID")]
        id: String,
    },
    /// Print Prometheus alert rules that say what the built-in rules say (the same
    /// conditions, levels and waits), for this profile's thresholds and refresh:
    /// `assets/watch/proxydash-alerts.yml` is this for the defaults.
    Rules,
}
