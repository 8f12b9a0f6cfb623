//! A service's recent events for its popup (Enter on Services), newest first, from what
//! the dashboard keeps:
//!
//! - the history ([`crate::history`], when it is on): status and due-date changes, and
//!   spells of its proxy servers in error or inactive (start and end), over 7 days;
//! - the message log of this session: its updates (binds, password changes, IP-list
//!   refreshes), which the log names by service (`Service 1001 (…) · bind IP …`);
//! - its alerts (opened and resolved).
//!
//! Choice: the history does not record the updates themselves (the spec has no event
//! feed, and a bind is known only to the session that sent it), so those come from the
//! log; at most [`MAX_EVENTS`] are shown.

use crate::alerts::Subject;
use crate::app::App;
use crate::app::look::theme::Theme;
use crate::text;
use chrono::{DateTime, Utc};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Events shown at most.
pub const MAX_EVENTS: usize = 20;

/// The lines of the events of service `id`, newest first.
pub fn service_events(app: &App, theme: &Theme, id: u64) -> Vec<Line<'static>> {
    let mut events: Vec<(DateTime<Utc>, String, Style)> = Vec::new();
    if let Some(h) = app.history().service(id) {
        for (at, status, due) in &h.changes {
            let due = due
                .as_deref()
                .map_or_else(String::new, |d| format!(", next due {d}"));
            events.push((*at, format!("status {status}{due}"), theme.base));
        }
        for spell in &h.spells {
            let list = match spell.list {
                crate::history::ServerList::Errors => "in error",
                crate::history::ServerList::Inactive => "inactive",
            };
            let server = text::sanitize(&spell.server).into_owned();
            events.push((spell.since, format!("server {server} {list}"), theme.warn));
            if let Some(until) = spell.until {
                events.push((
                    until,
                    format!("server {server} no longer {list}"),
                    theme.good,
                ));
            }
        }
    }
    let head = format!("Service {id} (");
    for entry in app.status().messages().newest_first() {
        if let Some(rest) = entry.text.strip_prefix(&head) {
            // `Static US 25, account work) · bind IP …: …` → `bind IP …: …`.
            let what = rest.split_once(") · ").map_or(rest, |(_, what)| what);
            let style = match entry.level {
                crate::app::messages::Level::Error => theme.bad,
                _ => theme.base,
            };
            events.push((entry.at, what.to_owned(), style));
        }
    }
    for alert in &app.alerts().rows {
        if alert.key.subject != Subject::Service(id) {
            continue;
        }
        let message = text::sanitize(&alert.message).into_owned();
        events.push((alert.first_seen, format!("alert: {message}"), theme.warn));
        if let Some(resolved) = alert.resolved {
            let rule = alert.key.rule.as_str();
            events.push((resolved, format!("alert resolved: {rule}"), theme.good));
        }
    }
    if events.is_empty() {
        return vec![Line::from(Span::styled("  none recorded yet", theme.dim))];
    }
    events.sort_by_key(|e| std::cmp::Reverse(e.0));
    events.truncate(MAX_EVENTS);
    let offset = app.utc_offset();
    events
        .into_iter()
        .map(|(at, what, style)| {
            let when = at.with_timezone(&offset).format("%m-%d %H:%M").to_string();
            Line::from(vec![
                Span::styled(format!("  {when}  "), theme.dim),
                Span::styled(what, style),
            ])
        })
        .collect()
}
