//! Structured keysets for hash-quality studies: the inputs real systems feed
//! a hash, where a weak function shows its structure. All are pure functions
//! of the id and distinct for distinct ids (within `max_ids`).

use super::{KeyGen, KeyType};
use std::io::Write;
use std::sync::OnceLock;

/// The words of `data/words.txt` (SCOWL american-english via Debian's
/// `wamerican`, see data/README.md), in file order.
pub fn words() -> &'static [&'static str] {
    static WORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| {
        include_str!("../../data/words.txt")
            .lines()
            .filter(|w| !w.is_empty())
            .collect()
    })
}

crate::closed_set! {
    pub enum Keyset {
        /// 8-byte little-endian integers 0, 1, 2, …
        Sequential = "sequential",
        /// 8-byte integers `id << 40`: only the high 24 bits vary.
        HighBits = "high_bits",
        /// URLs sharing a 72-byte prefix, then the decimal id.
        UrlPrefix = "url_prefix",
        /// The dictionary, word by word.
        Words = "words",
        /// Random-looking 8-byte keys (the control).
        Random = "random",
    }
}

impl Keyset {
    /// How many distinct keys the set has.
    pub fn max_ids(self) -> u64 {
        match self {
            Keyset::HighBits => 1 << 24,
            Keyset::Words => words().len() as u64,
            _ => u64::MAX,
        }
    }
}

const URL_PREFIX: &[u8] =
    b"https://static.example.com/assets/images/catalogue/2026/winter/product-";

/// Writes the keys of a keyset into a reusable buffer.
pub struct KeysetGen {
    set: Keyset,
    buf: Vec<u8>,
    random: KeyGen,
}

impl KeysetGen {
    pub fn new(set: Keyset, salt: u64) -> Self {
        KeysetGen {
            set,
            buf: Vec::with_capacity(128),
            random: KeyGen::new(KeyType::U64, salt),
        }
    }

    #[inline]
    pub fn key(&mut self, id: u64) -> &[u8] {
        self.buf.clear();
        match self.set {
            Keyset::Sequential => self.buf.extend_from_slice(&id.to_le_bytes()),
            Keyset::HighBits => self.buf.extend_from_slice(&(id << 40).to_le_bytes()),
            Keyset::UrlPrefix => {
                self.buf.extend_from_slice(URL_PREFIX);
                write!(self.buf, "{id}").unwrap();
            }
            Keyset::Words => self.buf.extend_from_slice(words()[id as usize].as_bytes()),
            Keyset::Random => return self.random.key(id),
        }
        &self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keysets_are_distinct() {
        for name in Keyset::NAMES {
            let set = Keyset::from_name(name).unwrap();
            let mut g = KeysetGen::new(set, 5);
            let n = set.max_ids().min(5000);
            let keys: HashSet<Vec<u8>> = (0..n).map(|i| g.key(i).to_vec()).collect();
            assert_eq!(keys.len() as u64, n, "{name}");
        }
        assert!(words().len() > 100_000);
        let all: HashSet<&str> = words().iter().copied().collect();
        assert_eq!(all.len(), words().len(), "dictionary words must be unique");
    }
}
