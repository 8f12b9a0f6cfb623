//! The read commands over several accounts: `services`, `invoices`, `credit` and `network`
//! (without an ID) with `--all-profiles` or `--profile` repeated ([`crate::config::selection`]).
//!
//! Each account is read through a session of its own (its settings, client and request
//! budget, saved after), all at once. The rows are labelled by profile: a PROFILE column
//! first, a `"profile"` member in each `--json` row; `credit` lists each account and the
//! total per currency (the API's credit is in USD). An account that fails says so on
//! standard error, naming its profile, and the others' rows are printed all the same; the
//! exit status is then the failure's ([`super::Failure::status`]), 1 when the failures
//! differ. With one account selected the command runs as it always did, byte for byte.

use super::jq::Jq;
use super::output::{Align, Details, Table, json, money};
use super::{Failure, Form, Session, Several, billing, network, services, status};
use crate::api::{Credit, Invoice, Listed, ServiceSummary};
use crate::billing::Short;
use crate::options::Options;
use serde::Serialize;
use std::process::ExitCode;

/// What one account answered.
enum Answer {
    Services(Vec<ServiceSummary>),
    Invoices(Listed<Invoice>),
    Credit(Credit, super::ahead::Ahead),
    Network(Vec<network::Servers>),
}

/// `cli` on the one profile `name`.
pub fn narrowed(cli: &Options, name: Option<String>) -> Options {
    let mut one = cli.clone();
    one.connection.profile = name.into_iter().collect();
    one.connection.all_profiles = false;
    one
}

/// Reads each of `profiles` (two or more) and prints what they answered, in `form`
/// (through `--jq` when given).
pub async fn run(
    cli: &Options,
    command: Several,
    (form, jq): (Form, Option<&Jq>),
    profiles: Vec<Option<String>>,
) -> ExitCode {
    if let Several::Network(Some(id)) = command {
        eprintln!(
            "proxydash: network {id} reads one service of one account; without an ID it reads \
             every service of each profile"
        );
        return ExitCode::from(status::USAGE);
    }
    let accounts: Vec<(String, Options)> = profiles
        .into_iter()
        .map(|name| (name.clone().unwrap_or_default(), narrowed(cli, name)))
        .collect();
    let answers =
        futures::future::join_all(accounts.iter().map(|(_, one)| read(one, command))).await;
    let mut read = Vec::new();
    let mut failed: Vec<u8> = Vec::new();
    for ((profile, _), answer) in accounts.iter().zip(answers) {
        match answer {
            Ok(answer) => read.push((profile.as_str(), answer)),
            Err(failure) => {
                eprintln!(
                    "proxydash: profile {profile}: {}",
                    failure.shown(Some(profile))
                );
                failed.push(failure.status());
            }
        }
    }
    if !read.is_empty()
        && let Err(e) = super::jq::answer(&render(&read, form), jq)
    {
        eprintln!("proxydash: {}", super::output::sanitize(&e));
        return ExitCode::from(status::FAILED);
    }
    match failed.as_slice() {
        [] => ExitCode::SUCCESS,
        [first, rest @ ..] if rest.iter().all(|s| s == first) => ExitCode::from(*first),
        _ => ExitCode::from(status::FAILED),
    }
}

/// One account's answer, through a session of its own.
async fn read(cli: &Options, command: Several) -> Result<Answer, Failure> {
    let mut s = Session::new(cli);
    let answer = match command {
        Several::Services => services::list(&mut s).await.map(Answer::Services),
        Several::Invoices => billing::list(&mut s).await.map(Answer::Invoices),
        Several::Credit => super::ahead::read(&mut s)
            .await
            .map(|(c, r)| Answer::Credit(c, r)),
        Several::Network(_) => network::every(&mut s).await.map(Answer::Network),
    };
    s.save_budget();
    answer
}

/// Every account's rows, labelled by profile, in the order the profiles were given.
fn render(read: &[(&str, Answer)], form: Form) -> String {
    let as_json = form == Form::Json;
    let mut rows: Vec<(&str, Vec<String>)> = Vec::new();
    let mut docs: Vec<serde_json::Value> = Vec::new();
    let mut credits: Vec<(&str, f64, Option<&crate::billing::Runway>)> = Vec::new();
    let mut services_read = 0;
    // Invoices that could not be read, each labelled by its profile (see
    // `output::records`: `--json` is then an object, the rows beside them).
    let (mut skipped, mut skipped_count) = (Vec::new(), 0);
    for (profile, answer) in read {
        let profile = *profile;
        match answer {
            Answer::Services(list) => {
                docs.extend(list.iter().map(|v| labelled(profile, v)));
                rows.extend(list.iter().map(|v| (profile, services::row(v))));
            }
            Answer::Invoices(list) => {
                super::output::warn_if_skipped(list, Some(profile));
                skipped.extend(list.skipped.iter().map(|s| labelled(profile, s)));
                skipped_count += list.skipped_count;
                docs.extend(list.iter().map(|i| labelled(profile, i)));
                rows.extend(list.iter().map(|i| (profile, billing::row(i))));
            }
            Answer::Credit(c, r) => credits.push((profile, c.credit, r.as_ref().ok())),
            Answer::Network(list) => {
                services_read += list.len();
                docs.extend(list.iter().map(|v| labelled(profile, &v.to_json())));
                rows.extend(
                    list.iter()
                        .flat_map(|v| v.rows().map(move |r| (profile, r))),
                );
            }
        }
    }
    let columns: &[(&'static str, Align)] = match read.first().map(|(_, a)| a) {
        Some(Answer::Credit(..)) => return credit(&credits, as_json),
        Some(Answer::Services(_)) => &services::COLUMNS,
        Some(Answer::Invoices(_)) => &billing::COLUMNS,
        Some(Answer::Network(_)) | None => &network::COLUMNS,
    };
    if as_json && skipped_count > 0 {
        return json(&serde_json::json!({
            "invoices": docs,
            "skipped": skipped,
            "skipped_count": skipped_count,
        }));
    }
    if as_json {
        return json(&docs);
    }
    let network = matches!(read.first(), Some((_, Answer::Network(_))));
    if rows.is_empty() && network && form == Form::Table {
        return network::all_fine(services_read);
    }
    let mut t = Table::new(&[&[("PROFILE", Align::Left)], columns].concat());
    for (profile, cells) in rows {
        t.row(std::iter::once(profile.to_owned()).chain(cells));
    }
    t.render_as(form)
}

/// `value` (a JSON object) with `"profile": profile` added.
fn labelled(profile: &str, value: &impl Serialize) -> serde_json::Value {
    let mut doc = serde_json::to_value(value).unwrap_or_default();
    if let Some(object) = doc.as_object_mut() {
        object.insert("profile".into(), profile.into());
    }
    doc
}

/// Each account's credit and money ahead, the total and the earliest day one runs
/// short: `{"accounts": [{"profile", "credit", "runway"}…], "total": {"USD": …},
/// "earliest_short": {"profile", "date"}}` in JSON.
fn credit(credits: &[(&str, f64, Option<&crate::billing::Runway>)], as_json: bool) -> String {
    use super::ahead;
    let total: f64 = credits.iter().map(|(_, c, _)| c).sum();
    let runways: Vec<(&str, Option<&crate::billing::Runway>)> =
        credits.iter().map(|(p, _, r)| (*p, *r)).collect();
    let earliest = ahead::earliest(&runways);
    // The earliest of the days known is only that: say whose is not.
    let not_known: Vec<&str> = {
        let all: Vec<_> = runways.iter().map(|(_, r)| *r).collect();
        crate::billing::not_known(&all)
            .into_iter()
            .map(|i| runways[i].0)
            .collect()
    };
    if as_json {
        let accounts: Vec<_> = credits
            .iter()
            .map(|(profile, c, r)| {
                serde_json::json!({"profile": profile, "credit": ahead::usd(*c), "runway": r.map(ahead::figures)})
            })
            .collect();
        let earliest = earliest.map(|(p, d)| serde_json::json!({"profile": p, "date": d}));
        return json(&serde_json::json!({
            "accounts": accounts,
            "total": {"USD": ahead::usd(total)},
            "earliest_short": earliest,
            "earliest_short_not_known_for": not_known,
        }));
    }
    let mut t = Table::new(&[
        ("PROFILE", Align::Left),
        ("CREDIT", Align::Right),
        ("DUE IN 30 DAYS", Align::Right),
        ("COVERS RENEWALS UNTIL", Align::Left),
    ]);
    for (profile, c, r) in credits {
        let until = match r {
            None => "—".to_owned(),
            Some(r) => match (r.short, r.covers_until()) {
                (Short::On(short), _) if short <= r.today => "short today".to_owned(),
                (Short::On(_), Some(until)) => until.to_string(),
                (Short::On(_), None) => "short today".to_owned(),
                (Short::Never, _) => "a year and more".to_owned(),
                (Short::ByAtLatest(day), _) => format!("not known (short by {day})"),
                (Short::NotKnown, _) => "not known".to_owned(),
            },
        };
        let due = r.map_or("—".to_owned(), |r| {
            let least = if r.soon_is_complete() { "" } else { "≥ " };
            format!("{least}{}", money(r.soon_total))
        });
        t.row([profile.to_string(), money(*c), due, until]);
    }
    let mut out = t.render();
    let mut d = Details::new();
    d.add("Total (USD)", money(total));
    d.add("Earliest short", {
        let mut said = earliest.map_or("none within a year".to_owned(), |(p, day)| {
            format!("{day} ({p})")
        });
        if !not_known.is_empty() {
            said.push_str(&format!("; not known for {}", not_known.join(", ")));
        }
        said
    });
    out.push_str(&d.render());
    out
}
