//! Command-line definitions (clap) and nothing else: what the flags are, not what they do.

use crate::api::{IpListFormat, IpListType, SortField};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;

mod account;
mod sandbox_help;

pub use account::AccountArgs;
use sandbox_help::FAULTS_HELP;

#[derive(Debug, Clone, Parser)]
#[command(
    name = "proxydash",
    version,
    about = "A terminal dashboard for proxy-reseller accounts",
    long_about = "A terminal dashboard for proxy-reseller accounts: services, products, billing, \
network status and rotating-proxy usage, kept up to date in the background.\n\n\
Try it without an account:  proxydash --demo\n\
On a real account:          PROXYDASH_BASE_URL=https://… PROXYDASH_TOKEN=… proxydash\n\
From a script:              proxydash services --json   (one of the commands below)",
    after_help = "Environment: PROXYDASH_BASE_URL, PROXYDASH_TOKEN, PROXYDASH_LOGIN, PROXYDASH_PASSWORD."
)]
pub struct Cli {
    #[command(flatten)]
    pub connection: ConnectionArgs,

    /// Run the dashboard on a built-in sandbox server (no account needed).
    #[arg(long)]
    pub demo: bool,

    /// Seconds between automatic refreshes of each pane; 0 turns them off [default: 30].
    #[arg(long, value_name = "SECS")]
    pub refresh: Option<u64>,

    /// Capture the mouse (wheel scrolling, click to select). Off by default so the terminal's
    /// own text selection keeps working.
    #[arg(long)]
    pub mouse: bool,

    /// Colour theme: dark or light. NO_COLOR in the environment turns colour off.
    #[arg(long, value_name = "NAME", ignore_case = true)]
    pub theme: Option<crate::config::ThemeName>,

    /// Clipboard: auto, system, osc52 or off [default: auto].
    #[arg(long, value_name = "MODE", ignore_case = true)]
    pub clipboard: Option<crate::clipboard::ClipboardMode>,

    /// Where diagnostics go [default: proxydash.log in the state directory]; the level comes
    /// from PROXYDASH_LOG (info, debug, trace).
    #[arg(long, value_name = "PATH", global = true)]
    pub log_file: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Where the API is and how to log in to it: the dashboard's options, given before any
/// subcommand (`proxydash --read-only order …`), read from the environment too.
#[derive(Debug, Args, Clone, Default)]
pub struct ConnectionArgs {
    /// The profile (account) of the config file to use [default: the file's default_profile].
    #[arg(long, env = "PROXYDASH_PROFILE", value_name = "NAME")]
    pub profile: Option<String>,

    /// The config file [default: $XDG_CONFIG_HOME/proxydash/config.toml].
    #[arg(long, env = "PROXYDASH_CONFIG", value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Base URL of the reseller API (https://…).
    #[arg(long, env = "PROXYDASH_BASE_URL", value_name = "URL")]
    pub base_url: Option<String>,

    /// API token generated in the account area (sent as Basic credentials).
    #[arg(long, env = "PROXYDASH_TOKEN", hide_env_values = true)]
    pub token: Option<String>,

    /// Login, used with --password instead of a token.
    #[arg(long, env = "PROXYDASH_LOGIN")]
    pub login: Option<String>,

    /// Password for --login. Prefer the environment variable: arguments end up in shell history.
    #[arg(long, env = "PROXYDASH_PASSWORD", hide_env_values = true)]
    pub password: Option<String>,

    /// Allow plain http:// to a host that is not loopback (the token travels unencrypted).
    #[arg(long)]
    pub allow_insecure_http: bool,

    /// Turn every write action off (ordering, binding, passwords, IP-list refreshes).
    #[arg(long)]
    pub read_only: bool,

    /// Seconds to wait for a connection [default: 5].
    #[arg(long, value_name = "SECS")]
    pub connect_timeout: Option<u64>,

    /// Seconds to wait for a whole answer [default: 30].
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<u64>,

    /// The most requests a minute to send to the account, whatever its server allows
    /// [default: learned from the server; 60 until it says]. Profile: max_requests_per_minute.
    #[arg(long, value_name = "N")]
    pub max_rpm: Option<u32>,
}

#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Run the local sandbox server that answers the reseller API from demo data.
    #[command(
        after_help = "Example:\n  proxydash sandbox --listen 127.0.0.1:8787 --latency-ms 200 --scale 10000"
    )]
    Sandbox(SandboxArgs),

    /// List the reseller's clients (ID and e-mail).
    #[command(
        after_help = "Example:\n  proxydash clients\n  proxydash clients --json | jq -r '.[].email'"
    )]
    Clients(OutputArgs),

    /// List the products, optionally sorted by one of the API's fields.
    #[command(
        after_help = "Example:\n  proxydash products --sort price\n  proxydash products --json | jq '.[] | {productId, price}'"
    )]
    Products(ProductsArgs),

    /// Show one product.
    #[command(after_help = "Example:\n  proxydash product 11")]
    Product(ProductArgs),

    /// Order a new service of a product for a client (spends credit).
    ///
    /// Shows the product, its price and the credit and asks first, unless --yes. Sent once,
    /// never retried.
    #[command(
        after_help = "Example:\n  proxydash order 11 --client 101 --ip 203.0.113.5\n  proxydash order 21 --client 101 --yes --json\n\n\
If the answer is lost (timeout, dropped connection) the order may or may not have gone \
through: check `proxydash services` before ordering again."
    )]
    Order(OrderArgs),

    /// List your services.
    #[command(
        after_help = "Example:\n  proxydash services\n  proxydash services --json | jq '.[] | select(.status == \"Active\") | .service_id'"
    )]
    Services(OutputArgs),

    /// Show one service with its proxy credentials.
    ///
    /// The password is masked (null in --json) unless --show-password.
    #[command(
        after_help = "Example:\n  proxydash service 1001\n  proxydash service 1001 --show-password --json | jq -r .password"
    )]
    Service(ServiceArgs),

    /// Bind an IPv4 address to a static (fpr) service.
    ///
    /// The address is the one given, or with --mine this machine's public address.
    #[command(
        after_help = "Example:\n  proxydash bind 1001 203.0.113.5\n  proxydash bind 1001 --mine"
    )]
    Bind(BindArgs),

    /// Change the proxy password of a service.
    ///
    /// The new password is read from standard input (its first line) or, on a terminal,
    /// from a prompt that does not echo; never from the command line, where it would stay
    /// in the shell history.
    #[command(
        after_help = "Example:\n  proxydash password 1001                 # asks twice, without echo\n  \
pass show proxies/1001 | proxydash password 1001"
    )]
    Password(PasswordArgs),

    /// Ask the server for a fresh IP list of a service.
    ///
    /// The server throttles this: when it is too soon, prints the next possible time and
    /// exits 1.
    #[command(after_help = "Example:\n  proxydash refresh-list 1001")]
    RefreshList(ServiceIdArgs),

    /// Print the IP list of a service exactly as served, or write it to a new file.
    #[command(
        after_help = "Example:\n  proxydash iplist 1001\n  proxydash iplist 1003 --type ppr-socks --format csv -o proxies.csv"
    )]
    Iplist(IplistArgs),

    /// Check every proxy of a service through itself: alive or dead (and why), latency,
    /// exit IP and anonymity, beside the provider's network status.
    ///
    /// Exits 1 when any proxy is dead, so cron and CI can use it. The target asked through
    /// each proxy is the profile's probe_url (default https://httpbin.org/get).
    #[command(
        after_help = "Example:\n  proxydash probe 1001\n  proxydash probe 1001 --only-working --template url > working.txt\n  proxydash probe 1003 --type ppr-socks --json | jq '.[] | select(.state == \"dead\")'\n\n\
Templates: colon ({ip}:{port}:{user}:{pass}), url ({scheme}://{user}:{pass}@{ip}:{port}), \
proxychains, curl, those of the profile's probe_templates, or a pattern given inline."
    )]
    Probe(ProbeArgs),

    /// Show the account credit.
    #[command(after_help = "Example:\n  proxydash credit\n  proxydash credit --json | jq .credit")]
    Credit(OutputArgs),

    /// List the invoices.
    #[command(
        after_help = "Example:\n  proxydash invoices\n  proxydash invoices --json | jq '.[] | select(.status == \"Unpaid\")'"
    )]
    Invoices(OutputArgs),

    /// Show one invoice.
    #[command(after_help = "Example:\n  proxydash invoice 7001")]
    Invoice(InvoiceArgs),

    /// Daily usage statistics of a rotating (ppr) service.
    #[command(after_help = "Example:\n  proxydash stats 1003\n  proxydash stats 1003 --json")]
    Stats(ServiceIdArgs),

    /// Usage against the limit of a rotating (ppr) service.
    #[command(after_help = "Example:\n  proxydash rate 1003")]
    Rate(ServiceIdArgs),

    /// Proxy servers of a service that are in an error state or inactive.
    #[command(
        after_help = "Example:\n  proxydash network 1001\n  proxydash network 1001 --json | jq -r '.errors[]'"
    )]
    Network(ServiceIdArgs),

    /// Print a shell completion script.
    #[command(
        after_help = "Example:\n  proxydash completions bash > ~/.local/share/bash-completion/completions/proxydash\n  \
proxydash completions zsh > ~/.zfunc/_proxydash"
    )]
    Completions(CompletionsArgs),
    /// Show where the config file is, or write a commented example.
    Config(ConfigArgs),

    /// The history the dashboard keeps of a profile (credit, service states, servers in
    /// error, usage).
    #[command(subcommand)]
    History(HistoryCommand),
}

#[derive(Debug, Clone, Subcommand)]
pub enum HistoryCommand {
    /// Print every change kept since a time, oldest first, as CSV (default) or JSON.
    #[command(
        after_help = "Example:\n  proxydash history export --since 7d --csv > week.csv\n  \
proxydash history export --profile monitor --since 2026-11-01 --json | jq '.[] | select(.kind == \"error_start\")'"
    )]
    Export(HistoryExportArgs),
}

#[derive(Debug, Clone, Args)]
pub struct HistoryExportArgs {
    /// The profile whose history to export [default: the config file's default_profile].
    #[arg(long, env = "PROXYDASH_PROFILE", value_name = "NAME")]
    pub profile: Option<String>,
    /// The config file that names the profiles.
    #[arg(long, env = "PROXYDASH_CONFIG", value_name = "PATH")]
    pub config: Option<std::path::PathBuf>,
    /// From when: a span back from now (`7d`, `12h`, `30m`) or a date (`2026-11-01`, UTC).
    #[arg(long, value_name = "WHEN", default_value = "7d")]
    pub since: String,
    /// Print JSON: an array of objects.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV with a header line (the default).
    #[arg(long)]
    pub csv: bool,
}

/// How a scripting subcommand prints its answer, and the account it asks.
#[derive(Debug, Args, Clone, Default)]
pub struct OutputArgs {
    /// Print JSON (pretty-printed, the API's own field names) instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub account: AccountArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ServiceIdArgs {
    /// Service ID.
    #[arg(value_name = "ID")]
    pub id: u64,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ProductsArgs {
    /// Sort by this field (the server's order, ascending on the sandbox).
    #[arg(long, value_name = "FIELD", value_parser = sort_fields())]
    pub sort: Option<SortField>,
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
    #[arg(long, value_name = "URL", default_value = crate::effects::DEFAULT_MY_IP_URL)]
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
    #[arg(long)]
    pub json: bool,
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
    /// Print only the proxies that work.
    #[arg(long)]
    pub only_working: bool,
    /// Print one line per proxy from a template (a name or a pattern with {ip} {port}
    /// {user} {pass} {scheme}) instead of the table.
    #[arg(long, value_name = "T", conflicts_with = "json")]
    pub template: Option<String>,
    /// The URL asked through each proxy, instead of the profile's probe_url ("" checks
    /// TCP connects only).
    #[arg(long, value_name = "URL")]
    pub probe_url: Option<String>,
    /// Proxies checked at once, instead of the profile's probe_concurrency.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub concurrency: Option<u16>,
    /// Seconds one proxy may take (connect, handshake, answer) before it counts as dead
    /// [default: 5].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=600))]
    pub probe_timeout: Option<u64>,
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

#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for.
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
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

/// `config`: the file and the profile are the only account options that apply.
#[derive(Debug, Clone, Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub command: ConfigCommand,
    /// The profile to show (PROXYDASH_PROFILE) [default: the file's default_profile].
    #[arg(long, value_name = "NAME", global = true)]
    pub profile: Option<String>,
    /// The config file (PROXYDASH_CONFIG) [default: $XDG_CONFIG_HOME/proxydash/config.toml].
    #[arg(long, value_name = "PATH", global = true)]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Clone, Subcommand)]
pub enum ConfigCommand {
    /// Print the path of the config file proxydash reads.
    #[command(after_help = "Example:\n  $EDITOR \"$(proxydash config path)\"")]
    Path,
    /// Write a commented example config file (never overwrites one; created 0600).
    #[command(after_help = "Example:\n  proxydash config init && proxydash config path")]
    Init,
    /// Print the settings as resolved from flags, environment, profile and defaults
    /// (secrets left out).
    #[command(after_help = "Example:\n  PROXYDASH_PROFILE=monitor proxydash config show")]
    Show,
}

#[derive(Debug, Clone, Args)]
pub struct SandboxArgs {
    /// Address to listen on (loopback unless you mean otherwise).
    #[arg(long, default_value = "127.0.0.1:8787")]
    pub listen: SocketAddr,

    /// Milliseconds added before every answer.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub latency_ms: u64,

    /// Generate N services (and matching invoices) instead of the demo seed's.
    #[arg(long, value_name = "N")]
    pub scale: Option<usize>,

    /// Seconds between two allowed IP-list refreshes of one service.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub throttle_secs: u64,

    /// Inject failures, e.g. `500-html:0.1,drop:0.05` or `all:0.2` (--help lists every
    /// kind; docs/sandbox.md has an example of each).
    #[arg(long, value_name = "SPEC", long_help = FAULTS_HELP)]
    pub faults: Option<String>,

    /// The token the sandbox accepts [default: a fixed demo token, printed at start].
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,

    /// Seed file to load instead of the built-in demo data.
    #[arg(long, value_name = "FILE")]
    pub seed: Option<PathBuf>,

    /// Answer with live servers' quirks (numbers as strings, `0000-00-00` or null for
    /// missing dates, a json IP list without brackets) instead of the spec's exact types.
    #[arg(long)]
    pub quirks: bool,
    /// Answer at most N requests a minute per token (all endpoints), with 429
    /// "Too Many Attempts." beyond [default: no limit].
    #[arg(long, value_name = "N")]
    pub rate_limit: Option<u32>,

    /// Send the X-RateLimit-* and Retry-After headers with the rate limit: on or off.
    #[arg(long, value_name = "ON|OFF", default_value = "on", value_parser = ["on", "off"])]
    pub rate_limit_headers: String,

    /// Start real proxies (HTTP and SOCKS5) on 127.0.0.0/8 and a judge, and point the IP
    /// lists at them, so `proxydash probe` and `h` have something to check.
    #[arg(long)]
    pub proxies: bool,
}
