//! The order form (`o` on Products, or in a product's popup): order the product for a
//! client, optionally binding an IPv4 (fpr products only), after a confirmation that says
//! what will be bought, for whom and for how much.
//!
//! - The client picker is filled from endpoint 1 (`Clients`, fetched when the form opens;
//!   the last list is shown meanwhile). Typing filters by e-mail or ID; ↑/↓ choose among
//!   the matches.
//! - The product type comes from the product's detail (`Product(pid)`), fetched when the
//!   form opens unless it is loaded. The IP field appears once the type says fpr.
//! - The credit is re-read when the form opens. **Short credit**: when the credit shown is
//!   below the price, the confirmation says so, and by how much, before sending, and
//!   still lets the user send: the credit on screen may be stale, and the server decides
//!   (it answers `not enough funds` if it is really short).
//! - Enter on the confirmation sends exactly one POST. Further Enters while it is on its
//!   way are ignored; nothing is ever resent by itself.
//! - Success shows the order result and re-reads services, credit and invoices. A 422 is
//!   shown as the server's message, the form keeping its values. An unknown outcome (a
//!   timeout or a connection lost after sending) is said to be unknown and checked: the
//!   rules (one order in flight per product and client, the check, the typed product ID
//!   that alone confirms an order of a product in doubt) are in [`crate::app::orders`],
//!   the glue in [`outcome`].

mod confirm;
mod look;
pub mod outcome;

use super::failure;
use super::{
    Answered, Flow, FormCore, FormCx, FormData, FormLogic, FormState, Next, ProductOn, TextField,
};
use crate::api::ipv4::parse_ipv4;
use crate::api::{ApiError, Client, OrderRequest, OrderResult, ProductType, Request, Response};
use crate::app::keymap::steps::{BACK, CANCEL, FormStep, NEXT_FIELD, PREV_FIELD, step_key};
use crate::app::keymap::{Action, code};
use crate::app::look::theme::Theme;
use crate::text;
use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;

/// The fields: the client (typing filters, ↑/↓ choose) and the IP.
#[rustfmt::skip]
pub static EDIT: FormStep = FormStep {
    title: "order form",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("continue"), "Check the order and show what it costs"),
        NEXT_FIELD,
        PREV_FIELD,
        step_key(&[code(KeyCode::Down)], Action::Down, None, "Next matching client"),
        step_key(&[code(KeyCode::Up)], Action::Up, None, "Previous matching client"),
        CANCEL,
    ],
};

/// What will be bought, for whom and for how much; Enter sends.
#[rustfmt::skip]
pub static CONFIRM: FormStep = FormStep {
    title: "order confirmation",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("place order"), "Place the order: one request, never repeated by itself"),
        BACK,
    ],
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderField {
    Client,
    SetIp,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OrderForm {
    pub product_id: u64,
    pub product_name: String,
    pub price: f64,
    /// Filters the client picker by e-mail or ID.
    pub client_filter: TextField,
    /// Position of the chosen client among those matching the filter.
    pub client_pos: usize,
    /// The IPv4 to bind (fpr products); empty for none.
    pub setip: TextField,
    pub focus: OrderField,
    pub client_error: Option<String>,
    pub ip_error: Option<String>,
    /// The step (`Done` holds the order result) and the attempt on its way (its ticket).
    pub core: FormCore,
    /// The client of the confirmation.
    pub chosen: Option<Client>,
    /// The POST the confirmation describes (sent with a new ticket each time).
    pub request: Option<Request>,
    /// The product ID typed to confirm again while the product is in doubt (only then).
    pub retype: Option<TextField>,
    /// Why the last Enter on the confirmation sent nothing.
    pub note: Option<String>,
    /// Esc was pressed once on fields holding typed text: the next Esc throws it away,
    /// any other key keeps editing.
    pub discard_asked: bool,
}

impl OrderForm {
    pub fn new(product_id: u64, product_name: &str, price: f64) -> Self {
        Self {
            product_id,
            product_name: product_name.to_owned(),
            price,
            client_filter: TextField::default(),
            client_pos: 0,
            setip: TextField::default().with_max(super::field::IPV4_MAX),
            focus: OrderField::Client,
            client_error: None,
            ip_error: None,
            core: FormCore::new(FormState::Editing),
            chosen: None,
            request: None,
            retype: None,
            note: None,
            discard_asked: false,
        }
    }

    /// Whether anything was typed that Esc would throw away.
    pub fn has_typed(&self) -> bool {
        !self.client_filter.value().trim().is_empty() || !self.setip.value().trim().is_empty()
    }

    /// The clients whose e-mail or ID contains the filter (case-insensitive), in list order.
    pub fn matching<'a>(&self, clients: &'a [Client]) -> Vec<&'a Client> {
        let needle = self.client_filter.value().trim().to_lowercase();
        clients
            .iter()
            .filter(|c| {
                needle.is_empty()
                    || c.email.to_lowercase().contains(&needle)
                    || c.id.to_string().contains(&needle)
            })
            .collect()
    }

    pub fn selected_client<'a>(&self, clients: &'a [Client]) -> Option<&'a Client> {
        self.matching(clients).get(self.client_pos).copied()
    }

    pub fn move_client(&mut self, delta: isize, clients: &[Client]) {
        let last = self.matching(clients).len().saturating_sub(1);
        self.client_pos = self.client_pos.saturating_add_signed(delta).min(last);
        self.client_error = None;
    }

    /// Tab: the IP field exists only for fpr products.
    pub fn next_field(&mut self, fpr: bool) {
        self.focus = match self.focus {
            OrderField::Client if fpr => OrderField::SetIp,
            _ => OrderField::Client,
        };
    }

    /// Enter while editing: checks the fields and, when they are fine, moves to the
    /// confirmation with the request it would send.
    pub fn check(&mut self, clients: Option<&[Client]>, product_type: Option<&ProductType>) {
        let client = match clients {
            None => Err("The client list has not arrived yet.".to_owned()),
            Some(list) => self.selected_client(list).cloned().ok_or_else(|| {
                format!(
                    "No client matches \"{}\".",
                    text::sanitize(self.client_filter.value())
                )
            }),
        };
        let typed = self.setip.value().trim();
        let setip = if product_type == Some(&ProductType::Fpr) && !typed.is_empty() {
            parse_ipv4(typed).map(|ip| Some(ip.to_string()))
        } else {
            Ok(None)
        };
        self.client_error = client.as_ref().err().cloned();
        self.ip_error = setip.as_ref().err().map(ToString::to_string);
        if let (Ok(client), Ok(setip)) = (client, setip) {
            self.request = Some(Request::order(
                self.product_id,
                OrderRequest {
                    clientid: client.id,
                    setip,
                },
            ));
            self.chosen = Some(client);
            self.core.state = FormState::Confirming;
            self.retype = None;
            self.note = None;
        } else if self.client_error.is_some() {
            self.focus = OrderField::Client;
        } else {
            self.focus = OrderField::SetIp;
        }
    }

    /// Enter on the confirmation: the one POST to send (the app gives it the attempt's
    /// ticket). `None` in any other step, above all while a POST is on its way.
    pub fn confirmed(&mut self) -> Option<Request> {
        if self.core.state != FormState::Confirming {
            return None;
        }
        self.note = None;
        self.request.clone()
    }

    /// The server answered the attempt this form sent.
    pub fn finish(&mut self, result: Result<Response, ApiError>) {
        self.core.state = match result {
            Ok(r @ Response::Order(_)) => FormState::Done(r),
            Ok(_) => FormState::Failed("The server's answer was not an order result.".into()),
            Err(e) if e.outcome_unknown() => FormState::Failed(format!(
                "{} The services are being re-read: check them before ordering again.",
                failure(&e)
            )),
            Err(e) => FormState::Failed(failure(&e)),
        };
    }

    /// The order result, once placed.
    pub fn result(&self) -> Option<&OrderResult> {
        match self.core.state.answer() {
            Some(Response::Order(r)) => Some(r),
            _ => None,
        }
    }
}

/// `Ordered: service 1014, order 515, invoice 7021, $12.00, IP 203.0.113.9`.
pub fn done_message(r: &OrderResult) -> String {
    let mut m = format!(
        "Ordered: service {}, order {}, invoice {}, {}",
        r.service_id,
        text::id(r.order_id),
        text::id(r.invoice_id),
        text::money(r.amount)
    );
    if let Some(ip) = r.ip.as_deref().filter(|ip| !ip.is_empty()) {
        m.push_str(&format!(", IP {}", text::sanitize(ip)));
    }
    m
}

impl FormLogic for OrderForm {
    fn step(&self) -> &'static FormStep {
        match self.core.state {
            FormState::Confirming => &CONFIRM,
            _ => &EDIT,
        }
    }

    fn typing_field(&mut self) -> Option<&mut TextField> {
        if self.core.state == FormState::Confirming {
            return self.retype.as_mut();
        }
        if !self.core.state.is_editable() {
            return None;
        }
        Some(match self.focus {
            OrderField::Client => &mut self.client_filter,
            OrderField::SetIp => &mut self.setip,
        })
    }

    /// Whether typed keys go to a field: the fields, or the product ID of a confirmation in
    /// doubt.
    fn is_typing(&self) -> bool {
        self.core.state.is_editable()
            || (self.core.state == FormState::Confirming && self.retype.is_some())
    }

    fn edited(&mut self) -> bool {
        self.discard_asked = false;
        if self.core.state == FormState::Confirming {
            self.note = None;
            return true;
        }
        match self.focus {
            OrderField::Client => {
                self.client_pos = 0;
                self.client_error = None;
            }
            OrderField::SetIp => self.ip_error = None,
        }
        true
    }

    /// Esc: from the confirmation back to the fields; on fields holding typed text, asks
    /// first (a second Esc closes); otherwise close.
    fn back(&mut self) -> Flow {
        if self.core.state == FormState::Confirming {
            self.core.state = FormState::Editing;
            self.retype = None;
            self.note = None;
            return Flow::Stay;
        }
        if self.core.state.is_editable() && self.has_typed() && !self.discard_asked {
            self.discard_asked = true;
            return Flow::Stay;
        }
        Flow::Close
    }

    fn action(&mut self, cx: &mut FormCx<'_>, action: Action) -> Next {
        let clients = cx.store().clients_answer().value().map(Vec::as_slice);
        let product_type = cx
            .store()
            .product_answer(self.product_id)
            .value()
            .map(|p| &p.product_type);
        let fpr = product_type == Some(&ProductType::Fpr);
        let editable = self.core.state.is_editable();
        // Any key but a second Esc keeps what was typed.
        self.discard_asked = false;
        match (action, &self.core.state) {
            (Action::Submit, FormState::Editing | FormState::Failed(_)) => {
                self.check(clients, product_type);
                // A product in doubt is confirmed by typing its ID, never by Enter alone.
                if self.core.state == FormState::Confirming
                    && cx.orders().doubt(self.product_id).is_some()
                {
                    self.retype = Some(TextField::default());
                }
            }
            (Action::Submit, FormState::Confirming) => outcome::confirm_order(cx, self),
            (Action::NextField | Action::PrevField, _) if editable => self.next_field(fpr),
            (Action::Up, _) if editable => self.move_client(-1, clients.unwrap_or(&[])),
            (Action::Down, _) if editable => self.move_client(1, clients.unwrap_or(&[])),
            _ => {}
        }
        Next::Stay
    }

    /// The record of orders took the answer first (by the same ticket); the form shows it.
    fn answered(&mut self, _cx: &mut FormCx<'_>, answer: Answered<'_>) -> Flow {
        self.finish(answer.result);
        Flow::Stay
    }

    /// The fields and the client picker, then the confirmation, then the result.
    fn render(&self, frame: &mut Frame, area: Rect, data: &FormData<'_>, theme: &Theme) {
        let inner = look::framed_for(self, frame, area, data, theme);
        match &self.core.state {
            FormState::Editing | FormState::Failed(_) => {
                look::draw_editing(frame, data, theme, inner, self);
            }
            FormState::Confirming | FormState::Submitting => {
                confirm::draw_confirm(frame, data, theme, inner, self);
            }
            FormState::Done(_) => look::draw_done(frame, theme, inner, self),
        }
    }

    /// A failed order of this product whose outcome was unknown says what the check found.
    fn order_checked(&mut self, product_id: u64, line: &str) {
        if self.product_id == product_id && matches!(self.core.state, FormState::Failed(_)) {
            self.core.state =
                FormState::Failed(format!("Outcome unknown, so it was checked. {line}"));
        }
    }
}

/// `o`: the order form for the product the key is on (the open product's, or the
/// selected row's), with the clients, the credit and the product's type asked for.
pub(in crate::app) fn open(cx: &mut FormCx<'_>, on: Option<ProductOn>) -> Option<OrderForm> {
    if cx.refuse_read_only("ordering") {
        return None;
    }
    let on = on?;
    let id = on.id;
    let summary = on.listed.as_ref();
    let detail = cx.store().product_answer(id).value();
    let name = summary
        .map(|p| p.product_name.clone())
        .or_else(|| detail.and_then(|p| p.product_name.clone()))
        .unwrap_or_default();
    let price = detail.map(|p| p.price).or(summary.map(|p| p.price))?;
    let form = OrderForm::new(id, &name, price);
    cx.fetch(Request::Clients);
    cx.fetch(Request::Credit);
    if !cx.store().product_answer(id).is_ready() {
        cx.fetch(Request::Product(id));
    }
    Some(form)
}

#[cfg(test)]
mod tests;
