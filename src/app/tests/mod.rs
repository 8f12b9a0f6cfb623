//! Scenario tests: messages in, state and commands out. No terminal, no network; a fake
//! clock.

mod errors;
mod fetching;
mod keys;
