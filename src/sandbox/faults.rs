//! Injected failures: what a real network and a real proxy in front of the server do.
//!
//! # Syntax of a [`FaultSpec`]
//!
//! Comma-separated items, white space ignored:
//!
//! | item | meaning |
//! |---|---|
//! | `KIND:RATE` | this kind on a fraction `RATE` of requests (`0.1` or `10%`) |
//! | `KIND` | this kind always (rate 1) |
//! | `all:RATE` / `all` | `RATE` spread evenly over every kind (each gets `RATE / 10`) |
//! | `seed=N` | seeds the random draw, so a run is repeatable |
//! | `slow-ms=N` | how long `slow` waits (default 3000) |
//! | `path=PREFIX` | only requests whose path starts with `PREFIX` (e.g. `/api/billing`) |
//! | `method=M` | only requests of method `M` (e.g. `POST`) |
//! | `none` | nothing (an empty spec) |
//!
//! Items apply left to right, a later rate for a kind replacing an earlier one, so
//! `all:0.2,hang:0` is 2% of each kind but never `hang`. One draw per request picks at most
//! one kind; when the rates add up to more than 1 they are scaled down to share 1.
//! Example: `500-html:0.1,502:0.05,truncated:0.1,drop:0.05,seed=42`.
//!
//! # Kinds
//!
//! | kind | the client sees | was the request processed? |
//! |---|---|---|
//! | `500-html` (or `500`) | 500, an nginx-like HTML page | no |
//! | `502` | 502 Bad Gateway, HTML | no |
//! | `503` | 503, HTML, `Retry-After: 1` | no |
//! | `truncated` | the real status and headers, the body cut in half (a short but complete message) | yes |
//! | `wrong-shape` | 200, `{"unexpected":true}` | yes |
//! | `empty` | 200, empty body | yes |
//! | `drop` | the connection reset, no response | no |
//! | `drop-after` | the connection reset, no response | **yes**: a write happened, the client cannot know |
//! | `slow` | the real answer after `slow-ms` | yes |
//! | `hang` | nothing, ever (until the sandbox stops) | no |
//!
//! Faults sit in front of everything (authentication, 404s), as a network would, and
//! come after the configured latency.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    Html500,
    BadGateway502,
    Unavailable503,
    Truncated,
    WrongShape,
    Empty,
    Drop,
    DropAfter,
    Slow,
    Hang,
}

impl FaultKind {
    pub const ALL: [FaultKind; 10] = [
        FaultKind::Html500,
        FaultKind::BadGateway502,
        FaultKind::Unavailable503,
        FaultKind::Truncated,
        FaultKind::WrongShape,
        FaultKind::Empty,
        FaultKind::Drop,
        FaultKind::DropAfter,
        FaultKind::Slow,
        FaultKind::Hang,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Html500 => "500-html",
            FaultKind::BadGateway502 => "502",
            FaultKind::Unavailable503 => "503",
            FaultKind::Truncated => "truncated",
            FaultKind::WrongShape => "wrong-shape",
            FaultKind::Empty => "empty",
            FaultKind::Drop => "drop",
            FaultKind::DropAfter => "drop-after",
            FaultKind::Slow => "slow",
            FaultKind::Hang => "hang",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for FaultKind {
    type Err = FaultSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().to_ascii_lowercase();
        if s == "500" {
            return Ok(FaultKind::Html500);
        }
        FaultKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                FaultSpecError(format!(
                    "unknown fault kind {s:?}; known: {}, all",
                    FaultKind::ALL.map(FaultKind::name).join(", ")
                ))
            })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("fault spec: {0}")]
pub struct FaultSpecError(pub String);

pub const DEFAULT_SLOW: Duration = Duration::from_secs(3);

#[derive(Clone, Debug, PartialEq)]
pub struct FaultSpec {
    /// Each kind at most once, in the order first given.
    pub rates: Vec<(FaultKind, f64)>,
    pub seed: Option<u64>,
    pub slow: Duration,
    pub path_prefix: Option<String>,
    pub method: Option<String>,
}

impl Default for FaultSpec {
    fn default() -> Self {
        Self {
            rates: Vec::new(),
            seed: None,
            slow: DEFAULT_SLOW,
            path_prefix: None,
            method: None,
        }
    }
}

impl FaultSpec {
    /// Every request gets `kind`.
    pub fn always(kind: FaultKind) -> Self {
        let mut spec = Self::default();
        spec.set(kind, 1.0);
        spec
    }

    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    pub fn rate(&self, kind: FaultKind) -> f64 {
        self.rates
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(0.0, |(_, r)| *r)
    }

    fn set(&mut self, kind: FaultKind, rate: f64) {
        match self.rates.iter_mut().find(|(k, _)| *k == kind) {
            Some(entry) => entry.1 = rate,
            None => self.rates.push((kind, rate)),
        }
    }

    pub fn applies_to(&self, method: &str, path: &str) -> bool {
        self.method
            .as_deref()
            .is_none_or(|m| m.eq_ignore_ascii_case(method))
            && self
                .path_prefix
                .as_deref()
                .is_none_or(|p| path.starts_with(p))
    }

    /// One draw: the kind for this request, if any.
    pub fn pick(&self, rng: &mut fastrand::Rng) -> Option<FaultKind> {
        let total: f64 = self.rates.iter().map(|(_, r)| r).sum();
        if total <= 0.0 {
            return None;
        }
        let mut x = rng.f64() * total.max(1.0);
        for (kind, rate) in &self.rates {
            if x < *rate {
                return Some(*kind);
            }
            x -= rate;
        }
        None
    }
}

impl FromStr for FaultSpec {
    type Err = FaultSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut spec = FaultSpec::default();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            if item.eq_ignore_ascii_case("none") {
                continue;
            }
            if let Some((key, value)) = item.split_once('=') {
                let value = value.trim();
                let number = || {
                    value.parse::<u64>().map_err(|_| {
                        FaultSpecError(format!("{key}: {value:?} is not a whole number"))
                    })
                };
                match key.trim().to_ascii_lowercase().as_str() {
                    "seed" => spec.seed = Some(number()?),
                    "slow-ms" => spec.slow = Duration::from_millis(number()?),
                    "path" => spec.path_prefix = Some(value.to_owned()),
                    "method" => spec.method = Some(value.to_ascii_uppercase()),
                    other => return Err(FaultSpecError(format!("unknown option {other:?}"))),
                }
                continue;
            }
            let (name, rate) = match item.split_once(':') {
                Some((name, rate)) => (name, parse_rate(rate)?),
                None => (item, 1.0),
            };
            if name.trim().eq_ignore_ascii_case("all") {
                for kind in FaultKind::ALL {
                    spec.set(kind, rate / FaultKind::ALL.len() as f64);
                }
            } else {
                spec.set(name.parse()?, rate);
            }
        }
        Ok(spec)
    }
}

fn parse_rate(s: &str) -> Result<f64, FaultSpecError> {
    let s = s.trim();
    let (number, scale) = match s.strip_suffix('%') {
        Some(n) => (n, 100.0),
        None => (s, 1.0),
    };
    number
        .trim()
        .parse::<f64>()
        .ok()
        .map(|r| r / scale)
        .filter(|r| (0.0..=1.0).contains(r))
        .ok_or_else(|| {
            FaultSpecError(format!(
                "rate {s:?} is not between 0 and 1 (or 0% and 100%)"
            ))
        })
}

impl fmt::Display for FaultSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items: Vec<String> = self.rates.iter().map(|(k, r)| format!("{k}:{r}")).collect();
        if let Some(seed) = self.seed {
            items.push(format!("seed={seed}"));
        }
        if self.slow != DEFAULT_SLOW {
            items.push(format!("slow-ms={}", self.slow.as_millis()));
        }
        if let Some(p) = &self.path_prefix {
            items.push(format!("path={p}"));
        }
        if let Some(m) = &self.method {
            items.push(format!("method={m}"));
        }
        if items.is_empty() {
            return f.write_str("none");
        }
        f.write_str(&items.join(","))
    }
}

/// The HTML pages nginx answers with, byte for byte in spirit.
pub fn nginx_page(status: u16, reason: &str) -> String {
    format!(
        "<html>\r\n<head><title>{status} {reason}</title></head>\r\n<body>\r\n<center><h1>{status} {reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_syntax() {
        let spec: FaultSpec =
            "500-html:0.1, 502:5%, drop, seed=42, slow-ms=250, path=/api/billing, method=post"
                .parse()
                .expect("valid");
        assert_eq!(spec.rate(FaultKind::Html500), 0.1);
        assert_eq!(spec.rate(FaultKind::BadGateway502), 0.05);
        assert_eq!(spec.rate(FaultKind::Drop), 1.0);
        assert_eq!(spec.seed, Some(42));
        assert_eq!(spec.slow, Duration::from_millis(250));
        assert!(spec.applies_to("POST", "/api/billing/credit"));
        assert!(!spec.applies_to("GET", "/api/billing/credit"));
        assert!(!spec.applies_to("POST", "/api/services"));
        let round_trip: FaultSpec = spec.to_string().parse().expect("display parses");
        assert_eq!(round_trip, spec);
    }

    #[test]
    fn all_spreads_and_later_items_override() {
        let spec: FaultSpec = "all:0.2,hang:0".parse().expect("valid");
        assert!((spec.rate(FaultKind::Drop) - 0.02).abs() < 1e-12);
        assert_eq!(spec.rate(FaultKind::Hang), 0.0);
        assert_eq!("none".parse::<FaultSpec>(), Ok(FaultSpec::default()));
        assert_eq!("".parse::<FaultSpec>(), Ok(FaultSpec::default()));
    }

    #[test]
    fn bad_items_are_errors() {
        for bad in [
            "explode",
            "drop:2",
            "drop:-0.1",
            "drop:x",
            "seed=abc",
            "colour=red",
        ] {
            assert!(bad.parse::<FaultSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn draws_follow_the_rates_and_are_repeatable() {
        let spec: FaultSpec = "drop:0.25,empty:0.25".parse().expect("valid");
        let draw = |seed| {
            let mut rng = fastrand::Rng::with_seed(seed);
            (0..4000).map(|_| spec.pick(&mut rng)).collect::<Vec<_>>()
        };
        let a = draw(7);
        assert_eq!(a, draw(7));
        let drops = a.iter().filter(|k| **k == Some(FaultKind::Drop)).count();
        let none = a.iter().filter(|k| k.is_none()).count();
        assert!((800..1200).contains(&drops), "{drops}");
        assert!((1800..2200).contains(&none), "{none}");
        // Rates above 1 in total share 1: always some fault.
        let always: FaultSpec = "drop,hang".parse().expect("valid");
        let mut rng = fastrand::Rng::with_seed(1);
        assert!((0..100).all(|_| always.pick(&mut rng).is_some()));
    }
}
