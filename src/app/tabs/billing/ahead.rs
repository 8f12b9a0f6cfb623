//! "The money ahead" on the Billing tab ([`crate::billing::runway`]): the day the credit
//! runs short at the renewals' schedule and what is due in the next 30 days, the spend
//! per month as a small bar chart with this month against the last, and the renewals by
//! date (as many as fit; a tall screen shows more). Over several accounts: a line per
//! account and the earliest day any of them runs short.

use crate::app::look::theme::Theme;
use crate::app::look::widgets;
use crate::billing::{Caveat, Owed, PriceSource, Runway, Short, runway::SOON_DAYS};
use crate::text;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, theme: &Theme, area: Rect, runway: Option<&Runway>) {
    let block = widgets::pane(theme, "The money ahead".into(), Span::raw(""));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(r) = runway else {
        let wait = Line::from(Span::styled(
            " Waiting for the services, the credit and the invoices…",
            theme.dim,
        ));
        frame.render_widget(Paragraph::new(wait), inner);
        return;
    };
    let mut lines = summary(theme, r, inner.width);
    lines.push(spend(theme, r));
    let room = usize::from(inner.height).saturating_sub(lines.len());
    lines.extend(renewals(theme, r, room));
    frame.render_widget(Paragraph::new(lines), inner);
}

/// ` Covers renewals until 2026-12-14 · $182.50 due in 30 days · 1 with the cycle …`
/// (the caveats in the words of every view: [`Runway::caveats`]);
/// what cannot be read makes the day and the sum say so, never a figure that is too
/// good (` Not known how long the credit lasts · at least $250.00 due in 30 days · not
/// known: the invoices could not be read`). The caveats go on a line of their own when
/// the one line is wider than `width` (none is cut).
fn summary(theme: &Theme, r: &Runway, width: u16) -> Vec<Line<'static>> {
    let style = match (r.credit, r.short, r.covers_until()) {
        (None, ..) => theme.dim,
        (Some(_), Short::On(short), _) if short <= r.today => theme.bad,
        (Some(_), Short::On(_), Some(until)) if until < r.today + chrono::Days::new(SOON_DAYS) => {
            theme.warn
        }
        (Some(_), Short::On(_), _) => theme.title,
        (Some(_), Short::Never, _) => theme.good,
        (Some(_), Short::ByAtLatest(_) | Short::NotKnown, _) => theme.warn,
    };
    let words = match r.credit {
        None => "Credit not known yet".to_owned(),
        Some(_) => capitalised(&r.covers()),
    };
    let mut spans = vec![
        Span::raw(" "),
        Span::styled(words, style),
        Span::styled(" · ", theme.dim),
    ];
    if !r.soon_is_complete() {
        spans.push(Span::styled("at least ", theme.warn));
    }
    spans.push(Span::styled(text::money(r.soon_total), theme.title));
    spans.push(Span::styled(format!(" due in {SOON_DAYS} days"), theme.dim));
    let mut caveats = Vec::new();
    for (words, caveat) in r.caveats() {
        let style = match caveat {
            Caveat::NotKnown => theme.warn,
            Caveat::Assumed => theme.dim,
        };
        caveats.push(Span::styled(" · ", theme.dim));
        caveats.push(Span::styled(words, style));
    }
    let one = Line::from(spans.iter().chain(&caveats).cloned().collect::<Vec<_>>());
    if caveats.is_empty() || one.width() <= usize::from(width) {
        return vec![one];
    }
    caveats[0] = Span::raw("  ");
    vec![Line::from(spans), Line::from(caveats)]
}

fn capitalised(words: &str) -> String {
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// ` Spend/month ▁▃▂▅▇█ this month $25.00, last $55.00` (twelve months, oldest first).
fn spend(theme: &Theme, r: &Runway) -> Line<'static> {
    if !r.invoices_known {
        return Line::from(vec![
            Span::styled(" Spend/month ", theme.dim),
            Span::styled("not known: the invoices could not be read", theme.warn),
        ]);
    }
    // In cents, scaled from zero: a month with nothing paid is the lowest bar.
    let cents: Vec<u64> = r
        .spend
        .iter()
        .map(|(_, v)| (v.max(0.0) * 100.0).round() as u64)
        .collect();
    let (this, last) = r.this_and_last_month();
    let first = r
        .spend
        .first()
        .map(|(m, _)| m.format("%b %Y").to_string())
        .unwrap_or_default();
    let up = if this > last { theme.warn } else { theme.base };
    Line::from(vec![
        Span::styled(" Spend/month ", theme.dim),
        Span::styled(format!("since {first} "), theme.dim),
        Span::styled(text::spark_counts(&cents, cents.len()), theme.title),
        Span::styled("  this month ", theme.dim),
        Span::styled(text::money(this), up),
        Span::styled(", last ", theme.dim),
        Span::raw(text::money(last)),
        Span::styled(
            if r.spend_is_complete() {
                ""
            } else {
                " (at least: some invoices could not be read)"
            },
            theme.warn,
        ),
    ])
}

/// The renewals and unpaid invoices due soon, by date, at most `room` lines (the last
/// saying how many more).
fn renewals(theme: &Theme, r: &Runway, room: usize) -> Vec<Line<'static>> {
    if room == 0 {
        return Vec::new();
    }
    if r.soon.is_empty() {
        return vec![Line::from(Span::styled(
            format!(" Nothing due in the next {SOON_DAYS} days"),
            theme.dim,
        ))];
    }
    // One line for several: the next one and how many more.
    if room == 1 && r.soon.len() > 1 {
        let mut line = owed_line(theme, &r.soon[0], r);
        let rest: f64 = r.soon[1..].iter().map(|o| o.amount).sum();
        line.spans.insert(0, Span::styled(" Next", theme.dim));
        line.spans.push(Span::styled(
            format!(" · {} more, {}", r.soon.len() - 1, text::money(rest)),
            theme.dim,
        ));
        return vec![line];
    }
    let fits = if r.soon.len() > room { room - 1 } else { room };
    let mut lines: Vec<Line<'static>> = r
        .soon
        .iter()
        .take(fits)
        .map(|o| owed_line(theme, o, r))
        .collect();
    if r.soon.len() > fits {
        let rest: f64 = r.soon[fits..].iter().map(|o| o.amount).sum();
        lines.push(Line::from(Span::styled(
            format!(" … {} more, {}", r.soon.len() - fits, text::money(rest)),
            theme.dim,
        )));
    }
    lines
}

fn owed_line(theme: &Theme, o: &Owed, r: &Runway) -> Line<'static> {
    let short = match r.short {
        Short::On(d) | Short::ByAtLatest(d) => o.date >= d,
        Short::Never | Short::NotKnown => false,
    };
    let what = match (o.invoice_id, o.service_id) {
        (Some(inv), Some(s)) => format!("invoice {inv} (service {s})"),
        (Some(inv), None) => format!("invoice {inv}"),
        (None, Some(s)) => format!("service {s}"),
        (None, None) => String::new(),
    };
    let source = match o.source {
        PriceSource::Catalogue => " · catalogue price",
        PriceSource::Service | PriceSource::Invoice => "",
    };
    Line::from(vec![
        Span::styled(format!(" {} ", o.date), theme.dim),
        Span::styled(
            format!("{:>10} ", text::money(o.amount)),
            if short { theme.bad } else { theme.base },
        ),
        Span::raw(what),
        Span::styled(
            format!("  {}{source}", text::truncate(&text::sanitize(&o.what), 28)),
            theme.dim,
        ),
    ])
}

/// Over several accounts: the earliest day any runs short, then each account's line.
pub fn draw_every_account(
    frame: &mut Frame,
    theme: &Theme,
    area: Rect,
    accounts: &[(String, u8, Option<&Runway>)],
) {
    let block = widgets::pane(
        theme,
        "The money ahead · all accounts".into(),
        Span::raw(""),
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let runways: Vec<Option<&Runway>> = accounts.iter().map(|(_, _, r)| *r).collect();
    let earliest = match crate::billing::earliest(&runways) {
        Some((i, day)) => Line::from(vec![
            Span::styled(" Earliest short: ", theme.dim),
            Span::styled(day.to_string(), theme.warn),
            Span::styled(
                format!(" ({})", accounts[i].0),
                theme.account(accounts[i].1),
            ),
        ]),
        None => Line::from(Span::styled(
            " No account runs short of its renewals within a year (of what is known)",
            theme.dim,
        )),
    };
    let mut earliest = earliest;
    let unknown: Vec<&str> = crate::billing::not_known(&runways)
        .into_iter()
        .map(|i| accounts[i].0.as_str())
        .collect();
    if !unknown.is_empty() {
        earliest.spans.push(Span::styled(
            format!(" · not known for {}", unknown.join(", ")),
            theme.warn,
        ));
    }
    let mut lines = vec![earliest];
    // The accounts that run short first, soonest first (a short pane keeps them); the
    // others in their order.
    let mut order: Vec<usize> = (0..accounts.len()).collect();
    order.sort_by_key(|&i| {
        (
            runways[i].and_then(Runway::short_on).is_none(),
            runways[i].and_then(Runway::short_on),
            i,
        )
    });
    for (name, colour, r) in order.into_iter().map(|i| &accounts[i]) {
        let said = r.map_or_else(|| "waiting for its services…".to_owned(), Runway::line);
        lines.push(Line::from(vec![
            Span::styled(format!(" {name} "), theme.account(*colour)),
            Span::raw(said),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
