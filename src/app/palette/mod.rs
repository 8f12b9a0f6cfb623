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
//! an action runs it through exactly the path of its key ([`Reply::Perform`]): the same
//! form, the same confirmation, the same refusals (a read-only profile, an ended service),
//! nothing sent that the key would not send. "copy IP list" is `i` whose list, once
//! fetched, is copied as `y` would.
//!
//! Each action shows its command line of proxydash's CLI ([`super::cmdline`]); what was
//! carried out goes to the command log ([`super::cmdlog`]).

pub mod candidates;
mod run;
pub mod verbs;

use super::Cx;
use super::forms::TextField;
use super::keymap::steps::step_key;
use super::keymap::{Action, Binding, code};
use super::popups::{PopupPane, Reply};
use crate::app::PopupKind;
use crate::app::keymap::steps::PopupInfo;
use candidates::Candidate;
use crossterm::event::{KeyCode, KeyEvent};
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
    /// `:invoice ID`: the invoice's row, and the invoice opened.
    InvoiceDetail(u64),
    /// `:q`.
    Quit,
    /// `:all`: the All view over several accounts.
    AllAccounts,
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
    /// The verb the query names, kept last in `candidates` and shown first.
    verb: bool,
    /// What `verbs` needs to know to read a verb's argument.
    profiles: Vec<String>,
    among_accounts: bool,
    skins: Vec<String>,
    /// The queries run before, oldest first (`↑` on the first line brings them back),
    /// and where `↑`/`↓` are in them.
    pub history: Vec<String>,
    recalled: Option<usize>,
}

/// The most queries the palette remembers in a run.
pub const HISTORY_MAX: usize = 50;

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
            verb: false,
            profiles: Vec::new(),
            among_accounts: false,
            skins: Vec::new(),
            history: Vec::new(),
            recalled: None,
        };
        p.rematch_all();
        p
    }

    /// What reading a verb needs: the config's profiles, whether accounts share the view;
    /// and the queries run before.
    pub fn knowing(mut self, settings: &crate::app::AppSettings, history: Vec<String>) -> Self {
        self.profiles = settings.profiles.names.clone();
        self.among_accounts = settings.among.accounts;
        self.skins = settings.skins.iter().map(|(n, _)| n.clone()).collect();
        self.history = history;
        self
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

    /// Matches the query again: only among the last matches when it grew from their query;
    /// a verb the query names goes first.
    pub fn rematch(&mut self) {
        if std::mem::take(&mut self.verb) {
            self.candidates.pop();
        }
        self.search();
        let known = verbs::Known {
            profiles: &self.profiles,
            among_accounts: self.among_accounts,
            skins: &self.skins,
        };
        if let Some((verb, first)) = verbs::candidate(self.query.value(), &known) {
            self.candidates.push(verb);
            self.verb = true;
            let at = (self.candidates.len() - 1) as u32;
            if first {
                self.shown.insert(0, at);
                self.shown.truncate(MAX_SHOWN);
            } else {
                self.shown.truncate(MAX_SHOWN - 1);
                self.shown.push(at);
            }
        }
    }

    fn search(&mut self) {
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

/// Its own keys (its query takes every other key).
#[rustfmt::skip]
const KEYS: &[Binding] = &[
    step_key(&[code(KeyCode::Enter)], Action::Submit, Some("go/run"), "Go to the match, or run the action (through its key's form and confirmation)"),
    step_key(&[code(KeyCode::Tab)], Action::NextField, Some("its actions"), "List the actions of the service or product matched"),
    step_key(&[code(KeyCode::Down)], Action::Down, None, "Next match"),
    step_key(&[code(KeyCode::Up)], Action::Up, None, "Previous match"),
    step_key(&[code(KeyCode::PageDown)], Action::PageDown, None, "Ten matches down"),
    step_key(&[code(KeyCode::PageUp)], Action::PageUp, None, "Ten matches up"),
    step_key(&[code(KeyCode::Esc)], Action::Back, Some("close"), "Close the palette"),
];

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "palette",
    keys: KEYS,
    item_of: None,
};

impl PopupPane for Palette {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }

    fn is_typing(&self) -> bool {
        true
    }

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        match action {
            // On the first line, `↑` brings back the queries run before, newest first.
            Action::Up if self.selected == 0 && self.recall(1) => {}
            Action::Down if self.recalled.is_some() && self.recall(-1) => {}
            Action::Up => self.move_by(-1),
            Action::Down => self.move_by(1),
            Action::PageUp => self.move_by(-10),
            Action::PageDown => self.move_by(10),
            Action::NextField => self.retarget(cx),
            Action::Submit => return self.run(cx),
            _ => return Reply::Ignored,
        }
        Reply::Taken
    }

    /// A key typed into the query.
    fn key(&mut self, key: &KeyEvent) -> bool {
        if self.query.key(key) {
            self.recalled = None;
            self.rematch();
        }
        true
    }

    /// A paste into the query (its first line).
    fn paste(&mut self, text: &str) -> bool {
        self.query.paste(text.lines().next().unwrap_or_default());
        self.rematch();
        true
    }
}

/// A palette is itself (it is not compared field by field).
impl PartialEq for Palette {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}
