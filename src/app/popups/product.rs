//! Enter on a product: its full detail (`GET /api/product/{pid}`, in the account's store),
//! then the account's services of that product. The services list names the product but
//! not its ID, so they are matched by name; the list is cut with `… and N more`. `o`
//! orders it from here as from its row (its info's `item_of`). Its look is here too
//! ([`ProductViewer::render`]).

use super::PopupPane;
use super::viewer::{capped, draw_rest, popup_area, section};
use crate::app::App;
use crate::app::PopupKind;
use crate::app::Tab;
use crate::app::columns::Tone;
use crate::app::keymap::steps::PopupInfo;
use crate::app::look::columns;
use crate::app::look::theme::Theme;
use crate::app::tabs::products;
use crate::text;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Clear;

/// The product of this ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProductViewer(pub u64);

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "product",
    keys: &[],
    item_of: Some(Tab::Products),
};

impl PopupPane for ProductViewer {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }
}

impl ProductViewer {
    /// Its look: the detail above the account's services of that product.
    pub fn render(&self, frame: &mut Frame, body: Rect, app: &App, theme: &Theme) {
        let id = self.0;
        let name = app
            .products()
            .rows()
            .iter()
            .find(|p| p.product_id == id)
            .map(|p| p.product_name.clone())
            .or_else(|| {
                app.products()
                    .detail(id)
                    .value()
                    .and_then(|p| p.product_name.clone())
            })
            .unwrap_or_default();
        let mut extra = vec![section(theme, "Your services of this product")];
        let mine: Vec<Line> = app
            .services()
            .rows()
            .iter()
            .filter(|s| !name.is_empty() && s.product_name == name)
            .map(|s| {
                Line::from(vec![
                    Span::raw(format!("  {:<8} ", s.service_id)),
                    Span::styled(
                        format!("{:<12}", text::sanitize(s.status.as_str())),
                        columns::style(theme, Tone::of_service(&s.status)),
                    ),
                    Span::styled(format!("next due {}", text::date(s.nextduedate)), theme.dim),
                ])
            })
            .collect();
        if mine.is_empty() {
            extra.push(Line::from(Span::styled("  none", theme.dim)));
        } else {
            extra.extend(capped(theme, mine, 8));
        }
        extra.push(Line::from(Span::styled(
            "  o orders this product",
            theme.dim,
        )));
        let area = popup_area(body, 6 + extra.len() as u16);
        let [detail, rest] =
            Layout::vertical([Constraint::Length(6), Constraint::Min(0)]).areas(area);
        frame.render_widget(Clear, area);
        products::look::draw_detail(frame, app.products(), &app.tab_data(), theme, detail, id);
        draw_rest(frame, theme, rest, extra);
    }
}
