//! Keys, mouse and paste: what the user's input does to the state; and what the run loop
//! hands over or asks beside them (the frame's measurements, whether to draw, when to
//! wake the app), each answered by the part that owns it.

use super::Tab;
use super::keymap::{self, Action, Reach};
use super::popups::{self, Popup, Reply};
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
        self.shell.status.person_acted();
        let ctx = self.context();
        match keymap::action_for(&ctx, &key) {
            Some(action) => self.perform(action, &key, out),
            None if ctx.typing && self.popup_key(&key) => {}
            None if ctx.typing => self.shell.form_key(&key),
            None if !ctx.typing
                && !ctx.editing_filter
                && let Some(i) =
                    super::user_actions::action_for(&self.shell.settings.actions, &ctx, &key) =>
            {
                super::user_actions::start(&mut self.cx(out), i);
            }
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
            if !self.popup_paste(text) {
                self.shell.form_paste(text);
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
            self.cx(out).rebuild_if_read();
        }
        if self.form_action(action, out) || self.popup_action(action, key, out) {
            return;
        }
        // The table on screen: the key map's one list of what moves it.
        if action.reach() == Reach::Table {
            return self.navigate(action, key);
        }
        match action {
            Action::Quit | Action::ForceQuit => self.shell.quit = true,
            Action::Back => self.back(),
            Action::Open => self.open(out),
            Action::Refresh => self.cx(out).refresh_tab(),
            Action::RefreshAll => self.cx(out).refresh_all(),
            Action::CycleSort => self.cycle_sort(out),
            Action::ReverseSort => self.reverse_sort(out),
            Action::TogglePassword | Action::CycleDetail => {
                self.tabs.pane_mut(self.shell.tab).toggle(action);
            }
            Action::Help => {
                if matches!(self.shell.popups.last(), Some(Popup::Help(_))) {
                    self.shell.popups.pop();
                } else {
                    self.open_help();
                }
            }
            Action::OpenForm(form) => super::forms::open(&mut self.cx(out), form),
            Action::ClearCountdown => super::forms::refresh::clear_countdown(&mut self.cx(out)),
            // The tab's own keys.
            Action::Acknowledge
            | Action::Unsilence
            | Action::DayBack
            | Action::DayForward
            | Action::CycleRange => {
                let tab = self.shell.tab;
                tab.key(&mut self.cx(out), action);
            }
            Action::Probe => self.open_probe(out),
            Action::CopyProxy => super::forms::iplist_files::copy_first(&mut self.cx(out)),
            Action::SwitchProfile => popups::profiles::open(&mut self.shell),
            Action::Messages => self.shell.popups.push(Popup::Messages(Default::default())),
            Action::Palette => self.open_palette(),
            Action::CommandLog => popups::command_log::open(&mut self.shell),
            // Above: the table's (by their reach), the form's or picker's on top; the
            // desk's (`A`) over several accounts; the run loop's (Ctrl-Z).
            _ => {}
        }
    }

    /// A key's action to the form on top, if a form is on top: whether it was.
    fn form_action(&mut self, action: Action, out: &mut Vec<Command>) -> bool {
        if self.shell.top_form().is_none() {
            return false;
        }
        match action {
            Action::Quit | Action::ForceQuit => self.shell.quit = true,
            Action::Back => self.forms.back(&mut self.shell),
            Action::Help => self.open_help(),
            _ => {
                let (mut cx, aside) = self.parts(out);
                aside.forms.action(&mut cx, action);
            }
        }
        true
    }

    /// `h`: the probe of the target service.
    fn open_probe(&mut self, out: &mut Vec<Command>) {
        let (mut cx, aside) = self.parts(out);
        aside.probes.open_probe_logged(&mut cx);
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
            Action::Mark => {
                let _ = self.tabs.table_mut(tab).toggle_mark();
            }
            _ => {}
        }
    }

    /// A key's action to the popup on top, unless it is a form (the forms' are routed by
    /// [`super::forms`]): whether it took it. The popup is off the stack meanwhile, so it
    /// acts through the context like any part; it goes back where it was.
    fn popup_action(&mut self, action: Action, key: &KeyEvent, out: &mut Vec<Command>) -> bool {
        let Some(at) = self.shell.popups.len().checked_sub(1) else {
            return false;
        };
        if self.shell.popups[at].is_form() {
            return false;
        }
        let mut popup = self.shell.popups.remove(at);
        let reply = popup.action(&mut self.cx(out), action);
        if matches!(reply, Reply::Ignored | Reply::Taken | Reply::ToProbes(_)) {
            let at = at.min(self.shell.popups.len());
            self.shell.popups.insert(at, popup);
        }
        match reply {
            Reply::Ignored => false,
            Reply::Taken | Reply::Close => true,
            Reply::Perform(action) => {
                self.perform(action, key, out);
                true
            }
            Reply::ToProbes(action) => {
                let (mut cx, aside) = self.parts(out);
                aside.probes.probe_action(&mut cx, action)
            }
        }
    }

    /// A typed key no binding claimed, to the popup on top (a form's: [`super::forms`]).
    fn popup_key(&mut self, key: &KeyEvent) -> bool {
        self.shell.popups.last_mut().is_some_and(|p| p.key(key))
    }

    /// A paste, to the popup on top (a form's: [`super::forms`]).
    fn popup_paste(&mut self, text: &str) -> bool {
        self.shell.popups.last_mut().is_some_and(|p| p.paste(text))
    }

    /// `?`: the keys of what is under the help, from their top.
    fn open_help(&mut self) {
        self.shell.popups.push(Popup::Help(Default::default()));
    }

    /// `:` or Ctrl-P: the palette, its actions for the selected service and product.
    fn open_palette(&mut self) {
        let service = self.tabs.services.table.selected_id();
        let product = self.tabs.products.table.selected_id();
        let candidates = super::palette::candidates::gather(self, service, product);
        self.shell.popups.push(Popup::Palette(Box::new(
            super::palette::Palette::new(candidates, service, product)
                .knowing(&self.shell.settings, self.shell.palette_history.clone()),
        )));
    }

    /// `s`: the tab's next sort (Products asks the server for it; the others sort
    /// locally), then its rows in the new order.
    fn cycle_sort(&mut self, out: &mut Vec<Command>) {
        let mut cx = self.cx(out);
        let tab = cx.shell.tab;
        tab.cycle_sort(&mut cx);
        tab.resort(&mut cx);
        cx.rebuild_shown();
    }

    /// `S`: the local sort the other way round.
    fn reverse_sort(&mut self, out: &mut Vec<Command>) {
        let tab = self.shell.tab;
        tab.reverse_sort(&mut self.tabs);
        let mut cx = self.cx(out);
        tab.resort(&mut cx);
        cx.rebuild_shown();
    }

    /// Esc: the popup, else the filter, else the status message. Never quits.
    fn back(&mut self) {
        if self.shell.popups.pop().is_some() {
            return;
        }
        let table = self.tabs.table_mut(self.shell.tab);
        // The filter being typed, then the marks, then the filter kept.
        if table.is_editing() {
            table.clear_filter();
        } else if table.clear_marks() {
            self.shell
                .status
                .notify(super::status::NoticeKind::Info, "Marks cleared");
        } else if !table.filter().is_empty() {
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
        match mouse.kind {
            MouseEventKind::ScrollDown => self.tabs.table_mut(tab).move_by(WHEEL_ROWS),
            MouseEventKind::ScrollUp => self.tabs.table_mut(tab).move_by(-WHEEL_ROWS),
            MouseEventKind::Down(MouseButton::Left) => self.click(mouse.column, mouse.row),
            _ => {}
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

/// What the run loop hands over and asks between messages.
impl App {
    /// What the view measured while drawing the frame just shown (see
    /// [`super::geometry`]); the engine is told the rows now on screen when they changed.
    pub fn measured(&mut self, geometry: super::geometry::Geometry) -> Vec<Command> {
        let mut out = Vec::new();
        self.cx(&mut out).measured(geometry);
        out
    }

    /// Whether something visible changed since this was last asked: the run loop draws
    /// only then.
    pub fn take_redraw(&mut self) -> bool {
        std::mem::take(&mut self.shell.redraw)
    }

    /// When the loop must send [`super::Msg::Tick`] next (see `Mirror::next_wakeup`).
    pub fn next_wakeup(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        (self.account).next_wakeup(&self.shell, &self.tabs.services)
    }
}
