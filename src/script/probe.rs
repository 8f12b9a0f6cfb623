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

use super::output::{Align, MISSING, Table, json};
use super::{Failure, Printed, Session};
use crate::cli::ProbeArgs;
use crate::probe::report::{Mark, Row, health};
use crate::probe::runner::probe_collect;
use crate::probe::{ProbeResult, export, targets};

pub async fn probe(s: &mut Session<'_>, a: &ProbeArgs) -> Printed {
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
    let service = client
        .service(a.id)
        .await
        .map_err(Failure::api(format!("Read service {}", a.id)))?;
    let list_type = a
        .list_type
        .clone()
        .unwrap_or_else(|| targets::default_type(&service.product_type));
    let (list, errors, inactive) = tokio::join!(
        client.ip_list(a.id, &list_type, &crate::api::IpListFormat::Txt),
        client.network_errors(a.id),
        client.network_inactive(a.id),
    );
    let list = list.map_err(Failure::api(format!(
        "IP list {list_type} of service {}",
        a.id
    )))?;
    // Network status only adds the provider's view: without it the probe still counts.
    let (errors, inactive) = (errors.unwrap_or_default(), inactive.unwrap_or_default());
    let creds = (service.username.as_str(), service.password.expose());
    let proxies = targets::from_list(&list, Some(creds));
    if proxies.is_empty() {
        return Err(Failure::Failed(format!(
            "the {list_type} list of service {} holds no proxy to probe",
            a.id
        )));
    }
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
    let (results, note) = probe_collect(proxies, &config).await;
    if let Some(note) = &note {
        eprintln!("proxydash: note: {note}");
    }
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
    } else if a.output.json {
        json(
            &shown
                .iter()
                .map(|r| Row::new(r, mark(r)))
                .collect::<Vec<_>>(),
        )
    } else {
        table(&shown, &mark) + &format!("{}\n", health(&results))
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

fn table(results: &[&ProbeResult], mark: &dyn Fn(&ProbeResult) -> Option<Mark>) -> String {
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
    t.render()
}
