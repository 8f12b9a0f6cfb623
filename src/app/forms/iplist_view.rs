//! The view of a fetched IP list: where its lines start (indexed once when it arrives, so a
//! list of 100,000 lines is drawn a screenful at a time) and where it is scrolled to, and
//! how many entries it says it has.

use crate::api::IpList;
use crate::app::keymap::Action;

/// Where a fetched list's lines start, and where the view is scrolled to (the list itself
/// is the form's answer, kept once).
#[derive(Clone, Debug, PartialEq)]
pub struct ListView {
    /// Byte offset of each line's start in the list's `raw`.
    starts: Vec<usize>,
    /// The first line on screen.
    pub top: usize,
}

impl ListView {
    pub fn new(list: &IpList) -> Self {
        let raw = &list.raw;
        let mut starts = vec![0];
        starts.extend(raw.match_indices('\n').map(|(i, _)| i + 1));
        // A final line break does not start another line.
        if starts.len() > 1 && starts.last() == Some(&raw.len()) {
            starts.pop();
        }
        if raw.is_empty() {
            starts.clear();
        }
        Self { starts, top: 0 }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Line `i` of `list` as served, without its line break.
    pub fn line<'a>(&self, list: &'a IpList, i: usize) -> Option<&'a str> {
        let start = *self.starts.get(i)?;
        let end = self.starts.get(i + 1).copied().unwrap_or(list.raw.len());
        let line = list.raw.get(start..end)?;
        Some(line.trim_end_matches(['\n', '\r']))
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
        assert_eq!(v.line(&l, 0), Some("1.2.3.4:80:u:p"));
        assert_eq!(v.line(&l, 1), Some("5.6.7.8:80:u:p"));
        assert_eq!(v.line(&l, 2), None);
        assert_eq!(ListView::new(&list("")).line_count(), 0);
        assert_eq!(ListView::new(&list("a")).line_count(), 1);
        assert_eq!(ListView::new(&list("a\n\nb")).line_count(), 3);
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
