//! The Usage tab: rotating (ppr) services only. For each, the daily statistics (`Stats`)
//! and the rate against the limit (`Rate`, first entry).
//!
//! Which services are ppr: the services list does not say, so the rate of every service
//! whose type is unknown is asked once (`account/planner.rs`). A service is ppr when its
//! detail says so or when its stats or rate answered; it is fpr when its detail says so
//! or when stats/rate answered the generic 422 before any detail was known
//! ([`UsageTab::not_ppr`]). The list holds the ppr services, in the services' order. Its
//! look is [`look`].

pub mod look;

use super::{TabCx, TabData, TabPane};
use crate::account::store::Store;
use crate::account::{Focus, Kind};
use crate::api::Request;
use crate::app::Command;
use crate::app::columns::{CellText, Column, Tone};
use crate::app::keymap::Action;
use crate::app::table::TableView;
use std::collections::HashSet;

/// The list's columns: the service, and its rate as a share of its limit.
pub const COLUMNS: [Column; 3] = [
    Column::number("ID", 0),
    Column::text("Product", 1, 8).cut_in_the_middle(),
    Column::number("Used", 2),
];

#[derive(Debug, Default)]
pub struct UsageTab {
    /// The ppr services, as (id, product name).
    pub services: Vec<(u64, String)>,
    /// Those of them that have ended (Terminated, Cancelled, Fraud): their usage is never
    /// read again, and is said to be over rather than waited for.
    pub ended: HashSet<u64>,
    /// Services whose stats or rate answered 422 while their type was unknown: taken to be
    /// fpr, so they are not asked again and their 422 is not an error.
    pub not_ppr: HashSet<u64>,
    /// Services taken for fpr from a 422 whose detail then said ppr: their usage is asked
    /// again when they are selected (the 422 stays in the store until then).
    pub reask: HashSet<u64>,
    pub table: TableView,
    /// The point under the chart's cursor (←/→), counted back from now; 0: now.
    pub day_back: usize,
    /// The chart's time range (`t`).
    pub range: super::usage_chart::Range,
    /// Each row's search key, widths and mark with what they were made from.
    made: crate::app::memo::RowMemo<UsageInputs>,
}

/// What a row's cells are made from: the product's name and the rate (its rate and limit,
/// as bits: the cell is made again for any change, NaN included).
type UsageInputs = (String, Option<(u64, u64)>, bool);

fn rate_of(store: &Store, id: u64) -> Option<(u64, u64)> {
    let r = store.rate_answer(id).value()?.first()?;
    Some((r.rate.to_bits(), r.limit.to_bits()))
}

impl UsageTab {
    pub fn selected(&self) -> Option<u64> {
        self.table
            .selected_row()
            .and_then(|i| self.services.get(i))
            .map(|(id, _)| *id)
    }

    /// The service's stats or rate answered, so it is a ppr service.
    pub fn answered(store: &Store, id: u64) -> bool {
        store.stats_answer(id).value().is_some() || store.rate_answer(id).value().is_some()
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

    /// `85%`, `⚠ 120%` over the limit, `no limit`, `…` before the rate is known, or
    /// `ended` for a service that ended (its usage is not read again).
    pub fn used_cell(store: &Store, id: u64, ended: bool) -> CellText {
        if ended {
            return CellText::new("ended").tone(Tone::Dim);
        }
        match store.rate_answer(id).value().and_then(|v| v.first()) {
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

    pub fn cells(store: &Store, id: u64, name: &str, ended: bool) -> Vec<CellText> {
        vec![
            CellText::new(id.to_string()),
            CellText::new(name),
            Self::used_cell(store, id, ended),
        ]
    }

    /// The rows of the rotating services `ppr` (ID, name, whether it has ended).
    pub fn rebuild(&mut self, store: &Store, ppr: Vec<(u64, String, bool)>) {
        // A row whose name and rate are as last time keeps its key, widths and mark
        // (`RowMemo`): ten accounts' rows are rebuilt when All shows the tab.
        let derived = self.made.derive(
            &COLUMNS,
            ppr.iter()
                .map(|(id, name, ended)| (*id, (*id, name, rate_of(store, *id), *ended))),
            |kept: &UsageInputs, &(_, name, rate, ended)| {
                kept.0 == *name && kept.1 == rate && kept.2 == ended
            },
            |&(id, name, rate, ended)| {
                let cells = Self::cells(store, id, name, ended);
                let problem = cells[2].tone == Tone::Bad;
                ((name.clone(), rate, ended), cells, problem)
            },
        );
        self.table.set_natural(derived.natural);
        let ids = ppr.iter().map(|(id, ..)| *id).collect();
        self.ended = ppr
            .iter()
            .filter(|(_, _, ended)| *ended)
            .map(|(id, ..)| *id)
            .collect();
        self.services = ppr.into_iter().map(|(id, name, _)| (id, name)).collect();
        self.table
            .set_rows_with(derived.keys, ids, Vec::new(), derived.problems);
    }
}

impl TabPane for UsageTab {
    /// `←`, `→`: the chart's cursor a day back or forward; `t`: its next range.
    fn key(&mut self, action: Action, cx: &mut TabCx<'_>) -> bool {
        match action {
            Action::DayBack | Action::DayForward => {
                let chart = self.chart_of(cx.store(), cx.history(), (cx.now(), cx.offset()));
                let points = chart.map_or(0, |c| c.points.len());
                let back = if action == Action::DayBack { 1 } else { -1 };
                self.move_day(back, points);
            }
            Action::CycleRange => {
                self.range = self.range.next();
                self.day_back = 0;
            }
            _ => return false,
        }
        true
    }

    /// The rate of every ppr service is the tab's list; the statistics are read for the
    /// selected one (and by the engine for the alerts).
    fn kinds(&self) -> &'static [Kind] {
        &[Kind::Rate]
    }

    fn table(&self) -> &TableView {
        &self.table
    }
    fn table_mut(&mut self) -> &mut TableView {
        &mut self.table
    }
    fn columns(&self, _data: &TabData<'_>) -> Vec<Column> {
        COLUMNS.to_vec()
    }
    fn cells(&self, data: &TabData<'_>, i: usize) -> Vec<CellText> {
        self.services
            .get(i)
            .map(|(id, name)| UsageTab::cells(data.store, *id, name, self.ended.contains(id)))
            .unwrap_or_default()
    }
    fn refresh(&mut self, cx: &mut TabCx<'_>) {
        cx.send(Command::Refresh(vec![Kind::Rate, Kind::Stats]));
    }
    fn focus(&self, focus: &mut Focus) {
        super::pane::on_screen(self.kinds(), &self.table, focus);
        if let Some(id) = self.selected() {
            focus
                .requests
                .extend([Request::Stats(id), Request::Rate(id)]);
        }
    }
    fn fetch_for_selection(&mut self, cx: &mut TabCx<'_>) {
        if let Some(id) = self.selected() {
            let again = self.reask.remove(&id);
            if again || !cx.store().stats_answer(id).is_requested() {
                cx.fetch(Request::Stats(id));
            }
            if again || !cx.store().rate_answer(id).is_requested() {
                cx.fetch(Request::Rate(id));
            }
        }
    }
    fn selected_service(&self) -> Option<u64> {
        self.selected()
    }
}

impl UsageTab {
    /// The chart of the selected rotating service in the chosen range, from the account's
    /// data (its statistics and rate, the history's kept days and 24 hours).
    pub fn chart(&self, data: &super::TabData<'_>) -> Option<super::usage_chart::Chart> {
        self.chart_of(data.store, data.history, (data.now, data.offset))
    }

    /// [`UsageTab::chart`] from the store and the history at `now` in `offset`.
    fn chart_of(
        &self,
        store: &crate::account::store::Store,
        history: &crate::app::history::HistoryState,
        (now, offset): (chrono::DateTime<chrono::Utc>, chrono::FixedOffset),
    ) -> Option<super::usage_chart::Chart> {
        let id = self.selected()?;
        let kept = history
            .overview()
            .and_then(|o| o.services.get(&id))
            .map(|s| s.usage_30d.as_slice())
            .unwrap_or_default();
        let rates_24h = history
            .service(id)
            .map(|h| h.rate_24h.as_slice())
            .unwrap_or_default();
        let inputs = super::usage_chart::Inputs {
            stats: store.stats(id).unwrap_or_default(),
            kept,
            rate: store.rate(id).and_then(|v| v.first()),
            rates_24h,
            today: now.with_timezone(&offset).date_naive(),
            now,
            offset,
        };
        Some(super::usage_chart::chart(self.range, &inputs))
    }
}
