//! `services`, `service`, `stats`, `rate`, `network`: reading services.

use super::args::{OutputArgs, RateArgs, ServiceArgs, ServiceIdArgs, ServicesArgs, StatsArgs};
use super::output::{
    Align, Details, MISSING, Table, cell, date, id, json, money, number, or_missing,
};
use super::{Failure, Form, Printed, Script, Session, Several};
use crate::api::{ApiClient, ApiError, ProductType, ServiceSummary, Unprocessable};

/// What a masked password shows.
const MASK: &str = "********";

pub async fn services(s: &mut Session<'_>, form: Form) -> Printed {
    Ok(super::output::listing(&list(s).await?, form, &COLUMNS, row))
}

/// The services of the session's account.
pub(super) async fn list(s: &mut Session<'_>) -> Result<Vec<ServiceSummary>, Failure> {
    let services = s
        .client()
        .await?
        .services()
        .await
        .map_err(Failure::api("List services"))?;
    super::output::warn_if_cut(&crate::api::Request::Services, services.len());
    s.saw(
        crate::seen::Kind::Services,
        crate::seen::services(&services),
    );
    Ok(services)
}

/// The columns of `services`.
pub(super) const COLUMNS: [(&str, Align); 5] = [
    ("ID", Align::Right),
    ("PRODUCT", Align::Left),
    ("STATUS", Align::Left),
    ("NEXT DUE", Align::Left),
    ("ORDER", Align::Right),
];

/// One service's cells under [`COLUMNS`].
pub(super) fn row(v: &ServiceSummary) -> Vec<String> {
    vec![
        v.service_id.to_string(),
        cell(&v.product_name),
        cell(v.status.as_str()),
        date(v.nextduedate),
        id(v.orderid),
    ]
}

/// One service; the password is the last row, masked unless `--show-password` (in JSON:
/// `null` unless `--show-password`).
pub async fn service(s: &mut Session<'_>, a: &ServiceArgs) -> Printed {
    let v = s
        .client()
        .await?
        .service(a.id)
        .await
        .map_err(Failure::read(format!("Read service {}", a.id)))?;
    if a.output.json {
        let mut value = serde_json::to_value(&v)
            .map_err(|e| Failure::Failed(format!("cannot serialize service {}: {e}", a.id)))?;
        if !a.show_password
            && let Some(pw) = value.get_mut("password")
        {
            *pw = serde_json::Value::Null;
        }
        return Ok(json(&value));
    }
    let mut d = Details::new();
    d.add("Service ID", v.service_id.to_string())
        .add("Product", or_missing(&v.product_name))
        .add("Type", or_missing(v.product_type.as_str()))
        .add("Status", or_missing(v.status.as_str()))
        .add("Billing cycle", or_missing(v.billingcycle.as_str()))
        .add("Price", money(v.price))
        .add("Registered", date(v.regdate))
        .add("Next due", date(v.nextduedate))
        .add("Order ID", id(v.orderid))
        .add("IP count", id(v.ip_count))
        .add("Bound IP", or_missing(v.bound_ip.as_deref().unwrap_or("")))
        .add("Username", or_missing(&v.username));
    if a.show_password {
        d.add("Password", or_missing(v.password.expose()));
    } else {
        d.add("Password", format!("{MASK} (--show-password shows it)"));
    }
    Ok(d.render())
}

pub async fn stats(s: &mut Session<'_>, a: &ServiceIdArgs, form: Form) -> Printed {
    let what = format!("Stats of service {}", a.id);
    let client = s.client().await?;
    let stats = match client.stats(a.id).await {
        Ok(stats) => stats,
        Err(e) => return Err(ppr_only(&client, what, a.id, e).await),
    };
    if form == Form::Json {
        return Ok(json(&stats));
    }
    // One decimal on every row as soon as one needs it, so the column lines up.
    let decimals = stats.iter().any(|e| e.rate.fract() != 0.0);
    let mut t = Table::new(&[("DATE", Align::Left), ("RATE", Align::Right)]);
    for e in &stats {
        let rate = number(e.rate);
        let rate = if decimals && !rate.contains('.') && e.rate.is_finite() {
            format!("{rate}.0")
        } else {
            rate
        };
        t.row([date(e.date), rate]);
    }
    Ok(t.render_as(form))
}

/// A limit of 0 is "no limit" (see [`crate::api::RateEntry`]). The API answers an array
/// (3) of one entry; `--json` prints that entry, an object (the first, should a server
/// send more; an empty array is an error).
pub async fn rate(s: &mut Session<'_>, a: &ServiceIdArgs) -> Printed {
    let what = format!("Rate of service {}", a.id);
    let client = s.client().await?;
    let rates = match client.rate(a.id).await {
        Ok(rates) => rates,
        Err(e) => return Err(ppr_only(&client, what, a.id, e).await),
    };
    if a.output.json {
        return match rates.first() {
            Some(rate) => Ok(json(rate)),
            None => Err(Failure::Failed(format!(
                "{what}: the server answered no rate entry"
            ))),
        };
    }
    let mut t = Table::new(&[
        ("RATE", Align::Right),
        ("LIMIT", Align::Right),
        ("USED", Align::Right),
    ]);
    for e in &rates {
        let (limit, used) = if e.limit > 0.0 {
            (number(e.limit), format!("{:.1}%", e.rate / e.limit * 100.0))
        } else {
            ("unlimited".to_owned(), MISSING.to_owned())
        };
        t.row([number(e.rate), limit, used]);
    }
    Ok(t.render())
}

/// A bare 422 from `stats` or `rate` (ppr only, spec 4) means either "no such service"
/// or "not a rotating service"; the service itself tells which: not found (status 4), or
/// a static service named as such (status 1).
async fn ppr_only(client: &ApiClient, what: String, id: u64, error: ApiError) -> Failure {
    if error.unprocessable() != Some(Unprocessable::Generic) {
        return Failure::api(what)(error);
    }
    match client.service(id).await {
        Ok(service) if service.product_type != ProductType::Ppr => Failure::Failed(format!(
            "{what}: refused ({error}): service {id} is {}; usage is kept for rotating (ppr) services only",
            match service.product_type {
                ProductType::Fpr => "static (fpr)".to_owned(),
                ref other => format!("of type {:?}", other.as_str()),
            }
        )),
        Ok(_) => Failure::api(what)(error),
        Err(read) => match Failure::read(what.clone())(read) {
            not_found @ Failure::NotFound { .. } => not_found,
            _ => Failure::api(what)(error),
        },
    }
}

impl Script for ServicesArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        services(s, self.form()).await
    }
    fn format(&self) -> Option<Form> {
        self.format.format
    }
    fn several(&self) -> Option<Several> {
        Some(Several::Services)
    }
}

impl Script for ServiceArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        service(s, self).await
    }
}

impl Script for StatsArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.service.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        stats(s, &self.service, self.form()).await
    }
    fn format(&self) -> Option<Form> {
        self.format.format
    }
}

impl Script for RateArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.service.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        rate(s, &self.service).await
    }
}
