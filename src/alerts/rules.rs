//! The rules' thresholds and the delivery settings, from the config file's `[alerts]`
//! table (top level, for every profile) and `[profiles.NAME.alerts]` (that profile only;
//! each key it sets replaces the top-level one).
//!
//! Thresholds are checked when the file is read: a negative or absurd value is an error
//! naming the key, not a rule that silently never fires.

use super::Rule;
use serde::Deserialize;
use std::time::Duration;

/// The `[alerts]` table as written; every key is optional.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AlertsConfig {
    /// Consecutive sweeps a change must be seen in before it counts (default 2).
    pub debounce: Option<u32>,
    /// Minutes before a critical alert is announced again; doubled each time (default 30).
    pub repeat_after_mins: Option<u64>,
    /// `credit_low`: renewals due within this many days must be covered (default 7).
    pub renewal_days: Option<u32>,
    /// `service_due`: info within this many days, warn within 3, critical within 1
    /// (default 7).
    pub due_days: Option<u32>,
    /// `servers_in_error`: critical above this share of a service's servers (default 20).
    pub error_percent: Option<f64>,
    /// `rate_limit`: warn at this share of the limit, critical at 100 (default 90).
    pub rate_percent: Option<f64>,
    /// `proxies_dead`: warn when fewer than this share of a service's proxies checked by
    /// the probe's rounds are alive, critical when none is (default 50).
    pub probe_alive_percent: Option<f64>,
    /// Rules turned off, by name (`["unpaid_invoice"]`).
    pub disabled: Option<Vec<String>>,
    /// Ring the terminal bell on each notification (default off).
    pub alert_bell: Option<bool>,
    /// A shell command run for each notification, with the alert as JSON on its standard
    /// input and as `PROXYDASH_ALERT_*` variables.
    pub on_alert: Option<String>,
    /// Seconds the command may run before it is killed (default 10).
    pub on_alert_timeout: Option<u64>,
}

impl AlertsConfig {
    /// `self` with every key `over` sets replaced by it.
    pub fn overlaid(&self, over: &AlertsConfig) -> AlertsConfig {
        AlertsConfig {
            debounce: over.debounce.or(self.debounce),
            repeat_after_mins: over.repeat_after_mins.or(self.repeat_after_mins),
            renewal_days: over.renewal_days.or(self.renewal_days),
            due_days: over.due_days.or(self.due_days),
            error_percent: over.error_percent.or(self.error_percent),
            rate_percent: over.rate_percent.or(self.rate_percent),
            probe_alive_percent: over.probe_alive_percent.or(self.probe_alive_percent),
            disabled: over.disabled.clone().or_else(|| self.disabled.clone()),
            alert_bell: over.alert_bell.or(self.alert_bell),
            on_alert: over.on_alert.clone().or_else(|| self.on_alert.clone()),
            on_alert_timeout: over.on_alert_timeout.or(self.on_alert_timeout),
        }
    }

    /// The rules and delivery this table asks for, or what is wrong with it.
    pub fn resolve(&self) -> Result<(Rules, Delivery), String> {
        let d = Rules::default();
        let percent = |key: &str, v: Option<f64>, default: f64| match v {
            None => Ok(default),
            Some(p) if p.is_finite() && (0.0..=100.0).contains(&p) => Ok(p),
            Some(p) => Err(format!("alerts.{key} = {p}: a percentage from 0 to 100")),
        };
        let days = |key: &str, v: Option<u32>, default: u32| match v {
            None => Ok(default),
            Some(n) if n <= 3650 => Ok(n),
            Some(n) => Err(format!("alerts.{key} = {n}: at most 3650 days")),
        };
        let debounce = match self.debounce {
            None => d.debounce,
            Some(n @ 1..=100) => n,
            Some(n) => return Err(format!("alerts.debounce = {n}: from 1 to 100 sweeps")),
        };
        let repeat_after = match self.repeat_after_mins {
            None => d.repeat_after,
            Some(m @ 1..=10_080) => Duration::from_secs(m * 60),
            Some(m) => {
                return Err(format!(
                    "alerts.repeat_after_mins = {m}: from 1 to 10080 (a week)"
                ));
            }
        };
        let disabled = self
            .disabled
            .iter()
            .flatten()
            .map(|name| {
                name.parse::<Rule>()
                    .map_err(|e| format!("alerts.disabled: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let rules = Rules {
            debounce,
            repeat_after,
            renewal_days: days("renewal_days", self.renewal_days, d.renewal_days)?,
            due_days: days("due_days", self.due_days, d.due_days)?,
            error_percent: percent("error_percent", self.error_percent, d.error_percent)?,
            rate_percent: percent("rate_percent", self.rate_percent, d.rate_percent)?,
            probe_alive_percent: percent(
                "probe_alive_percent",
                self.probe_alive_percent,
                d.probe_alive_percent,
            )?,
            disabled,
        };
        let timeout = match self.on_alert_timeout {
            None => DEFAULT_ON_ALERT_TIMEOUT,
            Some(s @ 1..=3600) => Duration::from_secs(s),
            Some(s) => {
                return Err(format!(
                    "alerts.on_alert_timeout = {s}: from 1 to 3600 seconds"
                ));
            }
        };
        let delivery = Delivery {
            bell: self.alert_bell.unwrap_or(false),
            on_alert: self.on_alert.clone().filter(|c| !c.trim().is_empty()),
            timeout,
        };
        Ok((rules, delivery))
    }
}

/// How long an `on_alert` command may run by default.
pub const DEFAULT_ON_ALERT_TIMEOUT: Duration = Duration::from_secs(10);

/// The thresholds the evaluator and the book use.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub debounce: u32,
    pub repeat_after: Duration,
    pub renewal_days: u32,
    pub due_days: u32,
    pub error_percent: f64,
    pub rate_percent: f64,
    /// `proxies_dead`: under this share (percent) of the checked proxies alive.
    pub probe_alive_percent: f64,
    pub disabled: Vec<Rule>,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            debounce: 2,
            repeat_after: Duration::from_secs(30 * 60),
            renewal_days: 7,
            due_days: 7,
            error_percent: 20.0,
            rate_percent: 90.0,
            probe_alive_percent: 50.0,
            disabled: Vec::new(),
        }
    }
}

impl Rules {
    pub fn enabled(&self, rule: Rule) -> bool {
        !self.disabled.contains(&rule)
    }
}

/// How notifications leave the dashboard besides the status line and the Alerts tab.
#[derive(Clone, Debug, PartialEq)]
pub struct Delivery {
    pub bell: bool,
    pub on_alert: Option<String>,
    pub timeout: Duration,
}

impl Default for Delivery {
    fn default() -> Self {
        Self {
            bell: false,
            on_alert: None,
            timeout: DEFAULT_ON_ALERT_TIMEOUT,
        }
    }
}
