//! The six tabs: which one is shown, and one file per tab's state.

pub mod alerts;
pub mod billing;
pub mod network;
pub mod products;
pub mod services;
pub mod usage;
pub mod usage_chart;

/// How a tab's detail pane (Services, Products) shares the body with its table; `z`
/// cycles it: shown → hidden (the table takes the whole body) → zoomed (the detail takes
/// all but the selected row) → shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DetailPane {
    #[default]
    Shown,
    Hidden,
    Zoomed,
}

impl DetailPane {
    pub fn next(self) -> Self {
        match self {
            DetailPane::Shown => DetailPane::Hidden,
            DetailPane::Hidden => DetailPane::Zoomed,
            DetailPane::Zoomed => DetailPane::Shown,
        }
    }
}

/// A tab of the dashboard, in the order of the header and of the keys `1`…`6`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tab {
    Services,
    Products,
    Billing,
    Network,
    Usage,
    Alerts,
}

impl Tab {
    pub const ALL: [Tab; 6] = [
        Tab::Services,
        Tab::Products,
        Tab::Billing,
        Tab::Network,
        Tab::Usage,
        Tab::Alerts,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Services => "Services",
            Tab::Products => "Products",
            Tab::Billing => "Billing",
            Tab::Network => "Network",
            Tab::Usage => "Usage",
            Tab::Alerts => "Alerts",
        }
    }

    /// 1-based number shown in the header and typed to switch.
    pub fn number(self) -> usize {
        self.index() + 1
    }

    pub fn index(self) -> usize {
        Tab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }

    pub fn next(self) -> Tab {
        Tab::ALL[(self.index() + 1) % Tab::ALL.len()]
    }

    pub fn prev(self) -> Tab {
        Tab::ALL[(self.index() + Tab::ALL.len() - 1) % Tab::ALL.len()]
    }
}
