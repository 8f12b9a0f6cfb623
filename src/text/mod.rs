//! Server text and values as shown to a person: on the dashboard (`ui`), in the app's
//! status lines and rows (`app`), in the scripting commands' text output (`script`) and in
//! the log. A neutral module, so that `app` and `script` need nothing from `ui`.
//!
//! | file | job |
//! |---|---|
//! | `sanitize.rs` | server text without escapes, controls, bidi and zero-width characters, measured one character at a time |
//! | `format.rs` | money, counts, numbers, dates, IDs, `—` for what is missing |
//! | `when.rs` | how long ago, since when, a short local time |
//! | `spark.rs` | sparklines as block characters |
//! | `delimited.rs` | a cell of CSV (RFC 4180 quoting) or TSV (tabs, breaks, backslash escaped) |

mod delimited;
mod format;
mod sanitize;
mod spark;
mod when;

pub use delimited::{csv_field, tsv_field};
pub use format::*;
pub use sanitize::{is_invisible, sanitize};
pub use spark::{spark, spark_counts, spark_share};
pub use when::{age, short_time, since, span_text};
