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
use crate::history::marks::MarksDb;
use crate::options::{Options, Subcommand};
use chrono::{DateTime, Utc};
use clap::{Args, Subcommand as Subcommands};
use std::path::PathBuf;
use std::process::ExitCode;

/// Why a command failed, with its exit status.
enum Failed {
    /// 1: the file cannot be read or written.
    File(String),
    /// 2: what was typed does not read.
    Usage(String),
    /// 4: no such open alert or silence.
    NotFound(String),
}

impl Subcommand for AlertsArgs {
    async fn run(&self, options: &Options) -> ExitCode {
        run(options, self)
    }
}

pub fn run(cli: &Options, args: &AlertsArgs) -> ExitCode {
    match run_at(cli, args, Utc::now()) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(f) => {
            let (code, why) = match f {
                Failed::File(w) => (1, w),
                Failed::Usage(w) => (2, w),
                Failed::NotFound(w) => (4, w),
            };
            eprintln!("proxydash alerts: {why}");
            ExitCode::from(code)
        }
    }
}

fn run_at(cli: &Options, args: &AlertsArgs, now: DateTime<Utc>) -> Result<String, Failed> {
    let mut with = cli.clone();
    with.connection = cli
        .connection
        .with_file(args.profile.as_ref(), args.config.as_ref());
    let (profile, _) =
        crate::config::profile_name(&with).map_err(|e| Failed::Usage(e.to_string()))?;
    let path = crate::history::file_for(&profile)
        .ok_or_else(|| Failed::File("no state directory (set XDG_STATE_HOME or HOME)".into()))?;
    let file_error = |e: rusqlite::Error| Failed::File(format!("{}: {e}", path.display()));
    let mut db = MarksDb::open(&path).map_err(file_error)?;
    let marks = db.load().map_err(file_error)?;
    let (open, said) = AlertFile::default_location()
        .map(|f| f.load_profile(&profile))
        .unwrap_or_default();
    if let Some(said) = said {
        eprintln!("proxydash alerts: warning: {said}");
    }
    let command = args.command.clone().unwrap_or(AlertsCommand::List);
    let (change, said) = match command {
        AlertsCommand::List => return Ok(list(&open, &marks, now, args.json)),
        AlertsCommand::Ack { id, by } => ack(&open, &id, by, now)?,
        AlertsCommand::Silence {
            rule,
            service,
            length,
            reason,
            edit,
            by,
        } => {
            let target = Target {
                rule: rule
                    .map(|r| r.parse::<Rule>())
                    .transpose()
                    .map_err(Failed::Usage)?,
                service,
            };
            silence(&marks, target, &length, &reason, edit, by, now)?
        }
        AlertsCommand::Unsilence { id } => {
            let s = marks.find(&id).ok_or_else(|| {
                Failed::NotFound(format!("no silence {id:?} (proxydash alerts lists them)"))
            })?;
            let said = format!("ended silence {} ({})", s.id, s.target.describe());
            (MarkChange::Unsilence(s.id.clone()), said)
        }
    };
    db.apply(&change).map_err(file_error)?;
    // A script that silences wants the ID to end it with.
    let id = match &change {
        MarkChange::Silence(s) => Some(s.id.clone()),
        MarkChange::Unsilence(id) => Some(id.clone()),
        MarkChange::Ack(a) => Some(alert_id(&a.key)),
        MarkChange::Unack(key) => Some(alert_id(key)),
    };
    Ok(if args.json {
        serde_json::json!({ "done": said, "id": id }).to_string()
    } else {
        said
    })
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

/// The open alerts (most severe first) and the silences in force, as a table or JSON.
fn list(open: &[Alert], marks: &Marks, now: DateTime<Utc>, json: bool) -> String {
    let mut open: Vec<&Alert> = open.iter().filter(|a| a.resolved.is_none()).collect();
    open.sort_by(|a, b| b.level.cmp(&a.level).then(a.key.cmp(&b.key)));
    let silences: Vec<&Silence> = marks.active(now).collect();
    if json {
        let alerts: Vec<_> = open
            .iter()
            .map(|a| {
                serde_json::json!({
                    "id": alert_id(&a.key),
                    "rule": a.key.rule.as_str(),
                    "subject": a.key.subject.to_string(),
                    "level": a.level.as_str(),
                    "message": a.message,
                    "first_seen": a.first_seen.to_rfc3339(),
                    "not_checked_since": a.unchecked_since.map(|t| t.to_rfc3339()),
                    "acknowledged": marks.ack(&a.key).map(|k| serde_json::json!({"by": k.by, "at": k.at.to_rfc3339()})),
                    "silenced_by": marks.silence(&a.key, now).map(|s| s.id.clone()),
                })
            })
            .collect();
        let silences: Vec<_> = silences
            .iter()
            .map(|s| {
                serde_json::json!({
                    "id": s.id,
                    "rule": s.target.rule.map(Rule::as_str),
                    "service_id": s.target.service,
                    "until": s.until.to_rfc3339(),
                    "reason": s.reason,
                    "by": s.by,
                    "created": s.created.to_rfc3339(),
                })
            })
            .collect();
        let doc = serde_json::json!({ "alerts": alerts, "silences": silences });
        return serde_json::to_string_pretty(&doc).unwrap_or_default();
    }
    let mut out = Vec::new();
    if open.is_empty() {
        out.push("No open alerts.".to_owned());
    }
    for a in &open {
        let mark = match (marks.silence(&a.key, now), marks.ack(&a.key)) {
            (Some(s), _) => format!("silenced ({})", s.id),
            (None, Some(k)) => format!("acked by {}", k.by),
            (None, None) => String::new(),
        };
        out.push(format!(
            "{:<8} {:<28} {:<20} {}",
            a.level.as_str(),
            alert_id(&a.key),
            mark,
            match a.not_checked(chrono::FixedOffset::east_opt(0).expect("zero offset")) {
                Some(when) => format!("{} ({when})", crate::text::sanitize(&a.message)),
                None => crate::text::sanitize(&a.message).into_owned(),
            }
        ));
    }
    if !silences.is_empty() {
        out.push(String::new());
        out.push("Silences:".to_owned());
    }
    for s in silences {
        out.push(format!(
            "{:<8} {:<28} until {} UTC ({} left) · {} · {}",
            s.id,
            s.target.describe(),
            s.until.format("%Y-%m-%d %H:%M"),
            marks::format_duration(s.until - now),
            crate::text::sanitize(&s.reason),
            s.by
        ));
    }
    out.join("\n")
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
    /// The profile [default: the config file's default_profile].
    #[arg(long, env = "PROXYDASH_PROFILE", value_name = "NAME", global = true)]
    pub profile: Option<String>,
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
}
