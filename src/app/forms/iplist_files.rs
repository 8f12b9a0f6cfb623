//! What becomes of an IP list taken out of its form, on the app's side: the clipboard's
//! answer to a copy, and the keys that open the IP-list form to do something with the
//! list once it is in (`y` on Services copies its first proxy, one of your actions runs
//! with it). What becomes of the file `w` writes is the form's own (`iplist/list.rs`).

use super::open::{fetch_iplist, service_on};
use crate::app::Cx;
use crate::app::status::NoticeKind;
use crate::clipboard::{ClipboardError, Copied};

/// The answer to [`Command::Copy`](crate::app::Command::Copy).
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
    let on = super::ServiceOn {
        id,
        status: None,
        kind: cx.tabs.service_type(id, cx.account),
    };
    fetch_iplist(cx, &on, |form| form.then_run = Some(Box::new(run)));
}

/// `y` on Services: the selected service's IP list (its kind's usual type, as text) is
/// fetched as the person asked, and its first proxy copied when it comes; the form shows
/// meanwhile, so the wait and a failure are seen.
pub(in crate::app) fn copy_first(cx: &mut Cx<'_>) {
    let marked = cx.tabs.services.table.marked_ids();
    if !marked.is_empty() && cx.shell.popups.is_empty() {
        return copy_marked(cx, &marked);
    }
    let Some(on) = service_on(cx) else {
        return;
    };
    fetch_iplist(cx, &on, |form| form.copy_first = true);
}

/// `y` on Services with marks: every marked service's IP list, one after the other, each
/// headed by its ID, copied once the last is in (see [`super::iplist::Batch`]).
fn copy_marked(cx: &mut Cx<'_>, marked: &[u64]) {
    let kind = |cx: &Cx<'_>, id: u64| cx.tabs.service_type(id, cx.account);
    let mut rest: std::collections::VecDeque<_> = (marked.iter())
        .map(|&id| {
            let kind = kind(cx, id).unwrap_or_default();
            (id, crate::api::IpListType::default_for(&kind))
        })
        .collect();
    let Some((first, _)) = rest.pop_front() else {
        return;
    };
    let on = super::ServiceOn {
        id: first,
        status: None,
        kind: kind(cx, first),
    };
    fetch_iplist(cx, &on, |form| {
        form.batch = Some(Box::new(super::iplist::Batch {
            rest,
            ..Default::default()
        }));
    });
}
