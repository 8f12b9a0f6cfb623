//! Keys, mouse and paste: what the user's input does to the state.

use super::Tab;
use super::keymap::{self, Action};
use super::popup::Popup;
use super::{App, Command};
use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// Rows one wheel notch moves.
const WHEEL_ROWS: isize = 3;

impl App {
    pub(super) fn on_key(&mut self, key: KeyEvent, out: &mut Vec<Command>) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctx = self.context();
        let before = self.tabs.services.table.selected_id();
        match keymap::action_for(&ctx, &key) {
            Some(action) => {
                self.perform(action, &key, out);
                self.hide_password_on_move(before);
            }
            None if ctx.typing && self.palette_key(&key) => {}
            None if ctx.typing => self.form_key(&key),
            None if ctx.editing_filter => {
                let typed = !key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
                if let (KeyCode::Char(c), true) = (key.code, typed) {
                    let _ = self
                        .tabs
                        .table_mut(self.shell.tab)
                        .push_filter(&c.to_string());
                }
            }
            None => {}
        }
    }

    pub(super) fn on_paste(&mut self, text: &str) {
        let ctx = self.context();
        if ctx.typing {
            if !self.palette_paste(text) {
                self.form_paste(text);
            }
        } else if ctx.editing_filter {
            // One line only: a pasted newline must not end the input or reach the screen.
            let line = text.lines().next().unwrap_or_default();
            if let Some(max) = self.tabs.table_mut(self.shell.tab).push_filter(line) {
                self.shell.status.notify(
                    super::status::NoticeKind::Info,
                    format!("Pasted text cut to {max} characters: a filter holds no more"),
                );
            }
        }
    }

    /// What an action does: a key's, or the palette's on its behalf (the same path).
    pub(super) fn perform(&mut self, action: Action, key: &KeyEvent, out: &mut Vec<Command>) {
        if matches!(
            action,
            Action::Filter | Action::ProblemsOnly | Action::CycleSort | Action::ReverseSort
        ) {
            self.rebuild_if_read();
        }
        if self.top_form().is_some() {
            match action {
                Action::Quit | Action::ForceQuit => self.shell.quit = true,
                Action::Back => self.form_back(),
                Action::Help => self.open_help(),
                _ => self.form_action(action, out),
            }
            return;
        }
        if self.popup_action(action, out) {
            return;
        }
        match action {
            Action::Quit | Action::ForceQuit => self.shell.quit = true,
            Action::GoTab
            | Action::NextTab
            | Action::PrevTab
            | Action::Up
            | Action::Down
            | Action::Top
            | Action::Bottom
            | Action::PageUp
            | Action::PageDown
            | Action::Filter
            | Action::FilterAccept
            | Action::FilterBackspace
            | Action::ProblemsOnly
            | Action::DayBack
            | Action::DayForward
            | Action::CycleRange => self.navigate(action, key),
            Action::Back => self.back(),
            Action::Open => self.open(out),
            Action::Refresh => self.refresh_tab(out),
            Action::RefreshAll => self.refresh_all(out),
            Action::CycleSort => self.cycle_sort(out),
            Action::ReverseSort => self.reverse_sort(out),
            Action::TogglePassword => {
                self.tabs.services.show_password = !self.tabs.services.show_password
            }
            Action::CycleDetail => self.cycle_detail(),
            Action::Help => {
                if matches!(self.shell.popups.last(), Some(Popup::Help)) {
                    self.shell.popups.pop();
                } else {
                    self.open_help();
                }
            }
            Action::OpenForm(form) => super::forms::open(&mut self.cx(out), form),
            Action::ClearCountdown => super::forms::refresh::clear_countdown(&mut self.cx(out)),
            Action::Acknowledge => self.tabs.alerts.acknowledge(&mut self.shell, out),
            Action::Unsilence => self.tabs.alerts.unsilence(&mut self.shell, out),
            Action::Probe => self.open_probe(out),
            Action::SwitchProfile => self.shell.open_profiles(),
            Action::Messages => self.shell.popups.push(Popup::Messages(0)),
            Action::Palette => self.open_palette(),
            Action::CommandLog => super::cmdlog::open(&mut self.shell),
            // Handled by the form or picker on top (above).
            Action::Submit
            | Action::NextField
            | Action::PrevField
            | Action::FormKey(_)
            | Action::Copy
            | Action::CopyUrls
            | Action::WriteFile
            | Action::RecheckFailed
            | Action::ProbeAgain
            | Action::ProbeBoth
            | Action::RotationAudit
            | Action::CycleTemplate
            | Action::Suspend => {}
        }
    }

    /// `h`: the probe of the target service.
    fn open_probe(&mut self, out: &mut Vec<Command>) {
        let (probes, mut cx) = self.probes_cx(out);
        probes.open_probe_logged(&mut cx);
    }

    /// `z`: the detail pane of Services or Products shown, hidden or zoomed.
    fn cycle_detail(&mut self) {
        match self.shell.tab {
            Tab::Services => self.tabs.services.detail_pane = self.tabs.services.detail_pane.next(),
            Tab::Products => self.tabs.products.detail_pane = self.tabs.products.detail_pane.next(),
            _ => {}
        }
    }

    /// The keys that move about the main screen without asking the server: tabs, rows,
    /// the filter, the local order, the day of Usage. [`App::perform`] sends only these.
    fn navigate(&mut self, action: Action, key: &KeyEvent) {
        let tab = self.shell.tab;
        match action {
            Action::GoTab => {
                if let KeyCode::Char(c) = key.code
                    && let Some(d) = c.to_digit(10)
                    && let Some(t) = Tab::ALL.get((d as usize).wrapping_sub(1))
                {
                    self.shell.tab = *t;
                }
            }
            Action::NextTab => self.shell.tab = tab.next(),
            Action::PrevTab => self.shell.tab = tab.prev(),
            Action::Up => self.tabs.table_mut(tab).move_by(-1),
            Action::Down => self.tabs.table_mut(tab).move_by(1),
            Action::Top => self.tabs.table_mut(tab).top(),
            Action::Bottom => self.tabs.table_mut(tab).bottom(),
            Action::PageUp => self.tabs.table_mut(tab).page_up(),
            Action::PageDown => self.tabs.table_mut(tab).page_down(),
            Action::Filter => self.tabs.table_mut(tab).start_editing(),
            Action::FilterAccept => self.tabs.table_mut(tab).stop_editing(),
            Action::FilterBackspace => self.tabs.table_mut(tab).pop_filter(),
            Action::ProblemsOnly => self.tabs.table_mut(tab).toggle_problems(),
            Action::DayBack | Action::DayForward => {
                let points = self.usage_chart().map_or(0, |c| c.points.len());
                let back = if action == Action::DayBack { 1 } else { -1 };
                self.tabs.usage.move_day(back, points);
            }
            Action::CycleRange => {
                self.tabs.usage.range = self.tabs.usage.range.next();
                self.tabs.usage.day_back = 0;
            }
            _ => {}
        }
    }

    /// The keys a list popup on top takes (the messages, the probe results, the help, the
    /// profiles): whether it took this one.
    fn popup_action(&mut self, action: Action, out: &mut Vec<Command>) -> bool {
        if self.palette_action(action, out)
            || super::cmdlog::action(&mut self.shell, &self.work.cmdlog, action, out)
        {
            return true;
        }
        if let Some(Popup::Messages(scroll)) = self.shell.popups.last_mut() {
            let last = self.shell.status.messages().len().saturating_sub(1);
            let page = usize::from(self.shell.size.1.saturating_sub(8)).max(1);
            let moved = match action {
                Action::Up => Some(scroll.saturating_sub(1)),
                Action::Down => Some(*scroll + 1),
                Action::Top => Some(0),
                Action::Bottom => Some(last),
                Action::PageUp => Some(scroll.saturating_sub(page)),
                Action::PageDown => Some(*scroll + page),
                _ => None,
            };
            if let Some(to) = moved {
                *scroll = to.min(last);
                return true;
            }
        }
        if matches!(self.shell.popups.last(), Some(Popup::Service(_))) {
            // The drawing stops at the last line: scrolling past it shows the end.
            let last = self.tabs.services.popup_last.get();
            let scroll = &mut self.tabs.services.popup_scroll;
            let page = self.shell.size.1.saturating_sub(8).max(1);
            let moved = match action {
                Action::Up => Some(scroll.saturating_sub(1)),
                Action::Down => Some(scroll.saturating_add(1)),
                Action::PageUp => Some(scroll.saturating_sub(page)),
                Action::PageDown => Some(scroll.saturating_add(page)),
                _ => None,
            };
            if let Some(to) = moved {
                *scroll = to.min(last);
                return true;
            }
        }
        if matches!(self.shell.popups.last(), Some(Popup::Probe(_))) && {
            let (probes, mut cx) = self.probes_cx(out);
            probes.probe_action(&mut cx, action)
        } {
            return true;
        }
        if matches!(self.shell.popups.last(), Some(Popup::Help)) {
            let page = usize::from(self.shell.size.1.saturating_sub(8)).max(1) as isize;
            let step = match action {
                Action::Up => Some(-1),
                Action::Down => Some(1),
                Action::PageUp => Some(-page),
                Action::PageDown => Some(page),
                _ => None,
            };
            if let Some(step) = step {
                // At most to where the last line is at the bottom (the view's height is
                // the body's less the border: the screen less six lines).
                let lines = keymap::help(&self.help_context(self.shell.popups.len() - 1)).len();
                let room = usize::from(self.shell.size.1.saturating_sub(6));
                let last = lines.saturating_sub(room);
                self.shell.help_scroll =
                    self.shell.help_scroll.saturating_add_signed(step).min(last);
                return true;
            }
        }
        if matches!(self.shell.popups.last(), Some(Popup::Profiles(_))) {
            match action {
                Action::Up => self.shell.move_profile(-1),
                Action::Down => self.shell.move_profile(1),
                Action::Submit => self.shell.choose_profile(),
                _ => return false,
            }
            return true;
        }
        false
    }

    fn open_help(&mut self) {
        self.shell.help_scroll = 0;
        self.shell.popups.push(Popup::Help);
    }

    /// `s`: the tab's next sort (Products asks the server for it; the others sort
    /// locally), then its rows in the new order.
    fn cycle_sort(&mut self, out: &mut Vec<Command>) {
        let tab = self.shell.tab;
        tab.cycle_sort(&mut self.cx(out));
        tab.resort(&mut self.cx(out));
        self.rebuild_shown();
    }

    /// `S`: the local sort the other way round.
    fn reverse_sort(&mut self, out: &mut Vec<Command>) {
        let tab = self.shell.tab;
        tab.reverse_sort(&mut self.tabs);
        tab.resort(&mut self.cx(out));
        self.rebuild_shown();
    }

    /// Esc: the popup, else the filter, else the status message. Never quits.
    fn back(&mut self) {
        if self.shell.popups.pop().is_some() {
            return;
        }
        let table = self.tabs.table_mut(self.shell.tab);
        if table.is_editing() || !table.filter().is_empty() {
            table.clear_filter();
        } else {
            self.shell.status.dismiss();
        }
    }

    /// Enter: the selected item's detail, or where it leads (the tab's own).
    fn open(&mut self, out: &mut Vec<Command>) {
        let tab = self.shell.tab;
        tab.open(&mut self.cx(out));
    }

    pub(super) fn on_mouse(&mut self, mouse: MouseEvent, _out: &mut Vec<Command>) {
        if !self.shell.settings.mouse || !self.shell.popups.is_empty() {
            return;
        }
        let tab = self.shell.tab;
        let before = self.tabs.services.table.selected_id();
        match mouse.kind {
            MouseEventKind::ScrollDown => self.tabs.table_mut(tab).move_by(WHEEL_ROWS),
            MouseEventKind::ScrollUp => self.tabs.table_mut(tab).move_by(-WHEEL_ROWS),
            MouseEventKind::Down(MouseButton::Left) => self.click(mouse.column, mouse.row),
            _ => {}
        }
        self.hide_password_on_move(before);
    }

    /// `v` shows one service's password: moving to another service hides it again.
    fn hide_password_on_move(&mut self, before: Option<u64>) {
        if self.tabs.services.table.selected_id() != before {
            self.tabs.services.show_password = false;
        }
    }

    fn click(&mut self, x: u16, y: u16) {
        if let Some(t) = self.shell.geometry.tab_at(x, y) {
            self.shell.tab = t;
            return;
        }
        if let Some(row) = self.shell.geometry.row_at(self.shell.tab, x, y) {
            let page = self.shell.geometry.page(self.shell.tab);
            let (first, _) = self.table(self.shell.tab).visible(page);
            self.tabs
                .table_mut(self.shell.tab)
                .select_position(first + row);
        }
    }
}
