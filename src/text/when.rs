//! Times as a person reads them on the dashboard: how long ago, since when, a short
//! local time.

use chrono::{DateTime, FixedOffset, TimeDelta, Utc};

/// `since 14:02, 3h 5m`; a time not today also names the day.
pub fn since(now: DateTime<Utc>, offset: FixedOffset, at: DateTime<Utc>) -> String {
    let local = at.with_timezone(&offset);
    let when = if local.date_naive() == now.with_timezone(&offset).date_naive() {
        local.format("%H:%M").to_string()
    } else {
        local.format("%b %-d %H:%M").to_string()
    };
    format!("since {when}, {}", span_text(now - at))
}

/// `3h 5m`, `2d 4h`, `45s`.
pub fn span_text(d: TimeDelta) -> String {
    let s = d.num_seconds().max(0);
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86_400 => format!("{}h {}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d {}h", s / 86_400, s % 86_400 / 3600),
    }
}

/// How long ago `at` was: `just now`, `45s ago`, `2m ago`, `3h ago`, `2d ago`.
pub fn age(now: DateTime<Utc>, at: DateTime<Utc>) -> String {
    let secs = (now - at).num_seconds().max(0);
    match secs {
        0..10 => "just now".into(),
        10..60 => format!("{secs}s ago"),
        60..3600 => format!("{}m ago", secs / 60),
        3600..86_400 => format!("{}h ago", secs / 3600),
        _ => format!("{}d ago", secs / 86_400),
    }
}

/// `14:02` today, `11-26 14:02` another day, in local time.
pub fn short_time(now: DateTime<Utc>, offset: FixedOffset, at: DateTime<Utc>) -> String {
    let local = at.with_timezone(&offset);
    if local.date_naive() == now.with_timezone(&offset).date_naive() {
        local.format("%H:%M").to_string()
    } else {
        local.format("%m-%d %H:%M").to_string()
    }
}
