//! What Enter does in the palette (a match gone to, an action or a verb run through its
//! key's path) and the queries it remembers (`↑` on the first line).

use super::candidates::{self, Target};
use super::{Act, HISTORY_MAX, Palette, QUERY_MAX};
use crate::app::forms::TextField;
use crate::app::keymap::{Action, FormKind};
use crate::app::popups::{self, Reply};
use crate::app::shell::Outward;
use crate::app::{Cx, Tab};

impl Palette {
    /// `↑` (`by` 1) or `↓` (-1) through the queries run before: the query becomes the one
    /// recalled; `↓` past the newest empties it. False when there is nothing to recall.
    pub(super) fn recall(&mut self, by: isize) -> bool {
        let n = self.history.len();
        let next = match (self.recalled, by) {
            (None, 1) if n > 0 => Some(0),
            (None, _) => return false,
            (Some(i), 1) => Some((i + 1).min(n - 1)),
            (Some(0), _) => None,
            (Some(i), _) => Some(i - 1),
        };
        self.recalled = next;
        let query = next
            .map_or("", |i| self.history[n - 1 - i].as_str())
            .to_owned();
        self.query = TextField::new(query).with_max(QUERY_MAX);
        self.rematch();
        true
    }

    /// The query just run, remembered (once, newest last, at most [`HISTORY_MAX`]).
    pub fn remember(history: &mut Vec<String>, query: &str) {
        let query = query.trim();
        if query.is_empty() {
            return;
        }
        history.retain(|q| q != query);
        history.push(query.to_owned());
        if history.len() > HISTORY_MAX {
            history.remove(0);
        }
    }

    /// `Tab` on a service or product: its actions first, the query cleared.
    pub(super) fn retarget(&mut self, cx: &mut Cx<'_>) {
        match self.selected().map(|c| c.target.clone()) {
            Some(Target::Service(id)) => self.service = Some(id),
            Some(Target::Product(id)) => self.product = Some(id),
            _ => return,
        }
        let held = candidates::Held {
            shell: cx.shell,
            tabs: cx.tabs,
            account: cx.account,
        };
        if std::mem::take(&mut self.verb) {
            self.candidates.pop();
        }
        let mut candidates = candidates::actions(&held, self.service, self.product);
        // The built-in actions are made again for the new target; yours, the rows, tabs
        // and profiles stay.
        candidates.extend(
            std::mem::take(&mut self.candidates)
                .into_iter()
                .filter(|c| {
                    c.kind != candidates::Kind::Action || matches!(c.target, Target::UserAction(_))
                }),
        );
        let mut fresh = Palette::new(candidates, self.service, self.product);
        fresh.profiles = std::mem::take(&mut self.profiles);
        fresh.among_accounts = self.among_accounts;
        fresh.skins = std::mem::take(&mut self.skins);
        fresh.history = std::mem::take(&mut self.history);
        *self = fresh;
    }

    /// Enter: the palette closes and its highlighted match is gone to or run.
    pub(super) fn run(&mut self, cx: &mut Cx<'_>) -> Reply {
        let Some(target) = self.selected().map(|c| c.target.clone()) else {
            return Reply::Taken;
        };
        if let Target::Say(why) = target {
            cx.shell.notify(why);
            return Reply::Taken;
        }
        if let Target::UserAction(i) = target {
            // The palette is out of the stack while it answers: a confirmation the action
            // asks for goes where it was, and Close leaves it.
            crate::app::user_actions::start(cx, i);
            return Reply::Close;
        }
        Palette::remember(&mut cx.shell.palette_history, self.query.value());
        match target {
            Target::Service(id) => {
                cx.go_to(Tab::Services, id);
            }
            Target::Product(id) => {
                cx.go_to(Tab::Products, id);
            }
            Target::Invoice(id) => {
                cx.go_to(Tab::Billing, id);
            }
            Target::Tab(tab) => cx.shell.tab = tab,
            Target::Profile(name) => popups::profiles::switch_to(cx.shell, &name),
            Target::Theme(look) => {
                cx.shell.settings.look = look;
                let name = match look {
                    crate::config::Look::Skin(i) => cx
                        .shell
                        .settings
                        .skins
                        .get(i)
                        .map_or_else(String::new, |(n, _)| n.clone()),
                    look => format!("{look:?}").to_lowercase(),
                };
                cx.shell.notify(format!(
                    "Theme {name} for this run (`theme =` in the profile keeps it)"
                ));
            }
            Target::Say(_) | Target::UserAction(_) => {}
            Target::Action(act) => return run_action(cx, act),
        }
        Reply::Close
    }
}

/// An action, through its key's own path.
fn run_action(cx: &mut Cx<'_>, act: Act) -> Reply {
    // The key acts on the selected row: an action for a row no longer listed must not
    // fall on another one.
    let on = match (act.service(), act.product()) {
        (Some(id), _) => Some(("Service", cx.go_to(Tab::Services, id), id)),
        (None, Some(id)) => Some(("Product", cx.go_to(Tab::Products, id), id)),
        (None, None) => None,
    };
    if let Some((what, false, id)) = on {
        cx.shell.notify(format!(
            "{what} {id} is not listed any more: nothing was opened"
        ));
        return Reply::Close;
    }
    if let Act::InvoiceDetail(id) = act {
        if !cx.go_to(Tab::Billing, id) {
            cx.shell.notify(format!(
                "Invoice {id} is not listed: press # on Billing to open it by its number"
            ));
            return Reply::Close;
        }
        return Reply::Perform(Action::Open);
    }
    if act == Act::AllAccounts {
        cx.shell.send_out(Outward::Switch(crate::app::Switch::All));
        return Reply::Close;
    }
    let action = match act {
        Act::Quit => Action::Quit,
        Act::InvoiceDetail(_) | Act::AllAccounts => return Reply::Close,
        Act::Bind(_) => Action::OpenForm(FormKind::BindIp),
        Act::Password(_) => Action::OpenForm(FormKind::Password),
        Act::RefreshList(_) => Action::OpenForm(FormKind::Refresh),
        Act::CopyIpList(_) => {
            // `i`, whose list is copied once fetched, as `y` would.
            crate::app::forms::open_iplist_to_copy(cx);
            return Reply::Close;
        }
        Act::Order(_) => Action::OpenForm(FormKind::Order),
        Act::Probe(_) => Action::Probe,
        Act::ServiceDetail(_) | Act::ProductDetail(_) => Action::Open,
        Act::Refresh => Action::Refresh,
        Act::RefreshAll => Action::RefreshAll,
        Act::CommandLog => Action::CommandLog,
        Act::Messages => Action::Messages,
        Act::SwitchProfile => Action::SwitchProfile,
        Act::Help => Action::Help,
    };
    // Over All, the screen's actions are the All view's (`r` there refreshes every
    // account): the desk does them, not the account the palette was opened on.
    let whole_screen = act.service().is_none() && act.product().is_none();
    if whole_screen && cx.shell.accounts == crate::app::keymap::Accounts::All {
        cx.shell.send_out(Outward::ForAll(action));
        return Reply::Close;
    }
    Reply::Perform(action)
}
