//! A string that must never be printed: API tokens, login passwords, proxy passwords.
//!
//! `Debug` and `Display` both print `[redacted]`, so a secret that ends up in a log line,
//! an error message or a `dbg!` shows nothing. Reading the value takes an explicit
//! [`Secret::expose`], which is easy to search for in review.
//!
//! The value is kept in a [`secrecy::SecretString`], so its memory is wiped when it is
//! dropped. Equality and hashing (secrecy has neither, on purpose) are on the value: the
//! settings compare credentials, and a request carrying a password is a map key.

use secrecy::{ExposeSecret, SecretString};
use std::fmt;
use std::hash::{Hash, Hasher};

#[derive(Clone)]
pub struct Secret(SecretString);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(SecretString::from(value.into()))
    }

    /// The secret itself. Call only where the value is sent or shown on purpose.
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }

    pub fn is_empty(&self) -> bool {
        self.expose().is_empty()
    }
}

impl Default for Secret {
    fn default() -> Self {
        Self::new(String::new())
    }
}

impl PartialEq for Secret {
    fn eq(&self, other: &Self) -> bool {
        self.expose() == other.expose()
    }
}

impl Eq for Secret {}

impl Hash for Secret {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.expose().hash(state);
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self::new(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self::new(value)
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_hide_the_value() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s:?}"), "[redacted]");
        assert_eq!(format!("{s}"), "[redacted]");
        assert_eq!(s.expose(), "hunter2");
        assert_eq!(s, Secret::from("hunter2"));
        assert_ne!(s, Secret::default());
    }
}
