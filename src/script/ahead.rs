//! `credit` with the money ahead: the credit, and in a line what the coming renewals
//! cost and until when the credit covers them ([`crate::billing::runway`]); `--json` the
//! figures; over several accounts each account's and the earliest day one runs short.
//!
//! It reads the credit, the services, the invoices and the catalogue (four requests; the
//! catalogue is the renewals' price where no detail is read: the command reads no
//! service's detail, so every price is the catalogue's or an unpaid invoice's, and every
//! cycle is taken as Monthly, the shortest, which never overstates the runway). A
//! catalogue that cannot be read leaves those prices unknown (said), it does not fail
//! the command.

use super::output::{Details, json, money};
use super::{Failure, Session, billing, services};
use crate::api::Credit;
use crate::billing::{Records, Runway};
use serde_json::{Value, json as doc};

/// The credit and the money ahead of the session's account.
pub(super) async fn read(s: &mut Session<'_>) -> Result<(Credit, Option<Runway>), Failure> {
    let credit = billing::read_credit(s).await?;
    let services = services::list(s).await?;
    let invoices = billing::list(s).await?;
    let products = s.client().await?.products().await.ok();
    let today = chrono::Local::now().date_naive();
    let runway = crate::billing::runway::runway(&Records {
        today,
        credit: Some(credit.credit),
        services: Some(&services),
        details: None,
        products: products.as_deref(),
        invoices: Some(&invoices),
    });
    Ok((credit, runway))
}

/// The figures of `--json`.
pub(super) fn figures(r: &Runway) -> Value {
    let (this_month, last_month) = r.this_and_last_month();
    doc!({
        "today": r.today,
        "short_on": r.short_on,
        "covers_until": r.covers_until(),
        "due_30_days": r.soon_total,
        "due": r.soon,
        "unknown_prices": r.unknown_prices,
        "cycles_taken_as_monthly": r.assumed_monthly,
        "spend_by_month": r.spend.iter().map(|(m, v)| doc!({"month": m.format("%Y-%m").to_string(), "usd": v})).collect::<Vec<_>>(),
        "spend_this_month": this_month,
        "spend_last_month": last_month,
    })
}

/// `credit` on one account.
pub(super) fn one(credit: &Credit, runway: Option<&Runway>, as_json: bool) -> String {
    if as_json {
        return json(&doc!({
            "credit": credit.credit,
            "runway": runway.map(figures),
        }));
    }
    let mut d = Details::new();
    d.add("Credit", money(credit.credit));
    if let Some(r) = runway {
        d.add("Ahead", r.line());
        let (this, last) = r.this_and_last_month();
        d.add(
            "Spent",
            format!("{} this month, {} last month", money(this), money(last)),
        );
    }
    d.render()
}

/// The earliest day one of the accounts runs short: `Earliest short  2026-12-07 (shop)`.
pub(super) fn earliest(
    accounts: &[(&str, Option<&Runway>)],
) -> Option<(String, chrono::NaiveDate)> {
    let runways: Vec<Option<&Runway>> = accounts.iter().map(|(_, r)| *r).collect();
    crate::billing::runway::earliest(&runways).map(|(i, day)| (accounts[i].0.to_owned(), day))
}
