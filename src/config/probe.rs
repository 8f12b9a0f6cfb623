//! The proxy probe's settings of a profile.

/// How the proxy probe runs (see [`crate::probe`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeSettings {
    /// The target asked through each proxy; `""` checks TCP connects only.
    pub url: String,
    pub concurrency: usize,
    /// The user's export templates, by name.
    pub templates: Vec<(String, String)>,
    /// Contact loopback only (the demo, whose sandbox lists must never leave the machine).
    pub loopback_only: bool,
    /// Contact loopback, private… proxies too (`probe_allow_private`).
    pub allow_private: bool,
    /// Asks of a rotation audit (`probe_rotation`; `R`, `--rotation` without N).
    pub rotation_asks: usize,
}

impl ProbeSettings {
    pub fn config(&self) -> crate::probe::ProbeConfig {
        crate::probe::ProbeConfig {
            concurrency: self.concurrency,
            loopback_only: self.loopback_only,
            allow_private: self.allow_private,
            ..crate::probe::ProbeConfig::default()
        }
        .with_url(&self.url)
    }

    /// The demo's: the sandbox's judge, loopback only.
    pub fn demo(judge_url: Option<String>) -> Self {
        Self {
            url: judge_url.unwrap_or_default(),
            concurrency: crate::probe::DEFAULT_CONCURRENCY,
            templates: Vec::new(),
            loopback_only: true,
            allow_private: false,
            rotation_asks: crate::probe::rotation::DEFAULT_ASKS,
        }
    }
}
