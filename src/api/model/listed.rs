//! A list of records as read (endpoints 6, 7 and 11): every record that reads, and those
//! that do not, counted and named, so one record a server spoils (`"amount": "1,234.50"`,
//! a price of `"NaN"`) loses that record and not its list. The decoder is
//! [`crate::api::decode`]'s `decode_records`; what reads the list says the skipped ones
//! (the pane, the scripting commands, the log, `/metrics`), and a figure worked out from
//! it says it is incomplete.

use super::{Invoice, ProductSummary};
use serde::{Serialize, Serializer};
use std::ops::{Deref, DerefMut};

/// How many skipped records are named; the rest are counted.
pub const SKIPPED_NAMED: usize = 20;

/// One record of a list that could not be read, named by what of it could be: its ID,
/// the member that did not read and that member's value as sent. Server text, cleaned of
/// control characters and cut ([`crate::text::sanitize`]), so it can be printed as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// Its ID as sent (`812`), when it has one.
    pub id: Option<String>,
    /// The member that did not read (`amount`); `None` when the record is no object.
    pub field: Option<String>,
    /// That member's value (or the record, when it is no object) as JSON text:
    /// `"1,234.50"`.
    pub value: String,
    /// Its `status` as sent, when it has one: an invoice that may be owed is an amount
    /// not known, one paid or cancelled is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

impl Skipped {
    /// `id 812, amount "1,234.50"`.
    pub fn words(&self) -> String {
        let id = match &self.id {
            Some(id) => format!("id {id}"),
            None => "no id".to_owned(),
        };
        match &self.field {
            Some(field) => format!("{id}, {field} {}", self.value),
            None => format!("{id}, not a record: {}", self.value),
        }
    }
}

/// A kind of record a list holds: what it is called and where its ID is on the wire.
pub trait Record {
    /// `invoice`, `invoices`.
    const NOUN: (&'static str, &'static str);
    /// The member holding its ID.
    const ID: &'static str;
}

impl Record for Invoice {
    const NOUN: (&'static str, &'static str) = ("invoice", "invoices");
    const ID: &'static str = "id";
}

impl Record for ProductSummary {
    const NOUN: (&'static str, &'static str) = ("product", "products");
    const ID: &'static str = "productId";
}

/// Records as read: the list (`Deref` to it, so it reads as a `Vec`) and what was
/// skipped. Serialized as the list alone: the API's shape (the sandbox, `--json`).
#[derive(Clone, Debug, PartialEq)]
pub struct Listed<T> {
    pub items: Vec<T>,
    /// The records that could not be read, the first [`SKIPPED_NAMED`] of them.
    pub skipped: Vec<Skipped>,
    /// How many could not be read in all.
    pub skipped_count: usize,
}

impl<T> Default for Listed<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            skipped: Vec::new(),
            skipped_count: 0,
        }
    }
}

impl<T> Listed<T> {
    /// A list of which every record read.
    pub fn whole(items: Vec<T>) -> Self {
        Self {
            items,
            ..Self::default()
        }
    }

    /// Another skipped record: named while there is room, counted always.
    pub fn skip(&mut self, skipped: Skipped) {
        self.skipped_count += 1;
        if self.skipped.len() < SKIPPED_NAMED {
            self.skipped.push(skipped);
        }
    }
}

impl<T: Record> Listed<T> {
    /// `1 invoice could not be read: id 812, amount "1,234.50"`, the first few named;
    /// `None` when every record read.
    pub fn skipped_line(&self) -> Option<String> {
        skipped_line::<T>(self.skipped_count, &self.skipped, 3)
    }
}

/// The line of [`Listed::skipped_line`], naming at most `named` of `skipped`.
pub fn skipped_line<T: Record>(count: usize, skipped: &[Skipped], named: usize) -> Option<String> {
    if count == 0 {
        return None;
    }
    let (one, many) = T::NOUN;
    let noun = if count == 1 { one } else { many };
    let names: Vec<String> = skipped.iter().take(named).map(Skipped::words).collect();
    let rest = count.saturating_sub(names.len());
    let more = if rest > 0 {
        format!("; and {rest} more")
    } else {
        String::new()
    };
    Some(format!(
        "{} {noun} could not be read: {}{more}",
        crate::text::count(count as u64),
        names.join("; ")
    ))
}

impl<T> From<Vec<T>> for Listed<T> {
    fn from(items: Vec<T>) -> Self {
        Self::whole(items)
    }
}

impl<T> FromIterator<T> for Listed<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Self::whole(iter.into_iter().collect())
    }
}

impl<T> Deref for Listed<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.items
    }
}

impl<T> DerefMut for Listed<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.items
    }
}

impl<T> IntoIterator for Listed<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a Listed<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<T: Serialize> Serialize for Listed<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(s)
    }
}
