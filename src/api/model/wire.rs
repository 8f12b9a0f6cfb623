//! The string enums of the spec (statuses, types, the path parameters of endpoints 7
//! and 16), each with a catch-all `Other` so a value the spec does not list is shown as
//! sent instead of failing the whole list.

use super::super::lenient;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Declares a string enum of the spec with a catch-all `Other`, so a value the spec does not
/// list (a new status on the server) is shown as sent instead of failing the whole list.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant,)+
            /// A value the spec does not list, as sent. Boxed `str` rather than `String`:
            /// every request and row carries these enums, and the rare other value should
            /// not make them all wider.
            Other(Box<str>),
        }

        impl $name {
            /// Every value the spec lists, in the spec's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $wire,)+
                    $name::Other(s) => s.as_ref(),
                }
            }

            pub fn parse(s: &str) -> Self {
                $(if s.eq_ignore_ascii_case($wire) { return $name::$variant; })+
                $name::Other(s.into())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                lenient::with_str(d, |s| $name::parse(s.unwrap_or("")))
            }
        }
    };
}

wire_enum!(
    /// `product_type`: section 1.
    ProductType { Fpr => "fpr", Ppr => "ppr" }
);

wire_enum!(
    /// Service status: section 3.1.
    ServiceStatus {
        Active => "Active",
        Pending => "Pending",
        Suspended => "Suspended",
        Terminated => "Terminated",
        Cancelled => "Cancelled",
        Fraud => "Fraud",
    }
);

wire_enum!(
    /// Invoice status: section 3.2.
    InvoiceStatus {
        Unpaid => "Unpaid",
        Paid => "Paid",
        Cancelled => "Cancelled",
        Refunded => "Refunded",
        Collections => "Collections",
        PaymentPending => "Payment Pending",
        Pending => "Pending",
    }
);

wire_enum!(
    /// Billing cycle: section 3.3.
    BillingCycle {
        Free => "Free",
        Monthly => "Monthly",
        Quarterly => "Quarterly",
        SemiAnnually => "Semi-Annually",
        Annually => "Annually",
        Biennially => "Biennially",
        Triennially => "Triennially",
    }
);

wire_enum!(
    /// The `field` path parameter of endpoint 7: section 4.2.
    SortField {
        ProductId => "productId",
        ProductName => "productName",
        Price => "price",
        GroupId => "groupId",
        GroupName => "groupName",
        CreatedAt => "created_at",
    }
);

wire_enum!(
    /// The `typel` path parameter of endpoint 16: section 4.4.
    IpListType {
        HttpIp => "http-ip",
        SocksIp => "socks-ip",
        HttpAuth => "http-auth",
        PprHttp => "ppr-http",
        PprSocks => "ppr-socks",
    }
);

wire_enum!(
    /// The `formatl` path parameter of endpoint 16: section 4.4.
    IpListFormat { Csv => "csv", Txt => "txt", Json => "json" }
);

impl Default for ProductType {
    fn default() -> Self {
        ProductType::Other("".into())
    }
}

impl ProductType {
    /// The type in words: `fpr (static)`, `ppr (rotating)`, or the server's own word.
    pub fn label(&self) -> String {
        match self {
            ProductType::Fpr => "fpr (static)".to_owned(),
            ProductType::Ppr => "ppr (rotating)".to_owned(),
            ProductType::Other(s) => crate::text::or_missing(s).into_owned(),
        }
    }
}

impl Default for ServiceStatus {
    fn default() -> Self {
        ServiceStatus::Other("".into())
    }
}

impl ServiceStatus {
    /// Terminated, Cancelled or Fraud: the service will not come back, so nothing of it
    /// is read again, watched or charged for (no usage alert, no due date exported, no
    /// renewal counted).
    pub fn has_ended(&self) -> bool {
        matches!(
            self,
            ServiceStatus::Terminated | ServiceStatus::Cancelled | ServiceStatus::Fraud
        )
    }
}

impl BillingCycle {
    /// How many months one period of the cycle is; `None` for `Free` (nothing to renew)
    /// and for a cycle the spec does not list (its length is not known).
    pub fn months(&self) -> Option<u32> {
        match self {
            BillingCycle::Monthly => Some(1),
            BillingCycle::Quarterly => Some(3),
            BillingCycle::SemiAnnually => Some(6),
            BillingCycle::Annually => Some(12),
            BillingCycle::Biennially => Some(24),
            BillingCycle::Triennially => Some(36),
            BillingCycle::Free | BillingCycle::Other(_) => None,
        }
    }
}

impl Default for InvoiceStatus {
    fn default() -> Self {
        InvoiceStatus::Other("".into())
    }
}

impl Default for BillingCycle {
    fn default() -> Self {
        BillingCycle::Other("".into())
    }
}

impl IpListType {
    /// The URL scheme an entry of this list type is used with.
    pub fn scheme(&self) -> &'static str {
        match self {
            IpListType::SocksIp | IpListType::PprSocks => "socks5",
            _ => "http",
        }
    }

    /// The list types of a service of this product type: the static ones for fpr, the
    /// rotating gateway's for ppr; every type while the type is not known (or is a word
    /// the spec does not name), as the server may still serve one.
    pub fn for_kind(product_type: &ProductType) -> &'static [IpListType] {
        match product_type {
            ProductType::Fpr => &[
                IpListType::HttpIp,
                IpListType::SocksIp,
                IpListType::HttpAuth,
            ],
            ProductType::Ppr => &[IpListType::PprHttp, IpListType::PprSocks],
            ProductType::Other(_) => IpListType::ALL,
        }
    }

    /// The list type that fits a product type best: `http-auth` for static, `ppr-http` for
    /// rotating.
    pub fn default_for(product_type: &ProductType) -> Self {
        match product_type {
            ProductType::Ppr => IpListType::PprHttp,
            _ => IpListType::HttpAuth,
        }
    }
}
