//! What the app is told at start: the account, the refresh interval, the look, the state
//! carried over from the last run.

use super::DEFAULT_REFRESH;
use crate::iplist_throttle::Throttles;
use std::time::Duration;

/// Accounts up to this many services have their Services rows rebuilt with every change.
pub const EAGER_ROWS: usize = 5_000;

/// What the app is told at start. Plain settings, in groups where several say one thing.
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
    /// Ordering, binding, password changes and refreshes are turned off; reading, IP lists
    /// and copying stay.
    pub read_only: bool,
    /// Up to this many services the Services rows (search keys, widths, order, problem
    /// marks) are rebuilt with every change; above, when something reads them. Beside
    /// other accounts the share of each is smaller: ten accounts of 1,000 rebuild like one
    /// of 10,000.
    pub eager_rows: usize,
    /// The colours (or none).
    pub look: crate::config::Look,
    /// The user's skins read at start (`themes/*.toml`), by name: what `Look::Skin`
    /// points into and `:theme NAME` offers.
    pub skins: Vec<(String, crate::config::skin::Skin)>,
    /// Your own actions (`config::actions`), their keys checked against the key map.
    pub actions: Vec<crate::config::actions::UserAction>,
    /// Warnings about the settings (a config file readable by others), kept in the header
    /// so no later message hides them.
    pub warnings: Vec<String>,
    /// The options that name this account on proxydash's command line (`--demo`,
    /// `--config PATH`, `--profile NAME`), for the command lines of the palette and the
    /// command log; never credentials.
    pub cli_args: Vec<String>,
    /// The profiles of the config file, offered by `P`.
    pub profiles: Profiles,
    /// Whether the account is shown beside others, and in which colour.
    pub among: Among,
    /// The IP-list refresh throttle's clock and the countdowns to start with.
    pub iplist: IpListStart,
    /// The alert rules and the alerts open when the program last stopped.
    pub alerts: AlertStart,
    /// How proxies are probed from the dashboard (`h`, `R`).
    pub probe: ProbeSettings,
}

/// The profiles of the config file, offered by `P`.
#[derive(Clone, Debug, Default)]
pub struct Profiles {
    pub names: Vec<String>,
    /// Their base URL and read-only flag, shown beside their names by `P`.
    pub cards: Vec<crate::config::ProfileCard>,
}

/// The account beside other accounts (the dashboard over several).
#[derive(Clone, Debug, Default)]
pub struct Among {
    /// Shown beside other accounts: a write's confirmation names the account it goes to.
    pub accounts: bool,
    /// The account's colour beside the others (its place in the theme's), if chosen.
    pub colour: Option<u8>,
}

/// The IP-list refresh throttle (`update_list`'s 429) as the app starts.
#[derive(Clone, Debug, Default)]
pub struct IpListStart {
    /// The zone of the server's clock: the time in a 429 has no zone and is read in it.
    pub server_zone: crate::iplist_throttle::ServerZone,
    /// The countdowns to start with (loaded from the state file).
    pub throttles: Throttles,
}

/// The alerts as the app starts.
#[derive(Clone, Debug, Default)]
pub struct AlertStart {
    /// The rules' thresholds.
    pub rules: crate::alerts::Rules,
    /// Alerts open when the program last stopped (from the state file): not announced
    /// again.
    pub open: Vec<crate::alerts::Alert>,
}

/// How proxies are probed from the dashboard.
#[derive(Clone, Debug)]
pub struct ProbeSettings {
    /// The profile's own export templates for probed proxies (`probe_templates`).
    pub templates: Vec<(String, String)>,
    /// Asks of a rotation audit, `R` (`probe_rotation`).
    pub rotation_asks: usize,
}

impl Default for ProbeSettings {
    fn default() -> Self {
        Self {
            templates: Vec::new(),
            rotation_asks: crate::probe::rotation::DEFAULT_ASKS,
        }
    }
}

impl Default for AppSettings {
    fn default() -> Self {
        Self {
            profile: "default".into(),
            base_url: String::new(),
            demo: false,
            refresh: Some(DEFAULT_REFRESH),
            mouse: true,
            read_only: false,
            eager_rows: EAGER_ROWS,
            look: crate::config::Look::default(),
            skins: Vec::new(),
            actions: Vec::new(),
            warnings: Vec::new(),
            cli_args: Vec::new(),
            profiles: Profiles::default(),
            among: Among::default(),
            iplist: IpListStart::default(),
            alerts: AlertStart::default(),
            probe: ProbeSettings::default(),
        }
    }
}

impl AppSettings {
    /// The account engine's configuration for these settings (profile, address, refresh,
    /// alert rules and the alerts open when it last ran), dates counted in UTC.
    pub fn engine_config(&self) -> crate::account::Config {
        let mut config = crate::account::Config::new(&self.profile, &self.base_url, self.refresh);
        config.rules = self.alerts.rules.clone();
        config.open_alerts = self.alerts.open.clone();
        config
    }
}
