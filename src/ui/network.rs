//! The Network tab: a summary line, then every proxy server in error or inactive.

use super::layout;
use super::text;
use super::theme::Theme;
use super::widgets;
use crate::app::App;
use crate::app::remote::Freshness;
use crate::app::tabs::network::ServerState;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row};

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect) {
    let (summary_area, pane) = layout::network(body);
    let net = app.network();
    let services = app.services();
    let s = net.summary;

    let now = app.now();
    let oldest = s
        .oldest
        .filter(|at| s.checked > 0 && (now - *at).num_seconds() >= 10)
        .map(|at| format!(" · oldest {}", age(now, at)))
        .unwrap_or_default();
    let mut summary = vec![
        Span::raw(format!(
            " Services checked: {} of {}{oldest}   ",
            text::count(s.checked as u64),
            text::count(s.services as u64)
        )),
        Span::styled(
            format!("Servers in error: {}", text::count(s.errors as u64)),
            if s.errors > 0 { theme.bad } else { theme.base },
        ),
        Span::raw("   "),
        Span::styled(
            format!("Inactive: {}", text::count(s.inactive as u64)),
            if s.inactive > 0 {
                theme.warn
            } else {
                theme.base
            },
        ),
    ];
    // Held back by the budget is not failing: the scheduler sends them when it allows.
    if let Some(waiting) = app.budget_waiting().filter(|_| s.loading > 0) {
        summary.push(Span::styled(format!("   ⏸ {waiting}"), theme.warn));
    } else if s.loading > 0 {
        summary.push(Span::styled(
            format!("   checking {}…", s.loading),
            theme.dim,
        ));
    }
    if s.failed > 0 {
        summary.push(Span::styled(format!("   ✗ {} failed", s.failed), theme.bad));
    }
    frame.render_widget(Paragraph::new(Line::from(summary)), summary_area);

    let view = &net.table;
    // A per-service list whose refresh failed keeps its last good rows: mark the pane stale
    // from the oldest of them, as the other tabs do for their own data.
    let fresh = match s.stale_since {
        Some(at) => Freshness::Stale(at),
        None => services.list.freshness(),
    };
    let block = widgets::pane(
        theme,
        widgets::counted(
            "Proxy servers in error or inactive",
            services.list.value().is_some(),
            view,
        ),
        widgets::freshness(app, theme, fresh),
    );
    let block = widgets::with_filter(block, view, theme);
    let placeholder = if services.list.value().is_none() {
        widgets::placeholder(
            app,
            theme,
            &services.list,
            view,
            &crate::api::Request::Services,
            "services",
        )
    } else if services.rows().is_empty() {
        Some((
            "No services, so no proxy servers to check.".to_owned(),
            theme.dim,
        ))
    } else if net.rows.is_empty() && s.checked < s.services {
        Some(("Checking proxy servers…".to_owned(), theme.dim))
    } else if net.rows.is_empty() {
        Some(("✓ Every proxy server is up.".to_owned(), theme.good))
    } else if view.is_empty() {
        Some((
            format!(
                "No servers match \"{}\" (Esc clears the filter).",
                text::sanitize(view.filter())
            ),
            theme.dim,
        ))
    } else {
        None
    };
    if let Some((msg, style)) = placeholder {
        frame.render_widget(block, pane.block);
        widgets::message(frame, pane.header(), &msg, style);
        return;
    }
    let rows = &net.rows;
    widgets::table(
        frame,
        theme,
        pane,
        block,
        (
            &["Service", "Product", "State", "IP address", "Checked"],
            &[
                Constraint::Length(8),
                Constraint::Fill(1),
                Constraint::Length(10),
                Constraint::Fill(1),
                Constraint::Length(10),
            ],
        ),
        view,
        |i| {
            let r = &rows[i];
            let product = services
                .get(r.service_id)
                .map(|s| text::or_missing(&s.product_name).into_owned())
                .unwrap_or_default();
            let (state, style) = match r.state {
                ServerState::Error => ("✗ error", theme.bad),
                ServerState::Inactive => ("○ inactive", theme.warn),
            };
            let checked = app
                .network_checked_at(r.service_id)
                .map(|at| age(now, at))
                .unwrap_or_default();
            Row::new(vec![
                Cell::new(r.service_id.to_string()),
                Cell::new(product),
                Cell::new(state).style(style),
                Cell::new(r.ip.clone()),
                Cell::new(checked).style(theme.dim),
            ])
        },
    );
}

/// How long ago `at` was: `just now`, `45s ago`, `2m ago`, `3h ago`, `2d ago`.
pub fn age(now: chrono::DateTime<chrono::Utc>, at: chrono::DateTime<chrono::Utc>) -> String {
    let secs = (now - at).num_seconds().max(0);
    match secs {
        0..10 => "just now".into(),
        10..60 => format!("{secs}s ago"),
        60..3600 => format!("{}m ago", secs / 60),
        3600..86_400 => format!("{}h ago", secs / 3600),
        _ => format!("{}d ago", secs / 86_400),
    }
}
