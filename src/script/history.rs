//! `proxydash history export`: the history file of a profile, as CSV or JSON on standard
//! output (see [`crate::history::export`] for the rows). It reads the file through a
//! read-only connection, so it can run beside a dashboard that is writing it, and asks no
//! server anything (no credentials are resolved).

use crate::history::export::{self, Format};
use crate::history::{self, Store};
use crate::options::{Options, Subcommand};
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
    let format = if args.json { Format::Json } else { Format::Csv };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match export_file(&path, &profile, since, format, &mut out).and_then(|n| {
        out.flush().map_err(|e| e.to_string())?;
        Ok(n)
    }) {
        Ok(_) => ExitCode::SUCCESS,
        // `| head` closing the pipe early is not a failure.
        Err(e) if e.contains("Broken pipe") => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proxydash: {e}");
            ExitCode::from(1)
        }
    }
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
    if !path.exists() {
        return Err(format!(
            "no history for profile {profile} yet ({} does not exist; the dashboard writes it)",
            path.display()
        ));
    }
    let conn = Store::open_read_only(path)
        .map_err(|e| format!("cannot read the history file {}: {e}", path.display()))?;
    export::export(&conn, since, format, out)
        .map_err(|e| format!("cannot read the history file {}: {e}", path.display()))
}

#[derive(Debug, Clone, Subcommands)]
pub enum HistoryCommand {
    /// Print every change kept since a time, oldest first, as CSV (default) or JSON.
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
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV with a header line (the default).
    #[arg(long)]
    pub csv: bool,
}
