//! The default bindings: one table, in the order the footer and the help list them. A
//! popup's own keys and a form step's are not here: they are declared beside the popup
//! ([`crate::app::popups`]) or the form ([`super::steps`]); the table only says where they
//! go ([`Part::Step`]).

use super::{Action, Binding, FormKind, Key, ON_SERVICE, Part, PopupKind, Scope, b, code, ctrl, k};
use crate::app::Tab;
use crossterm::event::KeyCode;

use PopupKind as P;
use Scope::*;

/// Where Esc closes.
const CLOSES: &[Scope] = &[Viewer, Popup(P::FormBusy), Popup(P::FormDone)];
/// Tabs sorted locally with `s`/`S`.
const SORTABLE: &[Scope] = &[Tab(Tab::Services), Tab(Tab::Billing), Tab(Tab::Network)];
/// Tabs whose rows `!` narrows to the problems.
const PROBLEMS: &[Scope] = &[
    Tab(Tab::Services),
    Tab(Tab::Billing),
    Tab(Tab::Network),
    Tab(Tab::Usage),
];

/// `1`, `2`, …: a digit per tab, in the order of the tabs' list.
const TAB_KEYS: [Key; Tab::ALL.len()] = {
    let mut keys = [k('1'); Tab::ALL.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = k((b'1' + i as u8) as char);
        i += 1;
    }
    keys
};

/// The default bindings, in the order the footer and the help list them: the step on top
/// right after help (so the footer shows its keys first), the forms' keys after the
/// tabs' Enter.
pub const TABLE: &[Part] = &[
    Part::Rows(FIRST),
    Part::Step,
    Part::Rows(POPUPS_AND_TABS),
    Part::Rows(OPEN_FORMS),
    Part::Rows(ON_ROWS),
];

/// Typing a filter, and the keys no popup may take.
#[rustfmt::skip]
const FIRST: &[Binding] = &[
    // Typing a filter.
    b(&[code(KeyCode::Enter)], Action::FilterAccept, &[FilterInput], Some("keep filter"), "Keep the filter and leave the input"),
    b(&[code(KeyCode::Esc)], Action::Back, &[FilterInput], Some("clear"), "Clear the filter"),
    b(&[code(KeyCode::Backspace)], Action::FilterBackspace, &[FilterInput], None, "Delete the last character"),
    b(&[code(KeyCode::Down)], Action::Down, &[FilterInput], None, "Move down"),
    b(&[code(KeyCode::Up)], Action::Up, &[FilterInput], None, "Move up"),
    // Everywhere but in the filter input and form fields (first, so the footer never drops them).
    b(&[k('?')], Action::Help, &[Main, AnyPopup], Some("help"), "Help for the current context"),
    b(&[k('q')], Action::Quit, &[Main, Viewer], Some("quit"), "Quit"),
    // Over several accounts (early, so no footer drops the way back to All).
    b(&[k('A')], Action::AllAccounts, &[AllView], Some("one account"), "Show the highlighted row's account alone (A again: all accounts)"),
    b(&[k('A')], Action::AllAccounts, &[Among], Some("all accounts"), "Show every account's rows together (the All view)"),
];

/// The popups' own keys, then the tabs' up to their Enter.
#[rustfmt::skip]
const POPUPS_AND_TABS: &[Binding] = &[
    // A form that is busy or shows its outcome (its steps' keys are its own).
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::FormDone)], None, "Close"),
    b(&[code(KeyCode::Enter)], Action::Submit, &[Popup(P::FormBusy)], None, "Ignored while the request is on its way"),
    // The tabs.
    b(&TAB_KEYS, Action::GoTab, &[Main], Some("tabs"), "Go to a tab by its number (as the tab line shows it)"),
    b(&[code(KeyCode::Tab)], Action::NextTab, &[Main], None, "Next tab"),
    b(&[code(KeyCode::BackTab)], Action::PrevTab, &[Main], None, "Previous tab"),
    b(&[k('j'), code(KeyCode::Down)], Action::Down, &[Main], None, "Move down"),
    b(&[k('k'), code(KeyCode::Up)], Action::Up, &[Main], None, "Move up"),
    b(&[k('g'), code(KeyCode::Home)], Action::Top, &[Main], None, "Go to the top"),
    b(&[k('G'), code(KeyCode::End)], Action::Bottom, &[Main], None, "Go to the bottom"),
    b(&[code(KeyCode::PageDown)], Action::PageDown, &[Main], None, "Page down"),
    b(&[code(KeyCode::PageUp)], Action::PageUp, &[Main], None, "Page up"),
    b(&[k('/')], Action::Filter, &[Main], Some("filter"), "Filter the table by any visible text"),
    b(&[k(' ')], Action::Mark, &[Main], None, "Mark or unmark the row: y, a, u (Alerts) and your actions then act on every marked row; Esc clears"),
    b(&[code(KeyCode::Enter)], Action::Open, &[Tab(Tab::Services), Tab(Tab::Products)], Some("details"), "Open the selected item's detail"),
    b(&[code(KeyCode::Enter)], Action::Open, &[Tab(Tab::Billing)], Some("invoice"), "Open the selected invoice"),
    b(&[code(KeyCode::Enter)], Action::Open, &[Tab(Tab::Network)], Some("service"), "Show the service of the selected server"),
    b(&[code(KeyCode::Enter)], Action::Open, &[Tab(Tab::Alerts)], Some("go to"), "Show the service or invoice the alert is about"),
    b(&[code(KeyCode::Enter)], Action::Open, &[Tab(Tab::Clients)], Some("card"), "The selected client's card: their e-mail to copy, the orders placed for them this session"),
];

/// The keys that open the forms, one row per [`FormKind`], in the order the footer and
/// the help list them.
#[rustfmt::skip]
const OPEN_FORMS: &[Binding] = &[
    b(&[k('o')], Action::OpenForm(FormKind::Order), &[Item(Tab::Products)], Some("order"), "Order the selected product"),
    b(&[k('b')], Action::OpenForm(FormKind::BindIp), ON_SERVICE, Some("bind IP"), "Bind an IP to the selected static (fpr) service"),
    b(&[k('p')], Action::OpenForm(FormKind::Password), ON_SERVICE, Some("passwd"), "Change the proxy password"),
    b(&[k('u')], Action::OpenForm(FormKind::Refresh), ON_SERVICE, Some("refresh IPs"), "Refresh the IP list (the server throttles this)"),
    b(&[k('i')], Action::OpenForm(FormKind::IpList), ON_SERVICE, Some("IP list"), "Show, copy or save the IP list"),
    b(&[k('#')], Action::OpenForm(FormKind::InvoiceNumber), &[Tab(Tab::Billing)], Some("by number"), "Open an invoice by its number (as its e-mail gives it)"),
    b(&[k('s')], Action::OpenForm(FormKind::Silence), &[Tab(Tab::Alerts)], Some("silence"), "Silence the selected alert's rule, service or both for a while, with a reason"),
    b(&[k('#')], Action::OpenForm(FormKind::ServiceNumber), &[Tab(Tab::Services)], None, "Open a service by its ID (as an e-mail or a ticket gives it)"),
];

/// The actions on the selected row, the tabs' other keys, closing a popup, and the keys
/// that work everywhere.
#[rustfmt::skip]
const ON_ROWS: &[Binding] = &[
    b(&[k('x')], Action::ClearCountdown, ON_SERVICE, None, "Clear the IP-list refresh countdown"),
    b(&[k('h')], Action::Probe, ON_SERVICE, Some("probe"), "Probe every proxy through itself"),
    b(&[k('s')], Action::CycleSort, &[Tab(Tab::Products)], Some("sort"), "Cycle the sort field (the server sorts)"),
    b(&[k('s')], Action::CycleSort, SORTABLE, Some("sort"), "Sort by the next field, or back to the server's order"),
    b(&[k('S')], Action::ReverseSort, SORTABLE, None, "Reverse the sort"),
    b(&[k('!')], Action::ProblemsOnly, PROBLEMS, Some("problems"), "Show only the rows with a problem, or all again"),
    b(&[k('a')], Action::Acknowledge, &[Tab(Tab::Alerts)], Some("ack"), "Acknowledge the selected alert: listed, not delivered again until it resolves"),
    b(&[k('u')], Action::Unsilence, &[Tab(Tab::Alerts)], Some("unsilence"), "End the silence that covers the selected alert"),
    b(&[k('t')], Action::CycleRange, &[Tab(Tab::Usage)], Some("range"), "Chart range: 24 h, 7 d, 30 d (from the history)"),
    b(&[code(KeyCode::Left)], Action::DayBack, &[Tab(Tab::Usage)], Some("day"), "Chart cursor: the point before (its date and value under the chart)"),
    b(&[code(KeyCode::Right)], Action::DayForward, &[Tab(Tab::Usage)], None, "Chart cursor: the point after"),
    b(&[k('z')], Action::CycleDetail, &[Tab(Tab::Services), Tab(Tab::Products)], Some("detail"), "Detail pane: shown, hidden (the list takes the room), zoomed"),
    b(&[k('v')], Action::TogglePassword, ON_SERVICE, Some("password"), "Show or hide the password"),
    b(&[k('y')], Action::CopyProxy, ON_SERVICE, None, "Copy the service's first proxy as host:port:user:pass (from its IP list)"),
    b(&[k('r')], Action::Refresh, &[Main], Some("refresh"), "Refresh this tab"),
    b(&[k('R')], Action::RefreshAll, &[Main], Some("all"), "Refresh everything"),
    b(&[k('P')], Action::SwitchProfile, &[Among], Some("accounts"), "Pick the account to show alone, or All"),
    b(&[k('P')], Action::SwitchProfile, &[Main], Some("profile"), "Switch to another profile (account) of the config file"),
    b(&[k('m')], Action::Messages, &[Main], Some("messages"), "What is pending (the header's ⟳ N) and why, then the message log: every status line and order outcome, newest first"),
    b(&[k(':'), ctrl('p')], Action::Palette, &[Main], Some("palette"), "Command palette: find a service, product, invoice, tab or action, with its command line"),
    b(&[k('L')], Action::CommandLog, &[Main], None, "Command log: what was done this session, as proxydash command lines"),
    b(&[code(KeyCode::Esc)], Action::Back, &[Main], None, "Clear the filter, or dismiss the status message"),
    // Popups.
    b(&[code(KeyCode::Esc)], Action::Back, CLOSES, Some("close"), "Close the popup"),
    b(&[ctrl('c')], Action::ForceQuit, &[Everywhere], None, "Quit, from anywhere"),
    b(&[ctrl('z')], Action::Suspend, &[Everywhere], None, "Suspend to the shell (fg comes back)"),
];
