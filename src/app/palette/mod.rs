//! The command palette (`:` or `Ctrl-P` on any tab): one query line over everything the
//! dashboard holds, and Enter goes there or does it.
//!
//! **What it finds** ([`candidates`]): services by ID, product name and bound IP (from the
//! details loaded this session), and by the proxy IPs of any IP list loaded this session
//! (`i`, a probe); products by ID and name; invoices by number and description; the tabs;
//! the profiles of the config file; and the actions, on the *target* service and product:
//! the ones selected on their tabs when the palette opened, or the service or product
//! chosen with `Tab` on its row (the query is then cleared and its actions come first).
//!
//! **Matching** is fuzzy (the `nucleo-matcher` crate, as in the helix editor): each word
//! of the query must match, in order of its letters, case-insensitively; the best scores
//! come first, then actions, tabs, services, products, invoices, profiles. With nothing
//! typed the actions, tabs and profiles are listed. Typing one more character only
//! re-scores what matched before (a query that grows can only match fewer), so a keystroke
//! on an account of 10,000 services with their proxy lists costs one pass at most over
//! what is held, and only the best [`MAX_SHOWN`] are kept in order.
//!
//! **Enter** on a service, product or invoice goes to its tab and selects its row (a
//! filter hiding it is cleared); on a tab shows it; on a profile switches as `P` does; on
//! an action runs it through exactly the path of its key (`App::perform`): the same
//! form, the same confirmation, the same refusals (a read-only profile, an ended service),
//! nothing sent that the key would not send. "copy IP list" is `i` whose list, once
//! fetched, is copied as `y` would.
//!
//! Each action shows its command line of proxydash's CLI ([`super::cmdline`]); what was
//! carried out goes to the command log ([`super::cmdlog`]).

pub mod candidates;

use super::Tab;
use super::forms::TextField;
use super::keymap::{Action, FormKind};
use super::popup::Popup;
use super::{App, Command};
use candidates::{Candidate, Target};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use nucleo_matcher::pattern::{Atom, AtomKind, CaseMatching, Normalization};
use nucleo_matcher::{Config, Matcher, Utf32Str};

/// The most matches kept in order and shown.
pub const MAX_SHOWN: usize = 200;

/// The most proxy IPs of loaded lists the palette searches (the newest lists' first).
pub const MAX_PROXIES: usize = 20_000;

/// The longest query.
const QUERY_MAX: usize = 128;

/// An action the palette runs through its key's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    Bind(u64),
    Password(u64),
    RefreshList(u64),
    CopyIpList(u64),
    Probe(u64),
    ServiceDetail(u64),
    Order(u64),
    ProductDetail(u64),
    Refresh,
    RefreshAll,
    CommandLog,
    Messages,
    SwitchProfile,
    Help,
}

impl Act {
    /// The service it acts on.
    pub fn service(self) -> Option<u64> {
        match self {
            Act::Bind(id)
            | Act::Password(id)
            | Act::RefreshList(id)
            | Act::CopyIpList(id)
            | Act::Probe(id)
            | Act::ServiceDetail(id) => Some(id),
            _ => None,
        }
    }

    /// The product it acts on.
    pub fn product(self) -> Option<u64> {
        match self {
            Act::Order(id) | Act::ProductDetail(id) => Some(id),
            _ => None,
        }
    }
}

/// The palette's state: the query, what it searches, what matches.
#[derive(Debug)]
pub struct Palette {
    pub query: TextField,
    candidates: Vec<Candidate>,
    /// Every candidate matching the query, with its score (in candidate order).
    matched: Vec<(u32, u32)>,
    /// The best of them, best first (indices into the candidates).
    shown: Vec<u32>,
    /// Position in `shown` of the highlighted line.
    pub selected: usize,
    /// The query `matched` was worked out for.
    matched_for: String,
    /// The service and product the actions are for.
    pub service: Option<u64>,
    pub product: Option<u64>,
}

impl Palette {
    pub fn new(candidates: Vec<Candidate>, service: Option<u64>, product: Option<u64>) -> Self {
        let mut p = Self {
            query: TextField::default().with_max(QUERY_MAX),
            matched: Vec::new(),
            shown: Vec::new(),
            selected: 0,
            matched_for: String::new(),
            candidates,
            service,
            product,
        };
        p.rematch_all();
        p
    }

    /// The matches shown, best first.
    pub fn shown(&self) -> impl ExactSizeIterator<Item = &Candidate> {
        self.shown.iter().map(|&i| &self.candidates[i as usize])
    }

    /// How many candidates match (more than are shown, on a big account).
    pub fn match_count(&self) -> usize {
        if self.matched_for.is_empty() {
            self.shown.len()
        } else {
            self.matched.len()
        }
    }

    /// The highlighted match.
    pub fn selected(&self) -> Option<&Candidate> {
        self.shown
            .get(self.selected)
            .map(|&i| &self.candidates[i as usize])
    }

    pub fn move_by(&mut self, delta: isize) {
        let last = self.shown.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }

    fn rematch_all(&mut self) {
        self.matched_for.clear();
        self.matched.clear();
        self.rematch();
    }

    /// Matches the query again: only among the last matches when it grew from their query.
    pub fn rematch(&mut self) {
        let query = self.query.value().trim_start().to_owned();
        let narrows = !self.matched_for.is_empty() && query.starts_with(&self.matched_for);
        let atoms: Vec<Atom> = query
            .split_whitespace()
            .map(|w| {
                Atom::new(
                    w,
                    CaseMatching::Ignore,
                    Normalization::Smart,
                    AtomKind::Fuzzy,
                    false,
                )
            })
            .collect();
        self.selected = 0;
        if atoms.is_empty() {
            self.matched_for.clear();
            self.matched.clear();
            self.shown = (0..self.candidates.len() as u32)
                .filter(|&i| self.candidates[i as usize].kind.listed_at_first())
                .collect();
            return;
        }
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        let candidates = &self.candidates;
        let mut score = |i: u32| {
            let text = &candidates[i as usize].text;
            let mut total = 0u32;
            for atom in &atoms {
                total += u32::from(atom.score(Utf32Str::new(text, &mut buf), &mut matcher)?);
            }
            Some((i, total))
        };
        self.matched = if narrows {
            self.matched.iter().filter_map(|&(i, _)| score(i)).collect()
        } else {
            (0..candidates.len() as u32).filter_map(score).collect()
        };
        self.matched_for = query;
        self.rank();
    }

    /// The best [`MAX_SHOWN`] matches, in order.
    fn rank(&mut self) {
        let candidates = &self.candidates;
        let key =
            |&(i, score): &(u32, u32)| (std::cmp::Reverse(score), candidates[i as usize].kind, i);
        let mut best = self.matched.clone();
        if best.len() > MAX_SHOWN {
            best.select_nth_unstable_by_key(MAX_SHOWN - 1, key);
            best.truncate(MAX_SHOWN);
        }
        best.sort_unstable_by_key(key);
        self.shown = best.into_iter().map(|(i, _)| i).collect();
    }
}

/// The proxy IPs of the lists loaded this session, by service, newest list first: what the
/// palette searches besides the services' own fields. At most [`MAX_PROXIES`].
#[derive(Clone, Debug, Default)]
pub struct Proxies {
    entries: Vec<(u64, String)>,
}

impl Proxies {
    /// A list of `service_id` arrived: its hosts replace those of its last list.
    pub fn learn(&mut self, service_id: u64, list: &crate::api::IpList) {
        let mut hosts: Vec<String> = list.entries().into_iter().map(|e| e.host).collect();
        hosts.sort_unstable();
        hosts.dedup();
        hosts.truncate(MAX_PROXIES);
        self.entries.retain(|(id, _)| *id != service_id);
        let keep = MAX_PROXIES - hosts.len();
        self.entries.truncate(keep);
        let older = std::mem::take(&mut self.entries);
        self.entries = hosts.into_iter().map(|h| (service_id, h)).collect();
        self.entries.extend(older);
    }

    pub fn iter(&self) -> impl Iterator<Item = &(u64, String)> {
        self.entries.iter()
    }
}

impl App {
    /// The proxy IPs of the lists loaded this session.
    pub fn palette_proxies(&self) -> &Proxies {
        &self.proxies
    }

    /// `:` or Ctrl-P: the palette, its actions for the selected service and product.
    pub(super) fn open_palette(&mut self) {
        let service = self.tabs.services.table.selected_id();
        let product = self.tabs.products.table.selected_id();
        let candidates = candidates::gather(self, service, product);
        self.shell.popups.push(Popup::Palette(Box::new(Palette::new(
            candidates, service, product,
        ))));
    }

    fn top_palette(&mut self) -> Option<&mut Palette> {
        match self.shell.popups.last_mut() {
            Some(Popup::Palette(p)) => Some(p),
            _ => None,
        }
    }

    /// A key typed into the palette's query; whether the palette took it.
    pub(super) fn palette_key(&mut self, key: &KeyEvent) -> bool {
        let Some(p) = self.top_palette() else {
            return false;
        };
        if p.query.key(key) {
            p.rematch();
        }
        true
    }

    /// A paste into the query (its first line).
    pub(super) fn palette_paste(&mut self, text: &str) -> bool {
        let Some(p) = self.top_palette() else {
            return false;
        };
        p.query.paste(text.lines().next().unwrap_or_default());
        p.rematch();
        true
    }

    /// The palette's keys: moving, `Tab` to choose a target, Enter.
    pub(super) fn palette_action(&mut self, action: Action, out: &mut Vec<Command>) -> bool {
        let Some(p) = self.top_palette() else {
            return false;
        };
        match action {
            Action::Up => p.move_by(-1),
            Action::Down => p.move_by(1),
            Action::PageUp => p.move_by(-10),
            Action::PageDown => p.move_by(10),
            Action::NextField => self.palette_retarget(),
            Action::Submit => self.palette_run(out),
            _ => return false,
        }
        true
    }

    /// `Tab` on a service or product: its actions, the query cleared.
    fn palette_retarget(&mut self) {
        let Some(Popup::Palette(mut p)) = self.shell.popups.pop() else {
            return;
        };
        match p.selected().map(|c| c.target.clone()) {
            Some(Target::Service(id)) => p.service = Some(id),
            Some(Target::Product(id)) => p.product = Some(id),
            _ => {
                self.shell.popups.push(Popup::Palette(p));
                return;
            }
        }
        let candidates = candidates::gather(self, p.service, p.product);
        let fresh = Palette::new(candidates, p.service, p.product);
        self.shell.popups.push(Popup::Palette(Box::new(fresh)));
    }

    /// Enter: the palette closes and its highlighted match is gone to or run.
    fn palette_run(&mut self, out: &mut Vec<Command>) {
        let target = match self.shell.popups.last() {
            Some(Popup::Palette(p)) => p.selected().map(|c| c.target.clone()),
            _ => return,
        };
        let Some(target) = target else { return };
        self.shell.popups.pop();
        match target {
            Target::Service(id) => {
                self.jump(Tab::Services, id);
            }
            Target::Product(id) => {
                self.jump(Tab::Products, id);
            }
            Target::Invoice(id) => {
                self.jump(Tab::Billing, id);
            }
            Target::Tab(tab) => self.shell.tab = tab,
            Target::Profile(name) => self.palette_profile(&name),
            Target::Action(act) => self.palette_act(act, out),
        }
    }

    /// Shows `tab` with the row of `id` selected (clearing a filter or `!` that hides it);
    /// whether the row is there to select.
    fn jump(&mut self, tab: Tab, id: u64) -> bool {
        self.shell.tab = tab;
        if tab == Tab::Services && self.tabs.services_dirty {
            self.rebuild_services();
        }
        let table = self.tabs.table_mut(tab);
        if table.select_id(id) {
            return true;
        }
        table.clear_filter();
        if table.problems_only() {
            table.toggle_problems();
        }
        table.select_id(id)
    }

    /// A profile: as `P` and Enter on it would.
    fn palette_profile(&mut self, name: &str) {
        self.shell.open_profiles();
        let at = self
            .shell
            .settings
            .profiles
            .names
            .iter()
            .position(|p| p == name);
        if let (Some(Popup::Profiles(picker)), Some(at)) = (self.shell.popups.last_mut(), at) {
            picker.selected = at;
            self.shell.choose_profile();
        }
    }

    /// An action, through its key's own path.
    fn palette_act(&mut self, act: Act, out: &mut Vec<Command>) {
        use super::forms::iplist;
        // The key acts on the selected row: an action for a row no longer listed must not
        // fall on another one.
        let on = match (act.service(), act.product()) {
            (Some(id), _) => Some(("Service", self.jump(Tab::Services, id), id)),
            (None, Some(id)) => Some(("Product", self.jump(Tab::Products, id), id)),
            (None, None) => None,
        };
        if let Some((what, false, id)) = on {
            self.notify(format!(
                "{what} {id} is not listed any more: nothing was opened"
            ));
            return;
        }
        let action = match act {
            Act::Bind(_) => Some(Action::OpenForm(FormKind::BindIp)),
            Act::Password(_) => Some(Action::OpenForm(FormKind::Password)),
            Act::RefreshList(_) => Some(Action::OpenForm(FormKind::Refresh)),
            Act::CopyIpList(_) => Some(Action::OpenForm(FormKind::IpList)),
            Act::Order(_) => Some(Action::OpenForm(FormKind::Order)),
            Act::Probe(_) => Some(Action::Probe),
            Act::ServiceDetail(_) | Act::ProductDetail(_) => Some(Action::Open),
            Act::Refresh => Some(Action::Refresh),
            Act::RefreshAll => Some(Action::RefreshAll),
            Act::CommandLog => Some(Action::CommandLog),
            Act::Messages => Some(Action::Messages),
            Act::SwitchProfile => Some(Action::SwitchProfile),
            Act::Help => Some(Action::Help),
        };
        let Some(action) = action else { return };
        self.perform(
            action,
            &KeyEvent::new(KeyCode::Null, KeyModifiers::NONE),
            out,
        );
        if let Act::CopyIpList(_) = act
            && let Some(form) = self
                .shell
                .popups
                .last_mut()
                .and_then(Popup::form_as_mut::<iplist::IpListForm>)
        {
            form.copy_when_fetched = true;
        }
    }
}
