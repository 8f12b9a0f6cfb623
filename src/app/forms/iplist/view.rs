//! The view of a fetched IP list: its entries, one a line, and where each starts (indexed
//! once when it arrives, so a list of 100,000 entries is drawn a screenful at a time),
//! where it is scrolled to, and how many entries it says it has.

use crate::api::IpList;
use crate::app::keymap::Action;

/// Where a fetched list's lines start, and where the view is scrolled to (the list itself
/// is the form's answer, kept once).
#[derive(Clone, Debug, PartialEq)]
pub struct ListView {
    /// The list as shown: one line per entry ([`IpList::shown_lines`]), so a line break
    /// inside a served field cannot split an entry over two lines or start a line of its
    /// own. (Copies and files take the list as served.)
    shown: String,
    /// Byte offset of each line's start in `shown`.
    starts: Vec<usize>,
    /// The first line on screen.
    pub top: usize,
}

impl ListView {
    pub fn new(list: &IpList) -> Self {
        let shown = list.shown_lines();
        let mut starts = vec![0];
        starts.extend(shown.match_indices('\n').map(|(i, _)| i + 1));
        // A final line break does not start another line.
        if starts.len() > 1 && starts.last() == Some(&shown.len()) {
            starts.pop();
        }
        if shown.is_empty() {
            starts.clear();
        }
        Self {
            shown,
            starts,
            top: 0,
        }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Entry `i` as shown, without its line break.
    pub fn line(&self, i: usize) -> Option<&str> {
        let start = *self.starts.get(i)?;
        let end = self.starts.get(i + 1).copied().unwrap_or(self.shown.len());
        let line = self.shown.get(start..end)?;
        Some(line.trim_end_matches('\n'))
    }

    /// A movement key, `page` lines to a page.
    pub fn key(&mut self, action: Action, page: usize) {
        match action {
            Action::Up => self.scroll(-1, page),
            Action::Down => self.scroll(1, page),
            Action::PageUp => self.scroll(-(page as isize), page),
            Action::PageDown => self.scroll(page as isize, page),
            Action::Top => self.top = 0,
            Action::Bottom => self.scroll(isize::MAX, page),
            _ => {}
        }
    }

    /// Scrolls by `delta` lines, keeping a full page on screen where there is one.
    pub fn scroll(&mut self, delta: isize, page: usize) {
        let last = self.line_count().saturating_sub(page.max(1));
        self.top = self.top.saturating_add_signed(delta).min(last);
    }
}

/// `25 entries` (and how many lines could not be read, if any).
pub fn entries_label(list: &IpList) -> String {
    let n = list.count;
    let mut label = format!(
        "{} {}",
        crate::text::count(n as u64),
        if n == 1 { "entry" } else { "entries" }
    );
    if list.skipped > 0 {
        label.push_str(&format!(
            " ({} unreadable)",
            crate::text::count(list.skipped as u64)
        ));
    }
    label
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{IpListFormat, IpListType};

    fn list(raw: &str) -> IpList {
        IpList::parse(IpListType::HttpAuth, IpListFormat::Txt, raw.to_owned())
    }

    #[test]
    fn lines_are_indexed_once_and_read_by_number() {
        let l = list("1.2.3.4:80:u:p\r\n5.6.7.8:80:u:p\n");
        let v = ListView::new(&l);
        assert_eq!(v.line_count(), 2);
        assert_eq!(v.line(0), Some("1.2.3.4:80:u:p"));
        assert_eq!(v.line(1), Some("5.6.7.8:80:u:p"));
        assert_eq!(v.line(2), None);
        assert_eq!(ListView::new(&list("")).line_count(), 0);
        assert_eq!(ListView::new(&list("a")).line_count(), 1);
        assert_eq!(ListView::new(&list("a\n\nb")).line_count(), 2);
    }

    #[test]
    fn a_line_break_or_bidi_control_in_a_served_field_stays_inside_its_entry() {
        // A username holding CR-LF and U+202E: served as is, the list's second line
        // would start with the server's words.
        let raw = "203.0.113.5:8080:user\r\nFAKE: account locked:pw\n\
                   203.0.113.6:8080:u\u{202e}txt.exe:pw\n";
        let l = list(raw);
        let v = ListView::new(&l);
        assert_eq!(v.line_count(), 2, "one line per entry");
        assert_eq!(v.line(0), Some("203.0.113.5:8080:user"));
        assert_eq!(v.line(1), Some("203.0.113.6:8080:utxt.exe:pw"));
        let json = IpList::parse(
            IpListType::HttpAuth,
            IpListFormat::Json,
            r#"[{"ip":"203.0.113.5","port":8080,"login":"a\r\nFAKE: x","password":"p"}]"#.into(),
        );
        let v = ListView::new(&json);
        assert_eq!(v.line_count(), 1);
        assert_eq!(v.line(0), Some("203.0.113.5:8080:a  FAKE: x:p"));
    }

    #[test]
    fn scrolling_stops_at_the_last_page() {
        let raw: String = (0..100).map(|i| format!("10.0.0.{i}:80\n")).collect();
        let mut v = ListView::new(&list(&raw));
        v.scroll(isize::MAX, 20);
        assert_eq!(v.top, 80);
        v.scroll(-5, 20);
        assert_eq!(v.top, 75);
        v.scroll(-500, 20);
        assert_eq!(v.top, 0);
    }
}
