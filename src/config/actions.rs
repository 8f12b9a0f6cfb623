//! Your own actions (as k9s plugins): `[[actions]]` in the config file for every profile,
//! `[[profiles.NAME.actions]]` for one. Each is a key, the tabs it applies to, a
//! description, and a command as an argument list; no shell runs it unless the user
//! writes `sh -c` themselves.
//!
//! ```toml
//! [[actions]]
//! key = "X"                       # one character, or ctrl-<letter>
//! tabs = ["services"]             # default: services
//! description = "Push the list to the proxy manager"
//! command = ["pm", "push", "--id", "{service_id}", "--file", "{iplist_file}"]
//! confirm = true                  # ask before running (default false)
//! background = true               # output to `m` (default); false: the dashboard gives
//!                                 # the terminal to the command and comes back after
//! secrets = false                 # allows {username} and {password}
//! writes = false                  # true: a read-only profile does not run it
//! per_row = false                 # with marked rows: once per row (default: once,
//!                                 # with {service_ids})
//! ```
//!
//! Placeholders, filled from the highlighted row (or each marked row, with `per_row`):
//! [`PLACEHOLDERS`]. Each fills part of one
//! argument whatever the server put in it (no word splitting; a value holding a control
//! character refuses the run). A definition that does not read (a missing key, an unknown
//! placeholder, `{password}` without `secrets = true`, a key the tab already uses) is said
//! at start and by `doctor` with its line, and only it is left out.

use serde::Deserialize;

/// Every placeholder, and where it comes from.
pub const PLACEHOLDERS: &[(&str, &str)] = &[
    ("profile", "the profile's name"),
    ("service_id", "Services: the service"),
    (
        "service_ids",
        "Services: the marked services, space-separated (an argument that is only this: one argument each); the highlighted one without marks",
    ),
    ("product_id", "Services: its product; Products: the product"),
    ("product_name", "Services, Products: the product's name"),
    (
        "status",
        "Services: the service's status; Billing: the invoice's",
    ),
    ("bound_ip", "Services: the bound IP (from the detail)"),
    ("due", "Services: the next due date"),
    ("invoice_id", "Billing: the invoice"),
    ("alert_id", "Alerts: the alert (rule:subject)"),
    (
        "iplist_file",
        "Services: the IP list, written to a fresh 0600 file whose path is passed",
    ),
    (
        "username",
        "Services: the proxy username (needs secrets = true)",
    ),
    (
        "password",
        "Services: the proxy password (needs secrets = true)",
    ),
];

/// The tabs an action may name, in the tabs' order (`app::tabs::Tab::ALL`; a test holds
/// them together).
pub const TABS: &[&str] = &[
    "services", "products", "billing", "network", "usage", "alerts", "clients",
];

/// The most bytes of a background command's output kept.
pub const OUTPUT_MAX: usize = 16 * 1024;
/// The most lines of it said in `m`.
pub const LINES_KEPT: usize = 20;
/// A background command running longer is stopped.
pub const TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(600);

/// One of your actions ready to run (`app::user_actions` makes it, the effects or the
/// run loop run it): its arguments (placeholders filled, `{iplist_file}` kept for
/// the file the runner writes) and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The action's description, naming it in `m`.
    pub name: String,
    pub argv: Vec<String>,
    pub background: bool,
    /// The IP list to write to a fresh file for `{iplist_file}` (set once it is fetched).
    pub iplist: Option<String>,
}

/// The command line as a person reads it: each argument quoted when it needs it.
pub fn shown_command(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./:=@,+%{}".contains(c))
            {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How a command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// Its exit code (`None`: ended by a signal, or stopped at the time limit).
    pub code: Option<i32>,
    /// Its last lines of output (background only).
    pub lines: Vec<String>,
    pub timed_out: bool,
}

/// An action as the config file writes it (checked by [`read`]).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    key: String,
    #[serde(default)]
    tabs: Option<Vec<String>>,
    description: String,
    command: Vec<String>,
    #[serde(default)]
    confirm: bool,
    #[serde(default = "yes")]
    background: bool,
    #[serde(default)]
    secrets: bool,
    #[serde(default)]
    writes: bool,
    #[serde(default)]
    per_row: bool,
}

fn yes() -> bool {
    true
}

/// A key as an action names it: a character, with Ctrl or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub ch: char,
    pub ctrl: bool,
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.ctrl {
            write!(f, "Ctrl-{}", self.ch.to_ascii_uppercase())
        } else {
            write!(f, "{}", self.ch)
        }
    }
}

/// One action that reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserAction {
    pub key: Key,
    /// Indices into [`TABS`].
    pub tabs: Vec<usize>,
    pub description: String,
    pub command: Vec<String>,
    pub confirm: bool,
    pub background: bool,
    pub secrets: bool,
    pub writes: bool,
    /// With marks: run once per marked row (else once, with `{service_ids}`).
    pub per_row: bool,
    /// Where it is written: `config.toml line 12`.
    pub at: String,
}

impl UserAction {
    /// Whether its command needs `name` filled.
    pub fn uses(&self, name: &str) -> bool {
        let p = format!("{{{name}}}");
        self.command.iter().any(|a| a.contains(&p))
    }
}

impl super::Settings {
    /// The file's actions and the profile's: those that read; what is wrong with the others
    /// goes to the warnings with its line (the header says it, `doctor` too).
    pub(super) fn set_actions(
        &mut self,
        file: &super::FileConfig,
        p: &super::file::Profile,
        path: Option<&std::path::Path>,
    ) {
        let name = path
            .and_then(|p| p.file_name())
            .map_or_else(|| "config".to_owned(), |n| n.to_string_lossy().into_owned());
        let written: Vec<(String, toml::Value)> = file
            .actions
            .iter()
            .chain(p.actions.iter())
            .flatten()
            .map(|a| {
                let line = file.line_at(a.span().start);
                (format!("{name} line {line}"), a.get_ref().clone())
            })
            .collect();
        let (actions, problems) = read(&written);
        self.actions = actions;
        self.warnings.extend(problems);
    }
}

/// The actions written at `at` (`config.toml line 12`, one per value), those that read,
/// and what is wrong with the others (each with where it is).
pub fn read(written: &[(String, toml::Value)]) -> (Vec<UserAction>, Vec<String>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for (at, value) in written {
        match one(value.clone()) {
            Ok(mut a) => {
                a.at = at.clone();
                if let Some(other) = good.iter().find(|o: &&UserAction| {
                    o.key == a.key && o.tabs.iter().any(|t| a.tabs.contains(t))
                }) {
                    bad.push(format!(
                        "action at {at}: key {} is already the action at {}",
                        a.key, other.at
                    ));
                } else {
                    good.push(a);
                }
            }
            Err(why) => bad.push(format!("action at {at}: {why}; left out")),
        }
    }
    (good, bad)
}

fn one(value: toml::Value) -> Result<UserAction, String> {
    let w: Written = value
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_owned())?;
    let key = key(&w.key)?;
    let tabs = match &w.tabs {
        None => vec![0],
        Some(names) if names.is_empty() => return Err("tabs is empty".into()),
        Some(names) => names
            .iter()
            .map(|n| {
                TABS.iter()
                    .position(|t| t.eq_ignore_ascii_case(n))
                    .ok_or_else(|| format!("no tab {n:?} (the tabs: {})", TABS.join(", ")))
            })
            .collect::<Result<_, _>>()?,
    };
    if w.command.is_empty() || w.command[0].trim().is_empty() {
        return Err("command is empty: give the program and its arguments as a list".into());
    }
    if w.description.trim().is_empty() {
        return Err("description is empty".into());
    }
    for arg in &w.command {
        for name in placeholders_in(arg)? {
            if !PLACEHOLDERS.iter().any(|(p, _)| *p == name) {
                return Err(format!(
                    "no placeholder {{{name}}} (the placeholders: {})",
                    PLACEHOLDERS
                        .iter()
                        .map(|(p, _)| format!("{{{p}}}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            if matches!(name, "username" | "password") && !w.secrets {
                return Err(format!("{{{name}}} needs secrets = true"));
            }
        }
    }
    Ok(UserAction {
        key,
        tabs,
        description: w.description.trim().to_owned(),
        command: w.command,
        confirm: w.confirm,
        background: w.background,
        secrets: w.secrets,
        writes: w.writes,
        per_row: w.per_row,
        at: String::new(),
    })
}

/// `X`, `ctrl-x`.
fn key(s: &str) -> Result<Key, String> {
    let lower = s.to_ascii_lowercase();
    let (ctrl, rest) = match lower
        .strip_prefix("ctrl-")
        .or_else(|| lower.strip_prefix("ctrl+"))
    {
        Some(_) => (true, &s[5..]),
        None => (false, s),
    };
    let mut chars = rest.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if ctrl && c.is_ascii_alphabetic() => Ok(Key {
            ch: c.to_ascii_lowercase(),
            ctrl,
        }),
        (Some(c), None) if !ctrl && !c.is_control() && c != ' ' => Ok(Key { ch: c, ctrl }),
        _ => Err(format!("key {s:?} is not one character or ctrl-<letter>")),
    }
}

/// The `{name}`s of an argument; a `{` not closed is an error (write `{{` for a brace).
pub fn placeholders_in(arg: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let mut rest = arg;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        if let Some(stripped) = after.strip_prefix('{') {
            rest = stripped;
            continue;
        }
        let close = after
            .find('}')
            .ok_or_else(|| format!("{arg:?} opens a {{ it does not close"))?;
        out.push(&after[..close]);
        rest = &after[close + 1..];
    }
    Ok(out)
}

/// `arg` with its placeholders filled by `value`; `{{` and `}}` are braces. A value with a
/// control character (a line break a server slipped into a name) refuses the argument.
pub fn fill(arg: &str, value: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = arg;
    loop {
        let Some(open) = rest.find(['{', '}']) else {
            out.push_str(rest);
            return Ok(out);
        };
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        if rest[open..].starts_with("{{") || rest[open..].starts_with("}}") {
            out.push_str(&rest[open..=open]);
            rest = &after[1..];
            continue;
        }
        if rest[open..].starts_with('}') {
            out.push('}');
            rest = after;
            continue;
        }
        let close = after.find('}').ok_or("an unclosed {")?;
        let name = &after[..close];
        let v = value(name).ok_or_else(|| format!("{{{name}}} is not known for this row"))?;
        if v.chars().any(char::is_control) {
            return Err(format!(
                "{{{name}}} holds a control character (a line break, an escape)"
            ));
        }
        out.push_str(&v);
        rest = &after[close + 1..];
    }
}

#[cfg(test)]
#[path = "actions_tests.rs"]
mod tests;
