//! The string hashes of the 2011 flooding advisories (oCERT-2011-003; Klink
//! and Wälde, 28C3): Java's `String.hashCode` (`h = 31·h + c` over UTF-16
//! code units, 32-bit) and PHP 5's DJBX33A (`h = 33·h + c` from 5381, over
//! bytes, 64-bit `ulong`). Both are polynomial in their characters with a
//! fixed multiplier, so two 2-character blocks with equal hashes ("Aa" and
//! "BB" for Java, "Ez" and "FY" for PHP) are interchangeable anywhere in a
//! string of blocks: n blocks give 2^n strings with one hash, no search.

/// Java's `String.hashCode` of an ASCII string.
pub fn java_hash(s: &[u8]) -> i32 {
    s.iter()
        .fold(0i32, |h, &c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// PHP 5's `zend_inline_hash_func` (DJBX33A) on a 64-bit platform.
pub fn php5_hash(s: &[u8]) -> u64 {
    s.iter()
        .fold(5381u64, |h, &c| h.wrapping_mul(33).wrapping_add(c as u64))
}

/// Java's equivalent blocks.
pub const JAVA_BLOCKS: [&[u8; 2]; 2] = [b"Aa", b"BB"];
/// PHP 5's equivalent blocks.
pub const PHP5_BLOCKS: [&[u8; 2]; 2] = [b"Ez", b"FY"];

/// All 2^n strings of n blocks, each block one of the two equivalent ones
/// (string i takes block `bit j of i` at position j).
pub fn colliding(blocks: [&[u8; 2]; 2], n: u32) -> Vec<Vec<u8>> {
    (0..1u64 << n)
        .map(|i| {
            (0..n)
                .flat_map(|j| blocks[(i >> j & 1) as usize].iter().copied())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // "hello".hashCode() == 99162322 in Java
        assert_eq!(java_hash(b"hello"), 99_162_322);
        assert_eq!(java_hash(b""), 0);
        // DJBX33A of "a": 5381·33 + 97
        assert_eq!(php5_hash(b"a"), 177_670);
    }

    #[test]
    fn equivalent_blocks_give_one_hash() {
        let j = colliding(JAVA_BLOCKS, 10);
        assert_eq!(j.len(), 1024);
        assert!(j.iter().all(|k| java_hash(k) == java_hash(&j[0])));
        let p = colliding(PHP5_BLOCKS, 10);
        assert!(p.iter().all(|k| php5_hash(k) == php5_hash(&p[0])));
        // distinct strings, and the other runtime's blocks do not collide
        let mut d = p.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), 1024);
        let mut h: Vec<i32> = p.iter().map(|k| java_hash(k)).collect();
        h.sort();
        h.dedup();
        assert!(h.len() > 1);
    }
}
