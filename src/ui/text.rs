//! The text of the dashboard's ui: everything lives in [`crate::text`] (neutral, used by
//! `app`, `ui` and `script` alike); re-exported here so `ui::text::…` keeps working.

pub use crate::text::*;
