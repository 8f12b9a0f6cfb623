//! Where a key goes on a desk over several accounts (the rules are in the module docs of
//! [`super`]): the All view's own keys, the ones every account takes, and the ones the
//! selected row's account takes on that row.

use super::{Desk, Scope, picker};
use crate::app::tabs::Tab;
use crate::app::{App, Msg};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The keys of the All view: the footer shows the words, `?` the whole lines.
pub const ALL_KEYS: &[(&str, &str, &str)] = &[
    ("?", "help", "These keys"),
    ("q", "quit", "Quit"),
    (Tab::KEYS, "tabs", "Each tab, over every account"),
    (
        "A",
        "one account",
        "Show the selected row's account alone (A again: all)",
    ),
    ("P", "focus", "Pick an account to show alone"),
    (
        "/",
        "filter",
        "Filter every account's rows (the account's name too)",
    ),
    (
        "s S",
        "sort",
        "Sort every account's rows (Services: all together)",
    ),
    (
        "!",
        "problems",
        "Only the rows with a problem, of every account",
    ),
    (
        "o",
        "order",
        "Products: order the selected product, asking which account",
    ),
    ("m", "messages", "Every account's messages, newest first"),
    (
        "r R",
        "refresh",
        "Refresh this tab / everything, on every account",
    ),
    (
        "b p u i h …",
        "on the row",
        "Every other key acts on the selected row, in its account",
    ),
];

impl Desk {
    pub(super) fn on_key(&mut self, key: KeyEvent) {
        if self.picker.is_some() {
            return self.picker_key(key);
        }
        if self.log.is_some() {
            return self.log_key(key);
        }
        if self.help {
            // Any key closes it; `q` quits only from the view.
            self.help = false;
            return;
        }
        match self.scope {
            Scope::One(k) => {
                if key.code == KeyCode::Char('A') && is_free(&self.seats[k].app) {
                    self.show_all();
                } else {
                    self.send(k, Msg::Key(key));
                    self.after_forward(k);
                }
            }
            Scope::All => self.all_key(key),
        }
    }

    fn all_key(&mut self, key: KeyEvent) {
        if let Some(k) = self.owner {
            self.send(k, Msg::Key(key));
            return self.after_forward(k);
        }
        if self.all.is_editing() {
            self.all.filter_key(key);
            if self.all.needs_keys() {
                self.rebuild();
            }
            return self.sync_selection();
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('c') if ctrl => self.quit = true,
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('A') => {
                let k = self.all.selected().map_or(0, |(seat, _)| seat);
                self.scope = Scope::One(k);
            }
            KeyCode::Char(c @ '1'..='9')
                if let Some(&tab) = Tab::ALL.get(usize::from(c as u8 - b'1')) =>
            {
                self.go_tab(tab);
            }
            KeyCode::Tab | KeyCode::BackTab => {
                let at = Tab::ALL
                    .iter()
                    .position(|&t| t == self.all.tab)
                    .unwrap_or(0);
                let n = Tab::ALL.len();
                let next = if key.code == KeyCode::Tab {
                    (at + 1) % n
                } else {
                    (at + n - 1) % n
                };
                self.go_tab(Tab::ALL[next]);
            }
            KeyCode::Char('/') => {
                self.all.start_editing();
                self.rebuild();
            }
            KeyCode::Char('!') => {
                self.all.toggle_problems();
                self.rebuild();
            }
            // Services sort across accounts in the All view itself.
            KeyCode::Char('s') if self.all.tab == Tab::Services => {
                self.all.sort.cycle(crate::app::tabs::services::SORTS.len());
                self.stale = true;
            }
            KeyCode::Char('S') if self.all.tab == Tab::Services => {
                self.all.sort.reverse();
                self.stale = true;
            }
            KeyCode::Esc => self.all.clear_filter(),
            // Where `s` sorts (on Alerts it silences the selected alert, on its account).
            KeyCode::Char('s' | 'S')
                if matches!(self.all.tab, Tab::Billing | Tab::Network | Tab::Products) =>
            {
                self.send_to_every_account(key);
            }
            KeyCode::Char('r' | 'R') => self.send_to_every_account(key),
            KeyCode::Char('m') => self.log = Some(0),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('o') if self.all.tab == Tab::Products => {
                if let Some((at, _)) = self.all.selected() {
                    self.picker = Some(picker::Picker::new(at));
                }
            }
            _ if self.all.move_key(key) => self.sync_selection(),
            _ => {
                // The selected row's account does it, on that row.
                let Some((k, _)) = self.all.selected() else {
                    return;
                };
                self.sync_selection();
                self.send(k, Msg::Key(key));
                self.after_forward(k);
            }
        }
    }

    /// A key every account takes (its own sort, its refresh); the All rows follow.
    fn send_to_every_account(&mut self, key: KeyEvent) {
        for i in 0..self.seats.len() {
            if is_free(&self.seats[i].app) {
                self.send(i, Msg::Key(key));
            }
        }
        self.stale = true;
    }

    /// After a key went to seat `k`: a popup it opened over All is its; a tab it went to
    /// (Enter on a server shows its service) the All view follows; a profile it picked
    /// (`P`) is focused.
    fn after_forward(&mut self, k: usize) {
        if self.scope == Scope::All {
            if !self.seats[k].app.popups().is_empty() {
                self.owner = Some(k);
            }
            let tab = self.seats[k].app.tab();
            if tab != self.all.tab {
                self.go_tab(tab);
                let id = self.seats[k].app.table(tab).selected_id();
                self.rebuild();
                if let Some(id) = id {
                    self.all.select(k, id);
                }
            }
        }
        if let Some(name) = self.seats[k].app.shell_mut().take_profile_switch() {
            match self.seats.iter().position(|s| s.app.settings().profile == name) {
                Some(j) => {
                    self.owner = None;
                    self.scope = Scope::One(j);
                }
                None => self.seats[k].app.notify(format!(
                    "Profile {name} is not in this dashboard: start proxydash with --profile {name} (or --all-profiles)"
                )),
            }
        }
    }

    /// Shows every account: each shows the All view's tab, so its rows stay merged.
    fn show_all(&mut self) {
        let tab = match self.scope {
            Scope::One(k) => self.seats[k].app.tab(),
            Scope::All => self.all.tab,
        };
        self.scope = Scope::All;
        self.go_tab(tab);
    }

    fn go_tab(&mut self, tab: Tab) {
        if self.all.tab != tab {
            // One filter line, and another tab's rows: it would only hide them.
            self.all.clear_filter();
        }
        self.all.tab = tab;
        let key = KeyEvent::new(
            KeyCode::Char((b'1' + tab_index(tab)) as char),
            KeyModifiers::NONE,
        );
        for i in 0..self.seats.len() {
            if self.seats[i].app.tab() != tab && is_free(&self.seats[i].app) {
                self.send(i, Msg::Key(key));
            }
        }
        self.stale = true;
    }

    /// Merges the rows of the All view's tab again from every account.
    pub(super) fn rebuild(&mut self) {
        self.stale = false;
        if self.all.reads_keys() || self.all.is_editing() {
            for seat in &mut self.seats {
                // Rows whose keys are only some answers behind are used as they are (one
                // account a batch is brought up to date, `Desk::warm`); rows not made yet,
                // or made from another list, are made now.
                let app = &seat.app;
                let made = app.table(Tab::Services).total() == app.services().rows().len()
                    && app.table(Tab::Services).generation() > 0;
                if self.all.tab != Tab::Services || !made {
                    seat.app.keys_up_to_date();
                }
            }
        }
        self.all.rebuild(&self.seats);
    }

    /// Selects in the selected row's account what the All view selects, so its detail is
    /// read and an action on it takes that row.
    fn sync_selection(&mut self) {
        if let Some((k, id)) = self.all.selected() {
            let tab = self.all.tab;
            if self.seats[k].app.table(tab).selected_id() != Some(id) {
                let commands = self.seats[k].app.select_row(tab, id);
                self.run(k, commands);
            }
        }
    }

    fn picker_key(&mut self, key: KeyEvent) {
        let Some(picker) = self.picker.as_mut() else {
            return;
        };
        match picker.key(key, self.seats.len()) {
            picker::Outcome::Stay => {}
            picker::Outcome::Cancel => self.picker = None,
            picker::Outcome::Chosen(k) => {
                self.picker = None;
                self.order_on(k);
            }
        }
    }

    /// Opens account `k`'s order form for the selected product (the same product ID in
    /// its catalogue, else the same name): its form, its credit, its confirmation.
    fn order_on(&mut self, k: usize) {
        let Some(product) = self.all.selected_product(&self.seats) else {
            return;
        };
        let app = &self.seats[k].app;
        let found = app
            .products()
            .rows()
            .iter()
            .find(|p| p.product_id == product.0)
            .or_else(|| {
                app.products()
                    .rows()
                    .iter()
                    .find(|p| p.product_name == product.1)
            })
            .map(|p| p.product_id);
        let Some(id) = found else {
            let name = self.seats[k].name.clone();
            self.seats[k].app.notify(format!(
                "{name} does not sell {} (not in its catalogue)",
                product.1
            ));
            return;
        };
        let commands = self.seats[k].app.select_row(Tab::Products, id);
        self.run(k, commands);
        self.send(
            k,
            Msg::Key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::NONE)),
        );
        self.after_forward(k);
        self.rebuild();
        self.all.select(k, id);
    }

    fn log_key(&mut self, key: KeyEvent) {
        let Some(scroll) = self.log.as_mut() else {
            return;
        };
        match key.code {
            KeyCode::Esc | KeyCode::Char('q' | 'm') => self.log = None,
            KeyCode::Char('j') | KeyCode::Down => *scroll += 1,
            KeyCode::Char('k') | KeyCode::Up => *scroll = scroll.saturating_sub(1),
            KeyCode::PageDown => *scroll += 10,
            KeyCode::PageUp => *scroll = scroll.saturating_sub(10),
            KeyCode::Char('g') | KeyCode::Home => *scroll = 0,
            _ => {}
        }
    }
}

/// Whether the app takes no typing now (no popup, no filter input): a desk key is free.
pub(super) fn is_free(app: &App) -> bool {
    app.popups().is_empty() && !app.table(app.tab()).is_editing()
}

fn tab_index(tab: Tab) -> u8 {
    Tab::ALL.iter().position(|&t| t == tab).unwrap_or(0) as u8
}
