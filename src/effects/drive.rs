//! The one driver of an app: every place that runs the dashboard (the run loop through
//! the desk, for one account or several, and the headless sessions of the tests) feeds
//! an app and carries out its commands here, so what a test drives is what the user runs.

use super::Effects;
use crate::app::{App, Command, Msg};

/// Feeds a batch to the app and carries out what it asks (see [`drive`]).
pub fn feed(app: &mut App, effects: &mut Effects, batch: Vec<Msg>) {
    let commands = app.update_all(batch);
    drive(app, effects, commands);
}

/// Carries out the app's `commands`, feeding the outcomes known at once (a copy, a file
/// write refused on the spot) back to it as one batch and carrying out what that asks in
/// turn, until nothing is left. The sweep the app kept for the history writer goes with
/// each round, so history sees what the app saw in the order it saw it.
pub fn drive(app: &mut App, effects: &mut Effects, mut commands: Vec<Command>) {
    loop {
        if let Some(sweep) = app.take_history() {
            effects.record(sweep);
        }
        let outcomes: Vec<Msg> = commands
            .into_iter()
            .filter_map(|command| effects.execute(command))
            .collect();
        if outcomes.is_empty() {
            return;
        }
        commands = app.update_all(outcomes);
    }
}
