//! `proxydash __complete …`: what the shell completion scripts (`proxydash completions
//! SHELL`) ask at TAB time. Not a subcommand of the command line: `main` hands it over
//! before anything else is read (no clap parse of the environment, no log file, no
//! runtime), so it is fast and cannot fail loudly.
//!
//! - `__complete profiles [--config PATH]`: the profiles of the config file, one a line,
//!   each with its base URL after a tab.
//! - `__complete services|products|invoices|clients [--profile NAME]… [--config PATH]`:
//!   the IDs the profile has last seen ([`crate::seen`], written when the command line,
//!   the dashboard or `watch` read that list), each with a few words after a tab
//!   (newest first). The profile is the one named, else `PROXYDASH_PROFILE`, else the
//!   config file's `default_profile` or only profile, else `default`.
//! - `__complete line -- WORDS…`: the words of the command line up to the one being
//!   completed (the program's name first, the current word last, as the shell has them):
//!   where that word is a profile (`--profile`) or an ID (`service ID`, `order PID`,
//!   `order --client ID`, `alerts silence --service ID`, `watch --keep-bound`, …, from
//!   the command tree: `position`), its candidates as above and status 0 (even when there
//!   are none, so the shell offers no file names there); anywhere else status 1, and the
//!   script completes subcommands and flags from clap's static script.
//!
//! It never asks the server, never runs a `token_command`, and says nothing on standard
//! error: a config file that does not read, a missing state directory or a broken file
//! give no candidates.

#[path = "complete/position.rs"]
mod position;

use crate::seen::{self, Kind};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// What a word is completed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    Profiles,
    Ids(Kind),
}

/// A question: what, for which profiles (as named on the line) and config file, and the
/// text each candidate is written after (`--profile=`, when the word holds it).
#[derive(Debug, Default)]
pub struct Ask {
    pub profiles: Vec<String>,
    pub config: Option<String>,
    pub prefix: String,
}

/// The answer when the program is run as `proxydash __complete …`; `None` otherwise.
pub fn run_if_asked() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != "__complete" {
        return None;
    }
    let args: Vec<String> = args.map(|a| a.to_string_lossy().into_owned()).collect();
    Some(answer(&args))
}

fn answer(args: &[String]) -> ExitCode {
    let (what, ask) = match args.split_first() {
        Some((line, words)) if line == "line" => {
            let words = words.strip_prefix(&["--".to_owned()]).unwrap_or(words);
            match position::at(words) {
                Some(found) => found,
                None => return ExitCode::from(1),
            }
        }
        Some((kind, flags)) => {
            let what = match Kind::parse(kind) {
                Some(kind) => What::Ids(kind),
                None if kind == "profiles" => What::Profiles,
                None => return ExitCode::from(1),
            };
            (what, flags_of(flags))
        }
        None => return ExitCode::from(1),
    };
    let mut out = std::io::stdout().lock();
    for line in candidates(what, &ask) {
        // A shell that stopped reading wants no more.
        if writeln!(out, "{}{line}", ask.prefix).is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}

/// `--profile NAME`… and `--config PATH` of `__complete KIND`.
fn flags_of(flags: &[String]) -> Ask {
    let mut ask = Ask::default();
    let mut words = flags.iter();
    while let Some(flag) = words.next() {
        match flag.as_str() {
            "--profile" => ask.profiles.extend(words.next().cloned()),
            "--config" => ask.config = words.next().cloned(),
            _ => {}
        }
    }
    ask
}

/// The candidates, one a line (`value` or `value\tdescription`).
pub fn candidates(what: What, ask: &Ask) -> Vec<String> {
    let file = config(ask);
    match what {
        What::Profiles => file
            .profiles
            .iter()
            .map(|(name, p)| match p.base_url.as_deref().map(clean) {
                Some(url) if !url.is_empty() => format!("{}\t{url}", clean(name)),
                _ => clean(name),
            })
            .collect(),
        What::Ids(kind) => {
            let mut seen_ids = std::collections::HashSet::new();
            profiles(ask, &file)
                .iter()
                .flat_map(|p| seen::read(p, kind))
                .filter(|(id, _)| seen_ids.insert(*id))
                .map(|(id, words)| format!("{id}\t{words}"))
                .collect()
        }
    }
}

/// Text for a shell's line: no control character (a tab or line break would split the
/// candidate), no escape sequence.
fn clean(s: &str) -> String {
    crate::text::sanitize(s).replace(['\t', '\n', '\r'], " ")
}

/// What the completion reads of the config file: the profiles' names and base URLs and
/// the default profile (every other key is left unread, so a file that another part of
/// proxydash would refuse still gives its names).
#[derive(Debug, Default, serde::Deserialize)]
struct Names {
    default_profile: Option<String>,
    #[serde(default)]
    profiles: BTreeMap<String, Profile>,
}

#[derive(Debug, Default, serde::Deserialize)]
struct Profile {
    base_url: Option<String>,
}

/// The config file named (on the line, else `PROXYDASH_CONFIG`, else the default place),
/// when it is a regular file under 1 MiB that reads; else nothing.
fn config(ask: &Ask) -> Names {
    let path = ask
        .config
        .clone()
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("PROXYDASH_CONFIG").map(PathBuf::from))
        .filter(|p| !p.as_os_str().is_empty())
        .or_else(crate::config::file::default_path);
    let Some(path) = path else {
        return Names::default();
    };
    // Followed if a link (dotfiles often are), but never a FIFO or a device.
    let regular = std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() < 1 << 20);
    if !regular {
        return Names::default();
    }
    std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| toml::from_str(&text).ok())
        .unwrap_or_default()
}

/// The profiles whose IDs are offered: those named, else `PROXYDASH_PROFILE`, else the
/// file's default or only profile, else `default` (as a command would choose).
fn profiles(ask: &Ask, file: &Names) -> Vec<String> {
    if !ask.profiles.is_empty() {
        return ask.profiles.clone();
    }
    if let Some(env) = std::env::var("PROXYDASH_PROFILE")
        .ok()
        .filter(|p| !p.is_empty())
    {
        return vec![env];
    }
    if let Some(name) = &file.default_profile {
        return vec![name.clone()];
    }
    match file.profiles.keys().next() {
        Some(only) if file.profiles.len() == 1 => vec![only.clone()],
        _ => vec!["default".to_owned()],
    }
}
