//! The account engine: one per profile, knowing nothing of the dashboard, the terminal or
//! the command line. It owns every answer of the account ([`store`]), decides what to ask
//! and when from the freshness rules ([`freshness`], [`planner`]) through the account's
//! one scheduler, learns the services' types ([`types`]), keeps the connection state
//! ([`connection`]), runs the alert rules and feeds the history writer; it keeps what the
//! probe's scheduled rounds found ([`probed`]), which an observer runs and hands it. Observers (the
//! dashboard, `watch`, `/metrics`) read its events and its [`Summary`]; they may say what
//! they show (which goes first) and ask for one-off data and writes, and never decide the
//! base sweep.
//!
//! [`engine`] is the pure state machine; [`driver`] runs it on a task of its own.

pub mod answer;
pub mod config;
pub mod connection;
pub mod driver;
pub mod engine;
pub mod facts;
pub mod freshness;
pub mod health;
pub mod money;
pub mod planner;
pub mod probed;
pub mod queue;
pub mod store;
pub mod sweeper;
pub mod types;

#[cfg(test)]
mod tests;

pub use answer::{Answer, Freshness};
pub use connection::{Connection, Link};
pub use driver::{AccountHandle, Clock, Event, Idle, Setup, spawn, start};
pub use engine::{Config, Engine, Swept};
pub use facts::Summary;
pub use freshness::Kind;
pub use planner::Focus;
pub use probed::ServiceProbe;
