//! Drawing the desk: with one account, the account's screen as it is; with several, a top
//! line naming each account with its connection state, then the account shown or the All
//! view, and the desk's own popups (the account picker, every account's messages).

use super::{Desk, Scope, Seat};
use crate::app::geometry::Geometry;
use crate::app::tabs::{DetailPane, Tab};
use crate::ui::theme::Theme;
use crate::ui::{self, columns, layout, text, widgets};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// What a frame measured (see [`crate::app::geometry`]), and for which account: the one
/// shown, or the one whose popup is open over the All view. The driver hands it over
/// after the frame ([`Desk::measured`]).
#[derive(Debug, Default)]
pub struct Measured {
    pub seat: Option<usize>,
    pub geometry: Geometry,
}

pub fn draw(desk: &Desk, frame: &mut Frame, measured: &mut Measured) {
    let seats = desk.seats();
    let theme = Theme::for_look(seats[0].app.settings().look);
    if !desk.is_multi() {
        measured.seat = Some(0);
        ui::draw_in(
            &seats[0].app,
            frame,
            &theme,
            frame.area(),
            &mut measured.geometry,
        );
        return;
    }
    let area = frame.area();
    let [top, rest] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    draw_accounts(frame, desk, &theme, top);
    match desk.scope() {
        Scope::One(k) => {
            measured.seat = Some(k);
            ui::draw_in(&seats[k].app, frame, &theme, rest, &mut measured.geometry);
        }
        Scope::All => draw_all(frame, desk, &theme, rest, measured),
    }
}

/// The rows of the All view's table on a screen of `size` (its page).
pub fn page_rows((w, h): (u16, u16)) -> usize {
    let area = Rect::new(0, 1, w, h.saturating_sub(1));
    layout::table_rows(Tab::Network, area, 0, false, DetailPane::Shown)
        .map_or(10, |r| usize::from(r.height))
}

/// The mark and words of an account's connection: online, throttled until, unreachable
/// since.
pub(super) fn link_words(seat: &Seat) -> (&'static str, String) {
    match seat.app.connection_label() {
        // Not online before anything answered: a server down from the start is not `●`.
        None if seat.app.is_connecting() => ("…", "connecting".into()),
        None => ("●", String::new()),
        Some(label) if seat.app.is_down() => ("✗", label),
        Some(label) => ("⏸", label),
    }
}

fn link(seat: &Seat, theme: &Theme) -> (String, Style, String) {
    let (mark, words) = link_words(seat);
    let style = match mark {
        "✗" => theme.bad,
        "⏸" => theme.warn,
        "…" => theme.dim,
        _ => theme.good,
    };
    (mark.to_owned(), style, words)
}

fn draw_accounts(frame: &mut Frame, desk: &Desk, theme: &Theme, area: Rect) {
    let all = desk.scope() == Scope::All;
    let mut spans = vec![Span::styled(
        " All ",
        if all {
            theme.bar.tab_active
        } else {
            theme.bar.tab_inactive
        },
    )];
    // Whole words where they fit, the marks alone where not.
    let long = |with_words: bool| {
        let mut out = Vec::new();
        for (i, seat) in desk.seats().iter().enumerate() {
            let shown = desk.scope() == Scope::One(i);
            let (mark, style, words) = link(seat, theme);
            out.push(Span::raw(" "));
            out.push(Span::styled(format!("{mark} "), style));
            let name_style = if shown {
                theme.bar.tab_active
            } else {
                theme.account(seat.colour)
            };
            out.push(Span::styled(seat.name.clone(), name_style));
            if seat.app.settings().read_only {
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

fn draw_all(frame: &mut Frame, desk: &Desk, theme: &Theme, area: Rect, measured: &mut Measured) {
    let Some(screen) = layout::screen(area) else {
        frame.render_widget(
            Paragraph::new(Span::styled(ui::TOO_SMALL, theme.warn)),
            area,
        );
        return;
    };
    let seats = desk.seats();
    draw_tabs(frame, desk, theme, screen.tabs);
    draw_info(frame, desk, theme, screen.info);
    let all = desk.all();
    let body = screen.body;
    let selected = all.selected();
    let wants = columns::table_width(all.natural());
    match all.tab {
        Tab::Services => {
            let (pane, detail) = layout::services(body, wants, false, DetailPane::Shown);
            draw_table(frame, desk, theme, pane, "Services");
            if let Some(row) = selected {
                ui::services::draw_detail(frame, &seats[row.seat].app, theme, detail, row.id);
            }
        }
        Tab::Products => {
            let (pane, detail) = layout::products(body, wants, DetailPane::Shown);
            draw_table(
                frame,
                desk,
                theme,
                pane,
                "Products (each account's own prices)",
            );
            if let Some(row) = selected {
                ui::products::draw_detail(frame, &seats[row.seat].app, theme, detail, row.id);
            }
        }
        Tab::Billing => {
            let (credit, ahead, pane) = layout::billing(body);
            draw_credit(frame, desk, theme, credit);
            let runways: Vec<_> = desk
                .seats()
                .iter()
                .map(|s| (s.name.clone(), s.colour, s.app.runway()))
                .collect();
            ui::ahead::draw_accounts(frame, theme, ahead, &runways);
            draw_table(frame, desk, theme, pane, "Invoices");
        }
        Tab::Network => {
            let (summary, pane) = layout::network(body);
            draw_network_summary(frame, desk, theme, summary);
            draw_table(
                frame,
                desk,
                theme,
                pane,
                "Proxy servers in error or inactive",
            );
        }
        Tab::Usage => {
            let (pane, chart, gauge) = layout::usage(body, wants);
            draw_table(frame, desk, theme, pane, "Rotating (ppr)");
            if let Some(row) = selected {
                let app = &seats[row.seat].app;
                ui::usage::draw_chart(frame, app, theme, chart, row.id);
                ui::usage::draw_gauge(frame, app, theme, gauge, row.id);
            }
        }
        Tab::Alerts => {
            let (pane, detail) = layout::alerts(body);
            draw_table(frame, desk, theme, pane, "Alerts");
            if let Some(i) = all.table().selected_row()
                && let Some((k, row)) = all.row(i)
            {
                let app = &seats[k].app;
                ui::alerts::draw_detail(frame, app, theme, detail, app.alerts().rows.get(row));
            }
        }
        // A tab the ui has no pane of its own for (unreachable while every tab has one).
        #[allow(unreachable_patterns)]
        tab => draw_table(frame, desk, theme, layout::list(body), tab.title()),
    }
    draw_status(frame, desk, theme, screen.status);
    match desk.owner() {
        Some(k) => {
            let app = &seats[k].app;
            ui::draw_footer(frame, app, theme, screen.footer);
            // The account's own layout is not on screen: only what its popups measure.
            let mut geometry = app.geometry().clone();
            for i in 0..app.popups().len() {
                ui::popups::draw(frame, app, theme, body, i, &mut geometry);
            }
            *measured = Measured {
                seat: Some(k),
                geometry,
            };
        }
        None => ui::draw_footer_in(frame, &desk.all_context(), theme, screen.footer),
    }
}

fn draw_table(frame: &mut Frame, desk: &Desk, theme: &Theme, pane: layout::Pane, noun: &str) {
    let all = desk.all();
    let table = all.table();
    let mut title = format!("{noun} · all accounts · ");
    // As in one account's view, and as the tab line counts them: the open alerts first.
    let open: usize = desk
        .seats()
        .iter()
        .map(|s| s.app.alerts().open_count())
        .sum();
    if all.tab == Tab::Alerts && open > 0 {
        title.push_str(&format!("{} open · ", text::count(open as u64)));
    }
    title.push_str(&widgets::count_label(table));
    if all.tab == Tab::Services && all.sort.by.is_some() {
        title.push_str(" · ");
        title.push_str(&all.sort.label());
    }
    if table.problems_only() {
        title.push_str(" · problems only (!)");
    }
    // An account that does not answer: its rows are the last it gave, said so here as one
    // account's pane says its age.
    let stale: Vec<String> = desk
        .seats()
        .iter()
        .filter_map(|s| {
            let since = s.app.no_answer_since()?;
            let at = widgets::clock_time(&s.app, since);
            Some(format!("{} ✗ no answer since {at}", s.name))
        })
        .collect();
    let block = widgets::pane(theme, title, Span::styled(stale.join(" · "), theme.bad));
    let block = widgets::with_filter(block, table, theme);
    if table.is_empty() {
        frame.render_widget(block, pane.block);
        let (msg, style) = if table.total() == 0 {
            let loading = desk.seats().iter().any(|s| s.app.in_flight() > 0);
            let word = if loading {
                "Loading…"
            } else {
                "Nothing here."
            };
            (word.to_owned(), theme.dim)
        } else {
            widgets::no_match(theme, table, "rows")
        };
        widgets::message(frame, pane.header(), &msg, style);
        return;
    }
    let columns = all.columns(desk.seats());
    let width = columns.len();
    columns::draw(
        frame,
        theme,
        pane,
        block,
        (&columns, all.natural()),
        table,
        |i| all.cells(desk.seats(), i, width),
    );
}

fn draw_tabs(frame: &mut Frame, desk: &Desk, theme: &Theme, area: Rect) {
    let open: usize = desk
        .seats()
        .iter()
        .map(|s| s.app.alerts().open_count())
        .sum();
    if layout::shows_app_title(area, open) {
        frame.render_widget(
            Paragraph::new(Span::styled(layout::APP_TITLE, theme.bar.app_title)),
            area,
        );
    }
    for (tab, r) in layout::tab_titles(area, open) {
        let style = if tab == desk.all().tab {
            theme.bar.tab_active
        } else if tab == Tab::Alerts && open > 0 {
            theme.bad
        } else {
            theme.bar.tab_inactive
        };
        frame.render_widget(
            Paragraph::new(Span::styled(layout::tab_title(tab, open), style)),
            r,
        );
    }
}

/// The accounts' credit: each, then the total.
fn credit_spans(desk: &Desk, theme: &Theme) -> Vec<Span<'static>> {
    let (each, total) = credit_parts(desk, theme);
    let mut spans = vec![Span::styled(" Credit ", theme.dim)];
    spans.extend(each);
    spans.extend(total);
    spans
}

/// Each account's credit (an account that does not answer: its last, marked `✗`), and
/// the total: in full when every account's is known and fresh, else marked (`+` for one
/// not read yet, `✗` for one that does not answer).
fn credit_parts(desk: &Desk, theme: &Theme) -> (Vec<Span<'static>>, Vec<Span<'static>>) {
    let mut each = Vec::new();
    let mut total = 0.0;
    let mut unknown = false;
    let mut stale = false;
    for seat in desk.seats() {
        let credit = seat.app.billing().credit.value().map(|c| c.credit);
        let down = seat.app.no_answer_since().is_some();
        each.push(Span::styled(
            format!(" {} ", seat.name),
            theme.account(seat.colour),
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
fn draw_info(frame: &mut Frame, desk: &Desk, theme: &Theme, area: Rect) {
    let busy: usize = desk.seats().iter().map(|s| s.app.in_flight()).sum();
    let right = (busy > 0).then(|| {
        Span::styled(
            format!(" ⟳ {} pending ", text::count(busy as u64)),
            theme.dim,
        )
    });
    let room = usize::from(area.width).saturating_sub(right.as_ref().map_or(0, Span::width));
    let width = |spans: &[Span]| spans.iter().map(Span::width).sum::<usize>();
    let (each, total) = credit_parts(desk, theme);
    let lead = Span::styled(format!(" {} accounts ·", desk.seats().len()), theme.dim);
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

fn draw_credit(frame: &mut Frame, desk: &Desk, theme: &Theme, area: Rect) {
    let block = widgets::pane(theme, "Billing · all accounts".into(), Span::raw(""));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(Line::from(credit_spans(desk, theme))), inner);
}

fn draw_network_summary(frame: &mut Frame, desk: &Desk, theme: &Theme, area: Rect) {
    let (mut checked, mut services, mut errors, mut inactive) = (0, 0, 0, 0);
    for seat in desk.seats() {
        let s = seat.app.network().summary;
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
fn draw_status(frame: &mut Frame, desk: &Desk, theme: &Theme, area: Rect) {
    // The outcome of what the person did holds the line until their next key, whichever
    // account's; else the newest line shown of any account (by when it was shown, not by
    // what went to a log only: an account that does not answer logs every read).
    let newest = desk
        .seats()
        .iter()
        .filter(|s| s.app.status().shown().is_some())
        .max_by_key(|s| (s.app.status().is_held(), s.app.status().shown_at()));
    let Some(seat) = newest else {
        let line = if desk.seats().iter().any(|s| s.app.in_flight() > 0) {
            " Loading…"
        } else {
            " ✓ Up to date"
        };
        frame.render_widget(Paragraph::new(Span::styled(line, theme.dim)), area);
        return;
    };
    let name = format!(" {}:", seat.name);
    let used = (name.chars().count() as u16).min(area.width);
    frame.render_widget(
        Paragraph::new(Span::styled(name, theme.account(seat.colour))),
        area,
    );
    let rest = Rect {
        x: area.x + used,
        width: area.width - used,
        ..area
    };
    ui::draw_status(frame, &seat.app, theme, rest);
}
