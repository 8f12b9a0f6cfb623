//! The Products tab's look: every field of the product list, the active sort in the
//! title, and the selected product's detail (the product popup's too).

use super::{ProductsTab, ProductsView};
use crate::account::Kind;
use crate::api::{Product, Request};
use crate::app::data::TabData;
use crate::app::look::pane::table_and_detail;
use crate::app::look::theme::Theme;
use crate::app::look::{columns, widgets};
use crate::app::tabs::{Areas, Fit, Heading, Props, TabLook};
use crate::text::{self, MISSING};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The table, and the selected product's detail (8 fields).
impl TabLook for ProductsTab {
    fn fit(&self, _data: &TabData<'_>) -> Fit {
        Fit {
            wants: columns::table_width(self.table.natural()),
            detail: self.detail_pane,
            history: false,
        }
    }

    fn areas(&self, body: Rect, fit: Fit) -> Areas {
        Areas::with_detail(table_and_detail(body, (44, 6), fit.wants, fit.detail))
    }

    fn heading(&self, props: &Props<'_>) -> Option<Heading> {
        let (data, theme) = (props.data, props.theme);
        let tab = self.view(data.store);
        let loaded = tab.list().value().is_some();
        let counted = widgets::counted("Products", loaded, &self.table);
        let fresh = widgets::freshness_of(data, theme, tab.list().freshness(), Kind::Products);
        let mut heading = Heading::new(format!("{counted} · {}", tab.sort_label()), fresh);
        heading.skipped = (data.store)
            .products_listed(&tab.list_request())
            .and_then(|l| l.skipped_line());
        heading.instead = widgets::placeholder(
            data,
            theme,
            tab.list(),
            &self.table,
            &tab.list_request(),
            "products",
        );
        Some(heading)
    }

    fn draw_detail(&self, frame: &mut Frame, areas: &Areas, props: &Props<'_>, id: Option<u64>) {
        let area = areas.detail[0];
        match id {
            Some(id) => draw_detail(
                frame,
                self.view(props.data.store),
                props.data,
                props.theme,
                area,
                id,
            ),
            None => super::super::frame::empty(frame, props, area, "Product"),
        }
    }

    fn merged_noun(&self) -> Option<&'static str> {
        Some("Products (each account's own prices)")
    }
}

/// Product `id`'s detail, as the store has it (the tab's and the product popup's).
pub fn draw_detail(
    frame: &mut Frame,
    tab: ProductsView<'_>,
    data: &TabData<'_>,
    theme: &Theme,
    area: Rect,
    id: u64,
) {
    let remote = tab.detail(id);
    let block = widgets::pane(
        theme,
        // IDs repeat across accounts: over several, the title names the account.
        widgets::of_account(data, format!("Product {id}")),
        widgets::freshness_of(data, theme, remote.freshness(), Kind::ProductDetail),
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    match remote.value() {
        Some(p) => {
            // The detail may leave the name out (spec 2.3 lists it as optional there).
            let listed = tab.rows().iter().find(|s| s.product_id == id);
            let name = p
                .product_name
                .as_deref()
                .or(listed.map(|s| s.product_name.as_str()))
                .unwrap_or_default();
            widgets::columns(frame, inner, detail_lines(p, name, theme))
        }
        None => {
            if let Some((line, style)) =
                widgets::remote_message(data, theme, remote, &Request::Product(id), "the product")
            {
                widgets::message(frame, inner, &line, style);
            }
        }
    }
}

/// Every field of spec 2.3: the name and price first (the table may have hidden them).
pub fn detail_lines(p: &Product, name: &str, theme: &Theme) -> Vec<Line<'static>> {
    let w = 14;
    let v = |x: String| Span::raw(x);
    let geo = if p.geo.is_empty() {
        MISSING.to_owned()
    } else {
        p.geo
            .iter()
            .map(|g| text::sanitize(&g.0).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let hidden = |b: bool| {
        if b {
            Span::styled("yes (hidden)", theme.warn)
        } else {
            Span::raw("no")
        }
    };
    vec![
        widgets::field(theme, "Name", w, v(text::or_missing(name).into_owned())),
        widgets::field(theme, "Price", w, v(text::money(p.price))),
        widgets::field(theme, "Type", w, v(p.product_type.label())),
        widgets::field(
            theme,
            "IP count",
            w,
            v(p.ip_count.map_or_else(|| MISSING.to_owned(), text::count)),
        ),
        widgets::field(
            theme,
            "Update time",
            w,
            v(p.update_time.map_or_else(
                || MISSING.to_owned(),
                |t| t.format("%Y-%m-%d %H:%M:%S").to_string(),
            )),
        ),
        widgets::field(theme, "Geo", w, v(geo)),
        widgets::field(theme, "Product hidden", w, hidden(p.product_hidden)),
        widgets::field(theme, "Group hidden", w, hidden(p.group_hidden)),
    ]
}
