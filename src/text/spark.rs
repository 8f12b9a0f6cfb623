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

/// Shares (0 to 1: the alive share of a probe round) on the fixed scale 0…1, at most
/// `width` of them, neighbours merged by their *lowest*: a round at 95% is a bar just
/// under full, not the floor of a scale drawn from its neighbours, and a dip merged
/// into a wider bucket still shows.
pub fn spark_share(values: &[f64], width: usize) -> String {
    if values.is_empty() || width == 0 {
        return String::new();
    }
    let per = values.len().div_ceil(width);
    let symbols = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];
    values
        .chunks(per)
        .map(|c| {
            let low = c.iter().copied().filter(|v| v.is_finite()).reduce(f64::min);
            match low {
                Some(v) => symbols[(v.clamp(0.0, 1.0) * 7.0).round() as usize],
                None => " ",
            }
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::span_text;

    #[test]
    fn spark_scales_between_the_lowest_and_highest_and_leaves_gaps_blank() {
        assert_eq!(spark(&[Some(1.0), Some(2.0), None, Some(3.0)], 10), "▁▅ █");
        assert_eq!(spark(&[Some(5.0), Some(5.0)], 10), "██");
        assert_eq!(spark(&[Some(0.0), Some(0.0)], 10), "▁▁");
        assert_eq!(spark(&[Some(f64::NAN), Some(1e308)], 10), " █");
    }

    #[test]
    fn spark_merges_buckets_to_fit_by_their_maximum() {
        let v: Vec<Option<f64>> = (0..24)
            .map(|i| Some(if i == 23 { 8.0 } else { 0.0 }))
            .collect();
        let s = spark(&v, 12);
        assert_eq!(s.chars().count(), 12);
        assert!(s.ends_with('█'), "{s}");
    }

    #[test]
    fn counts_scale_from_zero() {
        assert_eq!(spark_counts(&[1, 1, 1], 3), "███");
        assert_eq!(spark_counts(&[0, 0, 2], 3), "▁▁█");
        assert_eq!(spark_counts(&[0; 24], 12).chars().count(), 12);
    }

    #[test]
    fn shares_sit_on_a_fixed_scale_and_merge_by_their_lowest() {
        assert_eq!(spark_share(&[1.0, 0.95, 0.5, 0.0], 10), "██▅▁");
        assert_eq!(spark_share(&[1.0, 0.0, 1.0, 1.0], 2), "▁█");
        assert_eq!(spark_share(&[f64::NAN, 2.0], 2), " █");
        assert_eq!(spark_share(&[], 4), "");
    }

    #[test]
    fn spans_read_naturally() {
        let d = chrono::TimeDelta::seconds;
        assert_eq!(span_text(d(59)), "59s");
        assert_eq!(span_text(d(3 * 3600 + 300)), "3h 5m");
        assert_eq!(span_text(d(2 * 86_400 + 4 * 3600)), "2d 4h");
        assert_eq!(span_text(d(-5)), "0s");
    }
}
