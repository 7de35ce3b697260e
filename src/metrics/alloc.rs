//! A counting global allocator, so studies measure the memory of exact
//! structures (a `HashSet` of the keys) instead of estimating it.
//!
//! The binary installs it (`src/main.rs`); the library's own unit tests install
//! it too. Counting is per thread (net bytes requested minus bytes freed on
//! this thread), so trials running in parallel on other threads do not
//! pollute a measurement. A structure built and measured on one thread is
//! counted exactly, at the sizes requested from the allocator (malloc's own
//! per-block overhead is not included).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static NET: Cell<i64> = const { Cell::new(0) };
}

/// The system allocator, counting bytes per thread.
pub struct CountingAlloc;

#[inline]
fn add(delta: i64) {
    let _ = NET.try_with(|c| c.set(c.get() + delta));
}

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        add(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

/// Net bytes allocated on this thread since it started.
pub fn thread_net_bytes() -> i64 {
    NET.try_with(|c| c.get()).unwrap_or(0)
}

/// Whether [`CountingAlloc`] is the global allocator of this process.
pub fn is_installed() -> bool {
    let before = thread_net_bytes();
    let v: Vec<u8> = Vec::with_capacity(4096);
    let during = thread_net_bytes();
    drop(std::hint::black_box(v));
    during - before >= 4096
}

/// Bytes retained by the value `build` returns: net bytes allocated on this
/// thread while building it. `None` if the counting allocator is not installed.
pub fn measure_retained<T>(build: impl FnOnce() -> T) -> (T, Option<u64>) {
    if !is_installed() {
        return (build(), None);
    }
    let before = thread_net_bytes();
    let value = build();
    let after = thread_net_bytes();
    (value, Some((after - before).max(0) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_a_vec() {
        assert!(is_installed(), "lib tests install CountingAlloc in lib.rs");
        let (v, bytes) = measure_retained(|| vec![0u64; 1000]);
        assert_eq!(bytes, Some(8000));
        drop(v);
    }
}
