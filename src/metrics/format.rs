//! Which exposition a scrape gets: the Prometheus text format (`text/plain;
//! version=0.0.4`) unless the scraper asks for OpenMetrics.
//!
//! `prometheus-client` writes OpenMetrics only. A counter there is a family `name` with
//! samples `name_total`, and the body ends in `# EOF`; a reader of the older text format
//! (`promtool check metrics`, `curl`, anything sending `Accept: */*` or `text/plain`)
//! then finds `name_total` samples with no help text. So:
//! - **Negotiation**: OpenMetrics when the `Accept` header names
//!   `application/openmetrics-text` at a quality no lower than `text/plain`'s (Prometheus
//!   asks so, with `text/plain;version=0.0.4` as its fallback); the text format for
//!   anything else, an absent header included (the format every reader knows).
//! - **The text format** is the same exposition rewritten: a counter's `# HELP` and
//!   `# TYPE` name its samples (`name_total`), `# UNIT` lines and `# EOF` go (the text
//!   format has neither), `unknown` is `untyped`.
//! - **OpenMetrics** is served as the specification has it, as `prometheus-client`
//!   writes it: a counter's family is `proxydash_api_requests` (`# TYPE … counter`) and
//!   its samples `proxydash_api_requests_total`, ending in `# EOF`, so a strict parser
//!   (Python's `prometheus_client` OpenMetrics parser) reads the whole scrape.
//!   `promtool check metrics` reads the text format only, and is run on that one.

use std::collections::HashSet;

/// The content type of OpenMetrics text.
pub const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";
/// The content type of the Prometheus text format.
pub const TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Whether a scrape sending `accept` gets OpenMetrics (see the module doc).
pub fn wants_openmetrics(accept: Option<&str>) -> bool {
    let Some(accept) = accept else {
        return false;
    };
    let (mut open, mut text) = (None::<f32>, None::<f32>);
    for part in accept.split(',') {
        let mut params = part.split(';').map(str::trim);
        let kind = params.next().unwrap_or("").to_ascii_lowercase();
        let q = params
            .filter_map(|p| p.strip_prefix("q=").or_else(|| p.strip_prefix("Q=")))
            .find_map(|v| v.trim().parse::<f32>().ok())
            .filter(|q| q.is_finite())
            .unwrap_or(1.0);
        let slot = match kind.as_str() {
            "application/openmetrics-text" => &mut open,
            "text/plain" => &mut text,
            _ => continue,
        };
        *slot = Some(slot.map_or(q, |was| was.max(q)));
    }
    match (open, text) {
        (Some(o), t) => o > 0.0 && o >= t.unwrap_or(0.0),
        (None, _) => false,
    }
}

/// The OpenMetrics exposition `prometheus-client` wrote, in the Prometheus text format.
pub fn to_text(openmetrics: &str) -> String {
    let counters: HashSet<&str> = openmetrics
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|rest| rest.strip_suffix(" counter"))
        .collect();
    let mut out = String::with_capacity(openmetrics.len());
    for line in openmetrics.lines() {
        if line == "# EOF" || line.starts_with("# UNIT ") {
            continue;
        }
        let renamed = ["# HELP ", "# TYPE "].iter().find_map(|prefix| {
            let rest = line.strip_prefix(prefix)?;
            let (name, tail) = rest.split_once(' ').unwrap_or((rest, ""));
            let tail = if *prefix == "# TYPE " && tail == "unknown" {
                "untyped"
            } else {
                tail
            };
            let name = if counters.contains(name) {
                format!("{name}_total")
            } else {
                name.to_owned()
            };
            Some(format!("{prefix}{name} {tail}"))
        });
        match renamed {
            Some(l) => out.push_str(&l),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prometheus_gets_openmetrics_and_everyone_else_the_text_format() {
        let prometheus = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
        assert!(wants_openmetrics(Some(prometheus)));
        assert!(wants_openmetrics(Some("application/openmetrics-text")));
        assert!(!wants_openmetrics(Some("text/plain;version=0.0.4")));
        assert!(!wants_openmetrics(Some("*/*")));
        assert!(!wants_openmetrics(None));
        assert!(!wants_openmetrics(Some(
            "text/plain;q=0.9, application/openmetrics-text;q=0.5"
        )));
        assert!(!wants_openmetrics(Some("application/openmetrics-text;q=0")));
    }

    #[test]
    fn a_counter_is_named_by_its_samples_in_the_text_format() {
        let om = "# HELP a_requests Answers.\n# TYPE a_requests counter\na_requests_total{x=\"1\"} 3\n# HELP b Gauge.\n# TYPE b gauge\n# UNIT b seconds\nb 1\n# EOF\n";
        assert_eq!(
            to_text(om),
            "# HELP a_requests_total Answers.\n# TYPE a_requests_total counter\na_requests_total{x=\"1\"} 3\n# HELP b Gauge.\n# TYPE b gauge\nb 1\n"
        );
    }
}
