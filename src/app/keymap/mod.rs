//! Keys → [`Action`]s, from one table of default bindings.
//!
//! The footer and the `?` help are generated from [`TABLE`] by [`footer`] and [`help`],
//! and [`action_for`] matches keys against the same table, so what the screen advertises is
//! what the keys do. A binding applies in some [`Scope`]s; the [`Context`] (tab, top popup,
//! filter input, a form's text field) decides which scopes are active. The keys that
//! open the forms are rows of the table like any ([`Action::OpenForm`]); a popup and a
//! form's steps bring their own keys, which the table splices in while it is on top
//! ([`PopupKind::keys`]: a popup's `INFO` beside its logic, a [`steps::FormStep`] beside
//! the form's). While the filter
//! input or a form's text field is active, keys that no binding claims are typed into it
//! (so `q` and `j` are text there). When two bindings claim the same key in a context the
//! first wins, and the footer and help list only the winner.

use super::Tab;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Everything a key can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `q`: quit (not while typing a filter).
    Quit,
    /// `Ctrl-C`: quit from anywhere.
    ForceQuit,
    /// `1`, `2`, …: the tab of the digit typed.
    GoTab,
    NextTab,
    PrevTab,
    Up,
    Down,
    Top,
    Bottom,
    PageUp,
    PageDown,
    /// `/`: start typing a filter.
    Filter,
    /// Enter in the filter input: keep the filter, leave the input.
    FilterAccept,
    /// Backspace in the filter input.
    FilterBackspace,
    /// Enter: the selected item's detail.
    Open,
    /// Esc: close the popup, or clear the filter, or dismiss the status message. Never quits.
    Back,
    Refresh,
    RefreshAll,
    /// `s` on Products (the server's sorts), Services, Billing and Network (local sorts).
    CycleSort,
    /// `S`: the local sort the other way round.
    ReverseSort,
    /// `!`: only the rows with a problem, or all again.
    ProblemsOnly,
    /// `v` on Services.
    TogglePassword,
    /// `z` on Services and Products: the detail pane shown, hidden or zoomed.
    CycleDetail,
    Help,
    /// The key that opens a form (their rows are `OPEN_FORMS` in the table).
    OpenForm(FormKind),
    /// `x` on Services: clear the IP-list refresh countdown.
    ClearCountdown,
    /// `h` on Services: probe every proxy of the service through itself.
    Probe,
    /// `r` in the probe view: re-check only the failed proxies.
    RecheckFailed,
    /// `a` in the probe view: probe the whole list again.
    ProbeAgain,
    /// `b` in the probe view: probe again as HTTP and as SOCKS5 (or back to one).
    ProbeBoth,
    /// `R` in the probe view of a ppr service: audit its gateway's rotation.
    RotationAudit,
    /// `t` in the probe view: the next export template.
    CycleTemplate,
    /// `y` in an IP list: copy it as served.
    Copy,
    /// `y` on Services: copy the service's first proxy as `host:port:user:pass`.
    CopyProxy,
    /// `Y` in an IP list: copy it as URLs.
    CopyUrls,
    /// `w` in an IP list: write it to a file.
    WriteFile,
    /// Enter in a form: the next step (check, confirm, send, close).
    Submit,
    /// Tab in a form.
    NextField,
    /// Shift-Tab in a form.
    PrevField,
    /// A key one form step declares for itself (the bind form's `Ctrl-L`).
    FormKey(FormKey),
    /// `P`: switch to another profile.
    SwitchProfile,
    /// `m`: the message log.
    Messages,
    /// `a` on Alerts: acknowledge the selected alert.
    Acknowledge,
    /// `u` on Alerts: end the silence covering the selected alert.
    Unsilence,
    /// `t` on Usage: the chart's next time range (24 h, 7 d, 30 d).
    CycleRange,
    /// `:` or `Ctrl-P`: the command palette.
    Palette,
    /// `L`: the command log (what was done, as command lines).
    CommandLog,
    /// `←` on Usage: the chart's cursor one day back.
    DayBack,
    /// `→` on Usage: the chart's cursor one day forward.
    DayForward,
    /// `Ctrl-Z`: the run loop suspends the program before the key reaches the app; listed
    /// so the help shows it.
    Suspend,
    /// `A` over several accounts: the All view, or the highlighted row's account alone.
    AllAccounts,
    /// `space`: mark the highlighted row, or unmark it (what acts on a row then acts on
    /// every marked row).
    Mark,
}

/// The keys only one form's step takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormKey {
    /// `Ctrl-L` in the bind form: fill in this machine's public IP.
    UseMyIp,
    /// `Ctrl-G` in the password form: a generated strong password into both fields.
    Generate,
    /// `Ctrl-T` in the silence form: the next thing to silence (rule, service, both).
    NextTarget,
}

/// Where a binding applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Everywhere,
    /// The tabs, with no popup and no filter input.
    Main,
    /// One tab, with no popup and no filter input.
    Tab(Tab),
    /// Typing a filter.
    FilterInput,
    /// Any popup on top, unless a form's text field takes typing.
    AnyPopup,
    /// A popup that only shows something (help, an invoice, a service, a product), not
    /// one taking typing (the palette).
    Viewer,
    /// This kind of popup on top.
    Popup(PopupKind),
    /// The tab's selected item: on its row (the tab, no popup, no filter input), or shown
    /// in a popup ([`steps::PopupInfo::item_of`]).
    Item(Tab),
    /// The tabs of a dashboard over several accounts, in the All view or one account's.
    Among,
    /// The tabs of the All view (every account's rows).
    AllView,
}

/// How many accounts the dashboard shows, and which.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Accounts {
    /// One account: the dashboard is that account's.
    #[default]
    Alone,
    /// One account of several, shown alone (`A` goes back to All).
    OneOfSeveral,
    /// Every account's rows (the All view).
    All,
}

/// The actions on a service: on its row of the Services tab, or in its detail.
pub const ON_SERVICE: &[Scope] = &[Scope::Item(Tab::Services)];

/// What is on screen, for choosing bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context {
    pub tab: Tab,
    pub popup: Option<PopupKind>,
    pub editing_filter: bool,
    /// The top popup is a form whose text field takes typing.
    pub typing: bool,
    /// The profile is read-only: the write actions are not advertised (their keys still
    /// answer, to say why nothing opens).
    pub read_only: bool,
    /// The config file has another profile to switch to; without one, `P` is not
    /// advertised (it still answers, to say why nothing opens).
    pub switchable: bool,
    /// One account, one of several, or all of them.
    pub accounts: Accounts,
}

impl Scope {
    pub fn applies(self, ctx: &Context) -> bool {
        let main = ctx.popup.is_none() && !ctx.editing_filter;
        match self {
            Scope::Everywhere => true,
            Scope::Main => main,
            Scope::Tab(t) => main && ctx.tab == t,
            Scope::FilterInput => ctx.popup.is_none() && ctx.editing_filter,
            Scope::AnyPopup => ctx.popup.is_some() && !ctx.typing,
            Scope::Viewer => ctx.popup.is_some_and(|k| !k.is_form()) && !ctx.typing,
            Scope::Popup(k) => ctx.popup == Some(k),
            Scope::Item(t) => {
                Scope::Tab(t).applies(ctx)
                    || ctx.popup.and_then(PopupKind::shows).and_then(|i| i.item_of) == Some(t)
            }
            Scope::Among => main && ctx.accounts != Accounts::Alone,
            Scope::AllView => main && ctx.accounts == Accounts::All,
        }
    }
}

/// A key: a code, with or without Ctrl. Shift is part of the character (`G`, `R`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

pub(super) const fn k(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}

pub(super) const fn code(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

pub(super) const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}

impl Key {
    pub fn matches(&self, event: &KeyEvent) -> bool {
        let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        let code = match event.code {
            // Some terminals report Shift-Tab as Tab with Shift.
            KeyCode::Tab if event.modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
            other => other,
        };
        code == self.code && ctrl == self.ctrl
    }

    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_owned(),
            KeyCode::Char(c) if self.ctrl => c.to_ascii_uppercase().to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "Shift-Tab".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Backspace => "Backspace".into(),
            other => format!("{other:?}"),
        };
        if self.ctrl {
            format!("Ctrl-{base}")
        } else {
            base
        }
    }
}

/// One default binding: its keys, what they do, where, and the footer's word for it (the
/// footer shows only bindings that have one).
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    pub keys: &'static [Key],
    pub action: Action,
    pub scopes: &'static [Scope],
    pub footer: Option<&'static str>,
    pub help: &'static str,
}

pub(super) const fn b(
    keys: &'static [Key],
    action: Action,
    scopes: &'static [Scope],
    footer: Option<&'static str>,
    help: &'static str,
) -> Binding {
    Binding {
        keys,
        action,
        scopes,
        footer,
        help,
    }
}

mod bindings;
mod reach;
pub use reach::Reach;
pub mod steps;
pub use super::PopupKind;
pub use super::form_kind::FormKind;
pub use bindings::TABLE;

/// A run of [`TABLE`], in the order the footer and the help list them.
#[derive(Clone, Copy, Debug)]
pub enum Part {
    /// Bindings that apply in their scopes.
    Rows(&'static [Binding]),
    /// The own keys of the popup on top (its file's, or its form step's), all of them
    /// (they apply while it is on top).
    Step,
}

impl Part {
    /// This part's bindings active in `ctx`.
    fn active(self, ctx: &Context) -> impl Iterator<Item = &'static Binding> + '_ {
        let rows: &'static [Binding] = match self {
            Part::Rows(rows) => rows,
            Part::Step => ctx.popup.map_or(&[], PopupKind::keys),
        };
        let scoped = !matches!(self, Part::Step);
        rows.iter()
            .filter(move |b| !scoped || b.scopes.iter().any(|s| s.applies(ctx)))
    }
}

/// The rows of [`TABLE`] that open the forms, with the form each opens.
#[cfg(test)]
pub fn form_openers() -> impl Iterator<Item = (FormKind, &'static Binding)> {
    let rows = TABLE.iter().flat_map(|part| match part {
        Part::Rows(rows) => *rows,
        Part::Step => &[],
    });
    rows.filter_map(|b| match b.action {
        Action::OpenForm(kind) => Some((kind, b)),
        _ => None,
    })
}

/// The bindings active in `ctx`, in table order.
pub fn bindings_for(ctx: &Context) -> impl Iterator<Item = &'static Binding> + '_ {
    TABLE.iter().flat_map(move |part| part.active(ctx))
}

/// The active bindings that some key of theirs really triggers: a binding whose every key
/// an earlier active binding claims is shadowed, and never advertised.
pub fn effective(ctx: &Context) -> Vec<&'static Binding> {
    let mut claimed: Vec<Key> = Vec::new();
    let mut out = Vec::new();
    for b in bindings_for(ctx) {
        if b.keys.iter().any(|k| !claimed.contains(k)) {
            out.push(b);
        }
        claimed.extend(b.keys.iter().copied());
    }
    out
}

/// The action a key asks for in `ctx`, if any. Key releases are ignored.
pub fn action_for(ctx: &Context, event: &KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    bindings_for(ctx)
        .find(|b| b.keys.iter().any(|k| k.matches(event)))
        .map(|b| b.action)
}

/// How a binding's keys are written: `j/↓`, and a run of digits as `1-5`.
pub fn keys_label(binding: &Binding) -> String {
    let digits: Vec<char> = binding
        .keys
        .iter()
        .filter_map(|k| match k.code {
            KeyCode::Char(c) if c.is_ascii_digit() && !k.ctrl => Some(c),
            _ => None,
        })
        .collect();
    if digits.len() == binding.keys.len() && digits.len() > 2 {
        return format!("{}-{}", digits[0], digits[digits.len() - 1]);
    }
    binding
        .keys
        .iter()
        .map(Key::label)
        .collect::<Vec<_>>()
        .join("/")
}

/// The footer's (keys, word) pairs for `ctx`.
pub fn footer(ctx: &Context) -> Vec<(String, &'static str)> {
    advertised(ctx)
        .into_iter()
        .filter_map(|b| b.footer.map(|word| (footer_key(b), word)))
        .collect()
}

/// The bindings the footer and help show: the effective ones, less the write actions of a
/// read-only profile and the profile switch when there is nothing to switch to.
fn advertised(ctx: &Context) -> Vec<&'static Binding> {
    effective(ctx)
        .into_iter()
        .filter(|b| !(ctx.read_only && b.action.writes()))
        .filter(|b| ctx.switchable || b.action != Action::SwitchProfile)
        .collect()
}

impl Action {
    /// Opens a form that changes the account.
    pub fn writes(self) -> bool {
        matches!(self, Action::OpenForm(form) if form.writes())
    }
}

/// The footer names a binding by its first key only (`Enter`, not `Enter`/…).
fn footer_key(binding: &Binding) -> String {
    let label = keys_label(binding);
    // A run of digits (`1-6`) is said whole; a `-` of `Ctrl-P` after `:/` is not a run.
    let run = label.contains('-') && !label.contains('/');
    if run && !label.starts_with("Ctrl") && !label.starts_with("Shift") {
        label
    } else {
        binding.keys.first().map(Key::label).unwrap_or_default()
    }
}

/// The help's (keys, description) lines for `ctx`.
pub fn help(ctx: &Context) -> Vec<(String, &'static str)> {
    advertised(ctx)
        .into_iter()
        .map(|b| (keys_label(b), b.help))
        .collect()
}

#[cfg(test)]
mod tests;
