//! The binary: parse the command line, then run the dashboard or the subcommand given
//! (`proxydash::cli`).

use proxydash::cli::Cli;
use std::process::ExitCode;
use std::time::Duration;

/// The system allocator, bounding the memory and stack of a `--jq` filter's thread (every
/// other thread is only looked at): see `proxydash::meter`.
#[global_allocator]
static ALLOCATOR: proxydash::meter::Metered = proxydash::meter::Metered;

fn main() -> ExitCode {
    limit_malloc_arenas();
    // What the shell's completion asks at TAB time: answered before anything else is
    // read, quietly (`proxydash::cli::complete`).
    if let Some(code) = proxydash::cli::complete::run_if_asked() {
        return code;
    }
    // Before any state file or command is touched: SIGINT and SIGTERM end the program
    // until a part that stops gracefully takes them over (`proxydash::signals`).
    proxydash::signals::install();
    let cli = Cli::parse();
    // Logging is a convenience: without a writable log file the program still runs.
    // A log file that was asked for (or the dashboard's own) and cannot be used is said
    // once, here, before the terminal is taken; the dashboard says it in its status line too.
    // A FIFO, a device or a link at the default log's name is said whatever the command:
    // it was put there by someone. (A device or a FIFO the user names is written to.)
    type Init = fn(&std::path::Path) -> Result<(), String>;
    let log: Option<(std::path::PathBuf, Init)> = match &cli.log_file {
        Some(named) => Some((named.clone(), proxydash::logging::init_named)),
        None => proxydash::logging::default_path().map(|p| (p, proxydash::logging::init as Init)),
    };
    if let Some((path, init)) = log
        && let Err(e) = init(&path)
        && (cli.log_file.is_some()
            || cli.command.is_none()
            || proxydash::files::check_state(&path).is_err())
    {
        eprintln!("proxydash: warning: {e}; diagnostics are off");
    }
    let runtime = match proxydash::runtime::build(cli.command.is_none()) {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("proxydash: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async move {
        match &cli.command {
            Some(command) => command.run(&cli.options).await,
            None => proxydash::dashboard::run(&cli).await,
        }
    });
    // The answer is decided and the terminal restored: a request or lookup still blocked
    // in the runtime (a dead network, a hung-up terminal) must not keep the process alive.
    runtime.shutdown_timeout(Duration::from_millis(500));
    code
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
