//! What the app is told at start: the account, the refresh interval, the look, the state
//! carried over from the last run.

use super::DEFAULT_REFRESH;
use crate::iplist_throttle::Throttles;
use std::time::Duration;

/// Accounts up to this many services have their Services rows rebuilt with every change.
pub const EAGER_ROWS: usize = 5_000;

#[derive(Clone, Debug)]
pub struct AppSettings {
    /// The profile (account) name shown in the header and in 401 messages.
    pub profile: String,
    /// Shown in the header and messages.
    pub base_url: String,
    /// The header shows a DEMO badge.
    pub demo: bool,
    /// Auto-refresh interval per group of data; `None` turns it off.
    pub refresh: Option<Duration>,
    /// Mouse wheel scrolling, click-to-select and click-on-tab.
    pub mouse: bool,
    /// The zone of the server's clock: the time in a 429 has no zone and is read in it.
    pub server_zone: crate::iplist_throttle::ServerZone,
    /// The IP-list refresh countdowns to start with (loaded from the state file).
    pub throttles: Throttles,
    /// Ordering, binding, password changes and refreshes are turned off; reading, IP lists
    /// and copying stay.
    pub read_only: bool,
    /// Shown beside other accounts (the dashboard over several): a write's confirmation
    /// names the account it goes to.
    pub among_accounts: bool,
    /// Up to this many services the Services rows (search keys, widths, order, problem
    /// marks) are rebuilt with every change; above, when something reads them. Beside
    /// other accounts the share of each is smaller: ten accounts of 1,000 rebuild like one
    /// of 10,000.
    pub eager_rows: usize,
    /// The account's colour beside other accounts (its place in the theme's), if chosen.
    pub colour: Option<u8>,
    /// The colours (or none).
    pub look: crate::config::Look,
    /// The profiles of the config file, offered by `P`.
    pub profiles: Vec<String>,
    /// Their base URL and read-only flag, shown beside their names by `P`.
    pub profile_cards: Vec<crate::config::ProfileCard>,
    /// Warnings about the settings (a config file readable by others), kept in the header
    /// so no later message hides them.
    pub warnings: Vec<String>,
    /// The alert rules' thresholds.
    pub alert_rules: crate::alerts::Rules,
    /// Alerts open when the program last stopped (from the state file): not announced
    /// again.
    pub open_alerts: Vec<crate::alerts::Alert>,
    /// The profile's own export templates for probed proxies (`probe_templates`).
    pub probe_templates: Vec<(String, String)>,
    /// Asks of a rotation audit, `R` (`probe_rotation`).
    pub probe_rotation_asks: usize,
    /// The options that name this account on proxydash's command line (`--demo`,
    /// `--config PATH`, `--profile NAME`), for the command lines of the palette and the
    /// command log; never credentials.
    pub cli_args: Vec<String>,
}

impl Default for AppSettings {
    fn default() -> Self {
        Self {
            profile: "default".into(),
            base_url: String::new(),
            demo: false,
            refresh: Some(DEFAULT_REFRESH),
            mouse: true,
            server_zone: crate::iplist_throttle::ServerZone::default(),
            throttles: Throttles::default(),
            read_only: false,
            among_accounts: false,
            eager_rows: EAGER_ROWS,
            colour: None,
            look: crate::config::Look::default(),
            profiles: Vec::new(),
            profile_cards: Vec::new(),
            warnings: Vec::new(),
            alert_rules: crate::alerts::Rules::default(),
            open_alerts: Vec::new(),
            probe_templates: Vec::new(),
            probe_rotation_asks: crate::probe::rotation::DEFAULT_ASKS,
            cli_args: Vec::new(),
        }
    }
}

impl AppSettings {
    /// The account engine's configuration for these settings (profile, address, refresh,
    /// alert rules and the alerts open when it last ran), dates counted in UTC.
    pub fn engine_config(&self) -> crate::account::Config {
        let mut config = crate::account::Config::new(&self.profile, &self.base_url, self.refresh);
        config.rules = self.alert_rules.clone();
        config.open_alerts = self.open_alerts.clone();
        config
    }
}
