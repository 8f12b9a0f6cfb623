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
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn an_unchanged_frame_writes_nothing() {
        let out = Shared::default();
        let written = || out.0.lock().unwrap().len();
        let backend = QuietBackend::new(CrosstermBackend::new(out.clone()));
        let viewport = Viewport::Fixed(Rect::new(0, 0, 20, 2));
        let mut t = Terminal::with_options(backend, TerminalOptions { viewport }).unwrap();
        let hello = |text: &'static str| {
            move |f: &mut ratatui::Frame| f.render_widget(Paragraph::new(text), f.area())
        };
        t.draw(hello("hello")).unwrap();
        let first = written();
        assert!(first > 0);
        t.draw(hello("hello")).unwrap();
        assert_eq!(written(), first, "nothing more was written");
        t.draw(hello("hellO")).unwrap();
        assert!(written() > first);
    }
}
