//! The binary: parse the command line, then run the dashboard, the sandbox or a scripting
//! subcommand (`proxydash::script`).

use clap::Parser;
use proxydash::cli::{Cli, Command, SandboxArgs};
#[cfg(feature = "sandbox")]
use proxydash::sandbox::{FaultSpec, SandboxConfig};
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    limit_malloc_arenas();
    let cli = Cli::parse();
    // Logging is a convenience: without a writable log file the program still runs.
    // A log file that was asked for (or the dashboard's own) and cannot be used is said
    // once, here, before the terminal is taken; the dashboard says it in its status line too.
    if let Some(path) = cli
        .log_file
        .clone()
        .or_else(proxydash::logging::default_path)
        && let Err(e) = proxydash::logging::init(&path)
        && (cli.log_file.is_some() || cli.command.is_none())
    {
        eprintln!("proxydash: warning: {e}; diagnostics are off");
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("proxydash: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async move {
        match &cli.command {
            Some(Command::Sandbox(args)) => sandbox(&cli, args).await,
            Some(Command::Config(args)) => {
                // `config show --profile x`: the options after `config` count too.
                let mut with = cli.clone();
                with.connection = cli
                    .connection
                    .with_file(args.profile.as_ref(), args.config.as_ref());
                proxydash::config::command::run(&with, &args.command)
            }
            Some(Command::History(command)) => proxydash::script::history::run(&cli, command),
            Some(Command::Alerts(args)) => proxydash::script::alerts::run(&cli, args),
            Some(Command::Watch(args)) => {
                // `watch --all-profiles --max-rpm 60`: the account options after `watch`
                // count too.
                let mut with = cli.clone();
                with.connection = cli.connection.with(&args.account);
                proxydash::watch::run(&with, args).await
            }
            Some(command) => proxydash::script::run(&cli, command).await,
            None => proxydash::dashboard::run(&cli).await,
        }
    });
    // The answer is decided and the terminal restored: a request or lookup still blocked
    // in the runtime (a dead network, a hung-up terminal) must not keep the process alive.
    runtime.shutdown_timeout(Duration::from_millis(500));
    code
}

#[cfg(not(feature = "sandbox"))]
async fn sandbox(_: &Cli, _: &SandboxArgs) -> ExitCode {
    eprintln!("proxydash sandbox: {}", proxydash::demo::NO_SANDBOX);
    ExitCode::from(2)
}

#[cfg(feature = "sandbox")]
async fn sandbox(cli: &Cli, args: &SandboxArgs) -> ExitCode {
    let faults = match args
        .faults
        .as_deref()
        .map(str::parse::<FaultSpec>)
        .transpose()
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("proxydash sandbox: --faults: {e}");
            return ExitCode::from(2);
        }
    };
    let mut config = SandboxConfig {
        listen: args.listen,
        latency: Duration::from_millis(args.latency_ms),
        scale: args.scale,
        throttle: Duration::from_secs(args.throttle_secs),
        faults,
        seed: args.seed.clone(),
        quirks: args.quirks,
        rate_limit: args.rate_limit.filter(|n| *n > 0),
        rate_limit_headers: args.rate_limit_headers == "on",
        proxies: args.proxies,
        ..SandboxConfig::default()
    };
    // `sandbox --token`, or (as before) --token / PROXYDASH_TOKEN before the subcommand,
    // names the token the sandbox accepts.
    if let Some(token) = args.token.as_ref().or(cli.connection.token.as_ref()) {
        config.token = token.clone();
    }
    match proxydash::sandbox::run_cli(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proxydash sandbox: {e}");
            ExitCode::FAILURE
        }
    }
}

/// glibc gives each thread that allocates its own malloc arena (up to 8 per core), and an
/// arena keeps what was freed in it: with the runtime's workers, the blocking pool and the
/// history writer, the dashboard's resident memory grew by megabytes of freed space. Two
/// arenas are plenty for a program whose threads mostly wait (BENCHMARKS.md target 6).
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called first thing in main, before any other thread exists; mallopt only
    // sets a tuning parameter of the allocator.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}
