//! The async runtime, built once in `main` (and by the benchmarks that measure what a user
//! gets). It keeps a core for the dashboard's loop: the loop runs on the thread that
//! drives the runtime (`block_on`), the accounts' engines and their requests on its
//! workers, one fewer than the cores (at least one). On two cores, ten engines replanning
//! at once after a tab switch took the core a key's frame needed (BENCHMARKS.md target
//! 23: the worst key 17.7–24.0 ms with a worker per core, 10.8–14.9 ms with one). The
//! other subcommands (`watch`, the scripts) have no loop to keep a core for and get a
//! worker per core.

/// The runtime: for the dashboard a worker fewer than the cores (at least one), for
/// anything else a worker per core (see the module docs).
pub fn build(dashboard: bool) -> std::io::Result<tokio::runtime::Runtime> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let workers = if dashboard {
        cores.saturating_sub(1).max(1)
    } else {
        cores
    };
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
}
