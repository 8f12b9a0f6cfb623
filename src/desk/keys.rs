//! Where a key goes on a desk over several accounts (the rules are in the module docs of
//! [`super`]). The key map is the one table of every view: a key means in the All view
//! what [`keymap::action_for`] says in the All view's context, and the desk decides only
//! who carries the action out: the All view itself, every account, or the highlighted
//! row's account on that row (the action's [`Reach`], the key map's one list).

use super::all::RowRef;
use super::{Desk, Scope};
use crate::app::keymap::{self, Accounts, Action, Context, FormKind, Reach};
use crate::app::popups::Popup;
use crate::app::tabs::Tab;
use crate::app::{App, Msg, Switch};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

impl Desk {
    /// The key map's context of the All view (no popup of an account open over it).
    pub fn all_context(&self) -> Context {
        Context {
            tab: self.all.tab,
            popup: None,
            editing_filter: self.all.is_editing(),
            typing: false,
            // A write goes to the row's account, which refuses it if read-only: the keys
            // are advertised unless every account is read-only.
            read_only: self.seats.iter().all(|s| s.app.settings().read_only),
            switchable: true,
            accounts: Accounts::All,
        }
    }

    pub(super) fn on_key(&mut self, key: KeyEvent) {
        match self.scope {
            Scope::One(k) => {
                let ctx = self.seats[k].app.context();
                match keymap::action_for(&ctx, &key) {
                    Some(Action::AllAccounts) => self.show_all(),
                    Some(Action::SwitchProfile) => self.open_accounts(k),
                    _ => {
                        self.send(k, Msg::Key(key));
                        self.after_forward(k);
                    }
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
        let ctx = self.all_context();
        // One of your actions: a key on the row (or the marked rows), as in one account.
        let yours = |seat: &super::Seat| {
            crate::app::user_actions::action_for(&seat.app.settings().actions, &ctx, &key).is_some()
        };
        if keymap::action_for(&ctx, &key).is_none() && self.seats.iter().any(yours) {
            return self.on_row(key);
        }
        let Some(action) = keymap::action_for(&ctx, &key) else {
            // A character typed into the filter.
            if let (true, KeyCode::Char(c)) = (self.all.is_editing(), key.code)
                && !key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
            {
                self.all.type_filter(c);
                if self.all.needs_keys() {
                    self.rebuild();
                }
                self.sync_selection();
            }
            return;
        };
        self.all_action(action, key);
    }

    /// What `action` (the key map's, for `key`) does in the All view: who carries it out is
    /// its [`Reach`].
    fn all_action(&mut self, action: Action, key: KeyEvent) {
        match action.reach() {
            Reach::Program => self.program_action(action),
            Reach::Table => self.table_action(action, key),
            Reach::Back => {
                // The filter being typed, then the marks, then the filter kept.
                let editing = self.all.is_editing();
                if !editing && self.all.clear_marks() {
                    return;
                }
                if editing || !self.all.table().filter().is_empty() {
                    self.all.clear_filter();
                } else {
                    for seat in &mut self.seats {
                        seat.app.shell_mut().dismiss_status();
                    }
                }
            }
            // Services sort across accounts in the All view itself; the other tabs in
            // each account.
            Reach::EveryAccount => match action {
                Action::CycleSort if self.all.tab == Tab::Services => {
                    self.all.sort.cycle();
                    self.stale = true;
                }
                Action::ReverseSort if self.all.tab == Tab::Services => {
                    self.all.sort.reverse();
                    self.stale = true;
                }
                _ => self.send_to_every_account(key),
            },
            Reach::Screen => self.screen_action(action),
            Reach::Row => self.on_row(key),
        }
    }

    fn program_action(&mut self, action: Action) {
        match action {
            Action::Quit | Action::ForceQuit => self.quit = true,
            Action::AllAccounts => {
                let k = self.all.selected().map_or(0, |row| row.seat);
                self.set_scope(Scope::One(k));
            }
            // Ctrl-Z: the run loop's, before the key reaches the desk.
            _ => {}
        }
    }

    /// The All view's own table: its tab, its selection, its filter and `!`.
    fn table_action(&mut self, action: Action, key: KeyEvent) {
        match action {
            Action::GoTab => {
                if let KeyCode::Char(c) = key.code
                    && let Some(d) = c.to_digit(10)
                    && let Some(&tab) = Tab::ALL.get((d as usize).wrapping_sub(1))
                {
                    self.go_tab(tab);
                }
            }
            Action::NextTab => self.go_tab(self.all.tab.next()),
            Action::PrevTab => self.go_tab(self.all.tab.prev()),
            Action::Filter => {
                self.all.start_editing();
                self.rebuild();
            }
            Action::ProblemsOnly => {
                self.all.toggle_problems();
                self.rebuild();
            }
            _ => {
                if self.all.table_action(action) {
                    self.sync_selection();
                }
            }
        }
    }

    /// A popup over every account (the account whose keys it takes: the highlighted
    /// row's).
    fn screen_action(&mut self, action: Action) {
        match action {
            Action::Messages => {
                let k = self.target();
                let all = Some(self.merged_messages());
                self.open_over_all(
                    k,
                    Popup::Messages(crate::app::popups::messages::MessagesPopup { scroll: 0, all }),
                );
            }
            Action::CommandLog => {
                let k = self.target();
                let all = Some(self.merged_commands());
                self.open_over_all(
                    k,
                    Popup::CommandLog(crate::app::popups::command_log::CommandLogPopup {
                        scroll: 0,
                        all,
                    }),
                );
            }
            Action::Help => {
                let k = self.target();
                self.open_over_all(k, Popup::Help(Default::default()));
            }
            Action::SwitchProfile => {
                let k = self.target();
                self.open_accounts(k);
            }
            Action::OpenForm(FormKind::Order) => self.open_order_picker(),
            _ => {}
        }
    }

    /// A key that acts on the marked rows: each account that has some does it, on its own
    /// rows (marked in its table for the key, and unmarked after).
    fn on_marked(&mut self, key: KeyEvent, marked: &[RowRef]) {
        let tab = self.all.tab;
        for k in 0..self.seats.len() {
            let ids: Vec<u64> = (marked.iter())
                .filter(|r| r.seat == k)
                .map(|r| r.id)
                .collect();
            let Some(&first) = ids.first() else {
                continue;
            };
            if let Some(commands) = self.seats[k].app.select_row_exactly(tab, first) {
                self.run(k, commands);
            }
            self.seats[k].app.set_marks(tab, &ids);
            self.send(k, Msg::Key(key));
            self.seats[k].app.set_marks(tab, &[]);
            self.after_forward(k);
        }
    }

    /// A key that acts on the highlighted row: its account does it, on that row (found
    /// by its identity). A row its account no longer lists is not acted on. With marks,
    /// every marked row instead ([`Desk::on_marked`]).
    fn on_row(&mut self, key: KeyEvent) {
        let marked = self.all.marked();
        if !marked.is_empty() {
            return self.on_marked(key, &marked);
        }
        let Some(row) = self.all.selected() else {
            return;
        };
        if !self.sync_selection() {
            let name = self.seats[row.seat].name.clone();
            self.seats[row.seat]
                .app
                .notify(format!("{name} no longer lists that row: nothing was done"));
            return;
        }
        self.send(row.seat, Msg::Key(key));
        self.after_forward(row.seat);
    }

    /// A popup of account `k` over the All view: keys go to it until it closes.
    fn open_over_all(&mut self, k: usize, popup: Popup) {
        self.seats[k].app.push_popup(popup);
        self.owner = Some(k);
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
    /// (Enter on a server shows its service) the All view follows; what its `P` or the
    /// account picker chose is done.
    pub(super) fn after_forward(&mut self, k: usize) {
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
                    self.all.select(RowRef { seat: k, id });
                }
            }
        }
        if let Some(chosen) = self.seats[k].app.shell_mut().take_chosen_account() {
            self.order_on(chosen);
        }
        if let Some(action) = self.seats[k].app.shell_mut().take_for_all() {
            if self.seats[k].app.popups().is_empty() {
                self.owner = None;
            }
            let ctx = self.all_context();
            let key = keymap::effective(&ctx)
                .into_iter()
                .find(|b| b.action == action)
                .and_then(|b| b.keys.first())
                .map(|key| {
                    let modifiers = if key.ctrl {
                        KeyModifiers::CONTROL
                    } else {
                        KeyModifiers::NONE
                    };
                    KeyEvent::new(key.code, modifiers)
                });
            if let Some(key) = key {
                self.all_action(action, key);
            }
        }
        match self.seats[k].app.shell_mut().take_switch() {
            None => {}
            Some(Switch::All) => self.show_all(),
            Some(Switch::Profile(name)) => {
                match self.seats.iter().position(|s| s.app.settings().profile == name) {
                    Some(j) => {
                        self.owner = None;
                        self.set_scope(Scope::One(j));
                    }
                    None => self.seats[k].app.notify(format!(
                        "Profile {name} is not in this dashboard: start proxydash with --profile {name} (or --all-profiles)"
                    )),
                }
            }
        }
    }

    /// Shows every account: each shows the All view's tab, so its rows stay merged.
    pub(super) fn show_all(&mut self) {
        let tab = match self.scope {
            Scope::One(k) => self.seats[k].app.tab(),
            Scope::All => self.all.tab,
        };
        self.set_scope(Scope::All);
        self.go_tab(tab);
    }

    fn go_tab(&mut self, tab: Tab) {
        if self.all.tab != tab {
            // One filter line, and another tab's rows: it would only hide them.
            self.all.clear_filter();
        }
        self.all.tab = tab;
        let key = KeyEvent::new(
            KeyCode::Char(char::from(b'1' + tab.index() as u8)),
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

    /// Selects in the highlighted row's account that row (by its identity), so its
    /// detail is read and an action on it takes that row; whether the account lists it.
    fn sync_selection(&mut self) -> bool {
        let Some(row) = self.all.selected() else {
            return false;
        };
        let tab = self.all.tab;
        match self.seats[row.seat].app.select_row_exactly(tab, row.id) {
            Some(commands) => {
                self.run(row.seat, commands);
                true
            }
            None => false,
        }
    }
}

/// Whether the app takes no typing now (no popup, no filter input): a desk key is free.
pub(super) fn is_free(app: &App) -> bool {
    app.popups().is_empty() && !app.table(app.tab()).is_editing()
}
