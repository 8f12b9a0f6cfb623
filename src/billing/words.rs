//! The money ahead in words, for the command line and the dashboard's lines: what is
//! known, and what is not (see [`super::runway`]'s "Unknown is not zero").

use super::runway::{PriceSource, Runway, SOON_DAYS, Short};
use crate::text;

/// `1 invoice`, `3 invoices`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        text::count(n as u64),
        if n == 1 { one } else { many }
    )
}

impl Runway {
    /// What the figures could not count, in words (empty when they are whole):
    /// `the invoices could not be read`, `2 services with no known price`.
    pub fn unknowns(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.invoices_known {
            out.push("the invoices could not be read".to_owned());
        }
        if self.invoices_skipped > 0 {
            out.push(counted(
                self.invoices_skipped,
                "invoice that could not be read",
                "invoices that could not be read",
            ));
        }
        if !self.unpaid_without_amount.is_empty() {
            out.push(counted(
                self.unpaid_without_amount.len(),
                "unpaid invoice without an amount",
                "unpaid invoices without an amount",
            ));
        }
        if !self.unknown_prices.is_empty() {
            out.push(counted(
                self.unknown_prices.len(),
                "service with no known price",
                "services with no known price",
            ));
        }
        out
    }

    /// How long the credit lasts, in words: `covers renewals until 2026-12-14`, `runs
    /// short by 2026-12-20 at the latest`, `not known how long the credit lasts`.
    pub fn covers(&self) -> String {
        self.covers_with(self.short)
    }

    /// [`Runway::covers`] had the credit run short as `short` says (after an order:
    /// [`Runway::after_order`]).
    pub fn covers_with(&self, short: Short) -> String {
        let covers_until = match short {
            Short::On(day) => day.pred_opt(),
            _ => None,
        };
        match (self.credit, short) {
            (None, _) => "credit not known".to_owned(),
            (Some(_), Short::On(day)) if day <= self.today => {
                "does not cover what is owed today".to_owned()
            }
            (Some(_), Short::On(_)) => match covers_until {
                Some(until) => format!("covers renewals until {until}"),
                None => "does not cover what is owed today".to_owned(),
            },
            (Some(_), Short::Never) => "covers every renewal for a year".to_owned(),
            (Some(_), Short::ByAtLatest(day)) => format!("runs short by {day} at the latest"),
            (Some(_), Short::NotKnown) => "not known how long the credit lasts".to_owned(),
        }
    }

    /// `$182.50 due in 30 days`, or `at least $182.50 …` when an amount that cannot be
    /// read falls within the 30 days.
    pub fn due(&self) -> String {
        let least = if self.soon_is_complete() {
            ""
        } else {
            "at least "
        };
        format!(
            "{least}{} due in {SOON_DAYS} days",
            text::money(self.soon_total)
        )
    }

    /// One line for people: `covers renewals until 2026-12-14; $182.50 due in 30 days`,
    /// then its [`Runway::caveats`].
    pub fn line(&self) -> String {
        let mut line = format!("{}; {}", self.covers(), self.due());
        for (words, _) in self.caveats() {
            line.push_str("; ");
            line.push_str(&words);
        }
        line
    }

    /// What the figures rest on besides the amounts read, in the words every view uses
    /// (the Billing tab, the All view, `credit`): what could not be counted (`not known:
    /// 2 services with no known price`), then what was assumed (`8 at the catalogue
    /// price`, `8 with the cycle unknown taken as Monthly`).
    pub fn caveats(&self) -> Vec<(String, Caveat)> {
        let mut out = Vec::new();
        let unknowns = self.unknowns();
        if !unknowns.is_empty() {
            out.push((
                format!("not known: {}", unknowns.join(", ")),
                Caveat::NotKnown,
            ));
        }
        let catalogue = self
            .soon
            .iter()
            .filter(|o| o.source == PriceSource::Catalogue)
            .count();
        if catalogue > 0 {
            out.push((
                format!("{catalogue} at the catalogue price"),
                Caveat::Assumed,
            ));
        }
        if self.assumed_monthly > 0 {
            out.push((
                format!(
                    "{} with the cycle unknown taken as Monthly",
                    self.assumed_monthly
                ),
                Caveat::Assumed,
            ));
        }
        out
    }
}

/// What a caveat of the money ahead says (see [`Runway::caveats`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caveat {
    /// An amount that could not be read: the figures are "at least".
    NotKnown,
    /// A price or a cycle taken from elsewhere: the figures are an estimate.
    Assumed,
}
