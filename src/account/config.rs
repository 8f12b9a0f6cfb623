//! How an engine is set up: its account, its refresh, its alert rules and what earlier
//! runs left (open alerts, learned types).

use crate::alerts::{Alert, Rules};
use crate::api::ProductType;
use chrono::FixedOffset;
use std::collections::HashMap;
use std::time::Duration;

/// How an engine is set up.
#[derive(Clone, Debug)]
pub struct Config {
    pub profile: String,
    pub base_url: String,
    pub refresh: Option<Duration>,
    pub rules: Rules,
    /// The alerts open when the account was last watched (not announced again).
    pub open_alerts: Vec<Alert>,
    /// Types learned in earlier runs.
    pub saved_types: HashMap<u64, ProductType>,
    /// The offset "due in N days" counts dates in.
    pub offset: FixedOffset,
}

impl Config {
    pub fn new(profile: &str, base_url: &str, refresh: Option<Duration>) -> Self {
        Self {
            profile: profile.to_owned(),
            base_url: base_url.to_owned(),
            refresh,
            rules: Rules::default(),
            open_alerts: Vec::new(),
            saved_types: HashMap::new(),
            offset: FixedOffset::east_opt(0).expect("zero offset"),
        }
    }
}
