//! `proxydash history export`: the history file of a profile, as CSV or JSON on standard
//! output (see [`crate::history::export`] for the rows). It reads the file through a
//! read-only connection, so it can run beside a dashboard that is writing it, and asks no
//! server anything (no credentials are resolved).

use super::format::Form;
use super::jq::Jq;
use super::output::{Align, Table, emit};
use crate::history::export::{self, Format};
use crate::history::{self, Store};
use crate::options::{Options, Subcommand};
use clap::builder::ArgPredicate;
use clap::{Args, Subcommand as Subcommands};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

impl Subcommand for HistoryCommand {
    async fn run(&self, options: &Options) -> ExitCode {
        if options.demo {
            return crate::options::refuse_demo(
                "history",
                "the demo keeps no history (its sandbox is new each time)",
            );
        }
        run(options, self)
    }
}

pub fn run(cli: &Options, command: &HistoryCommand) -> ExitCode {
    match command {
        HistoryCommand::Export(args) => export_command(cli, args),
    }
}

fn export_command(cli: &Options, args: &HistoryExportArgs) -> ExitCode {
    let since = match export::parse_since(&args.since, chrono::Utc::now()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("proxydash: {e}");
            return ExitCode::from(2);
        }
    };
    let mut with = cli.clone();
    with.connection = cli
        .connection
        .with_file(args.profile.as_ref(), args.config.as_ref());
    // `demo` names the history of `--demo`, which has no profile in the config file, and
    // `default` that of an account given by the environment alone, kept after a config
    // file appears. Any profile named whose history file exists is exported: the export
    // reads a file and asks no server.
    let asked = match with.connection.profile.as_slice() {
        [one] => Some(one.as_str()),
        _ => None,
    };
    let profile = match crate::config::profile_name(&with) {
        _ if asked == Some("demo") => "demo".to_owned(),
        Err(_) if asked.is_some_and(history_exists) => asked.unwrap_or_default().to_owned(),
        Ok((name, _)) => name,
        Err(e) => {
            eprintln!("proxydash: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(path) = history::file_for(&profile) else {
        eprintln!("proxydash: no state directory (set XDG_STATE_HOME or HOME)");
        return ExitCode::from(1);
    };
    let printed = match (args.form(), &args.jq) {
        (Form::Table, _) => table(&path, &profile, since).and_then(|t| emit(&t)),
        (Form::Json, Some(jq)) => {
            let mut json = Vec::new();
            export_file(&path, &profile, since, Format::Json, &mut json)
                .and_then(|_| jq.print(&String::from_utf8_lossy(&json)))
        }
        (form, _) => {
            let format = match form {
                Form::Json => Format::Json,
                Form::Tsv => Format::Tsv,
                _ => Format::Csv,
            };
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            export_file(&path, &profile, since, format, &mut out)
                .and_then(|_| out.flush().map_err(|e| e.to_string()))
        }
    };
    match printed {
        Ok(()) => ExitCode::SUCCESS,
        // `| head` closing the pipe early is not a failure.
        Err(e) if e.contains("Broken pipe") => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proxydash: {}", super::output::sanitize(&e));
            ExitCode::from(1)
        }
    }
}

/// The history as an aligned table (`--format table`), read whole.
fn table(path: &Path, profile: &str, since: i64) -> Result<String, String> {
    let conn = open(path, profile)?;
    let rows = export::cells(&conn, since).map_err(unreadable(path))?;
    let columns: Vec<(&str, Align)> = export::HEADERS.iter().map(|h| (*h, Align::Left)).collect();
    let mut t = Table::new(&columns);
    for row in rows {
        t.row(row);
    }
    Ok(t.render())
}

/// Whether `profile` has a history file (a profile since taken out of the config file,
/// or the environment's `default`).
fn history_exists(profile: &str) -> bool {
    history::file_for(profile).is_some_and(|p| p.exists())
}

/// Exports the history file at `path` (of `profile`, for the messages).
pub fn export_file(
    path: &Path,
    profile: &str,
    since: i64,
    format: Format,
    out: &mut dyn Write,
) -> Result<u64, String> {
    let conn = open(path, profile)?;
    export::export(&conn, since, format, out).map_err(unreadable(path))
}

/// The history file at `path` (of `profile`, for the messages), read-only.
fn open(path: &Path, profile: &str) -> Result<rusqlite::Connection, String> {
    if !path.exists() {
        return Err(format!(
            "no history for profile {profile} yet ({} does not exist; the dashboard writes it)",
            path.display()
        ));
    }
    Store::open_read_only(path).map_err(unreadable(path))
}

fn unreadable<E: std::fmt::Display>(path: &Path) -> impl Fn(E) -> String + '_ {
    move |e| format!("cannot read the history file {}: {e}", path.display())
}

#[derive(Debug, Clone, Subcommands)]
pub enum HistoryCommand {
    /// Print every change kept since a time, oldest first, as CSV (default), TSV, JSON or
    /// a table.
    #[command(
        after_help = "Example:\n  proxydash history export --since 7d --csv > week.csv\n  \
proxydash history export --profile monitor --since 2026-11-01 --json | jq '.[] | select(.kind == \"error_start\")'"
    )]
    Export(HistoryExportArgs),
}

#[derive(Debug, Clone, Args)]
pub struct HistoryExportArgs {
    /// The profile whose history to export [default: the config file's default_profile].
    #[arg(long, env = "PROXYDASH_PROFILE", value_name = "NAME")]
    pub profile: Option<String>,
    /// The config file that names the profiles.
    #[arg(long, env = "PROXYDASH_CONFIG", value_name = "PATH")]
    pub config: Option<std::path::PathBuf>,
    /// From when: a span back from now (`7d`, `12h`, `30m`) or a date (`2026-11-01`, UTC).
    #[arg(long, value_name = "WHEN", default_value = "7d")]
    pub since: String,
    /// Print JSON: an array of objects.
    #[arg(
        long,
        conflicts_with = "csv",
        default_value_if("jq", ArgPredicate::IsPresent, "true")
    )]
    pub json: bool,
    /// Filter the JSON with a jq expression (implies --json): each result on a line,
    /// strings without quotes.
    #[arg(long, value_name = "EXPR", value_parser = super::jq::parse, conflicts_with = "csv")]
    pub jq: Option<Jq>,
    /// Print CSV with a header line (the default).
    #[arg(long)]
    pub csv: bool,
    /// How to print the rows: csv (the default, as --csv), tsv, json (as --json) or table.
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with_all = ["json", "jq", "csv"])]
    pub format: Option<Form>,
}

impl HistoryExportArgs {
    /// The form asked for: JSON with `--json` or `--jq`, else `--format`, else CSV.
    fn form(&self) -> Form {
        match self.json {
            true => Form::Json,
            false => self.format.unwrap_or(Form::Csv),
        }
    }
}
