//! Enter on an invoice (Billing, or `#` there): its full detail, read by its ID
//! (`GET /api/billing/invoice/{id}`) into the Billing tab's cache.

use super::PopupPane;

/// The invoice of this ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvoiceViewer(pub u64);

impl PopupPane for InvoiceViewer {
    const TITLE: &'static str = "invoice";
}
