//! Running a scripting subcommand the common way ([`run`]): the account options after
//! its name merged in, several accounts where it reads several, the answer (through
//! `--jq` when given) or the failure printed, and the exit status decided.

use super::jq::Jq;
use super::{Printed, Script, Session, accounts, output, status};
use crate::options::Options;
use std::process::ExitCode;

/// Runs a scripting subcommand and answers the exit status (see the module docs).
pub async fn run<S: Script>(cli: &Options, command: &S) -> ExitCode {
    // The account options given after the subcommand's name count too.
    let merged;
    let cli = match command.account() {
        Some(after) => {
            let mut with = cli.clone();
            with.connection = cli.connection.with(after);
            merged = with;
            &merged
        }
        None => cli,
    };
    // The reads that take several accounts; with one selected, the command as always.
    let one;
    let cli = match command.several() {
        Some(several) if !cli.demo => {
            use crate::config::selection::{Unnamed, profiles};
            match profiles(cli, Unnamed::DefaultProfile) {
                Ok(names) if names.len() > 1 => {
                    return accounts::run(cli, several, (command.form(), command.jq()), names)
                        .await;
                }
                Ok(mut just) => {
                    one = accounts::narrowed(cli, just.pop().flatten());
                    &one
                }
                Err(e) => {
                    eprintln!("proxydash: {e}");
                    return ExitCode::from(status::USAGE);
                }
            }
        }
        _ => cli,
    };
    let mut session = Session::new(cli);
    let result = command.print(&mut session).await;
    session.save_budget();
    let profile = session.profile.take().filter(|_| session.profile_named);
    drop(session);
    finish(result, profile.as_deref(), command.json(), command.jq())
}

/// Prints the answer (through `jq` when given) or the failure; answers the exit status.
/// With `--jq` a failure prints no JSON object: the filter was written for the answer.
fn finish(result: Printed, profile: Option<&str>, json: bool, jq: Option<&Jq>) -> ExitCode {
    match result {
        Ok(text) => match super::jq::answer(&text, jq) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("proxydash: {}", output::sanitize(&e));
                ExitCode::from(status::FAILED)
            }
        },
        Err(failure) => {
            if let super::Failure::Found {
                output: printed, ..
            } = &failure
                && let Err(e) = super::jq::answer(printed, jq)
            {
                eprintln!("proxydash: {}", output::sanitize(&e));
            }
            eprintln!("proxydash: {}", failure.shown(profile));
            let quiet = matches!(
                failure,
                super::Failure::Usage(_) | super::Failure::Found { .. }
            );
            if json && jq.is_none() && !quiet {
                let _ = output::emit(&failure.json(profile));
            }
            failure.exit_code()
        }
    }
}
