//! The account's state and its business rules: ordering, updating a service, and the
//! lookups whose failures section 7 names.
//!
//! Choices ("not shown" in the spec):
//! - **Order (endpoint 5)**, checked in this order: the product (`{pid}` not a number or
//!   unknown → `product ID not found`); the body (see [`super::bodies`]); `setip`, which
//!   is only for fpr products and must be a strict IPv4 address not bound to any service
//!   (otherwise `Incorrect posted data`: the spec gives endpoint 5 no IPv4 messages); the
//!   client (`ClientID not found`, 422); the funds (credit < price → `not enough funds`).
//!   Hidden products and products of hidden groups can still be ordered: the flags are
//!   shop-front visibility, and this is the reseller API.
//!   Success takes the price from the credit and creates, at once: an Active service
//!   (regdate today UTC, nextduedate one billing cycle later, 9999-12-31 (never) for Free, a
//!   generated username `pd<serviceId><4 letters>` and 12-character password, bindedip =
//!   setip), an order and a Paid invoice (amount = price, paid by "Credit Balance"). The
//!   result's `ip` is the bound IP, or `""` when none was given.
//! - **Update (endpoint 15)**, checked in this order, and *nothing is applied unless every
//!   requested operation is allowed*: the ID (not a number → generic 422); the service
//!   (unknown, or its client no longer exists → 400 `ClientID not found`); the body (422
//!   `Incorrect posted data`); an empty body → `{}`; a Terminated, Cancelled or Fraud
//!   service → generic 422; `setip` on a ppr service → generic 422, not a strict IPv4 →
//!   `Invalid IPv4 format`, bound to *another* service (whatever its status) → `IP
//!   already binded` (re-binding the service's own IP succeeds); `update_list` before
//!   the service's throttle interval has passed since its last successful refresh → 429.
//!   The 429 names the next possible time in UTC, rounded *up* to the whole second, so a
//!   client that waits until the named second is never refused again.
//!   A successful `update_list` starts the interval anew and moves an fpr service's
//!   addresses (see [`super::iplist`]; a ppr service's gateways stay).
//! - **Other lookups**: unknown IDs answer the generic 422 on endpoints 2, 3, 12, 13 and
//!   16 (12 and 13 list no error in the spec; this is the nearest), fpr services on 2 and
//!   3 too. Endpoints 8 and 9 answer 400 `ClientID not found` like 15.
//! - `products/orderby/{field}` sorts ascending (names case-insensitively), ties by
//!   productId; the plain list is by productId. Services and invoices are listed by
//!   ascending ID.

use super::bodies::{parse_ipv4, parse_order, parse_update};
use super::errors::Failure;
use super::records::*;
use crate::api::model::{
    BillingCycle, InvoiceStatus, OrderResult, ProductType, ServiceStatus, SortField, UpdateOutcome,
    UpdateResult,
};
use chrono::{DateTime, Months, NaiveDate, TimeDelta, Timelike, Utc};
use std::collections::HashMap;
use std::net::Ipv4Addr;

pub struct Store {
    pub credit_cents: i64,
    pub clients: Vec<ClientRec>,
    pub groups: Vec<GroupRec>,
    /// Sorted by ID, as are services and invoices (lookups are binary searches).
    pub products: Vec<ProductRec>,
    pub services: Vec<ServiceRec>,
    pub invoices: Vec<InvoiceRec>,
    pub orders: Vec<u64>,
    /// Bound IP → the service it is bound to.
    bound: HashMap<Ipv4Addr, u64>,
    /// For generated usernames and passwords; seeded, so a run is repeatable.
    rng: fastrand::Rng,
    /// Live servers' quirks on (`--quirks`): new records get them too.
    pub quirks: bool,
}

impl Store {
    pub fn new(data: Dataset) -> Result<Self, String> {
        let Dataset {
            credit_cents,
            clients,
            groups,
            mut products,
            mut services,
            mut invoices,
            orders,
        } = data;
        products.sort_by_key(|p| p.id);
        services.sort_by_key(|s| s.id);
        invoices.sort_by_key(|i| i.id);
        check_unique("product", products.iter().map(|p| p.id))?;
        check_unique("service", services.iter().map(|s| s.id))?;
        check_unique("invoice", invoices.iter().map(|i| i.id))?;
        check_unique("client", clients.iter().map(|c| c.id))?;
        let mut bound = HashMap::new();
        for s in &services {
            if let Some(ip) = s.bound_ip
                && let Some(other) = bound.insert(ip, s.id)
            {
                return Err(format!(
                    "{ip} is bound to both service {other} and {}",
                    s.id
                ));
            }
        }
        Ok(Self {
            credit_cents,
            clients,
            groups,
            products,
            services,
            invoices,
            orders,
            bound,
            rng: fastrand::Rng::with_seed(0x5eed),
            quirks: false,
        })
    }

    pub fn client(&self, id: u64) -> Option<&ClientRec> {
        self.clients.iter().find(|c| c.id == id)
    }

    pub fn group(&self, id: u64) -> Option<&GroupRec> {
        self.groups.iter().find(|g| g.id == id)
    }

    pub fn product(&self, id: u64) -> Option<&ProductRec> {
        let i = self.products.binary_search_by_key(&id, |p| p.id).ok()?;
        self.products.get(i)
    }

    pub fn service(&self, id: u64) -> Option<&ServiceRec> {
        let i = self.services.binary_search_by_key(&id, |s| s.id).ok()?;
        self.services.get(i)
    }

    fn service_mut(&mut self, id: u64) -> Option<&mut ServiceRec> {
        let i = self.services.binary_search_by_key(&id, |s| s.id).ok()?;
        self.services.get_mut(i)
    }

    pub fn invoice(&self, id: u64) -> Option<&InvoiceRec> {
        let i = self.invoices.binary_search_by_key(&id, |v| v.id).ok()?;
        self.invoices.get(i)
    }

    /// The service to which an IP is bound.
    pub fn bound_to(&self, ip: Ipv4Addr) -> Option<u64> {
        self.bound.get(&ip).copied()
    }

    /// Endpoints 2, 3, 13, 16: any existing service, else the generic 422.
    pub fn known_service(&self, id: Option<u64>) -> Result<&ServiceRec, Failure> {
        id.and_then(|id| self.service(id)).ok_or(Failure::Generic)
    }

    /// Endpoints 2 and 3: a ppr service.
    pub fn ppr_service(&self, id: Option<u64>) -> Result<&ServiceRec, Failure> {
        let service = self.known_service(id)?;
        if service.is_fpr() {
            return Err(Failure::Generic);
        }
        Ok(service)
    }

    /// Endpoints 8, 9, 15: a service of a known client (a non-numeric ID is the generic
    /// 422, an unknown service or client the 400).
    pub fn owned_service(&self, id: Option<u64>) -> Result<&ServiceRec, Failure> {
        let id = id.ok_or(Failure::Generic)?;
        self.service(id)
            .filter(|s| self.client(s.client_id).is_some())
            .ok_or(Failure::ServiceClientNotFound)
    }

    pub fn products_by(&self, field: &SortField) -> Option<Vec<&ProductRec>> {
        let group_name = |p: &ProductRec| {
            self.group(p.group_id)
                .map(|g| g.name.to_lowercase())
                .unwrap_or_default()
        };
        // Products are kept sorted by ID, and the sorts are stable: ties stay by ID.
        let mut list: Vec<&ProductRec> = self.products.iter().collect();
        match field {
            SortField::ProductId => {}
            SortField::ProductName => list.sort_by_cached_key(|p| p.name.to_lowercase()),
            SortField::Price => list.sort_by_key(|p| p.price_cents),
            SortField::GroupId => list.sort_by_key(|p| p.group_id),
            SortField::GroupName => list.sort_by_cached_key(|p| group_name(p)),
            SortField::CreatedAt => list.sort_by_key(|p| p.created_at),
            SortField::Other(_) => return None,
        }
        Some(list)
    }

    /// Endpoint 5.
    pub fn order(
        &mut self,
        product_id: Option<u64>,
        body: &[u8],
        now: DateTime<Utc>,
    ) -> Result<OrderResult, Failure> {
        let product = product_id
            .and_then(|id| self.product(id))
            .ok_or(Failure::ProductNotFound)?
            .clone();
        let body = parse_order(body)?;
        let setip = match body.setip.as_deref() {
            None => None,
            Some(text) => {
                let ip = parse_ipv4(text)
                    .filter(|_| product.product_type == ProductType::Fpr)
                    .filter(|ip| !self.bound.contains_key(ip))
                    .ok_or(Failure::IncorrectPostedData)?;
                Some(ip)
            }
        };
        if self.client(body.clientid).is_none() {
            return Err(Failure::ClientNotFound);
        }
        if self.credit_cents < product.price_cents {
            return Err(Failure::NotEnoughFunds);
        }

        let today = now.date_naive();
        // Only a seed with IDs at u64::MAX could run out; that order "cannot be processed".
        let next = |last: Option<u64>| last.map_or(Some(1), |id| id.checked_add(1));
        let (Some(service_id), Some(invoice_id), Some(order_id)) = (
            next(self.services.last().map(|s| s.id)),
            next(self.invoices.last().map(|i| i.id)),
            next(
                self.orders
                    .iter()
                    .copied()
                    .chain(self.services.iter().map(|s| s.order_id))
                    .max(),
            ),
        ) else {
            return Err(Failure::NotEnoughFunds);
        };
        let nextduedate = next_due(today, &product.billingcycle);
        let fpr = product.product_type == ProductType::Fpr;
        let suffix: String = (0..4).map(|_| self.rng.lowercase()).collect();
        let password: String = (0..12).map(|_| self.rng.alphanumeric()).collect();

        self.credit_cents = self.credit_cents.saturating_sub(product.price_cents);
        self.services.push(ServiceRec {
            id: service_id,
            order_id,
            client_id: body.clientid,
            product_name: product.name.clone(),
            product_type: product.product_type.clone(),
            regdate: today,
            nextduedate,
            status: ServiceStatus::Active,
            billingcycle: product.billingcycle.clone(),
            username: format!("pd{service_id}{suffix}"),
            password,
            bound_ip: setip,
            ip_count: if fpr {
                product.ip_count.unwrap_or(0)
            } else {
                0
            },
            price_cents: product.price_cents,
            network_errors: Vec::new(),
            network_inactive: Vec::new(),
            usage: Usage {
                limit_mb: if fpr { 0.0 } else { product.traffic_limit_mb },
                daily_mb: 0.0,
            },
            list_epoch: 0,
            last_list_update: None,
            wire: None,
        });
        if self.quirks
            && nextduedate.is_none()
            && let Some(s) = self.services.last_mut()
        {
            s.quirk_unset_due_date();
        }
        if let Some(ip) = setip {
            self.bound.insert(ip, service_id);
        }
        self.invoices.push(InvoiceRec {
            id: invoice_id,
            description: invoice_description(&product.name, today, nextduedate),
            status: InvoiceStatus::Paid,
            created_at: today,
            amount_cents: product.price_cents,
            date_paid: Some(today),
            date_refunded: None,
            payment_method: "Credit Balance".into(),
            service_id,
            wire: None,
        });
        self.orders.push(order_id);
        Ok(OrderResult {
            service_id,
            order_id: Some(order_id),
            invoice_id: Some(invoice_id),
            amount: dollars(product.price_cents),
            ip: Some(setip.map(|ip| ip.to_string()).unwrap_or_default()),
        })
    }

    /// Endpoint 15.
    pub fn update(
        &mut self,
        id: Option<u64>,
        body: &[u8],
        now: DateTime<Utc>,
        throttle: TimeDelta,
    ) -> Result<UpdateResult, Failure> {
        let service = self.owned_service(id)?;
        let service_id = service.id;
        let body = parse_update(body)?;
        if body.is_empty() {
            return Ok(UpdateResult::default());
        }
        if service.is_closed() {
            return Err(Failure::Generic);
        }
        let setip = match body.setip.as_deref() {
            None => None,
            Some(_) if !service.is_fpr() => return Err(Failure::Generic),
            Some(text) => {
                let ip = parse_ipv4(text).ok_or(Failure::InvalidIpv4)?;
                if self.bound_to(ip).is_some_and(|owner| owner != service_id) {
                    return Err(Failure::IpAlreadyBinded);
                }
                Some(ip)
            }
        };
        if body.update_list
            && let Some(last) = service.last_list_update
        {
            let next = last
                .checked_add_signed(throttle)
                .unwrap_or(DateTime::<Utc>::MAX_UTC);
            if now < next {
                return Err(Failure::Throttled {
                    next: ceil_to_second(next).naive_utc(),
                });
            }
        }

        // Every operation is allowed: apply them all.
        let previous_ip = service.bound_ip;
        if let Some(ip) = setip {
            if let Some(old) = previous_ip
                && self.bound.get(&old) == Some(&service_id)
            {
                self.bound.remove(&old);
            }
            self.bound.insert(ip, service_id);
        }
        let service = self
            .service_mut(service_id)
            .ok_or(Failure::ServiceClientNotFound)?;
        let done = |message: &str| {
            Some(UpdateOutcome {
                success: message.into(),
            })
        };
        let mut result = UpdateResult::default();
        if let Some(ip) = setip {
            service.bound_ip = Some(ip);
            service.forget_override("bindedip");
            result.setip = done("IP address updated successfully");
        }
        if body.update_list {
            service.last_list_update = Some(now);
            service.list_epoch = service.list_epoch.wrapping_add(1);
            result.update_list = done("IP list updated successfully");
        }
        if let Some(password) = body.password {
            service.password = password;
            service.forget_override("password");
            result.password = done("Password updated successfully");
        }
        Ok(result)
    }
}

fn check_unique(kind: &str, ids: impl Iterator<Item = u64>) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for id in ids {
        if !seen.insert(id) {
            return Err(format!("{kind} ID {id} appears twice"));
        }
    }
    Ok(())
}

/// One billing cycle after `from`; `None` for Free (served as `"0000-00-00"`).
pub fn next_due(from: NaiveDate, cycle: &BillingCycle) -> Option<NaiveDate> {
    let months = match cycle {
        BillingCycle::Free => return None,
        BillingCycle::Monthly | BillingCycle::Other(_) => 1,
        BillingCycle::Quarterly => 3,
        BillingCycle::SemiAnnually => 6,
        BillingCycle::Annually => 12,
        BillingCycle::Biennially => 24,
        BillingCycle::Triennially => 36,
    };
    from.checked_add_months(Months::new(months))
}

pub fn invoice_description(product: &str, from: NaiveDate, due: Option<NaiveDate>) -> String {
    match due {
        Some(due) => format!(
            "{product} ({} - {})",
            from.format("%d/%m/%Y"),
            due.format("%d/%m/%Y")
        ),
        None => product.to_owned(),
    }
}

fn ceil_to_second(t: DateTime<Utc>) -> DateTime<Utc> {
    if t.nanosecond() == 0 {
        return t;
    }
    t.with_nanosecond(0)
        .and_then(|s| s.checked_add_signed(TimeDelta::seconds(1)))
        .unwrap_or(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_due_follows_the_cycle() {
        let d = NaiveDate::from_ymd_opt(2026, 1, 31).expect("date");
        assert_eq!(
            next_due(d, &BillingCycle::Monthly),
            NaiveDate::from_ymd_opt(2026, 2, 28)
        );
        assert_eq!(
            next_due(d, &BillingCycle::Quarterly),
            NaiveDate::from_ymd_opt(2026, 4, 30)
        );
        assert_eq!(next_due(d, &BillingCycle::Free), None);
    }

    #[test]
    fn throttle_time_rounds_up() {
        let t = DateTime::parse_from_rfc3339("2026-01-01T10:00:00.250Z")
            .expect("time")
            .with_timezone(&Utc);
        assert_eq!(ceil_to_second(t).to_rfc3339(), "2026-01-01T10:00:01+00:00");
        let whole = t.with_nanosecond(0).expect("time");
        assert_eq!(ceil_to_second(whole), whole);
    }
}
