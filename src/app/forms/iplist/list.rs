//! What the list view's keys do (scrolling, `y`/`Y` copying, `v`, `w` and its file) and
//! what becomes of the file `w` writes (never replacing one: an existing name is refused
//! and a free one offered), and `y` on Services (the first proxy, copied once the list is
//! in).

use super::{IpListForm, PATH_MAX, SavePrompt};
use crate::api::IpList;
use crate::app::Command;
use crate::app::forms::{Flow, FormCx, TextField};
use crate::app::keymap::Action;
use crate::app::status::NoticeKind;
use std::path::{Path, PathBuf};

impl IpListForm {
    /// The file to write exists: nothing was written; the prompt offers the free name.
    pub(super) fn exists(&mut self, path: &Path, free: Option<&Path>) {
        let Some(save) = &mut self.save else { return };
        save.writing = false;
        save.error = Some(match free {
            Some(free) => {
                let name = free
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                save.path = TextField::prefilled(free.display().to_string());
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

    /// The list was written to `full`.
    pub(super) fn written(&mut self, cx: &mut FormCx<'_>, full: &Path) {
        let line = format!(
            "IP list of service {} written to {}",
            self.service_id,
            full.display()
        );
        self.save = None;
        self.written = Some(full.to_path_buf());
        cx.status().notify(NoticeKind::Done, line);
        let command = crate::app::cmdline::iplist(
            &cx.settings().cli_args,
            self.service_id,
            &self.list_type,
            &self.format,
            Some(full),
        );
        cx.log_command(command);
    }

    /// `y` on Services, the list in: its first entry to the clipboard as
    /// `host:port:user:pass`, said with what it is; an empty list stays open, saying so.
    pub(super) fn copy_first_entry(&mut self, cx: &mut FormCx<'_>) -> Flow {
        let id = self.service_id;
        let Some(entry) = self.list().and_then(IpList::first) else {
            cx.status().notify(
                NoticeKind::Info,
                format!("Service {id}: its IP list has no proxy to copy"),
            );
            return Flow::Stay;
        };
        let what = format!(
            "First proxy of service {id} ({}, {})",
            if entry.password.is_some() {
                "host:port:user:pass"
            } else {
                "host:port"
            },
            self.list_type
        );
        let line = crate::app::cmdline::iplist(
            &cx.settings().cli_args,
            id,
            &self.list_type,
            &self.format,
            None,
        ) + "   # its first line";
        cx.expect_copy(what.clone(), line);
        cx.send(Command::Copy {
            what,
            text: entry.line(),
        });
        Flow::Close
    }

    /// A key in the list view: scrolling, copying (its command line waits in the command
    /// log for the clipboard's answer), `w`.
    pub(super) fn view_action(&mut self, cx: &mut FormCx<'_>, action: Action) {
        let id = self.service_id;
        let page = cx.iplist_page();
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
                let mut line = crate::app::cmdline::iplist(
                    &cx.settings().cli_args,
                    id,
                    &self.list_type,
                    &self.format,
                    None,
                );
                if action == Action::CopyUrls {
                    line.push_str("   # copied as URLs: the command prints the list as served");
                }
                cx.expect_copy(what.clone(), line);
                cx.send(Command::Copy { what, text });
            }
            Action::TogglePassword => self.show_passwords = !self.show_passwords,
            Action::WriteFile => {
                // A second `w` offers the name after the file just written (which is
                // never replaced), not the name that now exists.
                let offered = self
                    .written
                    .as_deref()
                    .map_or_else(|| self.default_path(), crate::files::next_name);
                self.save = Some(SavePrompt {
                    path: TextField::new(offered).with_max(PATH_MAX),
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
    pub(super) fn write(&mut self, cx: &mut FormCx<'_>) {
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
            cx.send(Command::WriteFile {
                path: PathBuf::from(path),
                contents,
            });
        }
    }
}
