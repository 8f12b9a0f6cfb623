//! `network [ID]`: the proxy servers the provider lists in error or inactive (endpoints 8
//! and 9), of one service or, without an ID, of every service still swept (not
//! Terminated, Cancelled or Fraud: the others have no proxies), the one form that reads
//! several accounts ([`super::accounts`]).

use super::args::{NetworkArgs, OutputArgs};
use super::output::{Align, Table, json};
use super::{Failure, Form, Printed, Script, Session, Several};
use crate::api::ApiClient;
use futures::StreamExt;

/// Services whose lists are read at once by `network` without an ID; the account's
/// budget paces them anyway, this only bounds what waits in it.
const AT_ONCE: usize = 4;

/// One service's servers in error and inactive.
pub(super) struct Servers {
    pub service_id: u64,
    pub errors: Vec<String>,
    pub inactive: Vec<String>,
    /// The server gives no network status for it (400 `ClientID not found`: its client
    /// is gone); listed as such by `network` without an ID rather than failing the rest,
    /// as the dashboard's "can't check".
    pub checkable: bool,
}

impl Servers {
    /// `{"service_id": …, "errors": […], "inactive": […]}`.
    pub(super) fn to_json(&self) -> serde_json::Value {
        let mut doc = serde_json::json!({
            "service_id": self.service_id,
            "errors": self.errors,
            "inactive": self.inactive,
        });
        if !self.checkable {
            doc["checkable"] = false.into();
        }
        doc
    }

    /// One row per server under [`COLUMNS`].
    pub(super) fn rows(&self) -> impl Iterator<Item = Vec<String>> + '_ {
        let state = |state: &'static str| {
            move |ip: &String| vec![self.service_id.to_string(), state.to_owned(), ip.clone()]
        };
        let unknown = (!self.checkable).then(|| {
            let cells = ["can't check", "ClientID not found"];
            std::iter::once(self.service_id.to_string())
                .chain(cells.map(str::to_owned))
                .collect()
        });
        (self.errors.iter().map(state("error")))
            .chain(self.inactive.iter().map(state("inactive")))
            .chain(unknown)
    }
}

/// The columns of `network` without an ID.
pub(super) const COLUMNS: [(&str, Align); 3] = [
    ("SERVICE", Align::Right),
    ("STATE", Align::Left),
    ("SERVER", Align::Left),
];

/// What `network` without an ID says when no server is in error or inactive.
pub(super) fn all_fine(services: usize) -> String {
    format!("All fine: no proxy server in error or inactive ({services} services)\n")
}

/// With nothing in error or inactive the table says "all fine"; CSV and TSV are then a
/// header alone.
pub async fn network(s: &mut Session<'_>, a: &NetworkArgs, form: Form) -> Printed {
    let Some(id) = a.id else {
        let every = every(s).await?;
        if form == Form::Json {
            return Ok(json(
                &every.iter().map(Servers::to_json).collect::<Vec<_>>(),
            ));
        }
        if form == Form::Table && every.iter().all(|v| v.rows().next().is_none()) {
            return Ok(all_fine(every.len()));
        }
        let mut t = Table::new(&COLUMNS);
        for row in every.iter().flat_map(Servers::rows) {
            t.row(row);
        }
        return Ok(t.render_as(form));
    };
    let v = servers(&s.client().await?, id).await?;
    if form == Form::Json {
        return Ok(json(&v.to_json()));
    }
    if form == Form::Table && v.errors.is_empty() && v.inactive.is_empty() {
        return Ok(format!(
            "Service {id}: all fine, no proxy server in error or inactive\n"
        ));
    }
    let mut t = Table::new(&[("STATE", Align::Left), ("SERVER", Align::Left)]);
    for row in v.rows() {
        t.row(&row[1..]);
    }
    Ok(t.render_as(form))
}

/// The servers of every service of the session's account that is still swept.
pub(super) async fn every(s: &mut Session<'_>) -> Result<Vec<Servers>, Failure> {
    let services = super::services::list(s).await?;
    let client = s.client().await?;
    let client = &client;
    futures::stream::iter(
        services
            .iter()
            .filter(|v| crate::account::freshness::is_swept(&v.status))
            .map(|v| async move {
                match servers(client, v.service_id).await {
                    Err(Failure::NotFound { .. }) => Ok(Servers {
                        service_id: v.service_id,
                        errors: Vec::new(),
                        inactive: Vec::new(),
                        checkable: false,
                    }),
                    other => other,
                }
            }),
    )
    .buffered(AT_ONCE)
    .collect::<Vec<_>>()
    .await
    .into_iter()
    .collect()
}

/// Endpoints 8 and 9 together, for service `id`.
async fn servers(client: &ApiClient, id: u64) -> Result<Servers, Failure> {
    let (errors, inactive) = tokio::join!(client.network_errors(id), client.network_inactive(id));
    Ok(Servers {
        service_id: id,
        errors: errors.map_err(Failure::read(format!("Servers in error of service {id}")))?,
        inactive: inactive.map_err(Failure::read(format!("Inactive servers of service {id}")))?,
        checkable: true,
    })
}

impl Script for NetworkArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        network(s, self, self.form()).await
    }
    fn format(&self) -> Option<Form> {
        self.format.format
    }
    fn several(&self) -> Option<Several> {
        Some(Several::Network(self.id))
    }
}
