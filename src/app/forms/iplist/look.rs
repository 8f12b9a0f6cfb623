//! IP lists: the chooser (type and format), the list view (only the lines on screen are
//! drawn; lists can have 100,000 lines) and the file-name prompt of `w`.

use super::{Column, IpListForm, ListView, entries_label};
use crate::account::store::Store;
use crate::api::{IpList, IpListFormat, Response};
use crate::app::forms::FormData;
use crate::app::forms::look::{draw_field, draw_message, framed, row, rows_from, state_line};
use crate::app::look::pane::{iplist_lines, iplist_view};
use crate::app::look::theme::Theme;
use crate::app::look::widgets;
use crate::text;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use std::collections::HashSet;

pub(super) fn render(
    form: &IpListForm,
    frame: &mut Frame,
    body: Rect,
    data: &FormData<'_>,
    theme: &Theme,
) {
    match (form.list(), &form.view) {
        (Some(list), Some(view)) => {
            draw_view(frame, data, theme, body, form, (list, view));
            if form.save.is_some() {
                draw_save(frame, data, theme, body, form);
            }
        }
        _ => draw_chooser(frame, data, theme, body, form),
    }
}

/// `25 entries`, for an IP-list answer.
fn entries(answer: &Response) -> String {
    match answer {
        Response::IpList(list) => entries_label(list),
        _ => String::new(),
    }
}

fn draw_chooser(
    frame: &mut Frame,
    data: &FormData<'_>,
    theme: &Theme,
    body: Rect,
    form: &IpListForm,
) {
    let inner = framed(
        frame,
        data,
        theme,
        body,
        (64, 12),
        format!("IP list · service {}", form.service_id),
    );
    let head = |label: &str, column: Column| {
        let focused = form.column == column;
        let style = if focused { theme.key } else { theme.dim };
        let marker = if focused { "›" } else { " " };
        Span::styled(format!("{marker}{label:<17}"), style)
    };
    let mut lines = vec![Line::from(vec![
        head("Type", Column::Type),
        head("Format", Column::Format),
    ])];
    // The service's kind's list types only (3 for fpr, 2 for ppr); the formats beside.
    for i in 0..form.types.len().max(IpListFormat::ALL.len()) {
        let cell = |value: Option<String>, chosen: bool, focused: bool| {
            let marker = if chosen { "▶ " } else { "  " };
            let style = match (chosen, focused) {
                (true, true) => theme.selected,
                (true, false) => theme.title,
                _ => theme.base,
            };
            match value {
                Some(v) => Span::styled(format!(" {marker}{v:<15}"), style),
                None => Span::raw(" ".repeat(18)),
            }
        };
        let t = form.types.get(i);
        let f = IpListFormat::ALL.get(i);
        lines.push(Line::from(vec![
            cell(
                t.map(ToString::to_string),
                t == Some(&form.list_type),
                form.column == Column::Type,
            ),
            cell(
                f.map(ToString::to_string),
                f == Some(&form.format),
                form.column == Column::Format,
            ),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), inner);
    let rest = rows_from(inner, 7);
    match state_line(theme, &form.core.state, "Fetching the list…", entries) {
        Some((msg, style)) => draw_message(frame, rest, &msg, style),
        None => draw_message(
            frame,
            rest,
            "↑↓ choose, Tab or ←→ switches column, Enter fetches.",
            theme.dim,
        ),
    }
}

/// How a line of the list is marked: a server of it in error, or inactive.
enum Mark {
    Error,
    Inactive,
}

/// The service's servers in error and inactive, from the network status.
struct Marks<'a> {
    errors: HashSet<&'a str>,
    inactive: HashSet<&'a str>,
}

impl<'a> Marks<'a> {
    fn of(store: &'a Store, id: u64) -> Self {
        let set = |errors: bool| {
            store
                .network(id, errors)
                .map(|v| v.iter().map(|ip| ip.trim()).collect())
                .unwrap_or_default()
        };
        Self {
            errors: set(true),
            inactive: set(false),
        }
    }

    fn is_empty(&self) -> bool {
        self.errors.is_empty() && self.inactive.is_empty()
    }

    /// The mark of a line: whether any address in it is in error or inactive. A line's
    /// layout depends on the format ("not shown" in the spec), so every run of digits
    /// and dots (an IPv4 address) and every run of hex digits and colons (IPv6) is tried.
    fn of_line(&self, line: &str) -> Option<Mark> {
        let hit = |set: &HashSet<&str>| {
            line.split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .chain(line.split(|c: char| !(c.is_ascii_hexdigit() || c == ':')))
                .chain(line.split(|c: char| c.is_whitespace() || c == '@' || c == '/'))
                .any(|t| !t.is_empty() && set.contains(t))
        };
        if hit(&self.errors) {
            Some(Mark::Error)
        } else if hit(&self.inactive) {
            Some(Mark::Inactive)
        } else {
            None
        }
    }
}

fn draw_view(
    frame: &mut Frame,
    data: &FormData<'_>,
    theme: &Theme,
    body: Rect,
    form: &IpListForm,
    (list, view): (&IpList, &ListView),
) {
    let area = iplist_view(body);
    let lines_area = iplist_lines(body);
    frame.render_widget(Clear, area);
    let height = usize::from(lines_area.height);
    let total = view.line_count();
    let first = view.top.min(total.saturating_sub(height));
    let last = (first + height).min(total);
    let range = if total == 0 {
        "empty".to_owned()
    } else {
        format!(
            "lines {}–{} of {}",
            text::count(first as u64 + 1),
            text::count(last as u64),
            text::count(total as u64)
        )
    };
    // Servers the network status has in error or inactive are marked (the copy and the
    // file keep the list as served).
    let marks = Marks::of(data.store, form.service_id);
    frame.render_widget(view_block(theme, form, list, range, &marks), area);
    if total == 0 {
        widgets::message(
            frame,
            lines_area,
            "The server sent an empty list.",
            theme.dim,
        );
    } else {
        let lines = shown_lines(data, theme, form, (view, first..last), &marks);
        frame.render_widget(Paragraph::new(lines), lines_area);
    }
}

/// The view's frame: the list's service, type, format and count, the lines shown, the
/// file last written, and what the marks mean when there are any.
fn view_block<'a>(
    theme: &Theme,
    form: &IpListForm,
    list: &IpList,
    range: String,
    marks: &Marks<'_>,
) -> Block<'a> {
    let title = format!(
        "IP list {} · {} {} · {}",
        form.service_id,
        list.list_type,
        list.format,
        entries_label(list)
    );
    let mut block = widgets::pane(theme, title, Span::styled(range, theme.dim));
    if let Some(path) = &form.written {
        block = block.title_bottom(Line::from(Span::styled(
            format!(
                " written to {} ",
                text::sanitize(&path.display().to_string())
            ),
            theme.good,
        )));
    }
    if !marks.is_empty() {
        block = block.title_bottom(
            Line::from(vec![
                Span::styled(" ✗ error ", theme.bad),
                Span::styled("○ inactive ", theme.warn),
            ])
            .right_aligned(),
        );
    }
    block
}

/// The lines `shown` of the list, each marked when a server of it is in error or
/// inactive, the passwords hidden unless `v` shows them.
fn shown_lines(
    data: &FormData<'_>,
    theme: &Theme,
    form: &IpListForm,
    (view, shown): (&ListView, std::ops::Range<usize>),
    marks: &Marks<'_>,
) -> Vec<Line<'static>> {
    // The service's password, where its detail is known, is hidden wherever it stands.
    let password = data
        .store
        .service(form.service_id)
        .map(|s| s.password.expose())
        .filter(|p| !p.is_empty());
    shown
        .filter_map(|i| view.line(i))
        .map(|l| {
            let masked;
            let l = if form.show_passwords {
                l
            } else {
                masked = mask_passwords(l, password);
                masked.as_str()
            };
            let shown = text::sanitize(l).into_owned();
            if marks.is_empty() {
                return Line::from(shown);
            }
            match marks.of_line(l) {
                Some(Mark::Error) => Line::from(vec![
                    Span::styled("✗ ", theme.bad),
                    Span::styled(shown, theme.bad),
                ]),
                Some(Mark::Inactive) => Line::from(vec![
                    Span::styled("○ ", theme.warn),
                    Span::styled(shown, theme.warn),
                ]),
                None => Line::from(vec![Span::raw("  "), Span::raw(shown)]),
            }
        })
        .collect()
}

/// What a password looks like on screen while hidden (as in the service's detail).
const HIDDEN: &str = "••••••••";

/// `line` with its passwords hidden: the service's own wherever it stands, and in the
/// layouts a list line has (not shown in the spec, so what they look like is tried):
/// `host:port:user:pass`, `user:pass@host:port`, `scheme://user:pass@host`. A line that
/// looks like none is shown as served.
pub fn mask_passwords(line: &str, password: Option<&str>) -> String {
    let mut out = match password {
        Some(p) => line.replace(p, HIDDEN),
        None => line.to_owned(),
    };
    // `user:pass@host…`, with or without a scheme.
    if let Some(at) = out.find('@') {
        let start = out[..at].find("://").map_or(0, |i| i + 3);
        if let Some(colon) = out[start..at].find(':') {
            let colon = start + colon;
            if colon + 1 < at && &out[colon + 1..at] != HIDDEN {
                out.replace_range(colon + 1..at, HIDDEN);
            }
        }
        return out;
    }
    // `host:port:user:pass`: four fields, the last after the third colon (IPv6 hosts
    // have more colons and no such layout; a CSV's fields are separated otherwise).
    let fields: Vec<&str> = out.split(':').collect();
    if fields.len() == 4 && !fields[3].is_empty() && fields[3] != HIDDEN && !out.contains(',') {
        let cut = out.len() - fields[3].len();
        out.replace_range(cut.., HIDDEN);
    }
    out
}

fn draw_save(frame: &mut Frame, data: &FormData<'_>, theme: &Theme, body: Rect, form: &IpListForm) {
    let Some(save) = &form.save else { return };
    let inner = framed(
        frame,
        data,
        theme,
        body,
        (72, 7),
        "Write the IP list to a file".into(),
    );
    draw_field(
        frame,
        theme,
        row(inner, 0),
        "File",
        &save.path,
        true,
        !save.writing,
    );
    let below = Rect {
        height: 2,
        ..row(inner, 1)
    }
    .intersection(inner);
    match &save.error {
        Some(e) => draw_message(frame, below, &format!("✗ {e}"), theme.bad),
        None if save.writing => draw_message(frame, below, "writing…", theme.dim),
        // The full path before anything is written: `~` expanded, a relative name placed
        // in the current folder (issue 16.8).
        None => match crate::files::resolve_typed(save.path.value()) {
            Ok(full) if !save.path.value().trim().is_empty() => {
                draw_message(frame, below, &format!("→ {}", full.display()), theme.dim)
            }
            Ok(_) => {}
            Err(e) => draw_message(frame, below, &format!("✗ {e}"), theme.bad),
        },
    }
    draw_message(
        frame,
        rows_from(inner, 3),
        "As served, mode 0600; never replaces a file, offers a free name.",
        theme.dim,
    );
}

#[cfg(test)]
mod tests {
    use super::mask_passwords;

    #[test]
    fn passwords_are_hidden_in_every_layout_a_line_has() {
        let hide = |l: &str| mask_passwords(l, None);
        assert_eq!(
            hide("10.0.0.1:8000:user:pw-1"),
            "10.0.0.1:8000:user:••••••••"
        );
        assert_eq!(
            hide("user:pw-1@10.0.0.1:8000"),
            "user:••••••••@10.0.0.1:8000"
        );
        assert_eq!(
            hide("socks5://user:pw-1@10.0.0.1:8000"),
            "socks5://user:••••••••@10.0.0.1:8000"
        );
        // No password in it: as served.
        assert_eq!(hide("10.0.0.1:8000"), "10.0.0.1:8000");
        assert_eq!(hide("2001:db8::1:8000"), "2001:db8::1:8000");
        // The service's own password wherever it stands (a CSV's or a JSON's field).
        assert_eq!(
            mask_passwords("10.0.0.1,8000,user,s3cret", Some("s3cret")),
            "10.0.0.1,8000,user,••••••••"
        );
        assert_eq!(
            mask_passwords("10.0.0.1:8000:user:s3cret", Some("s3cret")),
            "10.0.0.1:8000:user:••••••••"
        );
    }
}
