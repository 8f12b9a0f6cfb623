//! The Usage tab: rotating (ppr) services only. For each, the daily statistics (`Stats`)
//! and the rate against the limit (`Rate`, first entry).
//!
//! Which services are ppr: the services list does not say, so the rate of every service
//! whose type is unknown is asked once (`account/planner.rs`). A service is ppr when its
//! detail says so or when its stats or rate answered; it is fpr when its detail says so
//! or when stats/rate answered the generic 422 before any detail was known
//! ([`UsageTab::not_ppr`]). The list holds the ppr services, in the services' order.

use super::TabPane;
use crate::account::{Focus, Kind};
use crate::api::{ApiError, RateEntry, Request, StatEntry};
use crate::app::columns::{self, CellText, Column, Tone};
use crate::app::remote::Remote;
use crate::app::table::TableView;
use crate::app::{App, Command, Cx};
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet};

/// The list's columns: the service, and its rate as a share of its limit.
pub const COLUMNS: [Column; 3] = [
    Column::number("ID", 0),
    Column::text("Product", 1, 8).cut_in_the_middle(),
    Column::number("Used", 2),
];

#[derive(Debug, Default)]
pub struct UsageTab {
    pub stats: HashMap<u64, Remote<Vec<StatEntry>>>,
    pub rate: HashMap<u64, Remote<Vec<RateEntry>>>,
    /// The ppr services, as (id, product name).
    pub services: Vec<(u64, String)>,
    /// Services whose stats or rate answered 422 while their type was unknown: taken to be
    /// fpr, so they are not asked again and their 422 is not an error.
    pub not_ppr: HashSet<u64>,
    pub table: TableView,
    /// The natural width of each column over all rows.
    pub natural: Vec<u16>,
    /// The point under the chart's cursor (←/→), counted back from now; 0: now.
    pub day_back: usize,
    /// The chart's time range (`t`).
    pub range: super::usage_chart::Range,
}

impl UsageTab {
    /// Marks what `request` loads as loading, if this tab keeps it.
    pub fn begin(&mut self, request: &Request) {
        match request {
            Request::Stats(id) => self.stats.entry(*id).or_default().begin(),
            Request::Rate(id) => self.rate.entry(*id).or_default().begin(),
            _ => {}
        }
    }

    /// Keeps the answer to `Stats(id)`.
    pub fn finish_stats(
        &mut self,
        id: u64,
        result: Result<Vec<StatEntry>, ApiError>,
        at: DateTime<Utc>,
    ) {
        self.stats.entry(id).or_default().finish(result, at);
    }

    /// Keeps the answer to `Rate(id)`.
    pub fn finish_rate(
        &mut self,
        id: u64,
        result: Result<Vec<RateEntry>, ApiError>,
        at: DateTime<Utc>,
    ) {
        self.rate.entry(id).or_default().finish(result, at);
    }

    pub fn selected(&self) -> Option<u64> {
        self.table
            .selected_row()
            .and_then(|i| self.services.get(i))
            .map(|(id, _)| *id)
    }

    /// The service's stats or rate answered, so it is a ppr service.
    pub fn answered(&self, id: u64) -> bool {
        self.stats_of(id).value().is_some() || self.rate_of(id).value().is_some()
    }

    pub fn stats_of(&self, id: u64) -> &Remote<Vec<StatEntry>> {
        static NONE: Remote<Vec<StatEntry>> = Remote::NotRequested;
        self.stats.get(&id).unwrap_or(&NONE)
    }

    pub fn rate_of(&self, id: u64) -> &Remote<Vec<RateEntry>> {
        static NONE: Remote<Vec<RateEntry>> = Remote::NotRequested;
        self.rate.get(&id).unwrap_or(&NONE)
    }

    /// Moves the chart's cursor `back` points back (negative: forward), within the
    /// `points` the chart has.
    pub fn move_day(&mut self, back: isize, points: usize) {
        self.day_back = self
            .day_back
            .saturating_add_signed(back)
            .min(points.saturating_sub(1));
    }

    /// The index (into the stats) of the day under the cursor.
    pub fn cursor(&self, days: usize) -> Option<usize> {
        days.checked_sub(1)
            .map(|last| last - self.day_back.min(last))
    }

    /// `85%`, `⚠ 120%` over the limit, `no limit`, or `…` before the rate is known.
    pub fn used_cell(&self, id: u64) -> CellText {
        match self.rate_of(id).value().and_then(|v| v.first()) {
            None => CellText::new("…").tone(Tone::Dim),
            Some(r) if !r.limit.is_finite() || r.limit <= 0.0 => {
                CellText::new("no limit").tone(Tone::Dim)
            }
            Some(r) => {
                let rate = if r.rate.is_finite() {
                    r.rate.max(0.0)
                } else {
                    0.0
                };
                let pct = (rate / r.limit * 100.0).round().min(1e6);
                if rate > r.limit {
                    CellText::new(format!("⚠ {pct}%")).tone(Tone::Bad)
                } else {
                    CellText::new(format!("{pct}%"))
                }
            }
        }
    }

    pub fn cells(&self, id: u64, name: &str) -> Vec<CellText> {
        vec![
            CellText::new(id.to_string()),
            CellText::new(name),
            self.used_cell(id),
        ]
    }

    pub fn rebuild(&mut self, ppr: Vec<(u64, String)>) {
        let all: Vec<Vec<CellText>> = ppr.iter().map(|(id, n)| self.cells(*id, n)).collect();
        self.natural = columns::natural_widths(&COLUMNS, all.iter().map(Vec::as_slice));
        let keys = all.iter().map(|c| columns::search_key(c)).collect();
        let problems = all.iter().map(|c| c[2].tone == Tone::Bad).collect();
        let ids = ppr.iter().map(|(id, _)| *id).collect();
        self.services = ppr;
        self.table.set_rows_with(keys, ids, Vec::new(), problems);
    }
}

impl TabPane for UsageTab {
    const TITLE: &'static str = "Usage";
    /// The rate of every ppr service is the tab's list; the statistics are read for the
    /// selected one (and by the engine for the alerts).
    const KINDS: &'static [Kind] = &[Kind::Rate];

    fn table(&self) -> &TableView {
        &self.table
    }
    fn table_mut(&mut self) -> &mut TableView {
        &mut self.table
    }
    fn columns(_app: &App) -> Vec<Column> {
        COLUMNS.to_vec()
    }
    fn natural(&self) -> &[u16] {
        &self.natural
    }
    fn cells(app: &App, i: usize) -> Vec<CellText> {
        let usage = app.usage();
        usage
            .services
            .get(i)
            .map(|(id, name)| usage.cells(*id, name))
            .unwrap_or_default()
    }

    fn refresh(cx: &mut Cx<'_>) {
        cx.out.push(Command::Refresh(vec![Kind::Rate, Kind::Stats]));
    }
    fn focus(&self, focus: &mut Focus) {
        super::pane::on_screen(Self::KINDS, &self.table, focus);
        if let Some(id) = self.selected() {
            focus
                .requests
                .extend([Request::Stats(id), Request::Rate(id)]);
        }
    }
    fn fetch_for_selection(cx: &mut Cx<'_>) {
        if let Some(id) = cx.tabs.usage.selected() {
            if matches!(cx.tabs.usage.stats_of(id), Remote::NotRequested) {
                cx.fetch(Request::Stats(id));
            }
            if matches!(cx.tabs.usage.rate_of(id), Remote::NotRequested) {
                cx.fetch(Request::Rate(id));
            }
        }
    }
    fn selected_service(&self) -> Option<u64> {
        self.selected()
    }
}
