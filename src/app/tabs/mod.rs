//! The tabs: one file per tab (its state and its [`TabPane`]), and the `tabs!` macro that
//! turns the one list of them (in the app's root, `src/app/mod.rs`) into the [`Tab`]
//! enum, the [`Tabs`] that hold their state and the questions the app asks the tab on
//! screen, each one match over the list.
//!
//! **Adding a tab** (the one place this recipe is written): a file here with the tab's
//! state (`Default`, with a [`TableView`](crate::app::table::TableView)) and its
//! `impl TabPane` (its title, kinds, columns and cells, and whatever keys it answers),
//! and one line in the list. The ui draws a tab it has no pane of its own for as a plain
//! list, from its columns, cells and [`Listing`]; the keys `1`…`n` and `Tab`, the
//! palette, the footer and the dashboard over several accounts take it from the list.
//! (The list is in the root so that what names a tab, the key map and the shell, need
//! not sit above the tabs, which act through the context.)

pub mod alerts;
pub mod billing;
pub mod clients;
pub mod network;
mod pane;
pub mod products;
pub mod services;
pub mod usage;
pub mod usage_chart;

pub use pane::{Listing, TabPane};

/// The one list of the tabs: `Variant(field: State)`, in the order of the tab line and
/// of the keys `1`, `2`, …. Writes [`Tab`], [`Tabs`] and each question to the tab on
/// screen as a method of [`Tab`] (one match over every tab).
macro_rules! tabs {
    ($($variant:ident($field:ident: $state:ty)),* $(,)?) => {
        /// A tab of the dashboard, in the order of the header and of the keys `1`, `2`, ….
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Tab {
            $($variant,)*
        }

        /// The tabs' state, and what derives from several of them.
        #[derive(Default)]
        pub struct Tabs {
            $(pub(in crate::app) $field: $state,)*
            /// The Network rows / the Usage list need rebuilding (done when their tab is
            /// shown, so a burst of per-service results costs one rebuild, not one per
            /// result).
            pub(in crate::app) network_dirty: bool,
            pub(in crate::app) usage_dirty: bool,
            /// The Services cells (proxies, over-limit marks) changed with the network or
            /// usage.
            pub(in crate::app) services_dirty: bool,
            /// The service last selected on the Services tab: a newly selected one's
            /// cached detail is read again when due (only the selected detail refreshes
            /// with the list).
            pub(in crate::app) detail_selected: Option<u64>,
        }

        impl Tab {
            pub const ALL: [Tab; [$(Tab::$variant),*].len()] = [$(Tab::$variant),*];

            pub fn title(self) -> &'static str {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::TITLE,)*
                }
            }

            pub fn table(self, tabs: &Tabs) -> &$crate::app::table::TableView {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::table(&tabs.$field),)*
                }
            }

            pub(in crate::app) fn table_mut(self, tabs: &mut Tabs) -> &mut $crate::app::table::TableView {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::table_mut(&mut tabs.$field),)*
                }
            }

            pub fn columns(self, app: &$crate::app::App) -> Vec<$crate::app::columns::Column> {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::columns(app),)*
                }
            }

            pub fn natural(self, tabs: &Tabs) -> &[u16] {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::natural(&tabs.$field),)*
                }
            }

            pub fn cells(self, app: &$crate::app::App, i: usize) -> Vec<$crate::app::columns::CellText> {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::cells(app, i),)*
                }
            }

            pub fn listing(self, app: &$crate::app::App) -> Option<$crate::app::tabs::Listing> {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::listing(app),)*
                }
            }

            pub(in crate::app) fn cycle_sort(self, cx: &mut $crate::app::Cx<'_>) {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::cycle_sort(cx),)*
                }
            }

            pub(in crate::app) fn reverse_sort(self, tabs: &mut Tabs) {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::reverse_sort(&mut tabs.$field),)*
                }
            }

            pub(in crate::app) fn resort(self, cx: &mut $crate::app::Cx<'_>) {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::resort(cx),)*
                }
            }

            pub(in crate::app) fn open(self, cx: &mut $crate::app::Cx<'_>) {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::open(cx),)*
                }
            }

            pub(in crate::app) fn refresh(self, cx: &mut $crate::app::Cx<'_>) {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::refresh(cx),)*
                }
            }

            pub(in crate::app) fn focus(self, tabs: &Tabs, focus: &mut $crate::account::Focus) {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::focus(&tabs.$field, focus),)*
                }
            }

            pub(in crate::app) fn fetch_for_selection(self, cx: &mut $crate::app::Cx<'_>) {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::fetch_for_selection(cx),)*
                }
            }

            pub(in crate::app) fn sync(self, cx: &mut $crate::app::Cx<'_>) {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::sync(cx),)*
                }
            }

            pub(in crate::app) fn selected_service(self, tabs: &Tabs) -> Option<u64> {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::selected_service(&tabs.$field),)*
                }
            }

            pub fn command(self) -> Option<&'static str> {
                match self {
                    $(Tab::$variant => <$state as $crate::app::tabs::TabPane>::command(),)*
                }
            }
        }

        impl Tab {
            /// The tabs' digit keys as the footer says them: `1-7`.
            pub const KEYS: &str = [
                "", "1", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7", "1-8", "1-9",
            ][Tab::ALL.len()];

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
    };
}
pub(super) use tabs;

pub use super::{Tab, Tabs};

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
