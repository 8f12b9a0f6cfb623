//! Time spans in Unix seconds, and the little arithmetic uptime needs: merging spans and
//! measuring how much of one set lies inside another.

/// `[since, until)` in Unix seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub since: i64,
    pub until: i64,
}

impl Span {
    pub fn new(since: i64, until: i64) -> Self {
        Self {
            since,
            until: until.max(since),
        }
    }

    pub fn len(&self) -> i64 {
        self.until - self.since
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The part inside `[from, to)`.
    pub fn clip(&self, from: i64, to: i64) -> Span {
        Span::new(self.since.max(from), self.until.min(to))
    }

    pub fn overlaps(&self, from: i64, to: i64) -> bool {
        self.since < to && self.until > from
    }
}

/// The spans merged: sorted, none overlapping or touching, none empty.
pub fn union(mut spans: Vec<Span>) -> Vec<Span> {
    spans.retain(|s| !s.is_empty());
    spans.sort_by_key(|s| s.since);
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        match out.last_mut() {
            Some(last) if s.since <= last.until => last.until = last.until.max(s.until),
            _ => out.push(s),
        }
    }
    out
}

/// How long `a` and `b` (both merged, see [`union`]) overlap.
pub fn overlap(a: &[Span], b: &[Span]) -> i64 {
    let (mut i, mut j, mut total) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let from = a[i].since.max(b[j].since);
        let to = a[i].until.min(b[j].until);
        total += (to - from).max(0);
        if a[i].until < b[j].until {
            i += 1;
        } else {
            j += 1;
        }
    }
    total
}

pub fn total(spans: &[Span]) -> i64 {
    spans.iter().map(Span::len).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_merges_overlapping_and_touching_spans() {
        let u = union(vec![
            Span::new(10, 20),
            Span::new(0, 5),
            Span::new(15, 30),
            Span::new(30, 31),
            Span::new(40, 40),
        ]);
        assert_eq!(u, vec![Span::new(0, 5), Span::new(10, 31)]);
    }

    #[test]
    fn overlap_measures_the_common_time() {
        let watched = union(vec![Span::new(0, 100), Span::new(200, 300)]);
        let errors = union(vec![Span::new(50, 250)]);
        assert_eq!(overlap(&watched, &errors), 50 + 50);
        assert_eq!(total(&watched), 200);
    }
}
