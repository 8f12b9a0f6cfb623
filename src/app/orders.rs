//! The app's record of the orders it sent: which are on their way, and which had an
//! outcome it could not learn ("in doubt"), with what reading the account again said
//! about them. This is where the money rules live; the form only asks.
//!
//! - **One order in flight per product and client.** A second confirmation while the
//!   first POST waits for its answer sends nothing and says why (even from a new form:
//!   Esc closes a busy form, it does not forget its order).
//! - **Each attempt has its own ticket** ([`Ticket`], carried beside the POST and never
//!   in it: the ID the app gives every form request, see [`crate::app::forms`]), so two
//!   attempts at the same order are two sends to the engine and the scheduler (a write is
//!   never merged with another), and every answer, which comes back with its ticket, goes
//!   to the attempt (this record) and to the form that sent it.
//! - **An unknown outcome** (timeout, connection lost after sending, an unreadable 200, a
//!   5xx) puts the product in doubt. The app then reads services and invoices again, *as
//!   sent after the outcome was learned* (an answer to a read that was already on its way
//!   is not trusted, and the read is asked again), and compares them with what was listed
//!   when the order was sent: a new service of that product's name, or any new invoice,
//!   means the order went through. Services list no client, so the check is per product;
//!   the doubt, too, is per product, whichever client.
//! - **While a product is in doubt**, no confirmation of it sends anything on Enter alone:
//!   the user types the product ID into the confirmation, after the check has answered.
//!   The same key pressed any number of times never orders again. The doubt ends when a
//!   later order of that product gets a definite answer (placed, or refused).
//! - Every outcome (placed, refused, unknown, and what the check found) is pinned to the
//!   status line until Esc and written to the message log (`m`).
//! - The orders placed this session are kept (the last [`MAX_PLACED`]), with the client
//!   each was for: the client's card (Enter on the Clients tab) lists them, since the
//!   server's services name no client.

use crate::api::{OrderResult, Ticket};
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet, VecDeque};

/// The most placed orders kept (the oldest go first).
pub const MAX_PLACED: usize = 200;

/// One POST sent for an order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub ticket: Ticket,
    pub product_id: u64,
    pub product_name: String,
    pub client: u64,
    pub sent: DateTime<Utc>,
    /// The service IDs listed when it was sent (`None`: the list was not loaded).
    pub services_before: Option<HashSet<u64>>,
    /// The invoice IDs listed when it was sent.
    pub invoices_before: Option<HashSet<u64>>,
}

/// What reading the account again said about an order in doubt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Waiting for services and invoices read after the outcome was lost.
    Checking {
        services: Option<Vec<u64>>,
        invoices: Option<Vec<u64>>,
    },
    /// New services of the product and new invoices appeared: it went through.
    Found {
        services: Vec<u64>,
        invoices: Vec<u64>,
    },
    /// Nothing new: most likely not carried out (the server may still be working on it).
    NotFound,
    /// The check could not tell, and why.
    Unknown(String),
}

impl Check {
    pub fn is_done(&self) -> bool {
        !matches!(self, Check::Checking { .. })
    }
}

/// A product whose last order's outcome is unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doubt {
    pub attempt: Attempt,
    /// When the unknown outcome arrived: reads sent before it may not show the order.
    pub lost_at: DateTime<Utc>,
    pub check: Check,
}

/// An order the server placed this session.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub client: u64,
    pub product_id: u64,
    pub product_name: String,
    pub at: DateTime<Utc>,
    /// The server's answer: the new service, its order, invoice, amount and IP.
    pub result: OrderResult,
}

#[derive(Clone, Debug, Default)]
pub struct Orders {
    in_flight: Vec<Attempt>,
    doubts: HashMap<u64, Doubt>,
    placed: VecDeque<Placed>,
}

impl Orders {
    /// The order of this product for this client that is on its way, if any.
    pub fn in_flight_for(&self, product_id: u64, client: u64) -> Option<&Attempt> {
        self.in_flight
            .iter()
            .find(|a| a.product_id == product_id && a.client == client)
    }

    pub fn sent(&mut self, attempt: Attempt) {
        self.in_flight.push(attempt);
    }

    /// The answer to the attempt sent with `ticket` arrived: it is no longer on its way.
    pub fn answered(&mut self, ticket: Ticket) -> Option<Attempt> {
        let i = self.in_flight.iter().position(|a| a.ticket == ticket)?;
        Some(self.in_flight.swap_remove(i))
    }

    pub fn doubt(&self, product_id: u64) -> Option<&Doubt> {
        self.doubts.get(&product_id)
    }

    pub fn any_doubt(&self) -> bool {
        !self.doubts.is_empty()
    }

    pub fn put_in_doubt(&mut self, attempt: Attempt, lost_at: DateTime<Utc>) {
        let check = Check::Checking {
            services: None,
            invoices: None,
        };
        self.doubts.insert(
            attempt.product_id,
            Doubt {
                attempt,
                lost_at,
                check,
            },
        );
    }

    /// The server placed an order: kept for its client's card.
    pub fn placed(&mut self, placed: Placed) {
        if self.placed.len() == MAX_PLACED {
            self.placed.pop_front();
        }
        self.placed.push_back(placed);
    }

    /// What this session did for `client`, newest first: the orders placed, and those on
    /// their way or in doubt.
    pub fn for_client(&self, client: u64) -> ClientOrders<'_> {
        ClientOrders {
            placed: self
                .placed
                .iter()
                .rev()
                .filter(|p| p.client == client)
                .collect(),
            in_flight: self
                .in_flight
                .iter()
                .filter(|a| a.client == client)
                .collect(),
            doubts: self
                .doubts
                .values()
                .filter(|d| d.attempt.client == client)
                .collect(),
        }
    }

    /// A later order of the product got a definite answer.
    pub fn settle(&mut self, product_id: u64) {
        self.doubts.remove(&product_id);
    }

    /// The doubts whose check still waits for its reads.
    pub fn checking(&self) -> impl Iterator<Item = &Doubt> {
        self.doubts.values().filter(|d| !d.check.is_done())
    }

    /// A services list (`invoices == false`) or an invoice list read after the outcome was
    /// lost, or `None` when that read failed. Returns the products whose check finished.
    pub fn observe(
        &mut self,
        invoices: bool,
        ids: Option<&[u64]>,
        service_names: &dyn Fn(u64) -> Option<String>,
        sent: DateTime<Utc>,
    ) -> Vec<u64> {
        let mut finished = Vec::new();
        for (product, doubt) in self.doubts.iter_mut() {
            if doubt.check.is_done() || sent < doubt.lost_at {
                continue;
            }
            let Check::Checking {
                services: s,
                invoices: i,
            } = &mut doubt.check
            else {
                continue;
            };
            let Some(ids) = ids else {
                let what = if invoices { "invoices" } else { "services" };
                doubt.check = Check::Unknown(format!("the {what} could not be read again"));
                finished.push(*product);
                continue;
            };
            if invoices {
                *i = Some(ids.to_vec());
            } else {
                *s = Some(ids.to_vec());
            }
            let done = match (&*s, &*i) {
                (Some(s), Some(i)) => Some(compare(&doubt.attempt, s, i, service_names)),
                _ => None,
            };
            if let Some(check) = done {
                doubt.check = check;
                finished.push(*product);
            }
        }
        finished
    }
}

/// The orders of one client this session ([`Orders::for_client`]).
#[derive(Debug, Default)]
pub struct ClientOrders<'a> {
    pub placed: Vec<&'a Placed>,
    pub in_flight: Vec<&'a Attempt>,
    pub doubts: Vec<&'a Doubt>,
}

impl ClientOrders<'_> {
    pub fn is_empty(&self) -> bool {
        self.placed.is_empty() && self.in_flight.is_empty() && self.doubts.is_empty()
    }
}

/// What the lists read after the outcome say, against those listed when it was sent.
fn compare(
    a: &Attempt,
    services: &[u64],
    invoices: &[u64],
    name_of: &dyn Fn(u64) -> Option<String>,
) -> Check {
    let (Some(s_before), Some(i_before)) = (&a.services_before, &a.invoices_before) else {
        return Check::Unknown(
            "the services or invoices were not loaded when the order was sent, so there is \
             nothing to compare with"
                .into(),
        );
    };
    let wanted = a.product_name.trim();
    let new_services: Vec<u64> = services
        .iter()
        .copied()
        .filter(|id| !s_before.contains(id))
        .filter(|id| name_of(*id).is_some_and(|n| n.trim() == wanted))
        .collect();
    let new_invoices: Vec<u64> = invoices
        .iter()
        .copied()
        .filter(|id| !i_before.contains(id))
        .collect();
    if new_services.is_empty() && new_invoices.is_empty() {
        Check::NotFound
    } else {
        Check::Found {
            services: new_services,
            invoices: new_invoices,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000 + s, 0).unwrap()
    }

    fn attempt(n: u64) -> Attempt {
        Attempt {
            ticket: Ticket(n),
            product_id: 11,
            product_name: "Datacenter US 10".into(),
            client: 101,
            sent: at(0),
            services_before: Some([1001, 1002].into()),
            invoices_before: Some([7001].into()),
        }
    }

    #[test]
    fn a_check_trusts_only_reads_sent_after_the_loss_and_finds_the_new_service() {
        let mut o = Orders::default();
        o.put_in_doubt(attempt(1), at(5));
        let names = |id: u64| (id == 1003).then(|| "Datacenter US 10".to_owned());
        assert!(
            o.observe(false, Some(&[1001, 1002, 1003]), &names, at(4))
                .is_empty()
        );
        assert!(
            !o.doubt(11).unwrap().check.is_done(),
            "a read sent before is ignored"
        );
        assert!(
            o.observe(false, Some(&[1001, 1002, 1003]), &names, at(5))
                .is_empty()
        );
        assert_eq!(
            o.observe(true, Some(&[7001, 7002]), &names, at(6)),
            vec![11]
        );
        assert_eq!(
            o.doubt(11).unwrap().check,
            Check::Found {
                services: vec![1003],
                invoices: vec![7002]
            }
        );
    }

    #[test]
    fn nothing_new_is_not_found_and_a_failed_read_cannot_tell() {
        let mut o = Orders::default();
        let names = |_: u64| Some("Other".to_owned());
        o.put_in_doubt(attempt(1), at(5));
        o.observe(false, Some(&[1001, 1002, 1009]), &names, at(6));
        o.observe(true, Some(&[7001]), &names, at(6));
        assert_eq!(o.doubt(11).unwrap().check, Check::NotFound);
        o.put_in_doubt(attempt(2), at(7));
        assert_eq!(o.observe(true, None, &names, at(8)), vec![11]);
        assert!(matches!(o.doubt(11).unwrap().check, Check::Unknown(_)));
        o.settle(11);
        assert!(!o.any_doubt());
    }

    #[test]
    fn attempts_are_told_apart_by_their_ticket() {
        let mut o = Orders::default();
        let (a, b) = (1, 2);
        o.sent(attempt(a));
        assert!(o.in_flight_for(11, 101).is_some());
        assert!(o.in_flight_for(11, 102).is_none());
        // The same order (product 11 for client 101), another attempt's answer.
        assert_eq!(o.answered(Ticket(b)), None, "not b's answer");
        assert_eq!(o.answered(Ticket(a)).map(|x| x.ticket), Some(Ticket(a)));
        assert!(o.in_flight_for(11, 101).is_none());
    }
}
