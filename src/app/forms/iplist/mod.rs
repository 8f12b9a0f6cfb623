//! IP lists (`i` on a service): choose the list type (the five of spec 4.4, defaulting to
//! the one that fits the service's product type) and the format, fetch the list, and read
//! it in a scrollable view with its entry count.
//!
//! In the view, `y` copies the list exactly as served, `Y` copies it as proxy URLs (one
//! `scheme://login:password@host:port` per line, or `host:port` without credentials), and
//! `w` asks for a file name (default `iplist-<service>-<type>.<format>` in the current
//! folder) and writes the list as served. The file is never overwritten: when it exists the
//! prompt shows why and stays open to change the name. The status line says where copies
//! went (a terminal clipboard over OSC 52 is "sent", not "copied") and the full path
//! written.
//!
//! Lists can have 100,000 lines: the line starts are indexed once when the list arrives,
//! and the view draws only the lines on screen ([`ListView`]).

mod list;
mod look;
mod view;

use super::{Answered, FileAnswer, Flow, FormCore, FormCx, FormData, FormLogic, FormState, Next};
use super::{Intent, ServiceOn, TextField};
use crate::api::{ApiError, IpList, IpListFormat, IpListType, ProductType, Request, Response};
use crate::app::Command;
use crate::app::keymap::steps::{self, BACK, CANCEL, CLOSE, FormStep, step_key};
use crate::app::keymap::{Action, code, k};
use crate::app::look::theme::Theme;
use crate::app::status::NoticeKind;
use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use std::path::PathBuf;

pub use look::mask_passwords;
pub use view::{ListView, entries_label};

/// Choosing the list's type and format (↑/↓ the value, Tab/←/→ the column).
#[rustfmt::skip]
pub static CHOOSE: FormStep = FormStep {
    title: "IP list · choose",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("fetch"), "Fetch the list in the chosen type and format"),
        steps::NEXT_FIELD,
        steps::PREV_FIELD,
        step_key(&[code(KeyCode::Right)], Action::NextField, None, "Next column"),
        step_key(&[code(KeyCode::Left)], Action::PrevField, None, "Previous column"),
        CANCEL,
        steps::MOVE_DOWN,
        steps::MOVE_UP,
    ],
};

/// Reading the fetched list.
#[rustfmt::skip]
pub static VIEW: FormStep = FormStep {
    title: "IP list",
    bindings: &[
        step_key(&[k('y')], Action::Copy, Some("copy"), "Copy the list exactly as served"),
        step_key(&[k('Y')], Action::CopyUrls, Some("copy URLs"), "Copy the list as proxy URLs, one per line"),
        step_key(&[k('w')], Action::WriteFile, Some("write file"), "Write the list to a file"),
        step_key(&[k('v')], Action::TogglePassword, Some("passwords"), "Show or hide the passwords (the copy and the file keep them)"),
        steps::MOVE_DOWN,
        steps::MOVE_UP,
        steps::TOP,
        steps::BOTTOM,
        steps::PAGE_DOWN,
        steps::PAGE_UP,
        CLOSE,
    ],
};

/// The file name `w` writes the list to.
#[rustfmt::skip]
pub static SAVE: FormStep = FormStep {
    title: "IP list · write file",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("write"), "Write the file (an existing file is never replaced)"),
        BACK,
    ],
};

/// The longest file path the save field takes (Linux's `PATH_MAX`).
const PATH_MAX: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Type,
    Format,
}

#[derive(Clone, Debug, PartialEq)]
pub struct IpListForm {
    pub service_id: u64,
    pub list_type: IpListType,
    pub format: IpListFormat,
    pub column: Column,
    /// `Editing`: choosing; `Submitting`: fetching; `Done`: viewing (the list is the
    /// answer it holds); `Failed`: choosing again, with why the fetch failed.
    pub core: FormCore,
    /// Where the fetched list's lines start and where it is scrolled to.
    pub view: Option<ListView>,
    pub save: Option<SavePrompt>,
    /// The last file written from this view.
    pub written: Option<PathBuf>,
    /// Opened by the palette's "copy IP list": the list is copied as `y` would once it
    /// arrives (on screen).
    pub copy_when_fetched: bool,
    /// Opened by `y` on Services: the list's first proxy is copied once it arrives, and
    /// the form closes (the person stays on the row).
    pub copy_first: bool,
    /// Opened by one of your actions that takes `{iplist_file}`: it runs with the list
    /// once it arrives, and the form closes.
    pub then_run: Option<Box<crate::config::actions::Run>>,
    /// Opened by `y` on marked services: the lists one after the other (see [`Batch`]).
    pub batch: Option<Box<Batch>>,
    /// Whether the view shows the passwords in the lines (`v`); hidden as the service's
    /// detail hides its own, so a shared screen does not show them.
    pub show_passwords: bool,
    /// The list types the chooser offers: those of the service's kind.
    pub types: &'static [IpListType],
}

/// `y` on marked services: each service's list (its kind's usual type, as text) fetched
/// after the one before, each headed by its ID (`# service 1001`), and the whole copied
/// once the last is in; what could not be read is said, the rest is copied.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Batch {
    /// The services still to fetch, next first, with their list type.
    pub rest: std::collections::VecDeque<(u64, IpListType)>,
    pub text: String,
    pub copied: Vec<u64>,
    pub failed: Vec<u64>,
}

/// The file-name prompt of `w`.
#[derive(Clone, Debug, PartialEq)]
pub struct SavePrompt {
    pub path: TextField,
    /// Why the last write failed (the file exists, a folder is missing…).
    pub error: Option<String>,
    /// The write was asked for and has not answered yet.
    pub writing: bool,
}

impl IpListForm {
    pub fn new(service_id: u64, product_type: &ProductType) -> Self {
        Self {
            service_id,
            list_type: IpListType::default_for(product_type),
            format: IpListFormat::Txt,
            column: Column::Type,
            core: FormCore::new(FormState::Editing),
            view: None,
            save: None,
            written: None,
            copy_when_fetched: false,
            show_passwords: false,
            copy_first: false,
            then_run: None,
            batch: None,
            types: IpListType::for_kind(product_type),
        }
    }

    /// The fetched list, once it is shown.
    pub fn list(&self) -> Option<&IpList> {
        match self.core.state.answer() {
            Some(Response::IpList(list)) => Some(list),
            _ => None,
        }
    }

    /// ↑/↓ in the chooser: the previous or next value of the focused column.
    pub fn cycle(&mut self, delta: isize) {
        fn step<T: Clone + PartialEq>(all: &[T], current: &T, delta: isize) -> T {
            let i = all.iter().position(|x| x == current).unwrap_or(0) as isize;
            let n = all.len() as isize;
            all[(i + delta).rem_euclid(n) as usize].clone()
        }
        match self.column {
            Column::Type => self.list_type = step(self.types, &self.list_type, delta),
            Column::Format => self.format = step(IpListFormat::ALL, &self.format, delta),
        }
    }

    pub fn switch_column(&mut self) {
        self.column = match self.column {
            Column::Type => Column::Format,
            Column::Format => Column::Type,
        };
    }

    /// Enter in the chooser: the GET to send.
    pub fn request(&self) -> Option<Request> {
        self.core
            .state
            .is_editable()
            .then(|| Request::ip_list(self.service_id, self.list_type.clone(), self.format.clone()))
    }

    /// The list arrived (the view indexes its lines), or why not.
    pub fn finish(&mut self, result: Result<Response, ApiError>) {
        match result {
            Ok(Response::IpList(list)) => {
                self.view = Some(ListView::new(&list));
                self.core.state = FormState::Done(Response::IpList(list));
            }
            Ok(_) => {
                self.core.state =
                    FormState::Failed("The server's answer was not an IP list.".into())
            }
            Err(e) => self.core.finish(Err(e)),
        }
    }

    /// The file `w` proposes: `iplist-<service>-<type>.<format>` in the current folder.
    pub fn default_path(&self) -> String {
        format!(
            "iplist-{}-{}.{}",
            self.service_id, self.list_type, self.format
        )
    }
}

impl FormLogic for IpListForm {
    /// The list, once fetched, is viewed (or its file named); before, choosing.
    fn step(&self) -> &'static FormStep {
        match (&self.core.state, &self.save) {
            (FormState::Done(_), Some(_)) => &SAVE,
            (FormState::Done(_), None) => &VIEW,
            _ => &CHOOSE,
        }
    }

    /// Viewing the list (or naming its file) is not an outcome Enter closes.
    fn ends_at(&self, _state: &FormState) -> bool {
        false
    }

    fn is_typing(&self) -> bool {
        self.at(&SAVE) && self.save.as_ref().is_some_and(|s| !s.writing)
    }

    fn typing_field(&mut self) -> Option<&mut TextField> {
        if !self.is_typing() {
            return None;
        }
        self.save.as_mut().map(|s| &mut s.path)
    }

    fn edited(&mut self) -> bool {
        if let Some(save) = &mut self.save {
            save.error = None;
        }
        true
    }

    fn action(&mut self, cx: &mut FormCx<'_>, action: Action) -> Next {
        if self.at(&CHOOSE) {
            match action {
                Action::Up => self.cycle(-1),
                Action::Down => self.cycle(1),
                Action::NextField | Action::PrevField => self.switch_column(),
                Action::Submit => return self.request().map_or(Next::Stay, Next::Send),
                _ => {}
            }
        } else if self.at(&VIEW) {
            self.view_action(cx, action);
        } else if self.at(&SAVE) && action == Action::Submit {
            self.write(cx);
        }
        Next::Stay
    }

    /// Esc: the prompt closes back to the list; anything else closes the form.
    fn back(&mut self) -> Flow {
        if self.save.take().is_some() {
            return Flow::Stay;
        }
        Flow::Close
    }

    /// A list nobody waits for any more (the form was closed) is dropped; one the palette
    /// asked to copy is copied when it is shown.
    fn answered(&mut self, cx: &mut FormCx<'_>, answer: Answered<'_>) -> Flow {
        let on_screen = answer.on_screen;
        self.finish(answer.result);
        if on_screen
            && let Some(list) = self.list().map(|l| l.raw.clone())
            && let Some(mut run) = self.then_run.take()
        {
            run.iplist = Some(list);
            cx.intend(Intent::HandOver(run));
            return Flow::Close;
        }
        if self.batch.is_some() {
            return self.next_of_batch(cx);
        }
        if self.copy_first && on_screen && self.list().is_some() {
            self.copy_first = false;
            return self.copy_first_entry(cx);
        }
        if self.copy_when_fetched && on_screen && self.list().is_some() {
            self.copy_when_fetched = false;
            self.view_action(cx, Action::Copy);
        }
        Flow::Stay
    }

    /// The chooser, the list (only the lines on screen) or the file-name prompt.
    fn render(&self, frame: &mut Frame, area: Rect, data: &FormData<'_>, theme: &Theme) {
        look::render(self, frame, area, data, theme);
    }

    fn is_writing(&self) -> bool {
        self.save.as_ref().is_some_and(|s| s.writing)
    }

    /// The file `w` asked for: written (the view names it, the command log lists the
    /// command that writes it), or why not (the prompt stays, to change the name).
    fn file_answer(&mut self, cx: &mut FormCx<'_>, answer: &FileAnswer) {
        match answer {
            FileAnswer::Exists { path, free } => self.exists(path, free.as_deref()),
            FileAnswer::Written {
                result: Ok(full), ..
            } => self.written(cx, full),
            FileAnswer::Written { result: Err(e), .. } => {
                if let Some(save) = &mut self.save {
                    save.writing = false;
                    save.error = Some(e.clone());
                }
            }
        }
    }
}

impl IpListForm {
    /// The keys are `step`'s now (not busy fetching).
    fn at(&self, step: &'static FormStep) -> bool {
        !self.core.state.is_submitting() && std::ptr::eq(self.step(), step)
    }
}

/// `i`: the IP-list chooser for the service the key is on.
pub(in crate::app) fn chooser(on: &ServiceOn) -> IpListForm {
    IpListForm::new(on.id, &on.kind.clone().unwrap_or_default())
}

impl IpListForm {
    /// A list of the batch is in (or failed): kept under its ID, then the next fetched, or
    /// (the last) the whole copied and the form closed.
    fn next_of_batch(&mut self, cx: &mut FormCx<'_>) -> Flow {
        let id = self.service_id;
        let raw = self.list().map(|l| l.raw.clone());
        let Some(batch) = self.batch.as_mut() else {
            return Flow::Stay;
        };
        match raw {
            Some(raw) => {
                batch.text.push_str(&format!("# service {id}\n{raw}"));
                if !batch.text.ends_with('\n') {
                    batch.text.push('\n');
                }
                batch.copied.push(id);
            }
            None => batch.failed.push(id),
        }
        if let Some((next, list_type)) = batch.rest.pop_front() {
            self.service_id = next;
            self.list_type = list_type;
            self.view = None;
            let request = Request::ip_list(next, self.list_type.clone(), self.format.clone());
            self.core.send(cx, request);
            return Flow::Stay;
        }
        let batch = self.batch.take().unwrap_or_default();
        let ids = |ids: &[u64]| {
            ids.iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !batch.failed.is_empty() {
            let line = format!(
                "IP lists of services {} could not be read",
                ids(&batch.failed)
            );
            cx.status().notify(NoticeKind::Error, line);
        }
        if batch.copied.is_empty() {
            return Flow::Close;
        }
        let what = format!(
            "IP lists of services {} (each headed by its ID)",
            ids(&batch.copied)
        );
        let line = format!("# {what}");
        cx.expect_copy(what.clone(), line);
        cx.send(Command::Copy {
            what,
            text: batch.text,
        });
        Flow::Close
    }

    /// Fetches the list in the chosen type and format at once, as Enter in the chooser
    /// would (opened by another key than `i`, which says what becomes of the list).
    pub(in crate::app) fn fetch(&mut self, cx: &mut FormCx<'_>) {
        if let Some(request) = self.request() {
            self.core.send(cx, request);
        }
    }
}

#[cfg(test)]
mod tests;
