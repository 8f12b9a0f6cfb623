//! Which accounts a command works on, decided in one place for every command:
//! `--profile NAME` (repeatable, or `PROXYDASH_PROFILE`), `--all-profiles`, and for the
//! dashboard the config file's `dashboard_profiles`.
//!
//! `watch`, the read commands (`services`, `invoices`, `credit`, `network`), `alerts`
//! (state files only), `config show` and the dashboard take several accounts
//! ([`profiles`], [`resolve_all`]). Every other command
//! (order, bind, password, refresh-list, the dashboard over one account, …) works on one
//! and asks [`one`], which refuses several with a message, status 2 like any bad setting:
//! a write must never go to an account the user did not mean.
//!
//! `--all-profiles` overrides a `PROXYDASH_PROFILE` from the environment (a variable set
//! for everyday use must not stop `proxydash --all-profiles`); with `--profile` given as
//! a flag it is refused as ambiguous (clap cannot tell a flag from the variable, so the
//! variable's value is compared).

use super::{ConfigError, Settings, read_file};
use crate::api::ApiClient;
use crate::options::Options;

/// What a command without `--profile` and `--all-profiles` works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unnamed {
    /// The one profile a single-account command would use: the file's
    /// `default_profile`, its only profile, or `default`.
    DefaultProfile,
    /// The dashboard: the file's `dashboard_profiles` when set, else
    /// [`Unnamed::DefaultProfile`].
    DashboardProfiles,
}

/// The profiles selected, in the order given (by name for `--all-profiles`),
/// each once. `None` is the profile chosen without a name ([`Unnamed::DefaultProfile`]).
/// Names are checked when each is resolved ([`Settings::resolve_profile`]).
pub fn profiles(cli: &Options, unnamed: Unnamed) -> Result<Vec<Option<String>>, ConfigError> {
    let c = &cli.connection;
    let named = named(cli)?;
    if c.all_profiles {
        let (file, path, _) = read_file(cli)?;
        let place = path.map_or_else(|| "the config file".into(), |p| p.display().to_string());
        if file.profiles.is_empty() {
            return Err(ConfigError::Invalid(format!(
                "--all-profiles: {place} has no profiles"
            )));
        }
        return Ok(file.profiles.into_keys().map(Some).collect());
    }
    if !named.is_empty() {
        return Ok(named.into_iter().map(Some).collect());
    }
    if unnamed == Unnamed::DashboardProfiles {
        let (file, path, _) = read_file(cli)?;
        let set = unique(file.dashboard_profiles.as_deref().unwrap_or_default());
        if let Some(unknown) = set.iter().find(|n| !file.profiles.contains_key(*n)) {
            let place = path.map_or_else(|| "the config file".into(), |p| p.display().to_string());
            return Err(ConfigError::Invalid(format!(
                "dashboard_profiles names {unknown:?}, which is not a profile of {place}"
            )));
        }
        if !set.is_empty() {
            return Ok(set.into_iter().map(Some).collect());
        }
    }
    Ok(vec![None])
}

/// The profile named for a command that works on one account, `None` when none is
/// named; several profiles or `--all-profiles` are refused.
pub fn one(cli: &Options) -> Result<Option<&str>, ConfigError> {
    if cli.connection.all_profiles {
        return Err(ConfigError::Invalid(
            "--all-profiles: this command works on one account; name it with --profile NAME \
             (several accounts are read by watch, services, invoices, credit, network, alerts \
             and config show)"
                .into(),
        ));
    }
    match cli.connection.profile.as_slice() {
        [] => Ok(None),
        [first, rest @ ..] if rest.iter().all(|n| n == first) => Ok(Some(first)),
        several => Err(ConfigError::Invalid(format!(
            "{} profiles named ({}): this command works on one account; name one with \
             --profile NAME (several accounts are read by watch, services, invoices, credit, \
             network, alerts and config show)",
            several.len(),
            unique(several).join(", ")
        ))),
    }
}

/// Each selected profile ([`profiles`]) resolved, its secrets read, with its own client:
/// what `watch` and the dashboard over several accounts run. A profile that cannot be
/// resolved (unknown, no base URL, a failing `token_command`) stops it all, so a typo is
/// not a silent gap. The settings' warnings are left for the caller to show.
pub fn resolve_all(
    cli: &Options,
    unnamed: Unnamed,
) -> Result<Vec<(Settings, ApiClient)>, ConfigError> {
    profiles(cli, unnamed)?
        .into_iter()
        .map(|name| {
            let settings = Settings::resolve_profile(cli, name.as_deref())?;
            let client = ApiClient::new(settings.client_config())
                .map_err(|e| ConfigError::Invalid(format!("profile {}: {e}", settings.profile)))?;
            Ok((settings, client))
        })
        .collect()
}

/// The profiles named by `--profile`, each once; refused beside `--all-profiles` unless
/// they are only `PROXYDASH_PROFILE`'s.
fn named(cli: &Options) -> Result<Vec<String>, ConfigError> {
    let c = &cli.connection;
    if !c.all_profiles || c.profile.is_empty() {
        return Ok(unique(&c.profile));
    }
    let from_env = std::env::var("PROXYDASH_PROFILE").ok();
    if matches!((c.profile.as_slice(), from_env), ([one], Some(env)) if *one == env) {
        return Ok(Vec::new());
    }
    Err(ConfigError::Invalid(
        "--all-profiles and --profile both choose the accounts: give one of them".into(),
    ))
}

/// `names` without repeats, in their first order.
fn unique(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        if !out.contains(name) {
            out.push(name.clone());
        }
    }
    out
}
