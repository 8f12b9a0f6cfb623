//! Tables drawn from a column spec ([`crate::app::columns`]): the space is shared by
//! priority and content, a cut text ends with `…`, a number is hidden rather than cut.

use super::pane::Pane;
use super::theme::Theme;
use crate::app::columns::{CellText, Column, Tone, widen, width};
use crate::app::table::TableView;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, HighlightSpacing, Row, Table, TableState};
use unicode_width::UnicodeWidthChar;

/// The selection mark before each row (`▶ `), and the gap between columns.
const MARK: u16 = 2;
const GAP: u16 = 1;

/// Each column's width in `avail` cells (`None`: hidden). See the module docs of
/// [`crate::app::columns`] for the rules.
pub fn fit(columns: &[Column], natural: &[u16], avail: u16) -> Vec<Option<u16>> {
    let mut order: Vec<usize> = (0..columns.len()).collect();
    order.sort_by_key(|&i| columns[i].priority);
    let natural_of = |i: usize| natural.get(i).copied().unwrap_or(0);
    let min_of = |i: usize| {
        let c = &columns[i];
        if c.number {
            natural_of(i)
        } else {
            c.min.min(natural_of(i))
        }
    };
    let mut widths: Vec<Option<u16>> = vec![None; columns.len()];
    let mut used: u16 = 0;
    for &i in &order {
        let gap = if used == 0 { 0 } else { GAP };
        let need = min_of(i).saturating_add(gap);
        if used.saturating_add(need) <= avail {
            used += need;
            widths[i] = Some(min_of(i));
        }
    }
    let mut spare = avail.saturating_sub(used);
    for &i in &order {
        if let Some(w) = widths[i].as_mut() {
            let more = natural_of(i).saturating_sub(*w).min(spare);
            *w += more;
            spare -= more;
        }
    }
    stretch(columns, &order, &mut widths, spare, avail);
    widths
}

/// A wide table's room is used (issue 26.2): when more than a quarter of the table would
/// be left blank, its text columns share it, a name column (cut in the middle) two shares
/// and any other text column one. Numbers keep their width (right-aligned, they would
/// only drift from their header), and so does a snug label (an account's name: the All
/// view's Clients table gave it half a 200-column screen); a little room is left as it
/// is (the rounding's few cells stay at the right).
fn stretch(
    columns: &[Column],
    order: &[usize],
    widths: &mut [Option<u16>],
    mut spare: u16,
    avail: u16,
) {
    if u32::from(spare) * 4 <= u32::from(avail) {
        return;
    }
    let shares: Vec<(usize, u16)> = order
        .iter()
        .filter(|&&i| widths[i].is_some() && !columns[i].number && !columns[i].snug)
        .map(|&i| (i, if columns[i].middle { 2 } else { 1 }))
        .collect();
    let total: u16 = shares.iter().map(|&(_, s)| s).sum();
    if total == 0 {
        return;
    }
    let unit = spare / total;
    for (i, share) in shares {
        if let Some(w) = widths[i].as_mut() {
            let more = unit.saturating_mul(share).min(spare);
            *w += more;
            spare -= more;
        }
    }
}

/// The width a bordered table of these natural column widths takes whole.
pub fn table_width(natural: &[u16]) -> u16 {
    let gaps = u16::try_from(natural.len().saturating_sub(1)).unwrap_or(0) * GAP;
    natural
        .iter()
        .fold(0u16, |a, w| a.saturating_add(*w))
        .saturating_add(gaps + MARK + 2)
}

/// `text` cut to `max` terminal cells, ending in `…` when cut.
pub fn cut(text: &str, max: u16) -> String {
    if width(text) <= max {
        return text.to_owned();
    }
    let room = usize::from(max.saturating_sub(1));
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    if max > 0 {
        out.push('…');
    }
    out
}

/// A cell cut to `w`: the text gives way to its tail, which stays whole while at least
/// a few characters of the text fit beside it (the text alone otherwise).
fn cell_line(theme: &Theme, c: &CellText, w: u16, middle: bool) -> Line<'static> {
    let base = style(theme, c.tone);
    let cut = |text: &str, max: u16| {
        if middle {
            cut_middle(text, max)
        } else {
            cut(text, max)
        }
    };
    match &c.tail {
        Some((tail, tone)) if width(tail) + 4 <= w => {
            let head = cut(&c.text, w - width(tail));
            Line::from(vec![
                Span::styled(head, base),
                Span::styled(tail.clone(), style(theme, *tone)),
            ])
        }
        _ => Line::from(Span::styled(cut(&c.text, w), base)),
    }
}

/// `text` cut to `max` cells by taking out its middle, so that its last words stay whole
/// (`Residen… 50 GB`, `R… 50 GB`): names that differ only at their end (`Residential 5
/// GB`, `Residential 50 GB`) never look the same, as they would with a word cut in two
/// (`Resi… GB`). The tail is the longest run of whole last words that leaves the head at
/// least one character; a last word too long for that is cut at the end instead.
pub fn cut_middle(text: &str, max: u16) -> String {
    if width(text) <= max || max < 4 {
        return cut(text, max);
    }
    let max = usize::from(max);
    // Where each whole-word tail starts (after a space), the longest that fits first.
    let tail = text
        .char_indices()
        .filter(|&(_, c)| c == ' ')
        .map(|(i, _)| &text[i..])
        .filter(|t| !t.trim().is_empty() && usize::from(width(t)) + 2 <= max)
        .max_by_key(|t| width(t));
    let Some(tail) = tail else {
        return cut(text, u16::try_from(max).unwrap_or(u16::MAX));
    };
    let head_text = &text[..text.len() - tail.len()];
    let room = max - usize::from(width(tail)) - 1;
    let mut head = String::new();
    let mut used = 0;
    for c in head_text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        head.push(c);
    }
    let head = head.trim_end();
    format!("{head}…{tail}")
}

pub fn style(theme: &Theme, tone: Tone) -> Style {
    match tone {
        Tone::Base => theme.base,
        Tone::Good => theme.good,
        Tone::Warn => theme.warn,
        Tone::Bad => theme.bad,
        Tone::Dim => theme.dim,
        Tone::Stale => theme.stale,
        Tone::Title => theme.title,
        Tone::Account(n) => theme.account(n),
    }
}

/// The widths the table in `rows_area` gives its columns, for the rows on screen.
pub fn widths_for(
    columns: &[Column],
    natural: &[u16],
    visible: &[Vec<CellText>],
    rows_area: Rect,
) -> Vec<Option<u16>> {
    let mut natural = natural.to_vec();
    natural.resize(columns.len(), 0);
    for cells in visible {
        widen(&mut natural, cells);
    }
    fit(columns, &natural, rows_area.width.saturating_sub(MARK))
}

/// Draws a table pane: the block, the header and the rows on screen, each cell cut to its
/// column. `cells(index)` gives a row's cells, as in the search key.
pub fn draw<'a>(
    frame: &mut Frame,
    theme: &Theme,
    pane: Pane,
    block: Block<'a>,
    (columns, natural): (&[Column], &[u16]),
    view: &TableView,
    cells: impl Fn(usize) -> Vec<CellText>,
) {
    frame.render_widget(block, pane.block);
    let (first, visible) = view.visible(usize::from(pane.rows.height));
    let visible_cells: Vec<Vec<CellText>> = visible.iter().map(|&i| cells(i)).collect();
    let widths = widths_for(columns, natural, &visible_cells, pane.rows);
    let shown: Vec<(usize, u16)> = widths
        .iter()
        .enumerate()
        .filter_map(|(i, w)| w.map(|w| (i, w)))
        .collect();
    let header = Row::new(shown.iter().map(|&(i, w)| {
        let text = cut(columns[i].header, w);
        if columns[i].number {
            Cell::new(Line::from(text).right_aligned())
        } else {
            Cell::new(text)
        }
    }))
    .style(theme.header_row);
    let rows: Vec<Row> = visible_cells
        .iter()
        .zip(visible)
        .map(|(row, &r)| {
            let marked = view.is_marked(r);
            let cells = Row::new(shown.iter().map(|&(i, w)| {
                let c = row.get(i).cloned().unwrap_or_default();
                let line = cell_line(theme, &c, w, columns[i].middle);
                let line = if columns[i].number {
                    line.right_aligned()
                } else {
                    line
                };
                Cell::new(line)
            }));
            if marked {
                cells.style(theme.title)
            } else {
                cells
            }
        })
        .collect();
    let selected = view.selected_position().checked_sub(first);
    let mut state = TableState::new().with_selected(selected.filter(|_| !visible.is_empty()));
    let area = Rect {
        height: pane.rows.height + 1,
        ..pane.header()
    };
    let table = Table::new(rows, shown.iter().map(|&(_, w)| Constraint::Length(w)))
        .header(header)
        .row_highlight_style(theme.selected)
        .highlight_symbol("▶ ")
        .highlight_spacing(HighlightSpacing::Always)
        .column_spacing(GAP);
    frame.render_stateful_widget(table, area, &mut state);
    draw_marks(frame, theme, pane, view, visible);
}

/// What a marked row shows in the mark's column (beside `▶` when it is selected), so
/// that no column of its own gives way to it.
pub const MARKED: &str = "✓";

/// The marks of the `visible` rows of `view`, drawn in `pane` after its table: `✓` in the
/// second cell of the highlight column, whatever the row's colours.
pub fn draw_marks(
    frame: &mut Frame,
    theme: &Theme,
    pane: Pane,
    view: &TableView,
    visible: &[usize],
) {
    if view.marked_count() == 0 || pane.rows.width < 2 {
        return;
    }
    let buf = frame.buffer_mut();
    for (n, &i) in visible.iter().enumerate() {
        let y = pane.rows.y.saturating_add(n as u16);
        if view.is_marked(i) && y < pane.rows.y.saturating_add(pane.rows.height) {
            buf.set_string(pane.rows.x + 1, y, MARKED, theme.title);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLS: [Column; 3] = [
        Column::number("ID", 0),
        Column::text("Product", 1, 8),
        Column::number("Amount", 2),
    ];

    #[test]
    fn everything_fits_at_its_natural_width_and_a_little_room_stays_at_the_right() {
        let w = fit(&COLS, &[4, 20, 9], 44);
        assert_eq!(w, vec![Some(4), Some(20), Some(9)]);
    }

    #[test]
    fn a_wide_tables_room_goes_to_its_text_columns_names_first() {
        const WIDE: [Column; 4] = [
            Column::number("ID", 0),
            Column::text("Product", 1, 8).cut_in_the_middle(),
            Column::text("Status", 2, 6),
            Column::number("Amount", 3),
        ];
        // 4 + 20 + 8 + 9 and three gaps: 44 of 100, 56 spare: 18 a share.
        let w = fit(&WIDE, &[4, 20, 8, 9], 100);
        assert_eq!(w, vec![Some(4), Some(56), Some(26), Some(9)]);
        // 32 of 200: 168 spare, 56 a share, nothing left blank.
        let w = fit(&WIDE, &[4, 10, 6, 9], 200);
        assert_eq!(w, vec![Some(4), Some(122), Some(62), Some(9)]);
    }

    #[test]
    fn a_snug_label_keeps_its_width_and_the_rest_goes_to_the_other_text() {
        const CLIENTS: [Column; 3] = [
            Column::text("Account", 0, 4).snug(),
            Column::number("ID", 1),
            Column::text("E-mail", 2, 10),
        ];
        // 7 + 3 + 28 and two gaps: 40 of 196, 156 spare, all of it the e-mail's.
        let w = fit(&CLIENTS, &[7, 3, 28], 196);
        assert_eq!(w, vec![Some(7), Some(3), Some(184)]);
    }

    #[test]
    fn text_is_cut_before_a_number_is_and_a_number_is_hidden_rather_than_cut() {
        // 4 + 1 + 8 + 1 + 9 = 23: text at its minimum, both numbers whole.
        assert_eq!(fit(&COLS, &[4, 20, 9], 23), vec![Some(4), Some(8), Some(9)]);
        // One cell less: the amount does not fit whole, so it goes.
        assert_eq!(fit(&COLS, &[4, 20, 9], 22), vec![Some(4), Some(17), None]);
    }

    #[test]
    fn a_cut_cell_ends_with_an_ellipsis() {
        assert_eq!(cut("Datacenter US 100", 10), "Datacente…");
        assert_eq!(cut("short", 10), "short");
        assert_eq!(cut("日本語テキスト", 5), "日本…");
    }

    #[test]
    fn a_name_is_cut_in_the_middle_so_its_end_stays() {
        assert_eq!(cut_middle("Residential 50 GB", 14), "Residen… 50 GB");
        assert_eq!(cut_middle("Residential 5 GB", 14), "Resident… 5 GB");
        assert_eq!(cut_middle("short", 14), "short");
        // Issue 36.8: never a word cut in two at the end (`Datacen…r US 10`), and the
        // numbers that tell two plans apart stay however narrow (`Resi… GB` was both).
        assert_eq!(cut_middle("Datacenter US 10", 15), "Datacent… US 10");
        assert_eq!(cut_middle("Residential 50 GB", 8), "R… 50 GB");
        assert_eq!(cut_middle("Residential 5 GB", 8), "Re… 5 GB");
        assert_eq!(
            cut_middle("Datacenter US 100 (2022)", 15),
            "Dat… 100 (2022)"
        );
        // One long word: cut at its end.
        assert_eq!(cut_middle("Supercalifragilistic", 8), "Superca…");
    }
}
