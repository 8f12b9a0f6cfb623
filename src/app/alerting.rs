//! Alerts in the dashboard: when to sweep, what the rules see, and what a transition
//! does (a status line, the Alerts tab, and [`Command::Alert`] for the bell and the
//! `on_alert` command).
//!
//! A sweep is due once data the rules read (services, their network lists and usage,
//! credit, invoices) has arrived, and runs when nothing is left in flight: one sweep per
//! refresh, whether automatic, `r` or `R`. Selecting a service (which fetches its detail)
//! is not a sweep, so moving around never hurries the debounce.

use super::tabs::Tab;
use super::{App, Command, status};
use crate::alerts::snapshot::{InvoiceFacts, ServiceFacts};
use crate::alerts::{Change, Level, Snapshot, Transition, evaluate};
use crate::api::{InvoiceStatus, ProductType, Request};
use crate::text;
use std::collections::HashMap;

/// Product names and invoice descriptions in alert messages are cut to this.
const NAME_WIDTH: usize = 40;

impl App {
    /// Notes that `request` brought data the rules read.
    pub(super) fn note_alert_data(&mut self, request: &Request) {
        if matches!(
            request,
            Request::Services
                | Request::Credit
                | Request::Invoices
                | Request::NetworkErrors(_)
                | Request::NetworkInactive(_)
                | Request::Stats(_)
                | Request::Rate(_)
        ) {
            self.alerts.sweep_due = true;
        }
    }

    /// Sweeps if one is due and every answer is in.
    pub(super) fn sweep_alerts(&mut self, out: &mut Vec<Command>) {
        if !self.alerts.sweep_due || !self.in_flight.is_empty() {
            return;
        }
        self.alerts.sweep_due = false;
        let now = self.now();
        let observations = evaluate(&self.alert_snapshot(), &self.alerts.rules, now);
        let transitions = self.alerts.book.sweep(&observations, now);
        self.alerts.rebuild();
        if transitions.is_empty() {
            return;
        }
        self.announce(&transitions);
        if transitions.iter().any(|t| t.change != Change::Repeated) {
            out.push(Command::SaveAlerts(
                self.alerts.book.open().cloned().collect(),
            ));
        }
        out.extend(transitions.into_iter().map(Command::Alert));
    }

    /// The status line for a sweep's transitions: the most severe, and how many more.
    fn announce(&mut self, transitions: &[Transition]) {
        let Some(first) = transitions.first() else {
            return;
        };
        let a = &first.alert;
        let what = match first.change {
            Change::Opened => format!("{}: {}", a.level.as_str(), a.message),
            Change::Escalated { .. } => format!("now {}: {}", a.level.as_str(), a.message),
            Change::Repeated => format!("still {}: {}", a.level.as_str(), a.message),
            Change::Resolved => format!("resolved: {}", a.message),
        };
        let more = match transitions.len() - 1 {
            0 => String::new(),
            n => format!(" (+{n} more on tab {})", Tab::Alerts.number()),
        };
        let kind = match (first.change, a.level) {
            (Change::Resolved, _) => status::NoticeKind::Done,
            (_, Level::Critical) => status::NoticeKind::Error,
            (_, Level::Warn) => status::NoticeKind::Warn,
            _ => status::NoticeKind::Info,
        };
        // Below a pending failure: the fault guarantees keep a failed request on screen,
        // and the tab line's count shows the alerts meanwhile.
        self.status
            .notify_below(kind, format!("Alert {what}{more}"));
    }

    /// What the rules see: everything loaded, last good data included.
    fn alert_snapshot(&self) -> Snapshot {
        let today = self.now().with_timezone(&self.utc_offset).date_naive();
        let invoices = self.billing.invoices.value();
        let services = self.services.list.value().map(|list| {
            let product_prices: HashMap<&str, f64> = self
                .products
                .rows()
                .iter()
                .map(|p| (p.product_name.as_str(), p.price))
                .collect();
            // The latest invoice of each service that was not cancelled or refunded.
            let mut invoiced: HashMap<u64, (u64, f64)> = HashMap::new();
            for i in invoices.into_iter().flatten() {
                if matches!(i.status, InvoiceStatus::Cancelled | InvoiceStatus::Refunded) {
                    continue;
                }
                if let Some(sid) = i.service_id.filter(|s| *s != 0) {
                    let e = invoiced.entry(sid).or_insert((i.id, i.amount));
                    if i.id >= e.0 {
                        *e = (i.id, i.amount);
                    }
                }
            }
            list.iter()
                .map(|s| {
                    let id = s.service_id;
                    let detail = self.services.detail(id).value();
                    let mut f = ServiceFacts::new(id, s.status.clone());
                    f.product_name =
                        text::truncate(&text::sanitize(&s.product_name), NAME_WIDTH).into_owned();
                    f.nextduedate = s.nextduedate;
                    f.price = detail
                        .map(|d| d.price)
                        .or_else(|| invoiced.get(&id).map(|(_, amount)| *amount))
                        .or_else(|| product_prices.get(s.product_name.as_str()).copied());
                    f.servers = detail.and_then(|d| d.ip_count);
                    f.errors = self
                        .network
                        .errors
                        .get(&id)
                        .and_then(|r| r.value())
                        .map(|v| {
                            v.iter()
                                .map(|ip| text::truncate(&text::sanitize(ip), 45).into_owned())
                                .collect()
                        });
                    let rate = self.usage.rate_of(id).value();
                    f.rate = rate.and_then(|r| r.first()).map(|r| (r.rate, r.limit));
                    if let Some(stats) = self.usage.stats_of(id).value() {
                        let mut days: Vec<_> = stats.iter().map(|e| (e.date, e.rate)).collect();
                        days.sort_by_key(|(date, _)| *date);
                        f.daily = days.into_iter().map(|(_, rate)| rate).collect();
                    }
                    f.usage_known =
                        rate.is_some() || self.service_type(id) == Some(ProductType::Fpr);
                    f
                })
                .collect()
        });
        Snapshot {
            today,
            credit: self.billing.credit.value().map(|c| c.credit),
            services,
            invoices: invoices.map(|list| {
                list.iter()
                    .map(|i| InvoiceFacts {
                        id: i.id,
                        description: text::truncate(&text::sanitize(&i.description), NAME_WIDTH)
                            .into_owned(),
                        status: i.status.clone(),
                        amount: i.amount,
                        created_at: i.created_at,
                    })
                    .collect()
            }),
        }
    }
}
