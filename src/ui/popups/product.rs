//! The product popup (Enter on a product): its detail, then the account's services of
//! that product. The services list names the product but not its ID, so they are matched
//! by name; the list is cut with `… and N more`.

use super::viewer::{capped, draw_rest, popup_area, section};
use crate::app::App;
use crate::app::columns::Tone;
use crate::app::tabs::products;
use crate::ui::theme::Theme;
use crate::ui::{columns, text};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Clear;

/// The product popup: the detail above the account's services of that product.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect, id: u64) {
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
    let [detail, rest] = Layout::vertical([Constraint::Length(6), Constraint::Min(0)]).areas(area);
    frame.render_widget(Clear, area);
    products::look::draw_detail(frame, app.products(), &app.tab_data(), theme, detail, id);
    draw_rest(frame, theme, rest, extra);
}
