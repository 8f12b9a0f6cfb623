//! `o` on Products in the All view: which account orders the highlighted product.
//!
//! Each account is listed with its credit, whether it is read-only, and its own offer of
//! the product: the product of the same name and group in its own catalogue, with its own
//! ID and price (IDs and prices differ between accounts: the same ID may be another
//! product there), or plainly that it does not sell it. Nothing is ordered here: Enter
//! hands the chosen account to the desk, which opens that account's order form on its own
//! product, whose confirmation names the account and its credit again before anything is
//! sent.

use super::{PopupPane, Reply};
use crate::app::Cx;
use crate::app::PopupKind;
use crate::app::keymap::steps::PopupInfo;
use crate::app::keymap::steps::{MOVE_DOWN, MOVE_UP, step_key};
use crate::app::keymap::{Action, code};
use crate::app::shell::Outward;
use crossterm::event::KeyCode;

/// The picker: the product asked for, each account's offer, the one under the cursor.
#[derive(Clone, Debug, PartialEq)]
pub struct AccountPicker {
    /// The product as the highlighted row names it.
    pub product: String,
    pub group: String,
    pub offers: Vec<Offer>,
    pub at: usize,
}

/// One account's side of the order.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    pub name: String,
    pub colour: u8,
    pub credit: Option<f64>,
    pub read_only: bool,
    /// Its catalogue has been read.
    pub listed: bool,
    /// Its own product of that name: (product ID, price).
    pub product: Option<(u64, f64)>,
}

impl AccountPicker {
    /// The offers for `product` of `group` (`offers` in the desk's order), the cursor on
    /// account `at` (the highlighted row's).
    pub fn new(product: String, group: String, offers: Vec<Offer>, at: usize) -> Self {
        Self {
            product,
            group,
            offers,
            at,
        }
    }
}

/// The product of `name` in `group` in a catalogue: the same name and group, else the
/// one product of that name (a group renamed in one account); never the same ID, which
/// names another product in another account.
pub fn same_product<'a>(
    catalogue: &'a [crate::api::ProductSummary],
    name: &str,
    group: &str,
) -> Option<&'a crate::api::ProductSummary> {
    let named =
        |p: &&crate::api::ProductSummary| p.product_name.trim().eq_ignore_ascii_case(name.trim());
    catalogue
        .iter()
        .filter(named)
        .find(|p| p.group_name.trim().eq_ignore_ascii_case(group.trim()))
        .or_else(|| {
            let mut same = catalogue.iter().filter(named);
            match (same.next(), same.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            }
        })
}

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "which account orders",
    keys: &[
        step_key(
            &[code(KeyCode::Enter)],
            Action::Submit,
            Some("order there"),
            "That account's order form, on its own product and price (it confirms before sending)",
        ),
        MOVE_DOWN,
        MOVE_UP,
    ],
    item_of: None,
};

impl PopupPane for AccountPicker {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        let last = self.offers.len().saturating_sub(1);
        match action {
            Action::Up => self.at = self.at.saturating_sub(1),
            Action::Down => self.at = (self.at + 1).min(last),
            Action::Submit => {
                let Some(offer) = self.offers.get(self.at) else {
                    return Reply::Close;
                };
                if offer.product.is_none() {
                    let why = if offer.listed {
                        format!("{} does not sell {}", offer.name, self.product)
                    } else {
                        format!(
                            "{}'s catalogue is not read yet: try again in a moment",
                            offer.name
                        )
                    };
                    cx.shell.notify(why);
                    return Reply::Taken;
                }
                cx.shell.send_out(Outward::OrderOn(self.at));
                return Reply::Close;
            }
            _ => return Reply::Ignored,
        }
        Reply::Taken
    }
}
