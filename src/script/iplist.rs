//! `iplist`: the IP list of a service, exactly as served, to standard output or to a new
//! file (`0600`, never overwriting one).
//!
//! On a terminal the list is shown, not passed on: one line per entry, without control,
//! bidi or zero-width characters ([`crate::api::IpList::shown_lines`]), so a served field
//! holding a line break or U+202E cannot forge a line or turn the text around; `--json`
//! has those characters escaped. A pipe, a redirect and `-o` get the exact bytes.

use super::args::{IplistArgs, OutputArgs};
use super::output::{json, json_for_terminal, stdout_is_terminal};
use super::{Failure, Printed, Script, Session};
use crate::api::IpListType;
use crate::options::AccountArgs;
use std::io;

pub async fn iplist(s: &mut Session<'_>, a: &IplistArgs) -> Printed {
    if let Some(path) = &a.output
        && path.exists()
    {
        return Err(exists(path));
    }
    let client = s.client().await?;
    let list_type = match &a.list_type {
        Some(t) => t.clone(),
        // The default depends on the product type, which only the service knows.
        None => {
            let service = client
                .service(a.id)
                .await
                .map_err(Failure::read(format!("Read service {}", a.id)))?;
            IpListType::default_for(&service.product_type)
        }
    };
    let list = client
        .ip_list(a.id, &list_type, &a.format)
        .await
        .map_err(Failure::read(format!(
            "IP list {list_type}/{} of service {}",
            a.format, a.id
        )))?;
    let text = if a.json {
        as_json(a.id, &list)
    } else {
        list.raw.clone()
    };
    match &a.output {
        None if !stdout_is_terminal() => Ok(text),
        None if a.json => Ok(json_for_terminal(&text)),
        None => {
            if list.skipped > 0 {
                let n = list.skipped;
                eprintln!(
                    "proxydash: {} of the list {} no entry and {} not shown on a terminal; a pipe or -o FILE gets the list exactly as served",
                    if n == 1 {
                        "1 line".to_owned()
                    } else {
                        format!("{} lines", crate::text::count(n as u64))
                    },
                    if n == 1 { "holds" } else { "hold" },
                    if n == 1 { "is" } else { "are" },
                );
            }
            Ok(list.shown_lines())
        }
        Some(path) => match crate::files::write_new(path, text.as_bytes()) {
            Ok(()) => Ok(format!(
                "Wrote {} ({} entries, {list_type}/{})\n",
                path.display(),
                list.count,
                a.format
            )),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(exists(path)),
            Err(e) => Err(Failure::Failed(format!(
                "cannot write {}: {e}",
                path.display()
            ))),
        },
    }
}

/// `--json`: the list read into entries, in the words of the list formats
/// (`host`, `port`, `login`, `password`), with its type, format and counts:
/// `{"service_id": 1001, "type": "http-auth", "format": "txt", "count": 10, "skipped": 0,
/// "entries": [{"host": "…", "port": 8000, "login": "…", "password": "…"}, …]}`.
fn as_json(service_id: u64, list: &crate::api::IpList) -> String {
    let entries: Vec<serde_json::Value> = list
        .entries()
        .into_iter()
        .map(|e| {
            serde_json::json!({
                "host": e.host,
                "port": e.port,
                "login": e.login,
                "password": e.password,
            })
        })
        .collect();
    json(&serde_json::json!({
        "service_id": service_id,
        "type": list.list_type.as_str(),
        "format": list.format.as_str(),
        "count": list.count,
        "skipped": list.skipped,
        "entries": entries,
    }))
}

fn exists(path: &std::path::Path) -> Failure {
    Failure::Failed(format!(
        "{} already exists; it is never overwritten, choose another name",
        path.display()
    ))
}

impl Script for IplistArgs {
    fn output(&self) -> Option<&OutputArgs> {
        None
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        iplist(s, self).await
    }
    fn account(&self) -> Option<&AccountArgs> {
        Some(&self.account)
    }
    fn json(&self) -> bool {
        self.json
    }
    fn jq(&self) -> Option<&super::jq::Jq> {
        self.jq.as_ref()
    }
}
