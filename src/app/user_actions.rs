//! Your own actions on screen (`config::actions`): a key of yours on the tabs it names,
//! listed in `?`, the footer when there is room, and the palette. The key fills the
//! command's placeholders from the highlighted row and runs it:
//!
//! - in the background (the default): off the UI task, its output (the last lines, at most
//!   [`crate::config::actions::OUTPUT_MAX`]) and exit status to `m` and the status
//!   line; it is stopped after [`crate::config::actions::TIME_LIMIT`];
//! - in the foreground: the run loop gives the terminal to the command and takes it back
//!   when it ends, as k9s does for `ssh` or `less`.
//!
//! `confirm = true` asks first (the command line shown whole). `{iplist_file}` fetches the
//! service's IP list first (as `i` does, the person waiting) and the command gets the path
//! of a fresh 0600 file holding it, removed when the command ends. A read-only profile
//! runs the actions (they are local) unless one says `writes = true`. A key a tab already
//! uses leaves the action out on that tab, said at start.

use super::keymap::{self, Accounts, Context};
use super::{Cx, Tab};
use crate::config::actions::{self, UserAction};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::HashMap;

pub use crate::config::actions::{Ended, Run, shown_command};

/// Tab `tab`'s place in [`actions::TABS`] (the tabs' own order, `Tab::ALL`).
fn tab_index(tab: Tab) -> usize {
    Tab::ALL.iter().position(|t| *t == tab).unwrap_or(0)
}

/// Whether `key` is the action's key.
fn is_key(a: &UserAction, key: &KeyEvent) -> bool {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char(c) if a.key.ctrl => ctrl && c.eq_ignore_ascii_case(&a.key.ch),
        KeyCode::Char(c) => !ctrl && c == a.key.ch,
        _ => false,
    }
}

/// The actions that can be used, and what is wrong with the others: a key a tab's own
/// key map already uses leaves the action out of that tab (and out altogether when no
/// tab is left).
pub fn check_keys(all: Vec<UserAction>) -> (Vec<UserAction>, Vec<String>) {
    let mut said = Vec::new();
    let kept = all
        .into_iter()
        .filter_map(|mut a| {
            let key = KeyEvent::new(
                KeyCode::Char(a.key.ch),
                if a.key.ctrl {
                    KeyModifiers::CONTROL
                } else {
                    KeyModifiers::NONE
                },
            );
            a.tabs.retain(|&t| {
                let tab = Tab::ALL[t];
                let ctx = Context {
                    tab,
                    popup: None,
                    editing_filter: false,
                    typing: false,
                    read_only: false,
                    switchable: true,
                    accounts: Accounts::Alone,
                };
                match keymap::action_for(&ctx, &key) {
                    Some(taken) => {
                        // The built-in key's own words: "Bind an IP", "Command log: …".
                        let what = keymap::effective(&ctx)
                            .into_iter()
                            .find(|b| b.action == taken)
                            .map_or_else(|| format!("{taken:?}"), |b| b.help.to_owned());
                        let what = what.split(':').next().unwrap_or_default().to_owned();
                        said.push(format!(
                            "action at {}: key {} is taken on {} ({what}); left out there",
                            a.at,
                            a.key,
                            tab.title()
                        ));
                        false
                    }
                    None => true,
                }
            });
            (!a.tabs.is_empty()).then_some(a)
        })
        .collect();
    (kept, said)
}

/// The user action of `key` on the tab shown (none over a popup or while typing).
pub fn action_for(list: &[UserAction], ctx: &Context, key: &KeyEvent) -> Option<usize> {
    if ctx.popup.is_some() || ctx.typing || ctx.editing_filter {
        return None;
    }
    let tab = tab_index(ctx.tab);
    list.iter()
        .position(|a| a.tabs.contains(&tab) && is_key(a, key))
}

/// The actions of the tab shown: for `?`, the footer and the palette.
pub fn of_tab(list: &[UserAction], tab: Tab) -> impl Iterator<Item = (usize, &UserAction)> {
    let t = tab_index(tab);
    list.iter()
        .enumerate()
        .filter(move |(_, a)| a.tabs.contains(&t))
}

/// The action `i` on the highlighted row (with marks and `per_row`: on each marked row):
/// refused (read-only, a value that is not known or holds a control character),
/// confirmed, its list fetched, or run.
pub(super) fn start(cx: &mut Cx<'_>, i: usize) {
    let Some(a) = cx.shell.settings.actions.get(i).cloned() else {
        return;
    };
    if a.writes && cx.shell.settings.read_only {
        return cx.shell.notify(format!(
            "{}: not run: it says it writes, and this profile is read-only",
            a.description
        ));
    }
    let marked = cx.tabs.pane(cx.shell.tab).table().marked_ids();
    let rows: Vec<Option<u64>> = if a.per_row && !marked.is_empty() {
        marked.iter().copied().map(Some).collect()
    } else {
        vec![None]
    };
    // `{service_ids}`: the marked services, else the highlighted one.
    let selected = cx.tabs.services.table.selected_id();
    let ids: Vec<String> = if cx.shell.tab == Tab::Services && !marked.is_empty() {
        marked.iter().map(u64::to_string).collect()
    } else {
        selected.map(|id| id.to_string()).into_iter().collect()
    };
    let mut runs = Vec::new();
    for row in rows {
        match one_run(cx, &a, row, &ids) {
            Ok(run) => runs.push(run),
            Err(why) => return cx.shell.notify(why),
        }
    }
    for (run, service) in runs {
        if a.confirm {
            cx.shell.popups.push(super::Popup::ConfirmRun(Box::new(
                super::forms::confirm_run::ConfirmRun { run, service },
            )));
        } else {
            super::forms::iplist_files::run_with_list(cx, run, service);
        }
    }
}

/// The action `a` on `row` (the highlighted one when `None`), `ids` for `{service_ids}`:
/// its command filled, and the service whose IP list it takes.
fn one_run(
    cx: &Cx<'_>,
    a: &UserAction,
    row: Option<u64>,
    ids: &[String],
) -> Result<(Run, Option<u64>), String> {
    let values = row_values(cx, a, row);
    let joined = ids.join(" ");
    let value = |name: &str| -> Option<String> {
        match name {
            // Filled by the runner with the file it writes.
            "iplist_file" => Some("{iplist_file}".to_owned()),
            "service_ids" if !ids.is_empty() => Some(joined.clone()),
            _ => values.get(name).cloned(),
        }
    };
    let mut argv = Vec::new();
    for arg in &a.command {
        // Only `{service_ids}`: one argument each, as a shell's "$@".
        if arg == "{service_ids}" && !ids.is_empty() {
            argv.extend(ids.iter().cloned());
            continue;
        }
        argv.push(
            actions::fill(arg, &value)
                .map_err(|why| format!("{}: not run: {why}", a.description))?,
        );
    }
    let run = Run {
        name: a.description.clone(),
        argv,
        background: a.background,
        iplist: None,
    };
    let service = a
        .uses("iplist_file")
        .then(|| row.or(cx.tabs.services.table.selected_id()))
        .flatten();
    Ok((run, service))
}

/// How one of your actions ended: the status line says it, and `m` keeps its last lines
/// of output.
pub(super) fn on_done(shell: &mut super::Shell, name: &str, result: Result<Ended, String>) {
    use super::status::NoticeKind;
    let name = crate::text::sanitize(name).into_owned();
    match result {
        Err(why) => shell
            .status
            .tell(NoticeKind::Error, format!("{name}: {why}")),
        Ok(ended) => {
            for line in &ended.lines {
                shell
                    .status
                    .tell(NoticeKind::Info, format!("{name} │ {line}"));
            }
            let (kind, how) = match (ended.timed_out, ended.code) {
                (true, _) => (
                    NoticeKind::Error,
                    format!(
                        "stopped after {}",
                        crate::text::span_words(crate::config::actions::TIME_LIMIT.as_secs())
                    ),
                ),
                (false, Some(0)) => (NoticeKind::Done, "done".to_owned()),
                (false, Some(code)) => (NoticeKind::Error, format!("exit {code}")),
                (false, None) => (NoticeKind::Error, "ended by a signal".to_owned()),
            };
            let last = ended
                .lines
                .last()
                .map(|l| format!(": {l}"))
                .unwrap_or_default();
            shell.status.tell(kind, format!("{name}: {how}{last}"));
        }
    }
}

/// The placeholders' values from row `row` of the tab shown (the highlighted one when
/// `None`).
fn row_values(cx: &Cx<'_>, a: &UserAction, row: Option<u64>) -> HashMap<&'static str, String> {
    let mut v = HashMap::new();
    v.insert("profile", cx.shell.settings.profile.clone());
    let store = &cx.account.store;
    match cx.shell.tab {
        Tab::Services => {
            let Some(id) = row.or(cx.tabs.services.table.selected_id()) else {
                return v;
            };
            v.insert("service_id", id.to_string());
            if let Some(s) = store
                .services()
                .and_then(|l| l.iter().find(|s| s.service_id == id))
            {
                v.insert("product_name", s.product_name.clone());
                v.insert("status", s.status.as_str().to_owned());
                if let Some(d) = s.nextduedate {
                    v.insert("due", d.to_string());
                }
            }
            if let Some(d) = store.service(id) {
                if let Some(ip) = d.bound_ip.as_ref().filter(|ip| !ip.is_empty()) {
                    v.insert("bound_ip", ip.clone());
                }
                if a.secrets {
                    v.insert("username", d.username.clone());
                    v.insert("password", d.password.expose().to_owned());
                }
            }
        }
        Tab::Products => {
            let view = cx.tabs.products.view(store);
            let listed = view.list().value().into_iter().flatten();
            let chosen = match row {
                Some(id) => listed.into_iter().find(|p| p.product_id == id),
                None => view.selected(),
            };
            if let Some(p) = chosen {
                v.insert("product_id", p.product_id.to_string());
                v.insert("product_name", p.product_name.clone());
            }
        }
        Tab::Billing => {
            let view = cx.tabs.billing.view(store);
            let listed = view.invoices().value().into_iter().flatten();
            let chosen = match row {
                Some(id) => listed.into_iter().find(|i| i.id == id),
                None => view.selected(),
            };
            if let Some(i) = chosen {
                v.insert("invoice_id", i.id.to_string());
                v.insert("status", i.status.as_str().to_owned());
            }
        }
        Tab::Alerts => {
            let chosen = match row {
                Some(id) => cx.tabs.alerts.by_row_id(id),
                None => cx.tabs.alerts.selected(),
            };
            if let Some(al) = chosen {
                v.insert("alert_id", crate::alerts::marks::alert_id(&al.key));
            }
        }
        Tab::Network | Tab::Usage | Tab::Clients => {}
    }
    v
}
