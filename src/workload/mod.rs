//! Key sources. Every key is a pure function of `(key type, salt, id)` and
//! distinct ids give distinct keys (each generator embeds a bijection of the
//! id), so "inserted" ids `0..n` and "query" ids `n..n+q` are disjoint by
//! construction: a query that the filter accepts is a false positive, no
//! exact set needed to tell.

pub mod check;
pub mod file;
pub mod keysets;
pub mod values;
pub mod zipf;

use crate::error::Error;
use crate::hashing::splitmix64;
use std::io::Write;

/// The key shapes the studies use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyType {
    /// 4 bytes: a bijective 32-bit mix of the id (ids below 2^32), the
    /// essay's "4-byte integers".
    U32,
    /// 8 bytes: a bijective mix of the id (random-looking 64-bit integers).
    U64,
    /// 100-byte URL-like strings with a shared scheme and host.
    Url100,
    /// 2 KiB byte strings.
    Blob2k,
    /// 16 random-looking bytes (unique: the id's 64-bit mix, then a second
    /// mix of it): the chapter's "16 bytes each" visitor IDs, a UUID's size.
    Bytes16,
    /// Short decimal strings `key-<n>` (what a Python `str` item looks like).
    Decimal,
    /// The distinct keys of a user's file (index into [`file`]'s registry of
    /// loaded files), drawn in a seeded order: see [`file`].
    File(u32),
}

impl KeyType {
    pub const ALL: [KeyType; 6] = [
        KeyType::U32,
        KeyType::U64,
        KeyType::Url100,
        KeyType::Blob2k,
        KeyType::Decimal,
        KeyType::Bytes16,
    ];

    pub fn name(self) -> &'static str {
        match self {
            KeyType::U32 => "u32",
            KeyType::U64 => "u64",
            KeyType::Url100 => "url100",
            KeyType::Blob2k => "blob2k",
            KeyType::Decimal => "decimal",
            KeyType::Bytes16 => "bytes16",
            KeyType::File(i) => file::get(i).name,
        }
    }

    /// A synthetic type by name, or an already-loaded key file by its
    /// `file:<format>:<path>` name ([`KeyType::open`] loads one).
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .or_else(|| file::find(s).map(KeyType::File))
    }

    /// A synthetic type by name, or a key file (`file:<format>:<path>`),
    /// read on first use; the error names the file and line.
    pub fn open(s: &str) -> Result<Self, Error> {
        if let Some(k) = Self::ALL.into_iter().find(|k| k.name() == s) {
            return Ok(k);
        }
        match file::parse_name(s) {
            Some((format, path)) => file::open(path, format).map(KeyType::File),
            None => Err(Error::input(format!(
                "must be one of {}, or a key file {{ file = \"PATH\", format = \"{}\" }}",
                Self::names().join(", "),
                file::Format::NAMES.join("\" | \"")
            ))),
        }
    }

    /// The synthetic types' names.
    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|k| k.name()).collect()
    }

    /// The shortest key's length in bytes.
    pub fn min_len(self) -> usize {
        match self {
            KeyType::Decimal => "key-0".len(),
            KeyType::File(i) => file::get(i).keys().map(<[u8]>::len).min().unwrap_or(0),
            k => k.key_len().expect("fixed-length type"),
        }
    }

    /// The loaded key file behind this type, if it is one.
    pub fn file(self) -> Option<&'static file::KeyFile> {
        match self {
            KeyType::File(i) => Some(file::get(i)),
            _ => None,
        }
    }

    /// Key length in bytes (`None` when it varies).
    pub fn key_len(self) -> Option<usize> {
        match self {
            KeyType::U32 => Some(4),
            KeyType::U64 => Some(8),
            KeyType::Url100 => Some(100),
            KeyType::Blob2k => Some(2048),
            KeyType::Decimal => None,
            KeyType::Bytes16 => Some(16),
            KeyType::File(i) => file::get(i).fixed_len(),
        }
    }
}

/// Writes keys of one type into a reusable buffer.
#[derive(Clone, Debug)]
pub struct KeyGen {
    key_type: KeyType,
    salt: u64,
    buf: Vec<u8>,
    /// u32 and u64 keys: written here, not into `buf` (no length
    /// bookkeeping on the sweep engine's hottest path).
    word: [u8; 8],
    /// A key file's keys and this generator's seeded order of them.
    file: Option<(&'static file::KeyFile, file::Permutation)>,
}

const URL_PREFIX: &[u8] = b"https://www.example.com/articles/";
const URL_WORDS: [&str; 16] = [
    "bloom", "filter", "sketch", "cache", "index", "shard", "query", "store", "hash", "count",
    "merge", "table", "graph", "event", "token", "batch",
];

impl KeyGen {
    pub fn new(key_type: KeyType, salt: u64) -> Self {
        KeyGen {
            key_type,
            salt,
            buf: Vec::with_capacity(2048),
            word: [0; 8],
            file: key_type
                .file()
                .map(|f| (f, file::Permutation::new(f.len(), salt))),
        }
    }

    pub fn key_type(&self) -> KeyType {
        self.key_type
    }

    /// The bytes of the u64 key for `id`: what [`Self::key`] returns for
    /// [`KeyType::U64`], by value (batches of keys without a buffer).
    #[inline]
    pub fn u64_key(&self, id: u64) -> [u8; 8] {
        splitmix64(id ^ self.salt).to_le_bytes()
    }

    /// The key for `id`; valid until the next call.
    #[inline]
    pub fn key(&mut self, id: u64) -> &[u8] {
        // A bijection of id: distinct ids give distinct x.
        let x = splitmix64(id ^ self.salt);
        match self.key_type {
            KeyType::U32 => {
                debug_assert!(id < 1 << 32, "u32 keys need ids below 2^32");
                self.word[..4].copy_from_slice(&mix32(id as u32 ^ self.salt as u32).to_le_bytes());
                return &self.word[..4];
            }
            KeyType::U64 => {
                self.word = self.u64_key(id);
                return &self.word;
            }
            KeyType::File(_) => {
                let (f, perm) = self.file.as_ref().expect("a file generator holds its file");
                return f.key(perm.apply(id) as usize);
            }
            KeyType::Url100 => {
                // every byte is written: no clear (a no-op once 100 long)
                self.buf.resize(100, 0);
                url100(x, (&mut self.buf[..]).try_into().expect("100 bytes"));
                return &self.buf;
            }
            _ => {}
        }
        self.buf.clear();
        match self.key_type {
            KeyType::U32 | KeyType::U64 | KeyType::File(_) | KeyType::Url100 => {
                unreachable!("returned above")
            }
            KeyType::Blob2k => {
                self.buf.extend_from_slice(&x.to_le_bytes());
                let mut s = x;
                while self.buf.len() < 2048 {
                    s = splitmix64(s);
                    self.buf.extend_from_slice(&s.to_le_bytes());
                }
            }
            KeyType::Decimal => {
                write!(self.buf, "key-{x}").unwrap();
            }
            KeyType::Bytes16 => {
                self.buf.extend_from_slice(&x.to_le_bytes());
                self.buf.extend_from_slice(&splitmix64(x).to_le_bytes());
            }
        }
        &self.buf
    }
}

/// [`URL_WORDS`] each with the '-' that follows it, padded to 8 bytes, and
/// the length that counts (word and '-').
const URL_UNITS: [([u8; 8], usize); 16] = {
    let mut units = [([0; 8], 0); 16];
    let mut i = 0;
    while i < 16 {
        let w = URL_WORDS[i].as_bytes();
        assert!(w.len() < 8, "a url word and its '-' fit 8 bytes");
        let mut j = 0;
        while j < w.len() {
            units[i].0[j] = w[j];
            j += 1;
        }
        units[i].0[w.len()] = b'-';
        units[i].1 = w.len() + 1;
        i += 1;
    }
    units
};

/// The url100 key of `x`: [`URL_PREFIX`], then words picked by the nibbles
/// of x, each followed by '-', cut at byte 83, then '/' and x in 16
/// lower-case hex digits (which make the key unique). Written in place in
/// copies of 8 bytes (a word's padding is overwritten by the next word, or
/// by the '/' and the digits), not through `fmt`: a study at 10^7 url100
/// keys spent a third of its time formatting them.
#[inline]
fn url100(x: u64, out: &mut [u8; 100]) {
    const WORDS_END: usize = 100 - 17;
    out[..URL_PREFIX.len()].copy_from_slice(URL_PREFIX);
    let (mut at, mut r) = (URL_PREFIX.len(), x);
    while at < WORDS_END {
        // at ≤ 82, so the 8 bytes end by byte 90
        let (unit, len) = &URL_UNITS[(r & 15) as usize];
        out[at..at + 8].copy_from_slice(unit);
        at += len;
        r = r.rotate_right(4);
    }
    out[WORDS_END] = b'/';
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for (i, d) in out[WORDS_END + 1..].iter_mut().enumerate() {
        *d = HEX[((x >> (60 - 4 * i)) & 15) as usize];
    }
}

/// A bijection of 32-bit integers (each step is invertible: xor-shifts and odd
/// multipliers), C. Wellons' "lowbias32".
fn mix32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_have_their_lengths_and_are_distinct() {
        for kind in KeyType::ALL {
            let mut g = KeyGen::new(kind, 99);
            let mut seen = HashSet::new();
            for id in 0..2000 {
                let k = g.key(id).to_vec();
                if let Some(len) = kind.key_len() {
                    assert_eq!(k.len(), len, "{kind:?}");
                }
                assert!(seen.insert(k), "{kind:?} repeated a key at id {id}");
            }
        }
    }

    /// The url100 writer as first written (through `Vec` and `fmt`): the
    /// oracle the in-place one must match byte for byte.
    fn url100_by_fmt(x: u64) -> Vec<u8> {
        use std::io::Write;
        let mut buf = URL_PREFIX.to_vec();
        let mut r = x;
        while buf.len() < 100 - 17 {
            buf.extend_from_slice(URL_WORDS[(r & 15) as usize].as_bytes());
            r = r.rotate_right(4);
            buf.push(b'-');
        }
        buf.truncate(100 - 17);
        write!(buf, "/{x:016x}").unwrap();
        buf
    }

    #[test]
    fn url100_keys_match_the_fmt_writer() {
        let mut g = KeyGen::new(KeyType::Url100, 0x5eed);
        for id in (0..20_000).chain([u64::MAX, u64::MAX - 1, 1 << 63]) {
            let x = splitmix64(id ^ 0x5eed);
            assert_eq!(g.key(id), &url100_by_fmt(x)[..], "id {id}");
        }
        for x in [0, 1, 15, 16, u64::MAX, 0x0123_4567_89ab_cdef] {
            let mut out = [0u8; 100];
            url100(x, &mut out);
            assert_eq!(&out[..], &url100_by_fmt(x)[..], "x {x:#x}");
        }
    }

    #[test]
    fn urls_look_like_urls() {
        let mut g = KeyGen::new(KeyType::Url100, 1);
        let k = String::from_utf8(g.key(5).to_vec()).unwrap();
        assert!(k.starts_with("https://www.example.com/articles/"), "{k}");
    }

    #[test]
    fn salt_changes_keys() {
        let a = KeyGen::new(KeyType::U64, 1).key(0).to_vec();
        let b = KeyGen::new(KeyType::U64, 2).key(0).to_vec();
        assert_ne!(a, b);
    }
}
