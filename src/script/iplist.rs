//! `iplist`: the IP list of a service, exactly as served, to standard output or to a new
//! file (`0600`, never overwriting one).

use super::output::{as_served, stdout_is_terminal};
use super::{Failure, Printed, Session};
use crate::api::IpListType;
use crate::cli::IplistArgs;
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
                .map_err(Failure::api(format!("Read service {}", a.id)))?;
            IpListType::default_for(&service.product_type)
        }
    };
    let list = client
        .ip_list(a.id, &list_type, &a.format)
        .await
        .map_err(Failure::api(format!(
            "IP list {list_type}/{} of service {}",
            a.format, a.id
        )))?;
    match &a.output {
        None => Ok(as_served(&list.raw, stdout_is_terminal())),
        Some(path) => match crate::files::write_new(path, list.raw.as_bytes()) {
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

fn exists(path: &std::path::Path) -> Failure {
    Failure::Failed(format!(
        "{} already exists; it is never overwritten, choose another name",
        path.display()
    ))
}
