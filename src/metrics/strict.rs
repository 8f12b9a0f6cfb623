//! A strict reader of both expositions, for the tests: what a strict OpenMetrics parser
//! (Python's `prometheus_client`) and the Prometheus text format's rules refuse, this
//! refuses, for every feature proxydash's metrics use (counters, gauges, histograms,
//! labels, units). A
//! lenient parser (`prometheus-parse`) reads the old, wrong counter family
//! `# TYPE proxydash_api_requests_total counter` without a word; this does not.

use std::collections::{HashMap, HashSet};

/// A family's type and whether its samples were seen (they must be contiguous).
struct Family {
    kind: String,
    done: bool,
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

fn is_label_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A sample's name, its labels and its value.
type Sample = (String, Vec<(String, String)>, f64);

/// `name{a="1",b="x\"y"} 1.5` into its name, its label set and its value.
fn sample(line: &str) -> Result<Sample, String> {
    let (name, rest) = match line.find(['{', ' ']) {
        Some(i) => line.split_at(i),
        None => return Err(format!("no value: {line:?}")),
    };
    if !is_name(name) {
        return Err(format!("bad metric name {name:?}"));
    }
    let mut labels = Vec::new();
    let mut rest = rest;
    if let Some(inner) = rest.strip_prefix('{') {
        let mut chars = inner.char_indices().peekable();
        let end = loop {
            let Some(&(i, c)) = chars.peek() else {
                return Err(format!("unclosed labels: {line:?}"));
            };
            if c == '}' {
                break i + 1;
            }
            let start = i;
            while chars.peek().is_some_and(|&(_, c)| c != '=') {
                chars.next();
            }
            let Some((eq, _)) = chars.next() else {
                return Err(format!("label without value: {line:?}"));
            };
            let label = &inner[start..eq];
            if !is_label_name(label) {
                return Err(format!("bad label name {label:?} in {line:?}"));
            }
            if chars.next().map(|(_, c)| c) != Some('"') {
                return Err(format!("unquoted label value in {line:?}"));
            }
            let mut value = String::new();
            loop {
                match chars.next() {
                    Some((_, '"')) => break,
                    Some((_, '\\')) => match chars.next() {
                        Some((_, '\\')) => value.push('\\'),
                        Some((_, '"')) => value.push('"'),
                        Some((_, 'n')) => value.push('\n'),
                        other => return Err(format!("bad escape {other:?} in {line:?}")),
                    },
                    Some((_, '\n')) => return Err(format!("raw newline in {line:?}")),
                    Some((_, c)) => value.push(c),
                    None => return Err(format!("unclosed label value in {line:?}")),
                }
            }
            if labels.iter().any(|(l, _): &(String, String)| l == label) {
                return Err(format!("label {label:?} twice in {line:?}"));
            }
            labels.push((label.to_owned(), value));
            match chars.next() {
                Some((_, ',')) => {}
                Some((i, '}')) => break i + 1,
                other => return Err(format!("unexpected {other:?} in {line:?}")),
            }
        };
        rest = &inner[end..];
    }
    let value = rest
        .strip_prefix(' ')
        .ok_or_else(|| format!("no space before the value: {line:?}"))?;
    let value = value.split(' ').next().unwrap_or("");
    let v = match value {
        "NaN" => f64::NAN,
        "+Inf" => f64::INFINITY,
        "-Inf" => f64::NEG_INFINITY,
        v => v
            .parse::<f64>()
            .map_err(|_| format!("bad value {v:?} in {line:?}"))?,
    };
    Ok((name.to_owned(), labels, v))
}

/// Checks an exposition; `openmetrics`: by the OpenMetrics rules, else the text format's.
pub fn check(text: &str, openmetrics: bool) -> Result<usize, String> {
    let mut families: HashMap<String, Family> = HashMap::new();
    let mut current: Option<String> = None;
    let mut seen: HashSet<(String, Vec<(String, String)>)> = HashSet::new();
    let mut samples = 0;
    let mut histograms = Histograms::default();
    let lines: Vec<&str> = text.lines().collect();
    if openmetrics && lines.last() != Some(&"# EOF") {
        return Err("OpenMetrics ends with # EOF".into());
    }
    for (n, line) in lines.iter().enumerate() {
        let at = |why: String| format!("line {}: {why}", n + 1);
        if line.is_empty() {
            return Err(at("an empty line".into()));
        }
        if *line == "# EOF" {
            if !openmetrics || n + 1 != lines.len() {
                return Err(at("# EOF where it does not belong".into()));
            }
            continue;
        }
        if let Some(meta) = line.strip_prefix("# ") {
            let mut parts = meta.splitn(3, ' ');
            let (word, name) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            let rest = parts.next().unwrap_or("");
            if !is_name(name) {
                return Err(at(format!("bad family name {name:?}")));
            }
            if let Some(last) = &current
                && last != name
                && let Some(f) = families.get_mut(last)
            {
                f.done = true;
            }
            current = Some(name.to_owned());
            match word {
                "TYPE" => {
                    let kinds: &[&str] = if openmetrics {
                        &[
                            "counter",
                            "gauge",
                            "unknown",
                            "histogram",
                            "summary",
                            "info",
                            "stateset",
                            "gaugehistogram",
                        ]
                    } else {
                        &["counter", "gauge", "untyped", "histogram", "summary"]
                    };
                    if !kinds.contains(&rest) {
                        return Err(at(format!("unknown type {rest:?}")));
                    }
                    if openmetrics && rest == "counter" && name.ends_with("_total") {
                        return Err(at(format!(
                            "a counter family is named without _total: {name:?}"
                        )));
                    }
                    if families.contains_key(name) {
                        return Err(at(format!("family {name:?} declared twice")));
                    }
                    families.insert(
                        name.to_owned(),
                        Family {
                            kind: rest.to_owned(),
                            done: false,
                        },
                    );
                }
                "HELP" => {}
                "UNIT" if openmetrics => {
                    if !name.ends_with(&format!("_{rest}")) {
                        return Err(at(format!("{name:?} does not end in its unit {rest:?}")));
                    }
                }
                other => return Err(at(format!("unknown line # {other}"))),
            }
            continue;
        }
        let (name, labels, value) = sample(line).map_err(at)?;
        let family = family_of(&name, &families, openmetrics);
        let Some(f) = families.get(&family) else {
            return Err(at(format!("sample {name:?} of no declared family")));
        };
        if f.done {
            return Err(at(format!("samples of {family:?} not together")));
        }
        if openmetrics && f.kind == "counter" && name == family {
            return Err(at(format!(
                "a counter's sample is {family}_total, not {name:?}"
            )));
        }
        let histogram = f.kind == "histogram";
        if current.as_deref() != Some(family.as_str()) {
            if let Some(last) = &current
                && let Some(f) = families.get_mut(last)
            {
                f.done = true;
            }
            current = Some(family.clone());
        }
        if histogram {
            histograms
                .sample(&family, &name, &labels, value)
                .map_err(at)?;
        }
        let mut key = labels;
        key.sort();
        if !seen.insert((name.clone(), key)) {
            return Err(at(format!("{name:?} twice with the same labels")));
        }
        samples += 1;
    }
    histograms.complete()?;
    Ok(samples)
}

/// The family a sample belongs to: a counter's `_total` (and `_created`) in OpenMetrics,
/// a histogram's `_bucket`, `_sum` and `_count` in both formats.
fn family_of(name: &str, families: &HashMap<String, Family>, openmetrics: bool) -> String {
    let of_kind = |suffixes: &[&str], kind: &str| {
        suffixes.iter().find_map(|s| {
            name.strip_suffix(s)
                .filter(|f| families.get(*f).is_some_and(|f| f.kind == kind))
        })
    };
    let counter = openmetrics
        .then(|| of_kind(&["_total", "_created"], "counter"))
        .flatten();
    counter
        .or_else(|| of_kind(&["_bucket", "_sum", "_count"], "histogram"))
        .unwrap_or(name)
        .to_owned()
}

/// What a strict parser checks of a histogram's series: each bucket has an `le`, the
/// bounds rise, the counts never fall, `+Inf` is there and equals `_count`.
#[derive(Default)]
struct Histograms {
    /// By family and labels without `le`: the last bound and count, `+Inf`'s count and
    /// `_count`.
    series: HashMap<(String, Vec<(String, String)>), Series>,
}

#[derive(Default)]
struct Series {
    last: Option<(f64, f64)>,
    inf: Option<f64>,
    count: Option<f64>,
}

impl Histograms {
    fn sample(
        &mut self,
        family: &str,
        name: &str,
        labels: &[(String, String)],
        value: f64,
    ) -> Result<(), String> {
        let mut key: Vec<(String, String)> =
            labels.iter().filter(|(l, _)| l != "le").cloned().collect();
        key.sort();
        let series = self.series.entry((family.to_owned(), key)).or_default();
        match name.strip_prefix(family) {
            Some("_bucket") => {
                let le = labels.iter().find(|(l, _)| l == "le");
                let bound = match le.map(|(_, v)| v.as_str()) {
                    Some("+Inf") => f64::INFINITY,
                    Some(v) => v.parse().map_err(|_| format!("bad le {v:?} in {name}"))?,
                    None => return Err(format!("a bucket of {family} without le")),
                };
                if let Some((at, count)) = series.last
                    && (bound <= at || value < count)
                {
                    return Err(format!("{family}'s buckets do not rise at le={bound}"));
                }
                series.last = Some((bound, value));
                if bound.is_infinite() {
                    series.inf = Some(value);
                }
            }
            Some("_count") => series.count = Some(value),
            Some("_sum" | "_created") => {}
            _ => return Err(format!("{name:?} is not a sample of histogram {family}")),
        }
        Ok(())
    }

    fn complete(&self) -> Result<(), String> {
        for ((family, labels), s) in &self.series {
            match (s.inf, s.count) {
                (Some(inf), Some(count)) if inf == count => {}
                _ => {
                    return Err(format!(
                        "{family}{labels:?}: no +Inf bucket, or its count is not _count"
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn the_reader_refuses_what_strict_parsers_refuse() {
        let good = "# HELP a_requests Answers.\n# TYPE a_requests counter\na_requests_total{x=\"1\"} 3\n# HELP b Gauge.\n# TYPE b gauge\nb 1\n# EOF\n";
        assert_eq!(check(good, true), Ok(2));
        // The old form: a counter family named by its samples.
        let clash = "# HELP a_requests_total Answers.\n# TYPE a_requests_total counter\na_requests_total{x=\"1\"} 3\n# EOF\n";
        assert!(check(clash, true).is_err());
        assert!(
            check(good.trim_end_matches("# EOF\n"), true).is_err(),
            "no EOF"
        );
        assert!(check("# TYPE b gauge\nb{x=\"a\nb\"} 1\n# EOF\n", true).is_err());
        assert!(
            check("# TYPE b gauge\nb 1\nb 2\n# EOF\n", true).is_err(),
            "twice"
        );
        assert!(check("c 1\n", false).is_err(), "undeclared");
        assert!(
            check("# TYPE b gauge\nb 1\n# EOF\n", false).is_err(),
            "EOF in text"
        );
        let histogram = "# TYPE h_seconds histogram\n# UNIT h_seconds seconds\nh_seconds_sum 1.5\nh_seconds_count 3\nh_seconds_bucket{le=\"0.1\"} 1\nh_seconds_bucket{le=\"+Inf\"} 3\n# EOF\n";
        assert_eq!(check(histogram, true), Ok(4));
        for broken in [
            histogram.replace("_count 3", "_count 2"),
            histogram.replace("le=\"0.1\"} 1", "le=\"0.1\"} 4"),
            histogram.replace("h_seconds_bucket{le=\"+Inf\"} 3\n", ""),
            histogram.replace("{le=\"0.1\"}", ""),
        ] {
            assert!(check(&broken, true).is_err(), "{broken}");
        }
    }
}
