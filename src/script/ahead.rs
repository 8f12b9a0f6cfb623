//! `credit` with the money ahead: the credit, and in a line what the coming renewals
//! cost and until when the credit covers them ([`crate::billing::runway`]); `--json` the
//! figures; over several accounts each account's and the earliest day one runs short.
//!
//! It reads the credit, the services, the invoices and the catalogue (four requests; the
//! catalogue is the renewals' price where no detail is read: the command reads no
//! service's detail, so every price is the catalogue's or an unpaid invoice's, and every
//! cycle is taken as Monthly, the shortest, which never overstates the runway). A
//! catalogue that cannot be read leaves those prices unknown (said), it does not fail
//! the command; nor does a failed read of the services or the invoices: the credit is
//! printed and the `Ahead` line (`runway_unknown` in JSON) says why the rest is not
//! known.

use super::args::{CreditArgs, OutputArgs};
use super::output::{Details, json, money};
use super::{Failure, Printed, Script, Session, Several, billing, services};
use crate::api::Credit;
use crate::billing::{Records, Runway, Short};
use serde_json::{Value, json as doc};

impl Script for CreditArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        let (credit, ahead) = read(s).await?;
        Ok(one(&credit, &ahead, self.output.json))
    }
    fn several(&self) -> Option<Several> {
        Some(Several::Credit)
    }
}

/// What is known of the money ahead: the runway, or why it is not known.
pub(super) type Ahead = Result<Runway, String>;

/// The credit and the money ahead of the session's account. The credit is the command's
/// answer: a read of the rest that fails says why on the `Ahead` line and loses the
/// credit nothing.
pub(super) async fn read(s: &mut Session<'_>) -> Result<(Credit, Ahead), Failure> {
    let credit = billing::read_credit(s).await?;
    let ahead = runway(s, &credit).await;
    Ok((credit, ahead))
}

async fn runway(s: &mut Session<'_>, credit: &Credit) -> Ahead {
    let why = |f: Failure| format!("not known: {}", f.shown(None));
    let services = services::list(s).await.map_err(why)?;
    let invoices = billing::list(s).await.map_err(why)?;
    let products = match s.client().await {
        Ok(client) => client.products().await.ok(),
        Err(_) => None,
    };
    let today = chrono::Local::now().date_naive();
    crate::billing::runway::runway(&Records {
        today,
        credit: Some(credit.credit),
        services: Some(&services),
        details: None,
        products: products.as_ref().map(|p| p.as_slice()),
        invoices: Some(&invoices),
        invoices_unread: crate::billing::Unread::of(Some(&invoices)),
    })
    .ok_or_else(|| "not known".to_owned())
}

/// The figures of `--json`. A figure that is not known is `null` and said in
/// `not_known` (`short_on_known`, `due_30_days_complete`, `spend_complete` say which),
/// never a number too good; a sum past the largest number is `"overflow"` ([`usd`]).
pub(super) fn figures(r: &Runway) -> Value {
    let (this_month, last_month) = r.this_and_last_month();
    let spend = |v: f64| r.invoices_known.then(|| usd(v));
    doc!({
        "today": r.today,
        "short_on": r.short_on(),
        "short_on_known": matches!(r.short, Short::On(_) | Short::Never),
        "short_by_at_latest": match r.short {
            Short::ByAtLatest(day) => Some(day),
            _ => None,
        },
        "covers_until": r.covers_until(),
        "due_30_days": usd(r.soon_total),
        "due_30_days_complete": r.soon_is_complete(),
        "due": r.soon,
        "not_known": r.unknowns(),
        "unknown_prices": r.unknown_prices,
        "unpaid_without_amount": r.unpaid_without_amount,
        "cycles_taken_as_monthly": r.assumed_monthly,
        "spend_by_month": r.spend.iter().map(|(m, v)| doc!({"month": m.format("%Y-%m").to_string(), "usd": usd(*v)})).collect::<Vec<_>>(),
        "spend_complete": r.spend_is_complete(),
        "spend_this_month": spend(this_month),
        "spend_last_month": spend(last_month),
    })
}

/// An amount in USD for `--json`: a number; `"overflow"` for a sum past the largest
/// number (`null` would read as nothing owed); `null` for an amount not known.
pub(super) fn usd(x: f64) -> Value {
    if x.is_finite() {
        doc!(x)
    } else if x.is_infinite() {
        doc!("overflow")
    } else {
        Value::Null
    }
}

/// `credit` on one account.
pub(super) fn one(credit: &Credit, ahead: &Ahead, as_json: bool) -> String {
    if as_json {
        return json(&doc!({
            "credit": usd(credit.credit),
            "runway": ahead.as_ref().ok().map(figures),
            "runway_unknown": ahead.as_ref().err(),
        }));
    }
    let mut d = Details::new();
    d.add("Credit", money(credit.credit));
    if let Err(why) = ahead {
        d.add("Ahead", why.clone());
    }
    if let Ok(r) = ahead {
        d.add("Ahead", r.line());
        let (this, last) = r.this_and_last_month();
        d.add(
            "Spent",
            match (r.invoices_known, r.spend_is_complete()) {
                (false, _) => "not known: the invoices could not be read".to_owned(),
                (true, complete) => format!(
                    "{}{} this month, {} last month",
                    if complete { "" } else { "at least " },
                    money(this),
                    money(last)
                ),
            },
        );
    }
    d.render()
}

/// The earliest day one of the accounts runs short: `Earliest short  2026-12-07 (shop)`.
pub(super) fn earliest(
    accounts: &[(&str, Option<&Runway>)],
) -> Option<(String, chrono::NaiveDate)> {
    let runways: Vec<Option<&Runway>> = accounts.iter().map(|(_, r)| *r).collect();
    crate::billing::earliest(&runways).map(|(i, day)| (accounts[i].0.to_owned(), day))
}
