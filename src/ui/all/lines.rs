//! The lines of the screen over several accounts that name them: the top line (each
//! account and its connection), the tab line, the info line (their credit), the Billing
//! credit box, the Network summary and the status line (the newest event of any).

use super::super::theme::Theme;
use super::super::{text, widgets};
use crate::app::App;
use crate::app::tabs::Tab;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// An account as the screen over several shows it.
pub struct Account<'a> {
    pub app: &'a App,
    /// Its short name.
    pub name: &'a str,
    /// Its colour's place in the theme's account colours.
    pub colour: u8,
    /// It is the account shown alone.
    pub shown: bool,
}

/// The accounts of the screen, in order, and whether All is shown.
pub struct Accounts<'a> {
    pub all: bool,
    pub list: Vec<Account<'a>>,
}

/// The mark and words of an account's connection: online, throttled until, unreachable
/// since.
pub fn link_words(app: &App) -> (&'static str, String) {
    match app.connection_label() {
        // Not online before anything answered: a server down from the start is not `●`.
        None if app.is_connecting() => ("…", "connecting".into()),
        None => ("●", String::new()),
        Some(label) if app.is_down() => ("✗", label),
        Some(label) => ("⏸", label),
    }
}

fn link(app: &App, theme: &Theme) -> (String, Style, String) {
    let (mark, words) = link_words(app);
    let style = match mark {
        "✗" => theme.bad,
        "⏸" => theme.warn,
        "…" => theme.dim,
        _ => theme.good,
    };
    (mark.to_owned(), style, words)
}

/// The top line: All, then each account with its connection's mark (and words, where the
/// line has room).
pub fn draw_accounts(frame: &mut Frame, accounts: &Accounts, theme: &Theme, area: Rect) {
    let mut spans = vec![Span::styled(
        " All ",
        if accounts.all {
            theme.bar.tab_active
        } else {
            theme.bar.tab_inactive
        },
    )];
    // Whole words where they fit, the marks alone where not.
    let long = |with_words: bool| {
        let mut out = Vec::new();
        for account in &accounts.list {
            let (mark, style, words) = link(account.app, theme);
            out.push(Span::raw(" "));
            out.push(Span::styled(format!("{mark} "), style));
            let name_style = if account.shown {
                theme.bar.tab_active
            } else {
                theme.account(account.colour)
            };
            out.push(Span::styled(account.name.to_owned(), name_style));
            if account.app.settings().read_only {
                out.push(Span::styled(" ro", theme.dim));
            }
            if with_words && !words.is_empty() {
                out.push(Span::styled(format!(" {words}"), style));
            }
        }
        out
    };
    let width = |s: &[Span]| s.iter().map(|s| s.width()).sum::<usize>();
    let mut rest = long(true);
    if width(&spans) + width(&rest) > usize::from(area.width) {
        rest = long(false);
    }
    spans.extend(rest);
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

pub(super) fn draw_tabs(
    frame: &mut Frame,
    accounts: &Accounts,
    shown: Tab,
    theme: &Theme,
    area: Rect,
) {
    let open = super::open_alerts(accounts);
    super::super::tab_line(frame, theme, area, (shown, open, theme.bad));
}

/// The accounts' credit: each, then the total.
fn credit_spans(accounts: &Accounts, theme: &Theme) -> Vec<Span<'static>> {
    let (each, total) = credit_parts(accounts, theme);
    let mut spans = vec![Span::styled(" Credit ", theme.dim)];
    spans.extend(each);
    spans.extend(total);
    spans
}

/// Each account's credit (an account that does not answer: its last, marked `✗`), and
/// the total: in full when every account's is known and fresh, else marked (`+` for one
/// not read yet, `✗` for one that does not answer).
fn credit_parts(accounts: &Accounts, theme: &Theme) -> (Vec<Span<'static>>, Vec<Span<'static>>) {
    let mut each = Vec::new();
    let mut total = 0.0;
    let mut unknown = false;
    let mut stale = false;
    for account in &accounts.list {
        let credit = account.app.billing().credit().value().map(|c| c.credit);
        let down = account.app.no_answer_since().is_some();
        each.push(Span::styled(
            format!(" {} ", account.name),
            theme.account(account.colour),
        ));
        match credit {
            Some(c) if down => {
                stale = true;
                total += c;
                each.push(Span::styled(format!("✗{}", text::money(c)), theme.bad));
            }
            Some(c) => {
                total += c;
                each.push(Span::raw(text::money(c)));
            }
            None => {
                unknown = true;
                each.push(Span::styled("…", theme.dim));
            }
        }
    }
    let mut out = vec![Span::styled("  total ", theme.title)];
    out.push(match (unknown, stale) {
        (false, false) => Span::styled(text::money(total), theme.big),
        (true, _) => Span::styled(format!("{}+", text::money(total)), theme.dim),
        (false, true) => Span::styled(format!("✗{}", text::money(total)), theme.bad),
    });
    (each, out)
}

/// The accounts, their credit and the total; the reads pending on the right, in a room
/// of their own. Where the line is short, the accounts' own credits go before the total
/// is ever cut (Billing lists them).
pub(super) fn draw_info(frame: &mut Frame, accounts: &Accounts, theme: &Theme, area: Rect) {
    let busy: usize = accounts.list.iter().map(|a| a.app.in_flight()).sum();
    let right = (busy > 0).then(|| {
        Span::styled(
            format!(" ⟳ {} pending ", text::count(busy as u64)),
            theme.dim,
        )
    });
    let room = usize::from(area.width).saturating_sub(right.as_ref().map_or(0, Span::width));
    let width = |spans: &[Span]| spans.iter().map(Span::width).sum::<usize>();
    let (each, total) = credit_parts(accounts, theme);
    let lead = Span::styled(format!(" {} accounts ·", accounts.list.len()), theme.dim);
    let credit = Span::styled(" Credit ", theme.dim);
    let mut spans = vec![lead.clone(), credit];
    spans.extend(each);
    spans.extend(total.clone());
    if width(&spans) > room {
        // The total alone, named as such: ` 3 accounts · Credit total $750.00`.
        spans = vec![lead, Span::styled(" Credit total ", theme.dim)];
        spans.extend(total.into_iter().skip(1));
    }
    let left = Rect {
        width: u16::try_from(room).unwrap_or(area.width).min(area.width),
        ..area
    };
    frame.render_widget(Paragraph::new(Line::from(spans)), left);
    if let Some(right) = right {
        frame.render_widget(Paragraph::new(Line::from(right).right_aligned()), area);
    }
}

pub(super) fn draw_credit(frame: &mut Frame, accounts: &Accounts, theme: &Theme, area: Rect) {
    let block = widgets::pane(theme, "Billing · all accounts".into(), Span::raw(""));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(
        Paragraph::new(Line::from(credit_spans(accounts, theme))),
        inner,
    );
}

pub(super) fn draw_network_summary(
    frame: &mut Frame,
    accounts: &Accounts,
    theme: &Theme,
    area: Rect,
) {
    let (mut checked, mut services, mut errors, mut inactive) = (0, 0, 0, 0);
    for account in &accounts.list {
        let s = account.app.network().summary;
        checked += s.checked;
        services += s.services;
        errors += s.errors;
        inactive += s.inactive;
    }
    let line = Line::from(vec![
        Span::raw(format!(
            " Services checked: {} of {}   ",
            text::count(checked as u64),
            text::count(services as u64)
        )),
        Span::styled(
            format!("Servers in error: {}", text::count(errors as u64)),
            if errors > 0 { theme.bad } else { theme.base },
        ),
        Span::styled(
            format!("   Inactive: {}", text::count(inactive as u64)),
            if inactive > 0 { theme.warn } else { theme.base },
        ),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

/// The newest event of any account, after its name.
pub(super) fn draw_status(frame: &mut Frame, accounts: &Accounts, theme: &Theme, area: Rect) {
    // The outcome of what the person did holds the line until their next key, whichever
    // account's; else the newest line shown of any account (by when it was shown, not by
    // what went to a log only: an account that does not answer logs every read).
    let newest = accounts
        .list
        .iter()
        .filter(|a| a.app.status().shown().is_some())
        .max_by_key(|a| (a.app.status().is_held(), a.app.status().shown_at()));
    let Some(account) = newest else {
        let line = if accounts.list.iter().any(|a| a.app.in_flight() > 0) {
            " Loading…"
        } else {
            " ✓ Up to date"
        };
        frame.render_widget(Paragraph::new(Span::styled(line, theme.dim)), area);
        return;
    };
    let name = format!(" {}:", account.name);
    let used = (name.chars().count() as u16).min(area.width);
    frame.render_widget(
        Paragraph::new(Span::styled(name, theme.account(account.colour))),
        area,
    );
    let rest = Rect {
        x: area.x + used,
        width: area.width - used,
        ..area
    };
    super::super::draw_status(frame, account.app, theme, rest);
}
