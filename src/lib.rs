//! proxydash: a terminal dashboard for proxy-reseller accounts.
//!
//! The layout and the contracts between the parts are in `DESIGN.md` of the project's
//! shared folder; in short: [`api`] speaks the HTTP API, [`sandbox`] serves it locally,
//! `app` is the state machine, `fetcher` runs its commands, `ui` draws it.

pub mod api;
pub mod sandbox;
pub mod secret;
