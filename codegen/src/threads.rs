//! How many threads the generator's parallel steps (parsing area files, emitting files) use:
//! the machine's parallelism (at most 8), or `RUCKUS_CODEGEN_THREADS`, or one inside
//! [`sequential`].

use std::cell::Cell;

thread_local! {
    /// Whether the generator runs on its caller's thread alone (see [`sequential`]).
    static SEQUENTIAL: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with every step of the generator on the calling thread: the same output, and all
/// of its work visible to whatever watches that thread (the tests that count allocations).
pub fn sequential<T>(f: impl FnOnce() -> T) -> T {
    let before = SEQUENTIAL.with(|s| s.replace(true));
    let out = f();
    SEQUENTIAL.with(|s| s.set(before));
    out
}

/// Threads for `jobs` independent jobs, the calling one included.
pub(crate) fn workers(jobs: usize) -> usize {
    if SEQUENTIAL.with(Cell::get) {
        return 1;
    }
    let wanted = std::env::var("RUCKUS_CODEGEN_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(8)));
    wanted.clamp(1, jobs.max(1))
}
