//! Work measured by counting, not by the clock: a global allocator that counts, per thread, the
//! allocations made and the bytes asked for. A test compares the work of two inputs (the same
//! input at two sizes, or a bounded case against its unbounded twin) instead of bounding wall
//! time, so a loaded machine cannot fail it and a blow-up cannot pass it.
//!
//! Each test binary that uses it installs the allocator:
//! `#[global_allocator] static ALLOCATOR: work::Counting = work::Counting;`.

#![allow(
    unsafe_code,
    reason = "a global allocator is an unsafe trait; every call is forwarded to the system's"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting.
pub struct Counting;

thread_local! {
    /// Allocations and bytes asked for by this thread so far.
    static COUNT: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

fn count(bytes: usize) {
    // During thread teardown the counter may be gone: that allocation goes uncounted.
    let _ = COUNT.try_with(|c| {
        let (n, b) = c.get();
        c.set((n + 1, b + bytes as u64));
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only a
// const-initialised thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size.saturating_sub(layout.size()));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// What a piece of work cost on its thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    pub allocations: u64,
    pub bytes: u64,
}

impl Work {
    /// Whether this work made at most `factor` times the allocations of `base`.
    pub fn allocations_within(self, factor: f64, base: Work) -> bool {
        self.allocations as f64 <= factor * base.allocations.max(1) as f64
    }

    /// Whether this work asked for at most `factor` times the bytes of `base`.
    pub fn bytes_within(self, factor: f64, base: Work) -> bool {
        self.bytes as f64 <= factor * base.bytes.max(1) as f64
    }
}

/// Runs `f` on this thread (the generator's parallel steps too, see
/// `ruckus_codegen::threads::sequential`) and counts what it allocated.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Work) {
    let before = COUNT.with(Cell::get);
    let out = ruckus_codegen::threads::sequential(f);
    let after = COUNT.with(Cell::get);
    (
        out,
        Work {
            allocations: after.0 - before.0,
            bytes: after.1 - before.1,
        },
    )
}
