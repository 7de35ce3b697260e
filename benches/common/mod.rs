//! Helpers shared by the criterion benches (`mod common;` in each).

use std::hint::black_box;

/// Cycles through `keys`, one per call (a bench iteration).
pub fn each<'a>(keys: &'a [[u8; 8]]) -> impl FnMut() -> &'a [u8] {
    let mut i = 0usize;
    move || {
        i = if i + 1 == keys.len() { 0 } else { i + 1 };
        black_box(&keys[i][..])
    }
}
