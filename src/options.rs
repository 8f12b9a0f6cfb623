//! The command line's options that every run reads (the account, the look, the log), as
//! clap defines them: read by the settings, the dashboard and every subcommand, naming
//! none of them.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

mod account;

pub use account::{AccountArgs, AccountOptions};

/// How a subcommand runs, given its arguments: each subcommand's arguments implement it,
/// and the list of subcommands (`crate::cli`) calls it. A scripting subcommand implements
/// `crate::script::Script` instead, which runs it on an account the common way.
// Run by `block_on` on the main thread: the future need not be `Send`.
#[allow(async_fn_in_trait)]
pub trait Subcommand {
    /// Runs with the options given before the subcommand's name; answers the exit status.
    async fn run(&self, options: &Options) -> ExitCode;
}

/// What a subcommand that cannot run on the demo answers to `--demo` (issue 45: with a
/// real profile configured it would otherwise act on it): exit 2, saying why and what to
/// do instead.
pub fn refuse_demo(subcommand: &str, why: &str) -> ExitCode {
    eprintln!(
        "proxydash {subcommand}: --demo does not apply: {why}. Run it without --demo to act on a profile of the config file."
    );
    ExitCode::from(2)
}

/// The options given before any subcommand (`proxydash --profile shop --refresh 10`), and
/// the environment's.
#[derive(Debug, Clone, Args)]
pub struct Options {
    #[command(flatten)]
    pub connection: ConnectionArgs,

    /// Run the dashboard on a built-in sandbox server (no account needed).
    #[arg(long)]
    pub demo: bool,

    /// Seconds between automatic refreshes of each pane; 0 turns them off [default: 30].
    #[arg(long, value_name = "SECS")]
    pub refresh: Option<u64>,

    /// Capture the mouse (wheel scrolling, click to select). Off by default so the terminal's
    /// own text selection keeps working.
    #[arg(long)]
    pub mouse: bool,

    /// Colour theme: dark, light, or a skin of yours (themes/NAME.toml beside the config
    /// file). NO_COLOR in the environment turns colour off.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<ThemeName>,

    /// Clipboard: auto, system, osc52 or off [default: auto].
    #[arg(long, value_name = "MODE", ignore_case = true)]
    pub clipboard: Option<crate::clipboard::ClipboardMode>,

    /// Where diagnostics go [default: proxydash.log in the state directory]; the level comes
    /// from PROXYDASH_LOG (info, debug, trace).
    #[arg(long, value_name = "PATH", global = true)]
    pub log_file: Option<PathBuf>,
}

/// Where the API is and how to log in to it: the dashboard's options, given before any
/// subcommand (`proxydash --read-only order …`), read from the environment too. The
/// account flags but the profiles are [`AccountOptions`], declared once for here and for
/// after a subcommand's name ([`AccountArgs`]).
#[derive(Debug, Args, Clone, Default)]
pub struct ConnectionArgs {
    /// The profile (account) of the config file to use [default: the file's default_profile];
    /// repeat for several where a command reads several (watch, services, invoices,
    /// credit, network, alerts, config show).
    #[arg(long, env = "PROXYDASH_PROFILE", value_name = "NAME")]
    pub profile: Vec<String>,

    /// Every profile of the config file, where a command reads several (watch, services,
    /// invoices, credit, network, alerts, config show).
    #[arg(long)]
    pub all_profiles: bool,

    #[command(flatten)]
    pub account: AccountOptions,
}

/// The colour theme asked for: `--theme` or `theme =` in a profile, read the same way:
/// `dark` (or `default`) and `light` in any case, else the name of a skin of the user's
/// (`themes/NAME.toml` beside the config file; see `app::look::skin`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ThemeName {
    #[default]
    Dark,
    Light,
    Skin(String),
}

/// Whether `name` may name a skin file: letters, digits, `-` and `_` (no path).
pub fn is_skin_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl std::str::FromStr for ThemeName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        match s.to_ascii_lowercase().as_str() {
            "dark" | "default" => Ok(ThemeName::Dark),
            "light" => Ok(ThemeName::Light),
            _ if is_skin_name(s) => Ok(ThemeName::Skin(s.to_owned())),
            _ => Err(format!(
                "unknown theme {s:?} (dark, light, or a skin's name: letters, digits, - and _)"
            )),
        }
    }
}
