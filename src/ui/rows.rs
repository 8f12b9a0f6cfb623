//! Each tab's table as columns and the cells of a row, from the app: the one place a
//! tab's row is put into words. The tab's own pane draws them, and so does the dashboard
//! over several accounts (`crate::desk`), which puts an Account column before them.

use super::history;
use crate::app::App;
use crate::app::columns::{CellText, Column, Tone};
use crate::app::tabs::Tab;
use crate::app::tabs::{billing, network, products, services, usage};
use crate::history::ServerList;

/// The Alerts columns in the dashboard over several accounts (the Alerts pane of one
/// account lays its table out by itself, with the message taking the rest).
pub const ALERT_COLUMNS: [Column; 5] = [
    Column::text("Level", 0, 10),
    Column::text("Subject", 2, 13),
    Column::text("Rule", 3, 16),
    Column::text("Message", 1, 20),
    Column::text("Since", 4, 11),
];

/// The columns of a tab's table as the app shows them now (a Health column once a
/// service was probed, the history's columns when it is on).
pub fn columns(app: &App, tab: Tab) -> Vec<Column> {
    match tab {
        Tab::Services => {
            let mut columns = services::COLUMNS.to_vec();
            // It changes with each probe, so it is drawn beside the searched columns.
            if !app.probes().is_empty() {
                columns.push(Column::text("Health", 2, 16));
            }
            columns
        }
        Tab::Products => products::COLUMNS.to_vec(),
        Tab::Billing => billing::COLUMNS.to_vec(),
        Tab::Network => {
            let mut columns = network::COLUMNS.to_vec();
            columns.push(Column::text("Checked", 4, 8));
            // Hidden, not cut, when short of room: each is only useful whole.
            if app.history().overview().is_some() {
                columns.push(Column::text("Listed", 5, 15));
                columns.push(Column::text("Errors 24h", 6, 12));
            }
            columns
        }
        Tab::Usage => usage::COLUMNS.to_vec(),
        Tab::Alerts => ALERT_COLUMNS.to_vec(),
    }
}

/// The natural width of each searched column over all the tab's rows.
pub fn natural(app: &App, tab: Tab) -> &[u16] {
    match tab {
        Tab::Services => &app.services().natural,
        Tab::Products => &app.products().natural,
        Tab::Billing => &app.billing().natural,
        Tab::Network => &app.network().natural,
        Tab::Usage => &app.usage().natural,
        Tab::Alerts => &[10, 13, 16, 40, 11],
    }
}

/// The cells of row `i` (an index into the tab's rows); empty when there is none.
pub fn cells(app: &App, tab: Tab, i: usize) -> Vec<CellText> {
    match tab {
        Tab::Services => service(app, i),
        Tab::Products => app.products().rows().get(i).map(products::cells),
        Tab::Billing => app.billing().rows().get(i).map(billing::cells),
        Tab::Network => server(app, i),
        Tab::Usage => app
            .usage()
            .services
            .get(i)
            .map(|(id, name)| app.usage().cells(*id, name)),
        Tab::Alerts => alert(app, i),
    }
    .unwrap_or_default()
}

fn service(app: &App, i: usize) -> Option<Vec<CellText>> {
    let s = app.services().rows().get(i)?;
    let ctx = cell_context(app);
    let mut cells = services::cells(s, &ctx);
    if !app.probes().is_empty() {
        cells.push(health_cell(app, s.service_id));
    }
    if let Some(until) = app.throttled_until(s.service_id) {
        // The IP-list refresh countdown follows the name, which gives way to it but stays
        // (the detail has the countdown in words).
        let tail = format!(
            " ⟳ {}",
            crate::iplist_throttle::format_remaining(until, app.now())
        );
        let name = std::mem::take(&mut cells[services::PRODUCT]);
        cells[services::PRODUCT] = name.with_tail(tail, Tone::Stale);
    }
    Some(cells)
}

fn server(app: &App, i: usize) -> Option<Vec<CellText>> {
    let net = app.network();
    let r = net.rows.get(i)?;
    let mut row = network::cells(r, net.products.get(i).map_or("", String::as_str));
    let checked = app
        .network()
        .checked_at(r.service_id)
        .map(|at| age(app.now(), at))
        .unwrap_or_default();
    row.push(CellText::new(checked).tone(Tone::Dim));
    if let Some(o) = app.history().overview() {
        let list = match r.state {
            network::ServerState::Error => ServerList::Errors,
            network::ServerState::Inactive => ServerList::Inactive,
        };
        let listed = o
            .open
            .get(&(r.service_id, list, r.ip.clone()))
            .map(|at| history::since(app, *at))
            .unwrap_or_default();
        row.push(CellText::new(listed).tone(Tone::Dim));
        let spark = o
            .services
            .get(&r.service_id)
            .map(|s| history::spark_counts(&s.errors_24h, 12))
            .unwrap_or_default();
        row.push(CellText::new(spark).tone(Tone::Bad));
    }
    Some(row)
}

fn alert(app: &App, i: usize) -> Option<Vec<CellText>> {
    use crate::alerts::Level;
    let a = app.alerts().rows.get(i)?;
    let tone = match (a.resolved, a.level) {
        (Some(_), _) => Tone::Dim,
        (None, Level::Critical) => Tone::Bad,
        (None, Level::Warn) => Tone::Warn,
        (None, Level::Info) => Tone::Base,
    };
    let mark = if a.resolved.is_some() { "✓" } else { "●" };
    let rest = if a.resolved.is_some() {
        Tone::Dim
    } else {
        Tone::Base
    };
    Some(vec![
        CellText::new(format!("{mark} {}", a.level.as_str())).tone(tone),
        CellText::new(a.key.subject.to_string()).tone(rest),
        CellText::new(a.key.rule.as_str()).tone(rest),
        CellText::new(crate::text::sanitize(&a.message).into_owned()).tone(rest),
        CellText::new(super::alerts::short_time(app, a.first_seen)).tone(Tone::Dim),
    ])
}

/// The last probe (`h`) of the service: working of probed and the p50 latency, or its
/// progress; empty when it was never probed.
pub fn health_cell(app: &App, id: u64) -> CellText {
    use crate::app::probe::Stage;
    let Some(run) = app.probes().get(id) else {
        return CellText::new("");
    };
    let results = run.finished();
    let alive = results.iter().filter(|r| r.verdict.is_alive()).count();
    let dead = results.iter().filter(|r| r.verdict.is_dead()).count();
    let tone = match &run.stage {
        Stage::Failed(_) => Tone::Bad,
        Stage::FetchingList(_) | Stage::Running => Tone::Dim,
        Stage::Done if dead == 0 => Tone::Good,
        Stage::Done if alive == 0 => Tone::Bad,
        Stage::Done => Tone::Warn,
    };
    CellText::new(run.health()).tone(tone)
}

/// What the Services cells read besides the service.
pub fn cell_context(app: &App) -> services::CellContext<'_> {
    services::CellContext {
        today: app.now().with_timezone(&app.utc_offset()).date_naive(),
        network: app.network(),
        usage: app.usage(),
    }
}

/// How long ago `at` was: `just now`, `45s ago`, `2m ago`, `3h ago`, `2d ago`.
pub fn age(now: chrono::DateTime<chrono::Utc>, at: chrono::DateTime<chrono::Utc>) -> String {
    let secs = (now - at).num_seconds().max(0);
    match secs {
        0..10 => "just now".into(),
        10..60 => format!("{secs}s ago"),
        60..3600 => format!("{}m ago", secs / 60),
        3600..86_400 => format!("{}h ago", secs / 3600),
        _ => format!("{}d ago", secs / 86_400),
    }
}
