//! The arguments of the scripting subcommands (`services`, `order`, `iplist`, …): what each
//! takes after its name, with the account options ([`AccountArgs`]) flattened in.

use super::format::FormatArgs;
use super::jq::Jq;
use crate::api::{IpListFormat, IpListType, SortField};
use crate::options::AccountArgs;
use clap::Args;
use clap::builder::{ArgPredicate, PossibleValuesParser, TypedValueParser};
use std::path::PathBuf;

/// How a scripting subcommand prints its answer, and the account it asks.
#[derive(Debug, Args, Clone, Default)]
pub struct OutputArgs {
    /// Print JSON (pretty-printed, the API's own field names) instead of a table.
    #[arg(long, default_value_if("jq", ArgPredicate::IsPresent, "true"))]
    pub json: bool,
    /// Filter the JSON answer with a jq expression (implies --json): each result on a
    /// line, strings without quotes.
    #[arg(long, value_name = "EXPR", value_parser = super::jq::parse)]
    pub jq: Option<Jq>,
    #[command(flatten)]
    pub account: AccountArgs,
}

// `clients` (no doc comment: the subcommand's help is its entry's in `crate::cli`).
#[derive(Debug, Args, Clone, Default)]
pub struct ClientsArgs {
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

// `services` (no doc comment: the subcommand's help is its entry's in `crate::cli`).
#[derive(Debug, Args, Clone, Default)]
pub struct ServicesArgs {
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

// `credit` (no doc comment: the subcommand's help is its entry's in `crate::cli`).
#[derive(Debug, Args, Clone, Default)]
pub struct CreditArgs {
    #[command(flatten)]
    pub output: OutputArgs,
}

// `invoices` (no doc comment: the subcommand's help is its entry's in `crate::cli`).
#[derive(Debug, Args, Clone, Default)]
pub struct InvoicesArgs {
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

// One service's ID: `refresh-list`, `stats` and `rate` take it (each in its own struct).
#[derive(Debug, Clone, Args)]
pub struct ServiceIdArgs {
    /// Service ID.
    #[arg(value_name = "ID")]
    pub id: u64,
    #[command(flatten)]
    pub output: OutputArgs,
}

// `refresh-list` (no doc comment: the subcommand's help is its entry's in `crate::cli`).
#[derive(Debug, Clone, Args)]
pub struct RefreshListArgs {
    #[command(flatten)]
    pub service: ServiceIdArgs,
}

// `stats` (no doc comment: the subcommand's help is its entry's in `crate::cli`).
#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub service: ServiceIdArgs,
    #[command(flatten)]
    pub format: FormatArgs,
}

// `rate` (no doc comment: the subcommand's help is its entry's in `crate::cli`).
#[derive(Debug, Clone, Args)]
pub struct RateArgs {
    #[command(flatten)]
    pub service: ServiceIdArgs,
}

#[derive(Debug, Clone, Args)]
pub struct NetworkArgs {
    /// Service ID [default: every service not Terminated, Cancelled or Fraud; the only
    /// form with several profiles].
    #[arg(value_name = "ID")]
    pub id: Option<u64>,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ProductsArgs {
    /// Sort by this field (the server's order, ascending on the sandbox).
    #[arg(long, value_name = "FIELD", value_parser = sort_fields())]
    pub sort: Option<SortField>,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ProductArgs {
    /// Product ID.
    #[arg(value_name = "PID")]
    pub pid: u64,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct OrderArgs {
    /// Product ID.
    #[arg(value_name = "PID")]
    pub pid: u64,
    /// The client the service is for.
    #[arg(long, value_name = "ID")]
    pub client: u64,
    /// IPv4 address to bind (static products only).
    #[arg(long, value_name = "IP")]
    pub ip: Option<String>,
    /// Do not ask for confirmation (required when standard input is not a terminal).
    #[arg(long, short = 'y')]
    pub yes: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ServiceArgs {
    /// Service ID.
    #[arg(value_name = "ID")]
    pub id: u64,
    /// Show the proxy password instead of masking it (in the table and in --json).
    #[arg(long)]
    pub show_password: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct BindArgs {
    /// Service ID.
    #[arg(value_name = "ID")]
    pub id: u64,
    /// IPv4 address to bind, as a dotted quad (203.0.113.5).
    #[arg(
        value_name = "IP",
        required_unless_present = "mine",
        conflicts_with = "mine"
    )]
    pub ip: Option<String>,
    /// Bind this machine's public IPv4 address, as seen by --my-ip-url.
    #[arg(long)]
    pub mine: bool,
    /// Where --mine looks up this machine's public address (answers it as plain text).
    #[arg(long, value_name = "URL", default_value = crate::net::myip::DEFAULT_MY_IP_URL)]
    pub my_ip_url: String,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct PasswordArgs {
    /// Service ID.
    #[arg(value_name = "ID")]
    pub id: u64,
    /// Caught only to be refused: a password on the command line ends up in shell history
    /// and in the process list.
    #[arg(hide = true, value_name = "NEW_PASSWORD", num_args = 0.., allow_hyphen_values = true)]
    pub refused: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct IplistArgs {
    /// Service ID.
    #[arg(value_name = "ID")]
    pub id: u64,
    /// List type; by default http-auth for a static (fpr) service, ppr-http for a rotating
    /// (ppr) one.
    #[arg(long = "type", value_name = "T", value_parser = list_types())]
    pub list_type: Option<IpListType>,
    /// List format.
    #[arg(long, value_name = "F", value_parser = list_formats(), default_value = "txt")]
    pub format: IpListFormat,
    /// Write the list to this new file (created 0600; an existing file is never
    /// overwritten) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print the list read into entries as JSON (host, port, login, password) instead of
    /// the list as served.
    #[arg(long, default_value_if("jq", ArgPredicate::IsPresent, "true"))]
    pub json: bool,
    /// Filter the JSON entries with a jq expression (implies --json): each result on a
    /// line, strings without quotes.
    #[arg(long, value_name = "EXPR", value_parser = super::jq::parse, conflicts_with = "output")]
    pub jq: Option<Jq>,
    #[command(flatten)]
    pub account: AccountArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ProbeArgs {
    /// Service ID.
    #[arg(value_name = "ID")]
    pub id: u64,
    /// The list probed; by default http-auth for a static (fpr) service, ppr-http for a
    /// rotating (ppr) one. socks-ip and ppr-socks probe SOCKS5.
    #[arg(long = "type", value_name = "T", value_parser = list_types())]
    pub list_type: Option<IpListType>,
    /// Probe the service's proxies as HTTP and as SOCKS5 in one run: its HTTP list and its
    /// SOCKS5 list (http-auth and socks-ip, or ppr-http and ppr-socks).
    #[arg(long, conflicts_with = "list_type")]
    pub both: bool,
    /// Rotating (ppr) service: audit the gateway's rotation instead, asking the judge N
    /// times through it (2 to 100; without N the profile's probe_rotation, default 20) and
    /// counting the distinct exit IPs, how often the exit changed between consecutive
    /// answers and the latency spread.
    #[arg(long, value_name = "N", num_args = 0..=1,
          conflicts_with_all = ["both", "only_working", "template", "format"])]
    pub rotation: Option<Option<u64>>,
    /// Print only the proxies that work.
    #[arg(long)]
    pub only_working: bool,
    /// Print one line per proxy from a template (a name or a pattern with {ip} {port}
    /// {user} {pass} {scheme}) instead of the table.
    #[arg(long, value_name = "T", conflicts_with_all = ["json", "jq", "format"])]
    pub template: Option<String>,
    /// The URL asked through each proxy, instead of the profile's probe_url ("" checks
    /// TCP connects only).
    #[arg(long, value_name = "URL")]
    pub probe_url: Option<String>,
    /// Proxies checked at once, instead of the profile's probe_concurrency (1 to 256).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: Option<u16>,
    /// Probe proxies at loopback, private, link-local, CGNAT, multicast or broadcast
    /// addresses too (skipped by default, with the reason) [profile: probe_allow_private].
    #[arg(long)]
    pub allow_private: bool,
    /// Seconds one proxy may take (connect, handshake, answer) before it counts as dead
    /// [default: 5].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=600))]
    pub probe_timeout: Option<u64>,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct InvoiceArgs {
    /// Invoice ID.
    #[arg(value_name = "ID")]
    pub id: u64,
    #[command(flatten)]
    pub output: OutputArgs,
}

fn sort_fields() -> impl TypedValueParser<Value = SortField> {
    PossibleValuesParser::new(SortField::ALL.iter().map(SortField::as_str))
        .map(|s| SortField::parse(&s))
}

fn list_types() -> impl TypedValueParser<Value = IpListType> {
    PossibleValuesParser::new(IpListType::ALL.iter().map(IpListType::as_str))
        .map(|s| IpListType::parse(&s))
}

fn list_formats() -> impl TypedValueParser<Value = IpListFormat> {
    PossibleValuesParser::new(IpListFormat::ALL.iter().map(IpListFormat::as_str))
        .map(|s| IpListFormat::parse(&s))
}
