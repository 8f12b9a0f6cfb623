//! Sparklines as text, so they fit in a table cell or a detail line.

/// `values` as block characters, at most `width` of them (neighbouring values merged by
/// their maximum), scaled to the largest; `None` (no data) is a blank. Zero is the
/// lowest bar, so "watched, nothing wrong" and "not watched" look different.
pub fn spark(values: &[Option<f64>], width: usize) -> String {
    scaled(values, width, false)
}

/// A count per bucket (errors per hour) as a sparkline scaled from zero: a steady one
/// error must not look like a row of nothing.
pub fn spark_counts(values: &[u64], width: usize) -> String {
    let v: Vec<Option<f64>> = values.iter().map(|&n| Some(n as f64)).collect();
    scaled(&v, width, true)
}

fn scaled(values: &[Option<f64>], width: usize, from_zero: bool) -> String {
    if values.is_empty() || width == 0 {
        return String::new();
    }
    let per = values.len().div_ceil(width);
    let merged: Vec<Option<f64>> = values
        .chunks(per)
        .map(|c| c.iter().flatten().copied().reduce(f64::max))
        .collect();
    let known = merged.iter().flatten().copied().filter(|v| v.is_finite());
    let (mut lo, hi) = known.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if from_zero {
        lo = lo.min(0.0);
    }
    let symbols = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];
    merged
        .iter()
        .map(|v| match v {
            Some(v) if v.is_finite() => {
                let level = if hi > lo {
                    ((v - lo) / (hi - lo) * 7.0).round() as usize
                } else if hi > 0.0 {
                    7
                } else {
                    0
                };
                symbols[level.min(7)]
            }
            _ => " ",
        })
        .collect()
}
