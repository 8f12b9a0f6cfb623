//! The account's money ahead, computed from its records: the renewals coming, their sum,
//! the day the credit runs short of them, and the spend per month ([`runway`]). Pure: the
//! dashboard's Billing tab, `proxydash credit` and `watch`'s metric read the same figures.

mod reading;
pub mod runway;
mod spend;
mod words;

pub use reading::{earliest, not_known};
pub use runway::{Owed, PriceSource, Records, Runway, Short, Unread};
pub use words::Caveat;
