//! What becomes of an IP list taken out of its form: the clipboard's answer, and the file
//! `w` writes (never replacing one: an existing name is refused and a free one offered),
//! and `y` on Services (the first proxy of the service's list).

use super::TextField;
use super::iplist::IpListForm;
use crate::app::Cx;
use crate::app::status::NoticeKind;
use crate::clipboard::{ClipboardError, Copied};
use std::path::PathBuf;

/// The answer to [`Command::Copy`].
pub(in crate::app) fn on_copied(
    cx: &mut Cx<'_>,
    what: String,
    result: Result<Copied, ClipboardError>,
) {
    cx.log_copied(&what, result.is_ok());
    match result {
        Ok(copied) => cx
            .shell
            .status
            .notify(NoticeKind::Done, format!("{what} {}", copied.verb())),
        Err(e) => cx
            .shell
            .status
            .notify(NoticeKind::Error, format!("{what} not copied: {e}")),
    }
}

/// The IP-list form whose file is being written.
fn writing_iplist<'a>(cx: &'a mut Cx<'_>) -> Option<&'a mut IpListForm> {
    cx.shell.popups.iter_mut().rev().find_map(|p| {
        p.form_as_mut::<IpListForm>()
            .filter(|f| f.save.as_ref().is_some_and(|s| s.writing))
    })
}

/// The file to write exists: nothing was written; the prompt offers the free name.
pub(in crate::app) fn on_file_exists(cx: &mut Cx<'_>, path: PathBuf, free: Option<PathBuf>) {
    let form = writing_iplist(cx);
    let Some(save) = form.and_then(|f| f.save.as_mut()) else {
        cx.shell.status.notify(
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

/// The answer to [`Command::WriteFile`].
pub(in crate::app) fn on_written(cx: &mut Cx<'_>, path: PathBuf, result: Result<PathBuf, String>) {
    let form = writing_iplist(cx);
    match (form, result) {
        (Some(form), Ok(full)) => {
            let line = format!(
                "IP list of service {} written to {}",
                form.service_id,
                full.display()
            );
            let (id, list_type, format) =
                (form.service_id, form.list_type.clone(), form.format.clone());
            form.save = None;
            form.written = Some(full.clone());
            cx.shell.status.notify(NoticeKind::Done, line);
            let command = crate::app::cmdline::iplist(
                &cx.shell.settings.cli_args,
                id,
                &list_type,
                &format,
                Some(&full),
            );
            cx.log_command(command);
        }
        (Some(form), Err(e)) => {
            if let Some(save) = &mut form.save {
                save.writing = false;
                save.error = Some(e);
            }
        }
        (None, Ok(full)) => cx
            .shell
            .status
            .notify(NoticeKind::Done, format!("Written to {}", full.display())),
        (None, Err(e)) => cx.shell.status.notify(
            NoticeKind::Error,
            format!("{} not written: {e}", path.display()),
        ),
    }
}

/// Runs one of your actions, after fetching the IP list of `service` when its command
/// takes `{iplist_file}` (`service` is then the highlighted one).
pub(in crate::app) fn run_with_list(
    cx: &mut Cx<'_>,
    run: crate::config::actions::Run,
    service: Option<u64>,
) {
    match service {
        Some(id) => fetch_then_run(cx, id, run),
        None => cx.hand_over(run),
    }
}

/// One of your actions whose command takes `{iplist_file}`: the service's IP list (its
/// kind's usual type, as text) is fetched as the person asked, and the action runs with it
/// when it comes; the form shows meanwhile, so the wait and a failure are seen.
pub(in crate::app) fn fetch_then_run(cx: &mut Cx<'_>, id: u64, run: crate::config::actions::Run) {
    let product_type = cx.tabs.service_type(id, cx.account).unwrap_or_default();
    let mut form = IpListForm::new(id, &product_type);
    form.then_run = Some(Box::new(run));
    if let Some(request) = form.request() {
        cx.send_form(&mut form.core, request);
    }
    cx.shell.popups.push(crate::app::Popup::form_of(form));
}

/// `y` on Services: the selected service's IP list (its kind's usual type, as text) is
/// fetched as the person asked, and its first proxy copied when it comes; the form shows
/// meanwhile, so the wait and a failure are seen.
pub(in crate::app) fn copy_first(cx: &mut Cx<'_>) {
    let Some(id) = cx.target_service() else {
        return;
    };
    let product_type = cx.tabs.service_type(id, cx.account).unwrap_or_default();
    let mut form = IpListForm::new(id, &product_type);
    form.copy_first = true;
    if let Some(request) = form.request() {
        cx.send_form(&mut form.core, request);
    }
    cx.shell.popups.push(crate::app::Popup::form_of(form));
}
