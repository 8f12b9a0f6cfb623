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
//! and the view draws only the lines on screen.

use super::{FormState, TextField, failure};
use crate::api::{ApiError, IpList, IpListFormat, IpListType, ProductType, Request, Response};
use crate::app::keymap::Action;
use crate::app::popup::{Popup, PopupKind};
use crate::app::status::NoticeKind;

/// The longest file path the save field takes (Linux's `PATH_MAX`).
const PATH_MAX: usize = 4096;
use crate::app::{App, Command};
use crate::clipboard::{ClipboardError, Copied};
use std::path::PathBuf;

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
    /// `Editing`: choosing; `Submitting`: fetching; `Done`: viewing; `Failed`: choosing
    /// again, with why the fetch failed.
    pub state: FormState,
    pub request: Option<Request>,
    pub view: Option<ListView>,
    pub save: Option<SavePrompt>,
    /// The last file written from this view.
    pub written: Option<PathBuf>,
}

/// A fetched list and where the view is scrolled to.
#[derive(Clone, Debug, PartialEq)]
pub struct ListView {
    pub list: IpList,
    /// Byte offset of each line's start in `list.raw`.
    starts: Vec<usize>,
    /// The first line on screen.
    pub top: usize,
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

impl ListView {
    pub fn new(list: IpList) -> Self {
        let raw = &list.raw;
        let mut starts = vec![0];
        starts.extend(raw.match_indices('\n').map(|(i, _)| i + 1));
        // A final line break does not start another line.
        if starts.len() > 1 && starts.last() == Some(&raw.len()) {
            starts.pop();
        }
        if raw.is_empty() {
            starts.clear();
        }
        Self {
            list,
            starts,
            top: 0,
        }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Line `i` as served, without its line break.
    pub fn line(&self, i: usize) -> Option<&str> {
        let start = *self.starts.get(i)?;
        let end = self
            .starts
            .get(i + 1)
            .copied()
            .unwrap_or(self.list.raw.len());
        let line = &self.list.raw[start..end];
        Some(line.trim_end_matches(['\n', '\r']))
    }

    /// Scrolls by `delta` lines, keeping a full page on screen where there is one.
    pub fn scroll(&mut self, delta: isize, page: usize) {
        let last = self.line_count().saturating_sub(page.max(1));
        self.top = self.top.saturating_add_signed(delta).min(last);
    }
}

impl IpListForm {
    pub fn new(service_id: u64, product_type: &ProductType) -> Self {
        Self {
            service_id,
            list_type: IpListType::default_for(product_type),
            format: IpListFormat::Txt,
            column: Column::Type,
            state: FormState::Editing,
            request: None,
            view: None,
            save: None,
            written: None,
        }
    }

    pub fn kind(&self) -> PopupKind {
        match (&self.state, &self.save) {
            (FormState::Done(_), Some(_)) => PopupKind::IpListSave,
            (FormState::Done(_), None) => PopupKind::IpListView,
            (FormState::Submitting, _) => PopupKind::FormBusy,
            _ => PopupKind::IpListChooser,
        }
    }

    pub fn is_typing(&self) -> bool {
        matches!(self.kind(), PopupKind::IpListSave)
            && self.save.as_ref().is_some_and(|s| !s.writing)
    }

    pub fn focused_mut(&mut self) -> Option<&mut TextField> {
        if !self.is_typing() {
            return None;
        }
        self.save.as_mut().map(|s| &mut s.path)
    }

    pub fn edited(&mut self) {
        if let Some(save) = &mut self.save {
            save.error = None;
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
            Column::Type => self.list_type = step(IpListType::ALL, &self.list_type, delta),
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
    pub fn submit(&mut self) -> Option<Request> {
        if !self.state.is_editable() {
            return None;
        }
        let request =
            Request::ip_list(self.service_id, self.list_type.clone(), self.format.clone());
        self.request = Some(request.clone());
        self.state = FormState::Submitting;
        Some(request)
    }

    pub fn awaiting(&self) -> Option<&Request> {
        self.request.as_ref().filter(|_| self.state.is_submitting())
    }

    pub fn finish(&mut self, result: Result<Response, ApiError>) {
        self.state = match result {
            Ok(Response::IpList(list)) => {
                let message = entries_label(&list);
                self.view = Some(ListView::new(list));
                FormState::Done(message)
            }
            Ok(_) => FormState::Failed("The server's answer was not an IP list.".into()),
            Err(e) => FormState::Failed(failure(&e)),
        };
    }

    /// The file `w` proposes: `iplist-<service>-<type>.<format>` in the current folder.
    pub fn default_path(&self) -> String {
        format!(
            "iplist-{}-{}.{}",
            self.service_id, self.list_type, self.format
        )
    }

    /// Esc: the prompt closes back to the list; anything else closes the form.
    pub fn back(&mut self) -> bool {
        if self.save.take().is_some() {
            return false;
        }
        true
    }
}

/// `25 entries` (and how many lines could not be read, if any).
pub fn entries_label(list: &IpList) -> String {
    let n = list.count;
    let mut label = format!(
        "{} {}",
        crate::text::count(n as u64),
        if n == 1 { "entry" } else { "entries" }
    );
    if list.skipped > 0 {
        label.push_str(&format!(
            " ({} unreadable)",
            crate::text::count(list.skipped as u64)
        ));
    }
    label
}

impl App {
    /// `i`: the IP-list chooser for the selected service.
    pub(in crate::app) fn open_iplist(&mut self) {
        let Some(id) = self.target_service() else {
            return;
        };
        let product_type = self.service_type(id).unwrap_or_default();
        self.popups
            .push(Popup::IpList(Box::new(IpListForm::new(id, &product_type))));
    }

    pub(in crate::app) fn iplist_action(&mut self, action: Action, out: &mut Vec<Command>) {
        let page = self.iplist_page();
        let Some(Popup::IpList(form)) = self.popups.last_mut() else {
            return;
        };
        match form.kind() {
            PopupKind::IpListChooser => match action {
                Action::Up => form.cycle(-1),
                Action::Down => form.cycle(1),
                Action::NextField | Action::PrevField => form.switch_column(),
                Action::Submit => {
                    if let Some(request) = form.submit() {
                        self.fetch(request, out);
                    }
                }
                _ => {}
            },
            PopupKind::IpListView => {
                let id = form.service_id;
                let Some(view) = &mut form.view else { return };
                match action {
                    Action::Up => view.scroll(-1, page),
                    Action::Down => view.scroll(1, page),
                    Action::PageUp => view.scroll(-(page as isize), page),
                    Action::PageDown => view.scroll(page as isize, page),
                    Action::Top => view.top = 0,
                    Action::Bottom => view.scroll(isize::MAX, page),
                    Action::Copy | Action::CopyUrls => {
                        let count = view.list.count;
                        let n = format!(
                            "{} {}",
                            crate::text::count(count as u64),
                            if count == 1 { "entry" } else { "entries" }
                        );
                        let (what, text) = if action == Action::Copy {
                            (
                                format!("IP list of service {id} ({n}, as served)"),
                                view.list.raw.clone(),
                            )
                        } else {
                            (
                                format!("IP list of service {id} ({n}, as URLs)"),
                                view.list.to_urls(),
                            )
                        };
                        out.push(Command::Copy { what, text });
                    }
                    Action::WriteFile => {
                        form.save = Some(SavePrompt {
                            path: TextField::new(form.default_path()).with_max(PATH_MAX),
                            error: None,
                            writing: false,
                        });
                    }
                    _ => {}
                }
            }
            PopupKind::IpListSave => {
                if action != Action::Submit {
                    return;
                }
                let contents = form.view.as_ref().map(|v| v.list.raw.clone());
                if let (Some(save), Some(contents)) = (&mut form.save, contents)
                    && !save.writing
                {
                    let path = save.path.value().trim();
                    if path.is_empty() {
                        save.error = Some("Type a file name.".into());
                        return;
                    }
                    save.writing = true;
                    out.push(Command::WriteFile {
                        path: PathBuf::from(path),
                        contents,
                    });
                }
            }
            _ => {}
        }
    }

    /// Lines an IP-list view shows at the current screen size (for paging).
    fn iplist_page(&self) -> usize {
        usize::from(self.geometry().iplist_lines).max(1)
    }

    pub(in crate::app) fn on_iplist_result(
        &mut self,
        request: Request,
        result: Result<Response, ApiError>,
    ) {
        // A list nobody waits for any more (the form was closed) is dropped.
        if let Some(Popup::IpList(form)) = self.form_awaiting(&request) {
            form.finish(result);
        }
    }

    /// The answer to [`Command::Copy`].
    pub(in crate::app) fn on_copied(
        &mut self,
        what: String,
        result: Result<Copied, ClipboardError>,
    ) {
        match result {
            Ok(copied) => self
                .status
                .notify(NoticeKind::Done, format!("{what} {}", copied.verb())),
            Err(e) => self
                .status
                .notify(NoticeKind::Error, format!("{what} not copied: {e}")),
        }
    }

    /// The file to write exists: nothing was written; the prompt offers the free name.
    pub(in crate::app) fn on_file_exists(&mut self, path: PathBuf, free: Option<PathBuf>) {
        let form = self.popups.iter_mut().rev().find_map(|p| match p {
            Popup::IpList(f) if f.save.as_ref().is_some_and(|s| s.writing) => Some(f),
            _ => None,
        });
        let Some(save) = form.and_then(|f| f.save.as_mut()) else {
            self.status.notify(
                NoticeKind::Error,
                format!("{} exists: not written", path.display()),
            );
            return;
        };
        save.writing = false;
        save.error = Some(match free {
            Some(free) => {
                let name = free
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                save.path = TextField::new(free.display().to_string());
                format!(
                    "{} exists (never replaced). Enter writes {name}",
                    path.display()
                )
            }
            None => format!(
                "{} exists (never replaced); type another name",
                path.display()
            ),
        });
    }

    /// The answer to [`Command::WriteFile`].
    pub(in crate::app) fn on_written(&mut self, path: PathBuf, result: Result<PathBuf, String>) {
        let form = self.popups.iter_mut().rev().find_map(|p| match p {
            Popup::IpList(f) if f.save.as_ref().is_some_and(|s| s.writing) => Some(f),
            _ => None,
        });
        match (form, result) {
            (Some(form), Ok(full)) => {
                let line = format!(
                    "IP list of service {} written to {}",
                    form.service_id,
                    full.display()
                );
                form.save = None;
                form.written = Some(full);
                self.status.notify(NoticeKind::Done, line);
            }
            (Some(form), Err(e)) => {
                if let Some(save) = &mut form.save {
                    save.writing = false;
                    save.error = Some(e);
                }
            }
            (None, Ok(full)) => self
                .status
                .notify(NoticeKind::Done, format!("Written to {}", full.display())),
            (None, Err(e)) => self.status.notify(
                NoticeKind::Error,
                format!("{} not written: {e}", path.display()),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(raw: &str) -> IpList {
        IpList::parse(IpListType::HttpAuth, IpListFormat::Txt, raw.to_owned())
    }

    #[test]
    fn lines_are_indexed_once_and_read_by_number() {
        let v = ListView::new(list("1.2.3.4:80:u:p\r\n5.6.7.8:80:u:p\n"));
        assert_eq!(v.line_count(), 2);
        assert_eq!(v.line(0), Some("1.2.3.4:80:u:p"));
        assert_eq!(v.line(1), Some("5.6.7.8:80:u:p"));
        assert_eq!(v.line(2), None);
        assert_eq!(ListView::new(list("")).line_count(), 0);
        assert_eq!(ListView::new(list("a")).line_count(), 1);
        assert_eq!(ListView::new(list("a\n\nb")).line_count(), 3);
    }

    #[test]
    fn scrolling_stops_at_the_last_page() {
        let raw: String = (0..100).map(|i| format!("10.0.0.{i}:80\n")).collect();
        let mut v = ListView::new(list(&raw));
        v.scroll(isize::MAX, 20);
        assert_eq!(v.top, 80);
        v.scroll(-5, 20);
        assert_eq!(v.top, 75);
        v.scroll(-500, 20);
        assert_eq!(v.top, 0);
    }

    #[test]
    fn the_chooser_defaults_by_product_type_and_cycles() {
        let mut f = IpListForm::new(1003, &ProductType::Ppr);
        assert_eq!(f.list_type, IpListType::PprHttp);
        assert_eq!(
            IpListForm::new(1001, &ProductType::Fpr).list_type,
            IpListType::HttpAuth
        );
        f.cycle(1);
        assert_eq!(f.list_type, IpListType::PprSocks);
        f.cycle(1);
        assert_eq!(f.list_type, IpListType::HttpIp, "wraps around");
        f.switch_column();
        f.cycle(-1);
        assert_eq!(f.format, IpListFormat::Csv);
        assert_eq!(f.default_path(), "iplist-1003-http-ip.csv");
        let sent = f.submit().expect("Enter fetches");
        assert_eq!(f.submit(), None);
        assert_eq!(f.awaiting(), Some(&sent));
        f.finish(Ok(Response::IpList(list("1.2.3.4:80\n"))));
        assert_eq!(f.kind(), PopupKind::IpListView);
        assert_eq!(f.state, FormState::Done("1 entry".into()));
    }
}
