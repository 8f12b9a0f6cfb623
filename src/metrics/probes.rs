//! The series of `watch --probe-every`: what proxydash's own probe rounds found, per
//! service (never per proxy: a service of 1,000 proxies is a handful of series).
//!
//! - `proxydash_probe_listed_proxies`, `…_checked_proxies`, `…_alive_proxies`: the
//!   entries of the service's IP list, those its last round checked (a long list is
//!   sampled, in turn: checked < listed says so) and how many of them answered.
//! - `proxydash_probe_dead_proxies{reason}`: the dead of the last round by reason
//!   (`refused`, `auth_failed`, `timeout`, `bad_answer`), every reason present (0 when
//!   none died of it), so a sum over reasons is the dead.
//! - `proxydash_probe_dead_provider_fine_proxies`: of those dead, how many the provider's
//!   network status lists as fine; absent while its network status is not known.
//! - `proxydash_probe_latency_seconds`: a histogram of the alive proxies' latency (the
//!   check after its TCP connect) over every round since `watch` started, so
//!   `rate()` and `histogram_quantile()` work as on any histogram.
//! - `proxydash_probe_round_age_seconds`: how long ago the service's last round ended.
//! - A service never probed (rounds off, its list not read yet, every entry skipped) has
//!   no series: unknown is not zero.

use super::{GaugeF, Labels, ProfileMetrics, profile_label};
use prometheus_client::encoding::{EncodeMetric, MetricEncoder, NoLabelSet};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::{MetricType, TypedMetric};
use prometheus_client::registry::{Registry, Unit};
use std::collections::BTreeMap;
use std::sync::RwLock;

/// One service's probe rounds, as its watcher last published them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProbeMetrics {
    pub service_id: u64,
    pub listed: u64,
    pub checked: u64,
    pub alive: u64,
    /// The dead of the last round by reason (every reason, 0 included).
    pub dead: Vec<(&'static str, u64)>,
    pub dead_provider_fine: Option<u64>,
    pub round_age_seconds: f64,
    /// `(upper bound, count in it)`, `+Inf` last; not cumulative.
    pub latency_buckets: Vec<(f64, u64)>,
    pub latency_sum: f64,
    pub latency_count: u64,
}

/// A histogram's sum, count and buckets, `(upper bound, count in it)` (the encoder adds
/// them up).
type Counts = (f64, u64, Vec<(f64, u64)>);

/// A histogram whose counts were made elsewhere (the engine keeps them): encoded as they
/// are on each scrape.
#[derive(Debug, Default)]
struct Counted(RwLock<Counts>);

impl TypedMetric for Counted {
    const TYPE: MetricType = MetricType::Histogram;
}

impl EncodeMetric for Counted {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), std::fmt::Error> {
        let held = self.0.read().map_err(|_| std::fmt::Error)?;
        let (sum, count, buckets) = &*held;
        encoder.encode_histogram::<NoLabelSet>(*sum, *count, buckets, None)
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }
}

/// Registers the probe's families for every profile on `registry`.
pub(super) fn register(registry: &mut Registry, profiles: &BTreeMap<String, ProfileMetrics>) {
    let gauge = Family::<Labels, GaugeF>::default;
    let (listed, checked, alive, dead, fine, age) =
        (gauge(), gauge(), gauge(), gauge(), gauge(), gauge());
    let latency = Family::<Labels, Counted>::default();
    for (name, p) in profiles {
        for s in &p.probes {
            let base = vec![profile_label(name), ("service", s.service_id.to_string())];
            listed.get_or_create(&base).set(s.listed as f64);
            checked.get_or_create(&base).set(s.checked as f64);
            alive.get_or_create(&base).set(s.alive as f64);
            for (reason, n) in &s.dead {
                let mut labels = base.clone();
                labels.push(("reason", (*reason).to_owned()));
                dead.get_or_create(&labels).set(*n as f64);
            }
            if let Some(n) = s.dead_provider_fine {
                fine.get_or_create(&base).set(n as f64);
            }
            age.get_or_create(&base).set(s.round_age_seconds);
            if let Ok(mut h) = latency.get_or_create(&base).0.write() {
                *h = (s.latency_sum, s.latency_count, s.latency_buckets.clone());
            }
        }
    }
    registry.register(
        "proxydash_probe_listed_proxies",
        "Entries of the service's IP list the probe's last round read (watch --probe-every)",
        listed,
    );
    registry.register(
        "proxydash_probe_checked_proxies",
        "Proxies of the service the probe's last round checked through themselves (a list longer than probe_sample is checked in turn, a sample a round)",
        checked,
    );
    registry.register(
        "proxydash_probe_alive_proxies",
        "Proxies of the service that answered the probe's last round through themselves",
        alive,
    );
    registry.register(
        "proxydash_probe_dead_proxies",
        "Proxies of the service the probe's last round found dead, by reason",
        dead,
    );
    registry.register(
        "proxydash_probe_dead_provider_fine_proxies",
        "Proxies of the service the probe's last round found dead that the provider's network status lists as fine (in neither its error nor its inactive list)",
        fine,
    );
    registry.register_with_unit(
        "proxydash_probe_round_age",
        "Seconds since the probe's last round of the service ended",
        Unit::Seconds,
        age,
    );
    registry.register_with_unit(
        "proxydash_probe_latency",
        "Latency of the service's alive proxies through themselves (after the TCP connect: handshake, request to the judge, answer), over every round since watch started",
        Unit::Seconds,
        latency,
    );
}
