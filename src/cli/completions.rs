//! `proxydash completions SHELL`: the shell completion script of the whole command line.

use super::Cli;
use crate::script::{OutputArgs, Printed, Script, Session};

#[derive(Debug, Clone, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for.
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// Printed the scripting subcommands' way (a closed pipe ends it quietly); asks no account.
impl Script for CompletionsArgs {
    fn output(&self) -> Option<&OutputArgs> {
        None
    }
    async fn print(&self, _: &mut Session<'_>) -> Printed {
        let mut command = Cli::command_line();
        let mut buf = Vec::new();
        clap_complete::generate(self.shell, &mut command, "proxydash", &mut buf);
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }
}
