//! Pieces every view uses: the pane block with its freshness label, tables that build only
//! their visible rows, placeholders for loading/empty/failed lists, and label–value detail
//! lists.

use super::Seen;
use super::pane::Pane;
use super::theme::Theme;
use crate::app::status;
use crate::app::table::TableView;
use crate::app::{Answer, Freshness};
use crate::text;
use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Row, Table, TableState, Wrap};

/// `14:03:05`, or `2026-01-02 14:03:05` when not today, in the app's offset.
pub fn clock_time(app: &impl Seen, at: DateTime<Utc>) -> String {
    let offset = app.offset();
    let local = at.with_timezone(&offset);
    if local.date_naive() == app.now().with_timezone(&offset).date_naive() {
        local.format("%H:%M:%S").to_string()
    } else {
        local.format("%Y-%m-%d %H:%M:%S").to_string()
    }
}

/// Whether data of `kind` that arrived at `at` is older than it is kept (its cadence in
/// the freshness table: the refresh interval, or hourly for the catalogue), and some.
fn is_old(app: &impl Seen, at: DateTime<Utc>, kind: crate::account::Kind) -> bool {
    let refresh = app.settings().refresh;
    let Some(every) = kind.cadence(refresh, true) else {
        return false;
    };
    // Twice the interval: a reread on its way is not news.
    let limit = chrono::Duration::from_std(every * 2).unwrap_or(chrono::Duration::MAX);
    app.now() - at > limit
}

/// `12 s`, `4 min`: how long ago `at` was.
fn age(app: &impl Seen, at: DateTime<Utc>) -> String {
    crate::text::ago(app.now() - at)
}

/// What a pane says about its data's age, and how it looks: data kept fresh every
/// refresh (a list, a detail).
pub fn freshness(app: &impl Seen, theme: &Theme, f: Freshness) -> Span<'static> {
    freshness_of(app, theme, f, crate::account::Kind::Services)
}

/// [`freshness`] for data of `kind`, old only past its own cadence: the catalogue, read
/// hourly, is not stale a minute after it came (issue 45).
pub fn freshness_of(
    app: &impl Seen,
    theme: &Theme,
    f: Freshness,
    kind: crate::account::Kind,
) -> Span<'static> {
    match f {
        Freshness::NotRequested => Span::raw(""),
        Freshness::Loading => Span::styled("loading…", theme.dim),
        Freshness::Refreshing(at) => Span::styled(
            format!("refreshing… (updated {})", clock_time(app, at)),
            theme.dim,
        ),
        // Older than `refresh`: its age, so data that stopped coming is never taken for
        // fresh (the engine rereads within `refresh` while the API answers).
        Freshness::Updated(at) if is_old(app, at, kind) => Span::styled(
            format!("⚠ updated {} ({} ago)", clock_time(app, at), age(app, at)),
            theme.stale,
        ),
        Freshness::Updated(at) => {
            Span::styled(format!("updated {}", clock_time(app, at)), theme.dim)
        }
        Freshness::Stale(at) => Span::styled(
            format!(
                "⚠ stale since {} ({} ago)",
                clock_time(app, at),
                age(app, at)
            ),
            theme.stale,
        ),
        Freshness::Failed => Span::styled("✗ failed", theme.bad),
        // A kind of data whose reads keep failing is its own state (the `datum_failing`
        // alert), said as such: not one refresh that failed.
        Freshness::Failing {
            tries,
            at,
            last_good,
        } => {
            let data = match last_good {
                Some(good) => format!(
                    "; shown: {} ({} ago)",
                    clock_time(app, good),
                    age(app, good)
                ),
                None => String::new(),
            };
            Span::styled(
                format!(
                    "✗ failing: {tries} reads in a row, the last at {}{data}",
                    clock_time(app, at)
                ),
                theme.bad,
            )
        }
    }
}

/// A popup's title, naming its account over several accounts (IDs repeat across
/// accounts: `Bind IP · service 1003 · acme`).
pub fn of_account(app: &impl Seen, title: String) -> String {
    let s = app.settings();
    if s.among.accounts {
        format!("{title} · {}", text::sanitize(&s.profile))
    } else {
        title
    }
}

/// A bordered pane with a title on the left and the freshness on the right.
pub fn pane<'a>(theme: &Theme, title: String, fresh: Span<'static>) -> Block<'a> {
    let mut block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(theme.border)
        .title(Line::from(Span::styled(format!(" {title} "), theme.title)));
    if !fresh.content.is_empty() {
        let fresh = Span::styled(format!(" {} ", fresh.content), fresh.style);
        block = block.title(Line::from(fresh).right_aligned());
    }
    block
}

/// [`pane`] for an area `width` wide: the title stays whole, and the freshness on the right
/// is cut to the room left (a title cut in the middle of an ID says another ID).
pub fn pane_fit<'a>(theme: &Theme, title: String, fresh: Span<'static>, width: u16) -> Block<'a> {
    // The corners, a space either side of each title, and a gap between them.
    let room = usize::from(width)
        .saturating_sub(2 + unicode_width::UnicodeWidthStr::width(title.as_str()) + 2 + 1 + 2);
    let fresh = match room {
        0..=3 => Span::raw(""),
        room => Span::styled(
            text::truncate(&fresh.content, room).into_owned(),
            fresh.style,
        ),
    };
    pane(theme, title, fresh)
}

/// A pane title with the table's count: `Services · 42`, `Services · 3 of 42`, or just
/// `Services` while there is nothing to count.
pub fn counted(noun: &str, loaded: bool, table: &TableView) -> String {
    if loaded {
        format!("{noun} · {}", count_label(table))
    } else {
        noun.to_owned()
    }
}

/// A pane title with the count and what orders and narrows the rows:
/// `Services · 42 · by due date · problems only`.
pub fn titled(noun: &str, loaded: bool, table: &TableView, sort: &str) -> String {
    let mut title = counted(noun, loaded, table);
    if loaded && sort != "server order" {
        title.push_str(&format!(" · {sort}"));
    }
    if table.problems_only() {
        title.push_str(" · problems only (!)");
    }
    title
}

/// The table's count: `42` or `3 of 42`.
pub fn count_label(table: &TableView) -> String {
    let mut label = if table.filter().is_empty() && !table.problems_only() {
        text::count(table.total() as u64)
    } else {
        format!(
            "{} of {}",
            text::count(table.len() as u64),
            text::count(table.total() as u64)
        )
    };
    if table.marked_count() > 0 {
        label.push_str(&format!(
            " · {} marked",
            text::count(table.marked_count() as u64)
        ));
    }
    label
}

/// The filter, shown on the pane's bottom edge: `/abc▏` while typing, `filter: abc` after.
pub fn with_filter<'a>(block: Block<'a>, table: &TableView, theme: &Theme) -> Block<'a> {
    let shown = text::sanitize(table.filter()).into_owned();
    if table.is_editing() {
        block.title_bottom(Line::from(vec![
            Span::styled(" /", theme.key),
            Span::raw(shown),
            Span::styled("▏ ", theme.key),
        ]))
    } else if !table.filter().is_empty() {
        block.title_bottom(Line::from(vec![
            Span::styled(" filter: ", theme.key),
            Span::raw(format!("{shown} ")),
        ]))
    } else {
        block
    }
}

/// Records of the list the server sent that could not be read (`1 invoice could not be
/// read: id 812, amount "1,234.50"`), on the pane's bottom edge: the rows shown are not
/// the whole list, and the pane says so while it shows them.
pub fn with_skipped<'a>(block: Block<'a>, line: Option<String>, theme: &Theme) -> Block<'a> {
    match line {
        Some(line) => block.title_bottom(
            Line::from(Span::styled(format!(" ⚠ {line} "), theme.warn)).right_aligned(),
        ),
        None => block,
    }
}

/// What a list pane shows instead of rows, if anything: loading, the failure, "none", or
/// "nothing matches".
pub fn placeholder<T>(
    app: &impl Seen,
    theme: &Theme,
    remote: Answer<'_, Vec<T>>,
    table: &TableView,
    request: &crate::api::Request,
    noun: &str,
) -> Option<(String, Style)> {
    match remote.value() {
        None => match remote {
            Answer::Failed { error, .. } => Some((
                status::error_line(request, error, &app.settings().profile),
                theme.bad,
            )),
            Answer::NotRequested => Some((String::new(), theme.dim)),
            _ => Some((format!("Loading {noun}…"), theme.dim)),
        },
        Some(v) if v.is_empty() => Some((format!("No {noun}."), theme.dim)),
        Some(_) if table.is_empty() => Some(no_match(theme, table, noun)),
        Some(_) => None,
    }
}

/// What a pane shows while its read has no value: the failure, in the status line's
/// words, or that `what` is loading; `None` once there is a value.
pub fn remote_message<T>(
    app: &impl Seen,
    theme: &Theme,
    remote: Answer<'_, T>,
    request: &crate::api::Request,
    what: &str,
) -> Option<(String, Style)> {
    match (remote.value(), remote) {
        (Some(_), _) => None,
        (None, Answer::Failed { error, .. }) => Some((
            status::error_line(request, error, &app.settings().profile),
            theme.bad,
        )),
        (None, _) => Some((format!("Loading {what}…"), theme.dim)),
    }
}

/// A filtered table with no row left: what the filter was and how to clear it.
pub fn no_match(theme: &Theme, table: &TableView, noun: &str) -> (String, Style) {
    let filter = text::sanitize(table.filter());
    let line = match (filter.is_empty(), table.problems_only()) {
        (true, true) => format!("No {noun} with a problem (! shows them all)."),
        (false, true) => format!(
            "No {noun} with a problem match \"{filter}\" (Esc clears the filter, ! shows every row)."
        ),
        _ => format!("No {noun} match \"{filter}\" (Esc clears the filter)."),
    };
    (line, theme.dim)
}

/// A message inside an area, wrapped.
pub fn message(frame: &mut Frame, area: Rect, text: &str, style: Style) {
    frame.render_widget(
        Paragraph::new(Span::styled(text.to_owned(), style))
            .wrap(Wrap { trim: true })
            .block(Block::new().padding(ratatui::widgets::Padding::horizontal(1))),
        area,
    );
}

/// Draws a table pane: the block, the header, and only the rows that fit (built by
/// `row(index)` for the row indices on screen).
pub fn table<'a>(
    frame: &mut Frame,
    theme: &Theme,
    pane: Pane,
    block: Block<'a>,
    (header, widths): (&[&'a str], &[Constraint]),
    view: &TableView,
    row: impl Fn(usize) -> Row<'a>,
) {
    frame.render_widget(block, pane.block);
    let height = usize::from(pane.rows.height);
    let (first, visible) = view.visible(height);
    let rows: Vec<Row> = visible.iter().map(|&i| row(i)).collect();
    let selected = view.selected_position().checked_sub(first);
    let mut state = TableState::new().with_selected(selected.filter(|_| !visible.is_empty()));
    let area = Rect {
        height: pane.rows.height + 1,
        ..pane.header()
    };
    let table = Table::new(rows, widths.iter().copied())
        .header(Row::new(header.iter().copied()).style(theme.header_row))
        .row_highlight_style(theme.selected)
        .highlight_symbol("▶ ")
        .highlight_spacing(ratatui::widgets::HighlightSpacing::Always)
        .column_spacing(1);
    frame.render_stateful_widget(table, area, &mut state);
    super::columns::draw_marks(frame, theme, pane, view, visible);
}

/// Label–value lines of a detail pane.
pub fn field<'a>(theme: &Theme, label: &'a str, width: usize, value: Span<'a>) -> Line<'a> {
    Line::from(vec![
        Span::styled(format!("{label:<width$} "), theme.dim),
        value,
    ])
}

/// Lays `lines` out in as many columns as `area` needs to show them all (at most two);
/// a line wider than its column ends in `…` ([`fit_line`]).
pub fn columns(frame: &mut Frame, area: Rect, lines: Vec<Line<'_>>) {
    let h = usize::from(area.height.max(1));
    let fitted = |lines: Vec<Line<'_>>, width: u16| -> Vec<Line<'static>> {
        lines
            .into_iter()
            .map(|l| fit_line(l, usize::from(width)))
            .collect()
    };
    if lines.len() <= h || area.width < 60 {
        frame.render_widget(Paragraph::new(fitted(lines, area.width)), area);
        return;
    }
    let [left, right] = ratatui::layout::Layout::horizontal([
        Constraint::Percentage(50),
        Constraint::Percentage(50),
    ])
    .areas(area);
    let mut lines = lines;
    let rest = lines.split_off(lines.len().div_ceil(2));
    frame.render_widget(Paragraph::new(fitted(lines, left.width)), left);
    frame.render_widget(Paragraph::new(fitted(rest, right.width)), right);
}

/// Every line of `lines` cut to `width` columns with `…` ([`fit_line`]).
pub fn fitted(lines: Vec<Line<'_>>, width: u16) -> Vec<Line<'static>> {
    lines
        .into_iter()
        .map(|l| fit_line(l, usize::from(width)))
        .collect()
}

/// `line` cut to `width` columns, its last kept character replaced by `…` when cut, the
/// styles kept.
pub fn fit_line(line: Line<'_>, width: usize) -> Line<'static> {
    use unicode_width::UnicodeWidthChar;
    let style = line.style;
    let alignment = line.alignment;
    let mut out: Vec<Span<'static>> = Vec::new();
    if line.width() <= width {
        out = line
            .spans
            .into_iter()
            .map(|s| Span::styled(s.content.into_owned(), s.style))
            .collect();
    } else {
        let mut room = width.saturating_sub(1);
        let mut last_style = style;
        for span in line.spans {
            let mut kept = String::new();
            for c in span.content.chars() {
                let w = c.width().unwrap_or(0);
                if w > room {
                    room = 0;
                    break;
                }
                room -= w;
                kept.push(c);
            }
            last_style = span.style;
            let full = room == 0;
            out.push(Span::styled(kept, span.style));
            if full {
                break;
            }
        }
        if width > 0 {
            out.push(Span::styled("…", last_style));
        }
    }
    let mut fitted = Line::from(out).style(style);
    fitted.alignment = alignment;
    fitted
}

/// A section's title in a viewer: `Orders this session`.
pub fn section(theme: &Theme, title: &str) -> Line<'static> {
    Line::from(Span::styled(title.to_owned(), theme.title))
}
