//! `order`: spends money, so it is careful. The product and the credit are shown and
//! confirmed first unless `--yes` (and without a terminal to ask on, `--yes` is required);
//! the POST is sent once; a lost answer is reported as an unknown outcome, never retried.

use super::args::{OrderArgs, OutputArgs};
use super::input;
use super::output::{Details, id, json, money, or_missing, sanitize};
use super::{Failure, Printed, Script, Session};
use crate::api::{OrderRequest, ProductType};
use std::net::Ipv4Addr;

pub async fn order(s: &mut Session<'_>, a: &OrderArgs) -> Printed {
    let setip =
        a.ip.as_deref()
            .map(|text| input::require_ipv4(text, "order --ip"))
            .transpose()?;
    let what = format!("Order product {} for client {}", a.pid, a.client);
    // Read-only first: a refused write is refused (7) however it would have been asked.
    let client = s.writer(&what).await?;
    if !a.yes && !input::stdin_is_terminal() {
        return Err(Failure::Usage(
            "order: standard input is not a terminal, so the order cannot be confirmed; \
             pass --yes to order without asking"
                .into(),
        ));
    }
    if a.yes {
        // Without the question the product is read only when an address is to be bound:
        // the spec binds `setip` for fpr products only.
        if let Some(ip) = setip {
            let product = client
                .product(a.pid)
                .await
                .map_err(Failure::read(format!("Read product {}", a.pid)))?;
            refuse_ip_on_ppr(a.pid, ip, &product.product_type)?;
        }
    } else {
        // The single product has no name in the spec; the list has it.
        let (product, credit, products) =
            tokio::join!(client.product(a.pid), client.credit(), client.products());
        let product = product.map_err(Failure::read(format!("Read product {}", a.pid)))?;
        if let Some(ip) = setip {
            refuse_ip_on_ppr(a.pid, ip, &product.product_type)?;
        }
        let name = product
            .product_name
            .clone()
            .or_else(|| {
                products.ok().and_then(|list| {
                    list.into_iter()
                        .find(|p| p.product_id == a.pid)
                        .map(|p| p.product_name)
                })
            })
            .filter(|n| !n.trim().is_empty())
            .map_or_else(String::new, |n| format!(" \"{}\"", sanitize(&n)));
        let bind = setip.map_or_else(String::new, |ip| format!(", binding {ip},"));
        let credit = credit.map_or_else(
            |_| String::new(),
            |c| format!(" (credit: {})", money(c.credit)),
        );
        let question = format!(
            "Order product {}{name} ({}, {}) for client {}{bind} at {}{credit}?",
            a.pid,
            sanitize(product.product_type.as_str()),
            or_missing(&product.group_name),
            a.client,
            if product.price.is_nan() {
                "a price the server did not send (unknown)".to_owned()
            } else {
                money(product.price)
            },
        );
        let confirmed = tokio::task::spawn_blocking(move || input::confirm(&question))
            .await
            .map_err(|e| Failure::Failed(format!("cannot read the answer: {e}")))?
            .map_err(|e| Failure::Failed(format!("cannot read the answer: {e}")))?;
        if !confirmed {
            return Err(Failure::Failed(
                "not ordered: declined at the prompt, nothing was sent".into(),
            ));
        }
    }
    let body = OrderRequest {
        clientid: a.client,
        setip: setip.map(|ip| ip.to_string()),
    };
    let result = client.order(a.pid, &body).await.map_err(|error| {
        if error.outcome_unknown() {
            Failure::Failed(format!(
                "{what}: {error}. The outcome is unknown: the order may have gone through. \
                 Check `proxydash services` (and `proxydash credit`) before ordering again"
            ))
        } else {
            Failure::Api { what, error }
        }
    })?;
    if a.output.json {
        return Ok(json(&result));
    }
    let mut d = Details::new();
    d.add("Service ID", result.service_id.to_string())
        .add("Order ID", id(result.order_id))
        .add("Invoice ID", id(result.invoice_id))
        .add("Amount", money(result.amount))
        .add("IP", or_missing(result.ip.as_deref().unwrap_or("")));
    Ok(d.render())
}

/// `--ip` on a rotating (ppr) product: refused before the order is sent, since the spec
/// binds `setip` for fpr products only and a server might take the money and ignore it.
fn refuse_ip_on_ppr(pid: u64, ip: Ipv4Addr, product_type: &ProductType) -> Result<(), Failure> {
    if *product_type == ProductType::Ppr {
        return Err(Failure::Usage(format!(
            "order: product {pid} is a rotating (ppr) product, which has no bound address: \
             leave out --ip {ip} (only static, fpr, products bind one); nothing was ordered"
        )));
    }
    Ok(())
}

impl Script for OrderArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        order(s, self).await
    }
}
