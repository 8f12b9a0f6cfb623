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

use super::{Flow, Form, FormCore, FormState, TextField};
use crate::api::{ApiError, IpList, IpListFormat, IpListType, ProductType, Request, Response};
use crate::app::keymap::Action;
use crate::app::popup::{Popup, PopupKind};
use crate::app::{App, Command};
use std::path::PathBuf;

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
}

/// Where a fetched list's lines start, and where the view is scrolled to (the list itself
/// is the form's answer, kept once).
#[derive(Clone, Debug, PartialEq)]
pub struct ListView {
    /// Byte offset of each line's start in the list's `raw`.
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
    pub fn new(list: &IpList) -> Self {
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
        Self { starts, top: 0 }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Line `i` of `list` as served, without its line break.
    pub fn line<'a>(&self, list: &'a IpList, i: usize) -> Option<&'a str> {
        let start = *self.starts.get(i)?;
        let end = self.starts.get(i + 1).copied().unwrap_or(list.raw.len());
        let line = list.raw.get(start..end)?;
        Some(line.trim_end_matches(['\n', '\r']))
    }

    /// A movement key, `page` lines to a page.
    pub fn key(&mut self, action: Action, page: usize) {
        match action {
            Action::Up => self.scroll(-1, page),
            Action::Down => self.scroll(1, page),
            Action::PageUp => self.scroll(-(page as isize), page),
            Action::PageDown => self.scroll(page as isize, page),
            Action::Top => self.top = 0,
            Action::Bottom => self.scroll(isize::MAX, page),
            _ => {}
        }
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
            core: FormCore::new(FormState::Editing),
            view: None,
            save: None,
            written: None,
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

impl Form for IpListForm {
    fn core(&self) -> &FormCore {
        &self.core
    }

    fn core_mut(&mut self) -> &mut FormCore {
        &mut self.core
    }

    fn step_kind(&self) -> PopupKind {
        PopupKind::IpListChooser
    }

    /// Viewing the list (or naming its file) is not an outcome Enter closes.
    fn finished(&self) -> bool {
        false
    }

    fn kind(&self) -> PopupKind {
        match (&self.core.state, &self.save) {
            (FormState::Done(_), Some(_)) => PopupKind::IpListSave,
            (FormState::Done(_), None) => PopupKind::IpListView,
            (FormState::Submitting, _) => PopupKind::FormBusy,
            _ => PopupKind::IpListChooser,
        }
    }

    fn is_typing(&self) -> bool {
        matches!(self.kind(), PopupKind::IpListSave)
            && self.save.as_ref().is_some_and(|s| !s.writing)
    }

    fn typing_field(&mut self) -> Option<&mut TextField> {
        if !self.is_typing() {
            return None;
        }
        self.save.as_mut().map(|s| &mut s.path)
    }

    fn edited(&mut self) {
        if let Some(save) = &mut self.save {
            save.error = None;
        }
    }

    fn action(&mut self, app: &mut App, action: Action, out: &mut Vec<Command>) -> Flow {
        match self.kind() {
            PopupKind::IpListChooser => match action {
                Action::Up => self.cycle(-1),
                Action::Down => self.cycle(1),
                Action::NextField | Action::PrevField => self.switch_column(),
                Action::Submit => {
                    if let Some(request) = self.request() {
                        app.send_form(&mut self.core, request, out);
                    }
                }
                _ => {}
            },
            PopupKind::IpListView => self.view_action(app.iplist_page(), action, out),
            PopupKind::IpListSave if action == Action::Submit => self.write(out),
            _ => {}
        }
        Flow::Stay
    }

    /// Esc: the prompt closes back to the list; anything else closes the form.
    fn back(&mut self) -> Flow {
        if self.save.take().is_some() {
            return Flow::Stay;
        }
        Flow::Close
    }

    /// A list nobody waits for any more (the form was closed) is dropped.
    fn answered(
        &mut self,
        _app: &mut App,
        _request: &Request,
        result: Result<Response, ApiError>,
        _on_screen: bool,
        _out: &mut Vec<Command>,
    ) {
        self.finish(result);
    }
}

impl IpListForm {
    /// A key in the list view: scrolling, copying, `w`.
    fn view_action(&mut self, page: usize, action: Action, out: &mut Vec<Command>) {
        let id = self.service_id;
        let Some(list) = self.list() else { return };
        match action {
            Action::Copy | Action::CopyUrls => {
                let count = list.count;
                let n = format!(
                    "{} {}",
                    crate::text::count(count as u64),
                    if count == 1 { "entry" } else { "entries" }
                );
                let (what, text) = if action == Action::Copy {
                    (
                        format!("IP list of service {id} ({n}, as served)"),
                        list.raw.clone(),
                    )
                } else {
                    (
                        format!("IP list of service {id} ({n}, as URLs)"),
                        list.to_urls(),
                    )
                };
                out.push(Command::Copy { what, text });
            }
            Action::WriteFile => {
                self.save = Some(SavePrompt {
                    path: TextField::new(self.default_path()).with_max(PATH_MAX),
                    error: None,
                    writing: false,
                });
            }
            _ => {
                if let Some(view) = &mut self.view {
                    view.key(action, page);
                }
            }
        }
    }

    /// Enter in the file-name prompt: the write, unless one is on its way.
    fn write(&mut self, out: &mut Vec<Command>) {
        let contents = self.list().map(|l| l.raw.clone());
        if let (Some(save), Some(contents)) = (&mut self.save, contents)
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
            .push(Popup::form_of(IpListForm::new(id, &product_type)));
    }

    /// Lines an IP-list view shows at the current screen size (for paging).
    pub(in crate::app) fn iplist_page(&self) -> usize {
        usize::from(self.geometry().iplist_lines).max(1)
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
        let l = list("1.2.3.4:80:u:p\r\n5.6.7.8:80:u:p\n");
        let v = ListView::new(&l);
        assert_eq!(v.line_count(), 2);
        assert_eq!(v.line(&l, 0), Some("1.2.3.4:80:u:p"));
        assert_eq!(v.line(&l, 1), Some("5.6.7.8:80:u:p"));
        assert_eq!(v.line(&l, 2), None);
        assert_eq!(ListView::new(&list("")).line_count(), 0);
        assert_eq!(ListView::new(&list("a")).line_count(), 1);
        assert_eq!(ListView::new(&list("a\n\nb")).line_count(), 3);
    }

    #[test]
    fn scrolling_stops_at_the_last_page() {
        let raw: String = (0..100).map(|i| format!("10.0.0.{i}:80\n")).collect();
        let mut v = ListView::new(&list(&raw));
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
        assert!(f.request().is_some(), "Enter fetches");
        f.core.state = FormState::Submitting;
        assert_eq!(f.request(), None, "not twice");
        f.finish(Ok(Response::IpList(list("1.2.3.4:80\n"))));
        assert_eq!(f.kind(), PopupKind::IpListView);
        assert_eq!(f.list().map(entries_label).as_deref(), Some("1 entry"));
    }
}
