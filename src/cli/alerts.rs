//! `proxydash alerts`: the arguments. It reads and writes the profile's state files and
//! asks no server.

use clap::{Args, Subcommand};
use std::path::PathBuf;

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

#[derive(Debug, Clone, Subcommand)]
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
