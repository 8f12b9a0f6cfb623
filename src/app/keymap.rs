//! Keys → [`Action`]s, from one table of default bindings.
//!
//! The footer and the `?` help are generated from [`BINDINGS`] by [`footer`] and [`help`],
//! and [`action_for`] matches keys against the same table, so what the screen advertises is
//! what the keys do. A binding applies in some [`Scope`]s; the [`Context`] (tab, top popup,
//! filter input, a form's text field) decides which scopes are active. While the filter
//! input or a form's text field is active, keys that no binding claims are typed into it
//! (so `q` and `j` are text there). When two bindings claim the same key in a context the
//! first wins, and the footer and help list only the winner.

use super::popup::PopupKind;
use super::tabs::Tab;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Everything a key can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `q`: quit (not while typing a filter).
    Quit,
    /// `Ctrl-C`: quit from anywhere.
    ForceQuit,
    /// `1`…`6`: the tab of the digit typed.
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
    Help,
    /// `o` on Products: the order form.
    Order,
    /// `b` on Services: the bind-IP form.
    BindIp,
    /// `p` on Services: the password form.
    ChangePassword,
    /// `u` on Services: refresh the IP list.
    RefreshIpList,
    /// `i` on Services: the IP lists.
    IpLists,
    /// `x` on Services: clear the IP-list refresh countdown.
    ClearCountdown,
    /// `h` on Services: probe every proxy of the service through itself.
    Probe,
    /// `r` in the probe view: re-check only the failed proxies.
    RecheckFailed,
    /// `a` in the probe view: probe the whole list again.
    ProbeAgain,
    /// `t` in the probe view: the next export template.
    CycleTemplate,
    /// `y` in an IP list: copy it as served.
    Copy,
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
    /// `Ctrl-L` in the bind form: fill in this machine's public IP.
    UseMyIp,
    /// `P`: switch to another profile.
    SwitchProfile,
    /// `m`: the message log.
    Messages,
    /// `←` on Usage: the chart's cursor one day back.
    DayBack,
    /// `→` on Usage: the chart's cursor one day forward.
    DayForward,
    /// `Ctrl-Z`: the run loop suspends the program before the key reaches the app; listed
    /// so the help shows it.
    Suspend,
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
    /// A popup that only shows something (help, an invoice, a service, a product).
    Viewer,
    /// This kind of popup on top.
    Popup(PopupKind),
}

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
            Scope::Viewer => ctx.popup.is_some_and(|k| !k.is_form()),
            Scope::Popup(k) => ctx.popup == Some(k),
        }
    }
}

/// A key: a code, with or without Ctrl. Shift is part of the character (`G`, `R`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

const fn k(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}

const fn code(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

const fn ctrl(c: char) -> Key {
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

const fn b(
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

use PopupKind as P;
use Scope::*;

/// Forms whose fields take typing, and what Tab does in them.
const FIELDS: &[Scope] = &[Popup(P::Order), Popup(P::Password), Popup(P::IpListChooser)];
/// Lists a form scrolls with the movement keys.
const SCROLLS: &[Scope] = &[
    Main,
    Popup(P::Probe),
    Popup(P::Help),
    Popup(P::IpListChooser),
    Popup(P::IpListView),
    Popup(P::Profiles),
    Popup(P::Messages),
];
/// Where Esc closes.
const CLOSES: &[Scope] = &[
    Viewer,
    Popup(P::IpListView),
    Popup(P::FormBusy),
    Popup(P::FormDone),
];
/// Where Esc cancels a form.
const CANCELS: &[Scope] = &[
    Popup(P::Order),
    Popup(P::BindIp),
    Popup(P::Password),
    Popup(P::Refresh),
    Popup(P::IpListChooser),
];
/// Tabs sorted locally with `s`/`S`.
const SORTABLE: &[Scope] = &[Tab(Tab::Services), Tab(Tab::Billing), Tab(Tab::Network)];
/// Tabs whose rows `!` narrows to the problems.
const PROBLEMS: &[Scope] = &[
    Tab(Tab::Services),
    Tab(Tab::Billing),
    Tab(Tab::Network),
    Tab(Tab::Usage),
];
/// The actions on a service.
const ON_SERVICE: &[Scope] = &[Tab(Tab::Services), Popup(P::Service)];

/// The default bindings, in the order the footer and the help list them.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    // Typing a filter.
    b(&[code(KeyCode::Enter)], Action::FilterAccept, &[FilterInput], Some("keep filter"), "Keep the filter and leave the input"),
    b(&[code(KeyCode::Esc)], Action::Back, &[FilterInput], Some("clear"), "Clear the filter"),
    b(&[code(KeyCode::Backspace)], Action::FilterBackspace, &[FilterInput], None, "Delete the last character"),
    b(&[code(KeyCode::Down)], Action::Down, &[FilterInput], None, "Move down"),
    b(&[code(KeyCode::Up)], Action::Up, &[FilterInput], None, "Move up"),
    // Everywhere but in the filter input and form fields (first, so the footer never drops them).
    b(&[k('?')], Action::Help, &[Main, AnyPopup], Some("help"), "Help for the current context"),
    b(&[k('q')], Action::Quit, &[Main, Viewer], Some("quit"), "Quit"),
    // Forms.
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::Order)], Some("continue"), "Check the order and show what it costs"),
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::OrderConfirm)], Some("place order"), "Place the order: one request, never repeated by itself"),
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::BindIp)], Some("bind"), "Bind the address to the service"),
    b(&[ctrl('l')], Action::UseMyIp, &[Popup(P::BindIp)], Some("use my IP"), "Fill in this machine's public IP"),
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::Password)], Some("change"), "Change the proxy password"),
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::Refresh)], Some("refresh"), "Refresh the IP list now"),
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::IpListChooser)], Some("fetch"), "Fetch the list in the chosen type and format"),
    b(&[k('y')], Action::Copy, &[Popup(P::IpListView)], Some("copy"), "Copy the list exactly as served"),
    b(&[k('Y')], Action::CopyUrls, &[Popup(P::IpListView)], Some("copy URLs"), "Copy the list as proxy URLs, one per line"),
    b(&[k('w')], Action::WriteFile, &[Popup(P::IpListView)], Some("write file"), "Write the list to a file"),
    b(&[k('r')], Action::RecheckFailed, &[Popup(P::Probe)], Some("re-check failed"), "Probe the failed proxies again"),
    b(&[k('a')], Action::ProbeAgain, &[Popup(P::Probe)], Some("all again"), "Fetch the list and probe every proxy again"),
    b(&[k('s')], Action::CycleSort, &[Popup(P::Probe)], Some("sort"), "Sort by list order, latency, state or exit IP"),
    b(&[k('y')], Action::Copy, &[Popup(P::Probe)], Some("copy working"), "Copy the working proxies with the template"),
    b(&[k('Y')], Action::CopyUrls, &[Popup(P::Probe)], Some("copy URLs"), "Copy the working proxies as URLs"),
    b(&[k('w')], Action::WriteFile, &[Popup(P::Probe)], Some("write"), "Write the working proxies with the template to a new file"),
    b(&[k('t')], Action::CycleTemplate, &[Popup(P::Probe)], Some("template"), "Next export template"),
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::IpListSave)], Some("write"), "Write the file (an existing file is never replaced)"),
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::FormDone)], None, "Close"),
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::Profiles)], Some("switch"), "Reconnect with the chosen profile"),
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::FormBusy)], None, "Ignored while the request is on its way"),
    b(&[code(KeyCode::Tab)], Action::NextField, FIELDS, Some("next field"), "Next field"),
    b(&[code(KeyCode::BackTab)], Action::PrevField, FIELDS, None, "Previous field"),
    b(&[code(KeyCode::Right)], Action::NextField, &[Popup(P::IpListChooser)], None, "Next column"),
    b(&[code(KeyCode::Left)], Action::PrevField, &[Popup(P::IpListChooser)], None, "Previous column"),
    b(&[code(KeyCode::Down)], Action::Down, &[Popup(P::Order)], None, "Next matching client"),
    b(&[code(KeyCode::Up)], Action::Up, &[Popup(P::Order)], None, "Previous matching client"),
    b(&[code(KeyCode::Esc)], Action::Back, &[Popup(P::OrderConfirm), Popup(P::IpListSave)], Some("back"), "Back to the previous step"),
    b(&[code(KeyCode::Esc)], Action::Back, CANCELS, Some("cancel"), "Cancel and close the form"),
    // The tabs.
    b(&[k('1'), k('2'), k('3'), k('4'), k('5'), k('6')], Action::GoTab, &[Main], Some("tabs"), "Go to a tab: Services, Products, … Alerts"),
    b(&[code(KeyCode::Tab)], Action::NextTab, &[Main], None, "Next tab"),
    b(&[code(KeyCode::BackTab)], Action::PrevTab, &[Main], None, "Previous tab"),
    b(&[k('j'), code(KeyCode::Down)], Action::Down, SCROLLS, None, "Move down"),
    b(&[k('k'), code(KeyCode::Up)], Action::Up, SCROLLS, None, "Move up"),
    b(&[k('g'), code(KeyCode::Home)], Action::Top, &[Main, Popup(P::IpListView), Popup(P::Messages), Popup(P::Probe)], None, "Go to the top"),
    b(&[k('G'), code(KeyCode::End)], Action::Bottom, &[Main, Popup(P::IpListView), Popup(P::Messages), Popup(P::Probe)], None, "Go to the bottom"),
    b(&[code(KeyCode::PageDown)], Action::PageDown, &[Main, Popup(P::IpListView), Popup(P::Messages), Popup(P::Probe), Popup(P::Help)], None, "Page down"),
    b(&[code(KeyCode::PageUp)], Action::PageUp, &[Main, Popup(P::IpListView), Popup(P::Messages), Popup(P::Probe), Popup(P::Help)], None, "Page up"),
    b(&[k('/')], Action::Filter, &[Main], Some("filter"), "Filter the table by any visible text"),
    b(&[code(KeyCode::Enter)], Action::Open, &[Tab(Tab::Services), Tab(Tab::Products)], Some("details"), "Open the selected item's detail"),
    b(&[code(KeyCode::Enter)], Action::Open, &[Tab(Tab::Billing)], Some("invoice"), "Open the selected invoice"),
    b(&[code(KeyCode::Enter)], Action::Open, &[Tab(Tab::Network)], Some("service"), "Show the service of the selected server"),
    b(&[code(KeyCode::Enter)], Action::Open, &[Tab(Tab::Alerts)], Some("go to"), "Show the service or invoice the alert is about"),
    b(&[k('o')], Action::Order, &[Tab(Tab::Products), Popup(P::Product)], Some("order"), "Order the selected product"),
    b(&[k('b')], Action::BindIp, ON_SERVICE, Some("bind IP"), "Bind an IP to the selected static (fpr) service"),
    b(&[k('p')], Action::ChangePassword, ON_SERVICE, Some("passwd"), "Change the proxy password"),
    b(&[k('u')], Action::RefreshIpList, ON_SERVICE, Some("refresh IPs"), "Refresh the IP list (the server throttles this)"),
    b(&[k('i')], Action::IpLists, ON_SERVICE, Some("IP list"), "Show, copy or save the IP list"),
    b(&[k('x')], Action::ClearCountdown, ON_SERVICE, None, "Clear the IP-list refresh countdown"),
    b(&[k('h')], Action::Probe, ON_SERVICE, Some("probe"), "Probe every proxy through itself"),
    b(&[k('s')], Action::CycleSort, &[Tab(Tab::Products)], Some("sort"), "Cycle the sort field (the server sorts)"),
    b(&[k('s')], Action::CycleSort, SORTABLE, Some("sort"), "Sort by the next field, or back to the server's order"),
    b(&[k('S')], Action::ReverseSort, SORTABLE, None, "Reverse the sort"),
    b(&[k('!')], Action::ProblemsOnly, PROBLEMS, Some("problems"), "Show only the rows with a problem, or all again"),
    b(&[code(KeyCode::Left)], Action::DayBack, &[Tab(Tab::Usage)], Some("day"), "Chart cursor: the day before (date and value in the title)"),
    b(&[code(KeyCode::Right)], Action::DayForward, &[Tab(Tab::Usage)], None, "Chart cursor: the day after"),
    b(&[k('v')], Action::TogglePassword, &[Tab(Tab::Services), Popup(P::Service)], Some("password"), "Show or hide the password"),
    b(&[k('r')], Action::Refresh, &[Main], Some("refresh"), "Refresh this tab"),
    b(&[k('R')], Action::RefreshAll, &[Main], Some("all"), "Refresh everything"),
    b(&[k('P')], Action::SwitchProfile, &[Main], Some("profile"), "Switch to another profile (account) of the config file"),
    b(&[k('m')], Action::Messages, &[Main], Some("messages"), "The message log: every status line and order outcome, newest first"),
    b(&[code(KeyCode::Esc)], Action::Back, &[Main], None, "Clear the filter, or dismiss the status message"),
    // Popups.
    b(&[code(KeyCode::Esc)], Action::Back, CLOSES, Some("close"), "Close the popup"),
    b(&[ctrl('c')], Action::ForceQuit, &[Everywhere], None, "Quit, from anywhere"),
    b(&[ctrl('z')], Action::Suspend, &[Everywhere], None, "Suspend to the shell (fg comes back)"),
];

/// The bindings active in `ctx`, in table order.
pub fn bindings_for(ctx: &Context) -> impl Iterator<Item = &'static Binding> + '_ {
    BINDINGS
        .iter()
        .filter(move |b| b.scopes.iter().any(|s| s.applies(ctx)))
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
        matches!(
            self,
            Action::Order | Action::BindIp | Action::ChangePassword | Action::RefreshIpList
        )
    }
}

/// The footer names a binding by its first key only (`Enter`, not `Enter`/…).
fn footer_key(binding: &Binding) -> String {
    let label = keys_label(binding);
    if label.contains('-') && !label.starts_with("Ctrl") && !label.starts_with("Shift") {
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
mod tests {
    use super::*;

    fn ctx(tab: Tab) -> Context {
        Context {
            read_only: false,
            switchable: true,
            tab,
            popup: None,
            editing_filter: false,
            typing: false,
        }
    }

    fn key(c: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(c, m)
    }

    #[test]
    fn keys_resolve_by_context() {
        let main = ctx(Tab::Services);
        assert_eq!(
            action_for(&main, &key(KeyCode::Char('q'), KeyModifiers::NONE)),
            Some(Action::Quit)
        );
        assert_eq!(
            action_for(&main, &key(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            Some(Action::Bottom)
        );
        assert_eq!(
            action_for(&main, &key(KeyCode::Char('v'), KeyModifiers::NONE)),
            Some(Action::TogglePassword)
        );
        assert_eq!(
            action_for(&main, &key(KeyCode::Char('s'), KeyModifiers::NONE)),
            Some(Action::CycleSort)
        );
        assert_eq!(
            action_for(
                &ctx(Tab::Products),
                &key(KeyCode::Char('s'), KeyModifiers::NONE)
            ),
            Some(Action::CycleSort)
        );
        let typing = Context {
            read_only: false,
            switchable: true,
            editing_filter: true,
            ..main
        };
        assert_eq!(
            action_for(&typing, &key(KeyCode::Char('q'), KeyModifiers::NONE)),
            None
        );
        assert_eq!(
            action_for(&typing, &key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Action::ForceQuit)
        );
        assert_eq!(
            action_for(&typing, &key(KeyCode::Esc, KeyModifiers::NONE)),
            Some(Action::Back)
        );
        assert_eq!(
            action_for(&main, &key(KeyCode::Tab, KeyModifiers::SHIFT)),
            Some(Action::PrevTab)
        );
    }

    #[test]
    fn the_footer_comes_from_the_bindings() {
        let f = footer(&ctx(Tab::Products));
        assert!(f.contains(&("s".to_owned(), "sort")));
        assert!(f.contains(&("1-6".to_owned(), "tabs")));
        assert!(f.contains(&("q".to_owned(), "quit")));
        assert!(!footer(&ctx(Tab::Usage)).iter().any(|(_, w)| *w == "sort"));
        // Every footer entry is a key that really does something in that context.
        for tab in Tab::ALL {
            let c = ctx(tab);
            for b in bindings_for(&c).filter(|b| b.footer.is_some()) {
                let first = b.keys[0];
                let mods = if first.ctrl {
                    KeyModifiers::CONTROL
                } else {
                    KeyModifiers::NONE
                };
                assert_eq!(
                    action_for(&c, &key(first.code, mods)),
                    Some(b.action),
                    "{tab:?} {:?}",
                    b.action
                );
            }
        }
    }

    #[test]
    fn a_read_only_profile_does_not_advertise_the_write_keys() {
        let words = |c: &Context| footer(c).into_iter().map(|(_, w)| w).collect::<Vec<_>>();
        let mut c = ctx(Tab::Services);
        assert!(words(&c).contains(&"bind IP"));
        c.read_only = true;
        let shown = words(&c);
        for write in ["bind IP", "passwd", "refresh IPs"] {
            assert!(!shown.contains(&write), "{write} in {shown:?}");
        }
        assert!(shown.contains(&"IP list"), "reading stays: {shown:?}");
        assert!(!help(&c).iter().any(|(_, h)| h.contains("Bind an IP")));
        // The key still answers, to say why nothing opens.
        let b = KeyEvent::new(KeyCode::Char('b'), KeyModifiers::NONE);
        assert_eq!(action_for(&c, &b), Some(Action::BindIp));
    }

    #[test]
    fn the_profile_switch_is_advertised_only_with_somewhere_to_go() {
        let words = |c: &Context| footer(c).into_iter().map(|(_, w)| w).collect::<Vec<_>>();
        let mut c = ctx(Tab::Services);
        assert!(words(&c).contains(&"profile"));
        c.switchable = false;
        assert!(!words(&c).contains(&"profile"), "{:?}", words(&c));
        assert!(!help(&c).iter().any(|(_, h)| h.contains("profile")));
        let p = KeyEvent::new(KeyCode::Char('P'), KeyModifiers::NONE);
        assert_eq!(action_for(&c, &p), Some(Action::SwitchProfile));
    }
}
