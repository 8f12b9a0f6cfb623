//! `credit`, `invoices`, `invoice`: the account's money.

use super::args::{InvoiceArgs, InvoicesArgs, OutputArgs};
use super::output::{Align, Details, cell, date, id, json, money, or_missing};
use super::{Failure, Form, Printed, Script, Session, Several};
use crate::api::{Credit, Invoice, Listed};

/// The credit of the session's account.
pub(super) async fn read_credit(s: &mut Session<'_>) -> Result<Credit, Failure> {
    s.client()
        .await?
        .credit()
        .await
        .map_err(Failure::api("Read the credit"))
}

pub async fn invoices(s: &mut Session<'_>, form: Form) -> Printed {
    let invoices = list(s).await?;
    super::output::warn_if_skipped(&invoices, None);
    Ok(super::output::records(&invoices, form, &COLUMNS, row))
}

/// The invoices of the session's account, with those that could not be read.
pub(super) async fn list(s: &mut Session<'_>) -> Result<Listed<Invoice>, Failure> {
    let invoices = s
        .client()
        .await?
        .invoices()
        .await
        .map_err(Failure::api("List invoices"))?;
    super::output::warn_if_cut(&crate::api::Request::Invoices, invoices.len());
    s.saw(
        crate::seen::Kind::Invoices,
        crate::seen::invoices(&invoices.items),
    );
    Ok(invoices)
}

/// The columns of `invoices`.
pub(super) const COLUMNS: [(&str, Align); 9] = [
    ("ID", Align::Right),
    ("CREATED", Align::Left),
    ("STATUS", Align::Left),
    ("AMOUNT", Align::Right),
    ("PAID", Align::Left),
    ("REFUNDED", Align::Left),
    ("METHOD", Align::Left),
    ("SERVICE", Align::Right),
    ("DESCRIPTION", Align::Left),
];

/// One invoice's cells under [`COLUMNS`].
pub(super) fn row(i: &Invoice) -> Vec<String> {
    vec![
        i.id.to_string(),
        date(i.created_at),
        cell(i.status.as_str()),
        money(i.amount),
        date(i.date_paid),
        date(i.date_refunded),
        cell(&i.payment_method),
        service_id(i),
        cell(&i.description),
    ]
}

/// The API answers one invoice as an array (12); `--json` prints the invoice itself, an
/// object like every other one-item command. An empty array is a not-found (status 4);
/// should the server send several, the one with the asked ID is printed (the first if
/// none has it).
pub async fn invoice(s: &mut Session<'_>, a: &InvoiceArgs) -> Printed {
    let what = format!("Read invoice {}", a.id);
    let mut invoices = s
        .client()
        .await?
        .invoice(a.id)
        .await
        .map_err(Failure::read(&what))?;
    if invoices.is_empty() {
        return Err(Failure::NotFound {
            what,
            answer: "an empty list".into(),
        });
    }
    if let Some(at) = invoices.iter().position(|i| i.id == a.id) {
        invoices.swap(0, at);
    }
    invoices.truncate(1);
    if a.output.json {
        return Ok(json(&invoices[0]));
    }
    let blocks: Vec<String> = invoices
        .iter()
        .map(|i| {
            Details::new()
                .add("Invoice ID", i.id.to_string())
                .add("Description", or_missing(&i.description))
                .add("Status", or_missing(i.status.as_str()))
                .add("Amount", money(i.amount))
                .add("Created", date(i.created_at))
                .add("Paid", date(i.date_paid))
                .add("Refunded", date(i.date_refunded))
                .add("Payment method", or_missing(&i.payment_method))
                .add("Service", service_id(i))
                .render()
        })
        .collect();
    Ok(blocks.join("\n"))
}

/// An invoice's service; 0 means "not tied to a service" (adding funds).
fn service_id(i: &Invoice) -> String {
    id(i.service_id.filter(|&s| s != 0))
}

impl Script for InvoicesArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        invoices(s, self.form()).await
    }
    fn format(&self) -> Option<Form> {
        self.format.format
    }
    fn several(&self) -> Option<Several> {
        Some(Several::Invoices)
    }
}

impl Script for InvoiceArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        invoice(s, self).await
    }
}
