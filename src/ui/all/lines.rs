//! The lines of the screen over several accounts that name them: the top line (each
//! account and its connection), the tab line, the info line (their credit) and the status
//! line (the newest event of any). What a tab shows of every account (Billing's credit,
//! Network's summary) the tab draws itself (`TabLook::draw_above`).

use super::super::text;
use super::super::theme::Theme;
use crate::app::App;
use crate::app::tabs::Tab;
use crate::app::tabs::billing::look::{CreditOf, credit_parts};
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
pub fn draw_account_line(frame: &mut Frame, accounts: &Accounts, theme: &Theme, area: Rect) {
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
    let credits: Vec<CreditOf> = (accounts.list.iter())
        .map(|a| CreditOf {
            name: a.name,
            colour: a.colour,
            credit: a.app.billing().credit().value().map(|c| c.credit),
            down: a.app.no_answer_since().is_some(),
        })
        .collect();
    let (each, total) = credit_parts(&credits, theme);
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
