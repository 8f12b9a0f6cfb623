//! `doctor`'s look at the request limit: the figure the server's headers announced (the
//! account's, or one route's while only one route has answered), or the one the budget
//! keeps without it.

use super::{Check, Mark, check};
use crate::scheduler::{Budget, Source, bucket::ASSUMED_LIMIT};

/// The request limit the server announced, or the one the budget keeps without it.
pub(super) fn rate_limit_check(budget: &Budget, ceiling: Option<u32>, answered: bool) -> Check {
    let view = budget.view();
    // One read shows one route's figure: believed for that route until a second route
    // shows it (`scheduler::scope`), and said as such.
    let scopes = budget.snapshot();
    let route = scopes
        .routes()
        .find_map(|(route, own)| own.headers_figure().map(|f| (route, f, own.claimed_figure())));
    if view.source == Source::Assumed
        && let Some((route, figure, claimed)) = route
    {
        let detail = format!(
            "X-RateLimit-Limit: {}/min on {route} ({figure}/min believed for that route; the account's once another route shows it)",
            crate::text::count(u64::from(claimed.unwrap_or(figure)))
        );
        return check("rate limit", Mark::Pass, detail);
    }
    let (mark, detail) = match view.source {
        Source::Headers => match view.claimed {
            Some(claimed) => (
                Mark::Warn,
                format!(
                    "X-RateLimit-Limit: {}/min, believed up to {}/min ({} left now; --max-rpm vouches for more)",
                    crate::text::count(u64::from(claimed)),
                    view.limit,
                    view.left
                ),
            ),
            None => (
                Mark::Pass,
                format!("X-RateLimit-Limit: {}/min ({} left now)", view.limit, view.left),
            ),
        },
        Source::Learned => (
            Mark::Warn,
            format!("no headers; {}/min learned from 429 answers", view.limit),
        ),
        // Not learnt: a `?`, not a pass (issue 45): nothing says the server's real limit.
        Source::Assumed if !answered => (
            Mark::Unknown,
            format!("not known: no answer; staying at {}/min", view.limit),
        ),
        Source::Assumed => match ceiling {
            Some(n) => (
                Mark::Unknown,
                format!("not announced (no X-RateLimit headers): staying at your limit of {n}/min"),
            ),
            None => (
                Mark::Unknown,
                format!(
                    "not announced (no X-RateLimit headers): staying at the documented default of {ASSUMED_LIMIT}/min"
                ),
            ),
        },
    };
    check("rate limit", mark, detail)
}
