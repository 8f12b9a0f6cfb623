//! Rules about addresses and answers that come from outside, kept in one leaf module so
//! every part that acts on them (the my-IP lookup, keep-bound, the probe) judges alike.
//!
//! - [`addr`]: which addresses are public unicast, and in words why one is not.
//! - [`myip`]: a "what is my IP" answer, read bounded and accepted only whole.

pub mod addr;
pub mod myip;
