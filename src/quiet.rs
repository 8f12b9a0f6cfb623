//! A backend wrapper that writes nothing for a frame that did not change.
//!
//! ratatui diffs each frame against the last one, but the crossterm backend still ends every
//! `draw` with colour and attribute resets and `Terminal::draw` hides the cursor again each
//! time — about 25 bytes per unchanged frame. Over a slow SSH link every byte is latency, so
//! this wrapper drops a `draw` with no cells and a cursor change that changes nothing.

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};

pub struct QuietBackend<B> {
    inner: B,
    /// What the terminal's cursor is known to be: `None` until it was set once.
    cursor_hidden: Option<bool>,
}

impl<B> QuietBackend<B> {
    pub fn new(inner: B) -> Self {
        Self {
            inner,
            cursor_hidden: None,
        }
    }

    pub fn inner(&self) -> &B {
        &self.inner
    }
}

impl<B: Backend> Backend for QuietBackend<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let mut content = content.peekable();
        if content.peek().is_none() {
            return Ok(());
        }
        self.inner.draw(content)
    }

    fn append_lines(&mut self, n: u16) -> Result<(), Self::Error> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        if self.cursor_hidden == Some(true) {
            return Ok(());
        }
        self.cursor_hidden = Some(true);
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        if self.cursor_hidden == Some(false) {
            return Ok(());
        }
        self.cursor_hidden = Some(false);
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        self.inner.size()
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::CrosstermBackend;
    use ratatui::layout::Rect;
    use ratatui::widgets::Paragraph;
    use ratatui::{TerminalOptions, Viewport};

    #[test]
    fn an_unchanged_frame_writes_nothing() {
        let backend = QuietBackend::new(CrosstermBackend::new(Vec::<u8>::new()));
        let mut t = Terminal::with_options(
            backend,
            TerminalOptions {
                viewport: Viewport::Fixed(Rect::new(0, 0, 20, 2)),
            },
        )
        .unwrap();
        t.draw(|f| f.render_widget(Paragraph::new("hello"), f.area()))
            .unwrap();
        let first = t.backend().inner().writer().len();
        assert!(first > 0);
        t.draw(|f| f.render_widget(Paragraph::new("hello"), f.area()))
            .unwrap();
        assert_eq!(
            t.backend().inner().writer().len(),
            first,
            "nothing more was written"
        );
        t.draw(|f| f.render_widget(Paragraph::new("hellO"), f.area()))
            .unwrap();
        assert!(t.backend().inner().writer().len() > first);
    }
}
