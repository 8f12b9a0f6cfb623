//! `bind`, `password`, `refresh-list`: the three operations of a service update (spec 4.3).
//! Each is one PUT, sent once; a lost answer is reported as an unknown outcome.

use super::args::{BindArgs, OutputArgs, PasswordArgs, RefreshListArgs, ServiceIdArgs};
use super::input;
use super::output::json;
use super::{Failure, Printed, Script, Session};
use crate::api::{ApiClient, ApiError, ProductType, ServiceUpdate, Unprocessable, UpdateResult};
use crate::secret::Secret;

pub async fn bind(s: &mut Session<'_>, a: &BindArgs) -> Printed {
    let ip = match &a.ip {
        Some(text) if !a.mine => Some(input::require_ipv4(text, "bind")?),
        _ => None,
    };
    // The dashboard's form refuses these too, for the same reasons (one rule).
    if let Some(why) = ip.and_then(crate::net::addr::bind_refusal) {
        return Err(Failure::Usage(format!("bind: {why}")));
    }
    let client = s.writer(&format!("Bind an IP to service {}", a.id)).await?;
    let ip = match ip {
        Some(ip) => ip,
        None => crate::effects::lookup_my_ip(&s.my_ip_url(&a.my_ip_url), s.allow_insecure_http())
            .await
            .map_err(Failure::Failed)?,
    };
    let update = ServiceUpdate {
        setip: Some(ip.to_string()),
        ..ServiceUpdate::default()
    };
    let what = format!("Bind IP {ip} to service {}", a.id);
    match client.update_service(a.id, &update).await {
        Ok(result) => Ok(done(&result, a.id, &a.output)),
        Err(e) if e.unprocessable() == Some(Unprocessable::Generic) => {
            Err(explain_bind(&client, &what, a.id, e).await)
        }
        Err(e) => Err(write_failure(&what, a.id, e)),
    }
}

/// A bare 422 to a bind: when the service is rotating (ppr), that is why (only static
/// services have an IP to bind), as the dashboard says before sending. Asked only after
/// the refusal, so a bind that works costs one request.
async fn explain_bind(client: &ApiClient, what: &str, id: u64, error: ApiError) -> Failure {
    match client.service(id).await {
        Ok(service) if service.product_type == ProductType::Ppr => Failure::Failed(format!(
            "{what}: refused ({error}): service {id} is rotating (ppr); only static (fpr) services have an IP to bind"
        )),
        _ => write_failure(what, id, error),
    }
}

/// The new password never comes from the command line: standard input or a prompt.
pub async fn password(s: &mut Session<'_>, a: &PasswordArgs) -> Printed {
    if !a.refused.is_empty() {
        return Err(Failure::Usage(
            "password: the new password is not taken as an argument: it would stay in your \
             shell history and show in the process list. Pipe it on standard input \
             (`proxydash password ID < file`) or run the command on a terminal to be asked for it"
                .into(),
        ));
    }
    let client = s
        .writer(&format!("Change the password of service {}", a.id))
        .await?;
    let password = tokio::task::spawn_blocking(input::new_password)
        .await
        .map_err(|e| Failure::Failed(format!("cannot read the password: {e}")))??;
    let update = ServiceUpdate {
        password: Some(Secret::new(password)),
        ..ServiceUpdate::default()
    };
    let what = format!("Change the password of service {}", a.id);
    let result = client
        .update_service(a.id, &update)
        .await
        .map_err(|e| write_failure(&what, a.id, e))?;
    Ok(done(&result, a.id, &a.output))
}

/// A 429 prints the next possible time (the server's wall clock, as it sent it) and exits
/// 6; with `--json` also as `next_possible` in the error document.
pub async fn refresh_list(s: &mut Session<'_>, a: &ServiceIdArgs) -> Printed {
    let what = format!("Refresh the IP list of service {}", a.id);
    let client = s.writer(&what).await?;
    let update = ServiceUpdate {
        update_list: true,
        ..ServiceUpdate::default()
    };
    let zone = s.server_zone();
    let result = client
        .update_service(a.id, &update)
        .await
        .map_err(|e| match e {
            // Said as the dashboard says it: the countdown, then the time in this zone.
            ApiError::Throttled {
                next_possible: Some(next),
                ..
            } => {
                let until = zone.to_utc(next);
                let when =
                    crate::iplist_throttle::describe(until, chrono::Utc::now(), &chrono::Local);
                Failure::TooSoon { what, next, when }
            }
            e => write_failure(&what, a.id, e),
        })?;
    Ok(done(&result, a.id, &a.output))
}

/// An error of a write; when the answer was lost, says so and how to check.
fn write_failure(what: &str, service_id: u64, error: ApiError) -> Failure {
    if error.outcome_unknown() {
        Failure::Failed(format!(
            "{what}: {error}. The outcome is unknown: check with `proxydash service {service_id}` before trying again"
        ))
    } else {
        Failure::Api {
            what: what.to_owned(),
            error,
        }
    }
}

/// The server's success messages, one a line, or the answer as JSON.
fn done(result: &UpdateResult, service_id: u64, o: &OutputArgs) -> String {
    if o.json {
        return json(result);
    }
    let messages = result.messages();
    if messages.is_empty() {
        return format!("Service {service_id}: done (the server sent no message)\n");
    }
    messages
        .iter()
        .map(|m| format!("Service {service_id}: {m}\n"))
        .collect()
}

impl Script for BindArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        bind(s, self).await
    }
}

impl Script for PasswordArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        password(s, self).await
    }
}

impl Script for RefreshListArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.service.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        refresh_list(s, &self.service).await
    }
}
