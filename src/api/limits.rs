//! How much of an answer the client reads and keeps (spec section 8: "body size limits,
//! and pagination of lists: not shown"). A hostile or broken server must not be able to
//! make the dashboard hold more than these, whatever it sends; memory stays proportional
//! to what is kept.
//!
//! Choices:
//! - **Error answers** (any status but 2xx) are read up to [`ERROR_BODY_CAP`] (8 KiB): the
//!   spec's error bodies are one short line or `{"error": "…"}`, and the status line shows
//!   at most 120 characters of it. The rest is never read: the connection is dropped
//!   (it cannot be reused, which costs one new connection), so a 60 MB error page costs
//!   8 KiB, not 60 MB plus its parse.
//! - **Success answers** are read up to a cap per endpoint ([`max_body`]): 64 MiB for the
//!   lists that grow with the account (services, invoices, IP lists, clients, network
//!   addresses: 100,000 invoices are about 19 MB), 4 MiB for products, 1 MiB for
//!   everything that is one object or a short list (a product, a service, credit, stats,
//!   rate, an invoice, a write's answer). Longer is a decode error that says the limit.
//! - **Lists** keep at most [`list_cap`] entries; the entries after that are read past
//!   without being built (serde's `IgnoredAny`), so 60 MB of `[{},{},…]` costs the body
//!   and the kept entries only. The caps: services, invoices, clients and network
//!   addresses 100,000; products 10,000; statistics 3,660 (ten years of days); rate and
//!   one invoice's list 100. A list that reached its cap is said to be cut in the status
//!   line (`App`) and on standard error (scripting commands), naming the cap.
//!
//! The figures are written in each endpoint's row of the table in [`super::request`].

use super::Request;

/// The most of an error answer that is read.
pub const ERROR_BODY_CAP: usize = 8 << 10;

/// The most of a 2xx answer to `request` that is read (the figure is in its row of the
/// endpoint table, [`super::request`]).
pub fn max_body(request: &Request) -> usize {
    request.max_body()
}

/// The most entries kept of the list `request` answers; `None` for an answer that is not
/// a list of records (IP lists keep their text and are bounded by [`max_body`]). The
/// figure is in the endpoint's row of the table.
pub fn list_cap(request: &Request) -> Option<usize> {
    request.list_cap()
}

/// Whether `kept` entries of `request`'s list mean it was (or may have been) cut.
pub fn is_cut(request: &Request, kept: usize) -> bool {
    list_cap(request).is_some_and(|cap| kept >= cap)
}

/// `64 MiB`, `8 KiB`: a limit for messages.
pub fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}
