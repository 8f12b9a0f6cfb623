//! The profiles as the dashboard's `P` chooser shows them: where each points and whether
//! it is read-only, as a switch would resolve them under this command line (its
//! `--base-url` and `--read-only` apply to every profile).

use super::file::FileConfig;
use crate::options::Options;

/// A profile as the `P` chooser shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfileCard {
    pub name: String,
    pub base_url: Option<String>,
    pub read_only: bool,
}

/// Every profile of `file`, under the flags of `cli`.
pub fn of(file: &FileConfig, cli: &Options) -> Vec<ProfileCard> {
    let c = &cli.connection.account;
    file.profiles
        .iter()
        .map(|(name, p)| ProfileCard {
            name: name.clone(),
            base_url: c.base_url.clone().or_else(|| p.base_url.clone()),
            read_only: c.read_only || p.read_only.unwrap_or(false),
        })
        .collect()
}
