//! The Billing tab's look: the credit, large, above the money ahead and the invoices;
//! and an invoice's lines (the invoice popup's).

use super::{BillingTab, BillingView};
use crate::api::{InvoiceStatus, Request};
use crate::app::Answer;
use crate::app::columns::Tone;
use crate::app::data::TabData;
use crate::app::look::pane::Pane;
use crate::app::look::theme::Theme;
use crate::app::look::{columns, widgets};
use crate::app::tabs::{Areas, Fit, Heading, Member, Props, Rows, TabLook};
use crate::text;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The credit, the money ahead (a summary line, the spend per month and as many renewals
/// as fit: more on a tall screen), and the invoices.
impl TabLook for BillingTab {
    fn areas(&self, body: Rect, _fit: Fit) -> Areas {
        let ahead = if body.height >= 30 { 9 } else { 5 };
        let [credit, ahead, table] = Layout::vertical([
            Constraint::Length(3),
            Constraint::Length(ahead),
            Constraint::Min(0),
        ])
        .areas(body);
        Areas {
            table: Pane::with_header(table),
            above: [credit, ahead],
            ..Areas::default()
        }
    }

    fn draw_above(&self, frame: &mut Frame, areas: &Areas, props: &Props<'_>, rows: &Rows) {
        let ([credit, ahead], theme) = (areas.above, props.theme);
        match rows {
            Rows::One => {
                draw_credit(
                    frame,
                    self.view(props.data.store),
                    props.data,
                    theme,
                    credit,
                );
                super::ahead::draw(frame, theme, ahead, self.runway.as_deref());
            }
            Rows::Merged(merged) => {
                let block = widgets::pane(theme, "Billing · all accounts".into(), Span::raw(""));
                let inner = block.inner(credit);
                frame.render_widget(block, credit);
                let credits = credits_of(&merged.members);
                let (each, total) = credit_parts(&credits, theme);
                let mut spans = vec![Span::styled(" Credit ", theme.dim)];
                spans.extend(each);
                spans.extend(total);
                frame.render_widget(Paragraph::new(Line::from(spans)), inner);
                let runways: Vec<_> = (merged.members.iter())
                    .map(|m| {
                        (
                            m.name.to_owned(),
                            m.colour,
                            m.tabs.billing.runway.as_deref(),
                        )
                    })
                    .collect();
                super::ahead::draw_every_account(frame, theme, ahead, &runways);
            }
        }
    }

    fn heading(&self, props: &Props<'_>) -> Option<Heading> {
        let (data, theme) = (props.data, props.theme);
        let tab = self.view(data.store);
        let loaded = tab.invoices().value().is_some();
        let title = widgets::titled("Invoices", loaded, &self.table, &tab.sort.label());
        let fresh = widgets::freshness(data, theme, tab.invoices().freshness());
        let mut heading = Heading::new(title, fresh);
        heading.skipped = (data.store)
            .invoices_listed()
            .and_then(|l| l.skipped_line());
        heading.instead = widgets::placeholder(
            data,
            theme,
            tab.invoices(),
            &self.table,
            &Request::Invoices,
            "invoices",
        );
        Some(heading)
    }

    fn merged_noun(&self) -> Option<&'static str> {
        Some("Invoices")
    }
}

/// An account's credit, as the lines over several accounts show it.
pub struct CreditOf<'a> {
    pub name: &'a str,
    pub colour: u8,
    /// Its credit, once read.
    pub credit: Option<f64>,
    /// It does not answer: its credit is the last it gave.
    pub down: bool,
}

/// The credit of each member of the All view.
fn credits_of<'a>(members: &[Member<'a>]) -> Vec<CreditOf<'a>> {
    (members.iter())
        .map(|m| CreditOf {
            name: m.name,
            colour: m.colour,
            credit: m.data.store.credit_answer().value().map(|c| c.credit),
            down: m.no_answer_since.is_some(),
        })
        .collect()
}

/// Each account's credit (an account that does not answer: its last, marked `✗`), and
/// the total: in full when every account's is known and fresh, else marked (`+` for one
/// not read yet, `✗` for one that does not answer).
pub fn credit_parts(
    accounts: &[CreditOf<'_>],
    theme: &Theme,
) -> (Vec<Span<'static>>, Vec<Span<'static>>) {
    let mut each = Vec::new();
    let mut total = 0.0;
    let mut unknown = false;
    let mut stale = false;
    for account in accounts {
        each.push(Span::styled(
            format!(" {} ", account.name),
            theme.account(account.colour),
        ));
        match account.credit {
            Some(c) if account.down => {
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

fn draw_credit(
    frame: &mut Frame,
    tab: BillingView<'_>,
    data: &TabData<'_>,
    theme: &Theme,
    area: Rect,
) {
    let credit = &tab.credit();
    let block = widgets::pane(
        theme,
        "Billing".into(),
        widgets::freshness(data, theme, credit.freshness()),
    );
    let line = match (credit.value(), credit) {
        (Some(c), _) => {
            let mut spans = vec![
                Span::styled(" Credit  ", theme.title),
                Span::styled(text::money(c.credit), theme.big),
            ];
            // The Unpaid total is what someone acts on; the 30-day trend gives way first
            // when the line is narrow (its range, then its sparkline).
            let unpaid = unpaid_spans(tab, theme);
            let width = |spans: &[Span<'_>]| spans.iter().map(Span::width).sum::<usize>();
            let room = usize::from(area.width.saturating_sub(2))
                .saturating_sub(width(&spans) + width(&unpaid));
            let mut trend = credit_trend(data, theme);
            if width(&trend) > room {
                trend.pop(); // the range
            }
            if width(&trend) > room {
                trend.clear();
            }
            spans.extend(trend);
            spans.extend(unpaid);
            Line::from(spans)
        }
        (None, Answer::Failed { error, .. }) => Line::from(Span::styled(
            crate::app::status::error_line(&Request::Credit, error, &data.settings.profile),
            theme.bad,
        )),
        (None, Answer::NotRequested) => Line::from(""),
        (None, _) => Line::from(Span::styled(" Credit  loading…", theme.dim)),
    };
    frame.render_widget(Paragraph::new(line).block(block), area);
}

/// The credit over the last 30 days from the history store: a sparkline of each day's
/// lowest (a drop within a day shows even when topped up before midnight) and the range.
fn credit_trend(data: &TabData<'_>, theme: &Theme) -> Vec<Span<'static>> {
    let Some(o) = data.history.overview() else {
        return Vec::new();
    };
    let known: Vec<f64> = o
        .credit_30d
        .iter()
        .chain(&o.credit_30d_low)
        .flatten()
        .copied()
        .collect();
    let (Some(lo), Some(hi)) = (
        known.iter().copied().reduce(f64::min),
        known.iter().copied().reduce(f64::max),
    ) else {
        return Vec::new();
    };
    vec![
        Span::styled("    30 days ", theme.dim),
        Span::styled(text::spark(&o.credit_30d_low, 30), theme.title),
        Span::styled(
            format!(" {}–{}", text::money(lo), text::money(hi)),
            theme.dim,
        ),
    ]
}

/// `   Unpaid  $45.00 in 3 invoices` once the invoices are known; `at least` when some
/// invoices of the list could not be read (one of them may be owed).
fn unpaid_spans(tab: BillingView<'_>, theme: &Theme) -> Vec<Span<'static>> {
    if tab.invoices().value().is_none() {
        return Vec::new();
    }
    let (n, total) = tab.unpaid();
    let unread = tab.store.invoices_listed().map_or(0, |l| l.skipped_count);
    let incomplete = match unread {
        0 => None,
        1 => Some(" (and 1 invoice that could not be read)".to_owned()),
        n => Some(format!(
            " (and {} invoices that could not be read)",
            text::count(n as u64)
        )),
    };
    let mut spans = if n == 0 {
        vec![Span::styled("   No unpaid invoices", theme.dim)]
    } else {
        let noun = if n == 1 { "invoice" } else { "invoices" };
        vec![
            Span::styled("   Unpaid  ", theme.title),
            Span::styled(
                if incomplete.is_some() {
                    "at least "
                } else {
                    ""
                },
                theme.warn,
            ),
            Span::styled(text::money(total), theme.warn),
            Span::styled(format!(" in {} {noun}", text::count(n as u64)), theme.dim),
        ]
    };
    if let Some(words) = incomplete {
        spans.push(Span::styled(words, theme.warn));
    }
    spans
}

pub fn status_style(status: &InvoiceStatus, theme: &Theme) -> Style {
    columns::style(theme, Tone::of_invoice(status))
}
