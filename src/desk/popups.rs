//! The popups the All view opens over every account: which account orders (`o`), the
//! accounts to show (`P`), every account's messages (`m`) and command lines (`L`). Each
//! is a popup of the one enum (`crate::app::Popup`), pushed on the stack of the
//! highlighted row's account, so the key map, the footer, `?` and the drawing are the
//! same as everywhere; only what it lists of the other accounts comes from here, kept up
//! to date while it is open ([`Desk::refresh_over_all`]).

use super::all::RowRef;
use super::{Desk, Scope, Seat};
use crate::app::popups::Popup;
use crate::app::popups::accounts::{AccountPicker, Offer, same_product};
use crate::app::popups::messages::Among;
use crate::app::popups::profiles::{AccountLine, ProfilePicker};
use crate::app::tabs::Tab;
use crate::app::{Msg, cmdlog, messages};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

impl Desk {
    /// The seat a popup over the All view goes to: the highlighted row's, else the first.
    pub(super) fn target(&self) -> usize {
        match self.scope {
            Scope::One(k) => k,
            Scope::All => self
                .owner
                .or_else(|| self.all.selected().map(|row| row.seat))
                .unwrap_or(0),
        }
    }

    /// `o` on Products in All: which account orders the highlighted product.
    pub(super) fn open_order_picker(&mut self) {
        let Some(row) = self.all.selected() else {
            return;
        };
        let Some(product) = self.all.selected_product(&self.seats) else {
            return;
        };
        let name = product.product_name.clone();
        let group = product.group_name.clone();
        let offers = self
            .seats
            .iter()
            .map(|seat| {
                let catalogue = seat.app.products().rows();
                Offer {
                    name: seat.name.clone(),
                    colour: seat.colour,
                    credit: seat.app.billing().credit().value().map(|c| c.credit),
                    read_only: seat.app.settings().read_only,
                    listed: seat.app.products().list().value().is_some(),
                    product: same_product(catalogue, &name, &group)
                        .map(|p| (p.product_id, p.price)),
                }
            })
            .collect();
        let picker = AccountPicker::new(name, group, offers, row.seat);
        self.seats[row.seat].app.push_popup(Popup::Accounts(picker));
        self.owner = Some(row.seat);
    }

    /// Opens account `k`'s order form on its own product of the picked one's name (the
    /// picker found it): its form, its price, its credit, its confirmation.
    pub(super) fn order_on(&mut self, k: usize) {
        let Some(product) = self.all.selected_product(&self.seats) else {
            return;
        };
        let name = product.product_name.clone();
        let group = product.group_name.clone();
        let Some(id) =
            same_product(self.seats[k].app.products().rows(), &name, &group).map(|p| p.product_id)
        else {
            let who = self.seats[k].name.clone();
            self.seats[k]
                .app
                .notify(format!("{who} does not sell {name} (not in its catalogue)"));
            return;
        };
        let Some(commands) = self.seats[k].app.select_row_exactly(Tab::Products, id) else {
            return;
        };
        self.run(k, commands);
        self.send(
            k,
            Msg::Key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::NONE)),
        );
        if !self.seats[k].app.popups().is_empty() && self.scope == Scope::All {
            self.owner = Some(k);
        }
        self.rebuild();
        self.all.select(RowRef { seat: k, id });
    }

    /// `P` over several accounts: All and each account, on what is shown.
    pub(super) fn open_accounts(&mut self, k: usize) {
        let lines = self
            .seats
            .iter()
            .map(|seat| {
                let (mark, words) = crate::ui::all::link_words(&seat.app);
                AccountLine {
                    profile: seat.app.settings().profile.clone(),
                    name: seat.name.clone(),
                    colour: seat.colour,
                    link: (mark, words),
                    base_url: seat.app.settings().base_url.clone(),
                    read_only: seat.app.settings().read_only,
                }
            })
            .collect();
        let shown = match self.scope {
            Scope::One(j) => Some(j),
            Scope::All => None,
        };
        self.seats[k]
            .app
            .push_popup(Popup::Profiles(ProfilePicker::among(lines, shown)));
        if self.scope == Scope::All {
            self.owner = Some(k);
        }
    }

    /// Every account's messages, newest first, each with its account.
    pub(super) fn merged_messages(&self) -> Vec<Among<messages::Entry>> {
        let mut all: Vec<Among<messages::Entry>> = self
            .seats
            .iter()
            .flat_map(|s| {
                s.app
                    .status()
                    .messages()
                    .newest_first()
                    .map(move |e| among(s, e.clone()))
            })
            .collect();
        all.sort_by_key(|a| std::cmp::Reverse(a.entry.at));
        all
    }

    /// Every account's command lines, oldest first, each with its account.
    pub(super) fn merged_commands(&self) -> Vec<Among<cmdlog::Entry>> {
        let mut all: Vec<Among<cmdlog::Entry>> = self
            .seats
            .iter()
            .flat_map(|s| {
                s.app
                    .command_log()
                    .entries()
                    .map(move |e| among(s, e.clone()))
            })
            .collect();
        all.sort_by_key(|a| a.entry.at);
        all
    }

    /// What a popup over the All view lists of every account, brought up to date (the
    /// accounts go on meanwhile).
    pub(super) fn refresh_over_all(&mut self) {
        let Some(k) = self.owner else {
            return;
        };
        let wants = match self.seats[k].app.popups().last() {
            Some(Popup::Messages(m)) if m.all.is_some() => 1,
            Some(Popup::CommandLog(l)) if l.all.is_some() => 2,
            _ => return,
        };
        let (messages, commands) = match wants {
            1 => (Some(self.merged_messages()), None),
            _ => (None, Some(self.merged_commands())),
        };
        match self.seats[k].app.top_popup_mut() {
            Some(Popup::Messages(m)) if messages.is_some() && m.all != messages => {
                m.all = messages;
            }
            Some(Popup::CommandLog(l)) if commands.is_some() && l.all != commands => {
                l.all = commands;
            }
            _ => return,
        }
        self.redraw = true;
    }
}

fn among<T>(seat: &Seat, entry: T) -> Among<T> {
    Among {
        name: seat.name.clone(),
        colour: seat.colour,
        entry,
    }
}
