//! `probe ID`: every proxy of a service checked through itself ([`crate::probe`]), beside
//! the provider's network status. A table, `--json` rows ([`Row`]), or one line per proxy
//! from a template; `--only-working` keeps the alive ones. Status 1 when any proxy is
//! dead (the output is printed all the same); skipped proxies (documentation addresses,
//! or outside loopback in the demo) do not count as dead. When the judge cannot be
//! reached nothing is checked: the note says so once, every proxy is `not checked
//! (judge unreachable)`, and the status is 1.
//!
//! The IP list, the service (for its type and credentials) and network status are read
//! through the API client; the probe then talks to the proxies only.
//!
//! - `--both` probes the service's HTTP list and its SOCKS5 list in one run
//!   ([`targets::types_for`]); the SCHEME column tells the rows apart.
//! - `--rotation N` audits a rotating (ppr) service's gateway instead
//!   ([`crate::probe::rotation`]): a few lines (or one `--json` object with every ask),
//!   status 1 when fewer than two asks were answered (nothing can be told). N outside 2…100,
//!   or a static service, is a usage error before anything is sent to a proxy.
//! - What was found goes to the profile's history like the dashboard's probes (one row
//!   per proxy contacted, one per audit); not on `--demo`, nor with `history_days = 0`.

use super::args::{OutputArgs, ProbeArgs};
use super::output::{Align, MISSING, Table, json};
use super::{Failure, Form, Printed, Script, Session};
use crate::probe::report::{Mark, Row, health};
use crate::probe::rotation::{self, Rotation};
use crate::probe::runner::probe_collect;
use crate::probe::{ProbeConfig, ProbeResult, export, targets};

pub async fn probe(s: &mut Session<'_>, a: &ProbeArgs, form: Form) -> Printed {
    let client = s.client().await?;
    let settings = s.probe_settings();
    let templates = export::all(&settings.templates);
    let pattern = match &a.template {
        Some(spec) => Some(export::find(spec, &templates).ok_or_else(|| {
            let names: Vec<&str> = templates.iter().map(|t| t.name.as_str()).collect();
            Failure::Usage(format!(
                "no template {spec:?}: use one of {} or a pattern with {{ip}}, {{port}}, {{user}}, {{pass}}, {{scheme}}",
                names.join(", ")
            ))
        })?),
        None => None,
    };
    let asks = a
        .rotation
        .map(|n| n.map_or(Ok(settings.rotation_asks), rotation::asks))
        .transpose()
        .map_err(Failure::Usage)?;
    let service = client
        .service(a.id)
        .await
        .map_err(Failure::api(format!("Read service {}", a.id)))?;
    let list_types = match &a.list_type {
        Some(t) => vec![t.clone()],
        None => targets::types_for(&service.product_type, a.both),
    };
    let mut config = settings.config();
    if let Some(url) = &a.probe_url {
        config = config.with_url(url);
    }
    if let Some(secs) = a.probe_timeout {
        config.timeout = std::time::Duration::from_secs(secs);
    }
    if let Some(n) = a.concurrency {
        config.concurrency = usize::from(n);
    }
    config.allow_private |= a.allow_private;
    if let Some(asks) = asks {
        if service.product_type == crate::api::ProductType::Fpr {
            return Err(Failure::Usage(format!(
                "service {} is static (fpr): --rotation audits the gateway of a rotating (ppr) service",
                a.id
            )));
        }
        return audit(s, a, &service, &list_types[0], asks, &config).await;
    }
    let (errors, inactive) =
        tokio::join!(client.network_errors(a.id), client.network_inactive(a.id),);
    // Network status only adds the provider's view: without it the probe still counts.
    let (errors, inactive) = (errors.unwrap_or_default(), inactive.unwrap_or_default());
    let mut proxies = Vec::new();
    for list_type in &list_types {
        proxies.extend(list_targets(&client, a.id, &service, list_type).await?);
    }
    if proxies.is_empty() {
        let names: Vec<String> = list_types.iter().map(|t| t.to_string()).collect();
        return Err(Failure::Failed(format!(
            "the {} list of service {} holds no proxy to probe",
            names.join(" and "),
            a.id
        )));
    }
    let (results, note) = probe_collect(proxies, &config).await;
    if let Some(note) = &note {
        eprintln!("proxydash: note: {note}");
    }
    s.remember(
        results
            .iter()
            .filter_map(|r| crate::probe::report::record(a.id, r))
            .collect(),
    )
    .await;
    let shown: Vec<&ProbeResult> = results
        .iter()
        .filter(|r| !a.only_working || r.verdict.is_alive())
        .collect();
    let mark = |r: &ProbeResult| Mark::of(&r.target.host, &errors, &inactive);
    let output = if let Some(pattern) = &pattern {
        shown
            .iter()
            .map(|r| export::line(pattern, &r.target) + "\n")
            .collect()
    } else if form == Form::Json {
        json(
            &shown
                .iter()
                .map(|r| Row::new(r, mark(r)))
                .collect::<Vec<_>>(),
        )
    } else if form == Form::Table {
        table(&shown, &mark).render() + &format!("{}\n", health(&results))
    } else {
        table(&shown, &mark).render_as(form)
    };
    if results
        .iter()
        .any(|r| matches!(r.verdict, crate::probe::Verdict::NotChecked(_)))
    {
        // The note said why (the judge); the status says the run checked nothing.
        return Err(Failure::Found {
            output,
            why: format!("the proxies of service {} were not checked", a.id),
        });
    }
    let dead = results.iter().filter(|r| r.verdict.is_dead()).count();
    if dead > 0 {
        return Err(Failure::Found {
            output,
            why: format!(
                "{dead} of {} proxies of service {} are dead",
                results.len(),
                a.id
            ),
        });
    }
    Ok(output)
}

fn table(results: &[&ProbeResult], mark: &dyn Fn(&ProbeResult) -> Option<Mark>) -> Table {
    let mut t = Table::new(&[
        ("PROXY", Align::Left),
        ("SCHEME", Align::Left),
        ("STATE", Align::Left),
        ("CONNECT", Align::Right),
        ("LATENCY", Align::Right),
        ("EXIT IP", Align::Left),
        ("ANONYMITY", Align::Left),
        ("PROVIDER", Align::Left),
    ]);
    let ms = |d: Option<std::time::Duration>| {
        d.map_or_else(|| MISSING.to_owned(), |d| format!("{} ms", d.as_millis()))
    };
    for r in results {
        let m = mark(r);
        let provider = match crate::probe::report::disagrees(&r.verdict, m) {
            true => format!("{} (disagrees)", Mark::word(m)),
            false => Mark::word(m).to_owned(),
        };
        t.row([
            r.target.address(),
            r.target.scheme.as_str().to_owned(),
            r.verdict.label(),
            ms(r.connect),
            ms(r.latency),
            r.exit_ip
                .map_or_else(|| MISSING.to_owned(), |ip| ip.to_string()),
            r.anonymity.map_or(MISSING, |a| a.as_str()).to_owned(),
            provider,
        ]);
    }
    t
}

/// The proxies of one of service `id`'s IP lists, with its username and password.
async fn list_targets(
    client: &crate::api::ApiClient,
    id: u64,
    service: &crate::api::Service,
    list_type: &crate::api::IpListType,
) -> Result<Vec<crate::probe::ProxyTarget>, Failure> {
    let list = client
        .ip_list(id, list_type, &crate::api::IpListFormat::Txt)
        .await
        .map_err(Failure::api(format!("IP list {list_type} of service {id}")))?;
    let creds = (service.username.as_str(), service.password.expose());
    Ok(targets::from_list(&list, Some(creds)))
}

/// `--rotation N`: the audit of the service's gateway (the first entry of its ppr list).
async fn audit(
    s: &mut Session<'_>,
    a: &ProbeArgs,
    service: &crate::api::Service,
    list_type: &crate::api::IpListType,
    asks: usize,
    config: &ProbeConfig,
) -> Printed {
    let client = s.client().await?;
    let Some(gateway) = list_targets(&client, a.id, service, list_type)
        .await?
        .into_iter()
        .find(|t| t.port != 0)
    else {
        return Err(Failure::Failed(format!(
            "the {list_type} list of service {} holds no gateway to audit",
            a.id
        )));
    };
    let (results, note) = rotation::audit_collect(gateway.clone(), asks, config).await;
    if let Some(note) = &note {
        eprintln!("proxydash: note: {note}");
    }
    let found = Rotation::of(&results);
    s.remember(vec![rotation::record(a.id, &gateway, &found)])
        .await;
    let via = format!("{}://{}", gateway.scheme.as_str(), gateway.address());
    let output = if a.output.json {
        json(&AuditJson {
            service_id: a.id,
            gateway: &via,
            kind: found.kind(),
            rotation: &found,
            asks: results.iter().map(|r| Row::new(r, None)).collect(),
        })
    } else {
        audit_text(&via, &found)
    };
    if found.answered < 2 {
        return Err(Failure::Found {
            output,
            why: format!(
                "the gateway of service {} answered {} of {} asks: nothing can be told of its rotation",
                a.id, found.answered, found.asked
            ),
        });
    }
    Ok(output)
}

/// `--rotation --json`: the audit, then every ask in order.
#[derive(serde::Serialize)]
struct AuditJson<'a> {
    service_id: u64,
    gateway: &'a str,
    /// `rotates per request`, `rotates now and then`, `sticky`, `not enough answers`.
    kind: &'static str,
    #[serde(flatten)]
    rotation: &'a Rotation,
    asks: Vec<Row<'a>>,
}

fn audit_text(via: &str, r: &Rotation) -> String {
    let exits: Vec<String> = r
        .exits
        .iter()
        .map(|e| format!("{} ×{}", e.ip, e.count))
        .collect();
    let mut out = format!("GATEWAY  {}\n", crate::text::sanitize(via));
    out += &format!("ASKED    {}, answered {}\n", r.asked, r.answered);
    out += &format!("EXITS    {} distinct: {}\n", r.distinct, exits.join(", "));
    if let Some(rate) = r.change_rate {
        out += &format!(
            "CHANGED  {} of {} consecutive answers ({:.0}%)\n",
            r.changes,
            r.pairs,
            rate * 100.0
        );
    }
    if let Some(l) = r.latency {
        out += &format!(
            "LATENCY  min {} ms, p50 {} ms, p90 {} ms, max {} ms\n",
            l.min, l.p50, l.p90, l.max
        );
    }
    out + &format!("VERDICT  {}\n", r.kind())
}

impl Script for ProbeArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        probe(s, self, self.form()).await
    }
    fn format(&self) -> Option<Form> {
        self.format.format
    }
}
