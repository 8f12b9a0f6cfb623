//! proxydash: a terminal dashboard for proxy-reseller accounts.
//!
//! The layout and the contracts between the parts are in `docs/DESIGN.md`; in short: [`api`] speaks the HTTP API, `sandbox` serves it locally,
//! `app` is the state machine, [`scheduler::fetcher`] runs its commands, `ui` draws it and `run`
//! is the event loop that ties them together; [`script`] is the command line for scripts.

pub mod account;
pub mod alerts;
pub mod api;
pub mod app;
pub mod billing;
pub mod cli;
pub mod clipboard;
pub mod config;
pub mod dashboard;
pub mod demo;
pub mod desk;
pub mod effects;
pub mod files;
pub mod headless;
pub mod history;
pub mod iplist_throttle;
pub mod logging;
pub mod meter;
pub mod metrics;
pub mod net;
pub mod options;
pub mod probe;
pub mod run;
pub mod runtime;
#[cfg(feature = "sandbox")]
pub mod sandbox;
pub mod scheduler;
pub mod script;
pub mod secret;
pub mod seen;
pub mod signals;
pub mod term;
/// The app's test harness: it stands in for the run loop, which alone knows both the app
/// and the view, so it lives beside both rather than inside `app`.
#[cfg(test)]
pub(crate) mod testkit;
pub mod text;
pub mod ui;
pub mod watch;
