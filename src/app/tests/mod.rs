//! Scenario tests: messages in, state and commands out. No terminal, no network; a fake
//! clock.

mod alerts;
mod by_number;
mod clients;
mod countdown;
mod errors;
mod fetching;
mod form_ids;
mod form_keys;
mod forms;
mod history;
mod iplist;
mod keys;
mod orders;
mod palette;
mod profiles;
mod readme_keys;
mod redraw;
mod user_actions;
