//! Keys from a user's file: `keys = { file = "data/urls.txt.gz", format = "lines" }`.
//!
//! A key file is read once per process (gzip detected by its magic bytes and
//! read transparently), its duplicates dropped (first occurrence kept, the
//! count reported) and its distinct keys kept in file order. A trial draws
//! key `id` as the distinct key at position `perm(id)`, where `perm` is a
//! seeded permutation of `0..len` (a Feistel network over the next power of
//! four, cycle-walked into range): ids `0..n` (the present set) and
//! `n..n+q` (the absent set) are disjoint because the ids are, the split
//! differs from trial to trial with its seed, and it is the same at any
//! thread count. A study that needs more distinct keys than the file holds
//! is refused before it runs.
//!
//! Formats, one key a record:
//! - `lines`: the bytes of each line, without its `\n` (and a `\r` before it);
//! - `hex`: each line's hex digits decoded (an even number of 0-9a-fA-F);
//! - `u64le`: the file is 8-byte records, each key those 8 bytes.

use crate::error::Error;
use std::sync::{Mutex, OnceLock};

/// The longest key (one line) a key file may hold: 1 MiB.
pub const MAX_KEY_BYTES: usize = 1 << 20;

/// How a key file's bytes split into keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Lines,
    Hex,
    U64le,
}

impl Format {
    pub const NAMES: [&'static str; 3] = ["lines", "hex", "u64le"];

    pub fn from_name(s: &str) -> Option<Format> {
        Some(match s {
            "lines" => Format::Lines,
            "hex" => Format::Hex,
            "u64le" => Format::U64le,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Lines => "lines",
            Format::Hex => "hex",
            Format::U64le => "u64le",
        }
    }
}

/// A loaded key file: its distinct keys in first-occurrence order.
#[derive(Debug)]
pub struct KeyFile {
    /// `file:<format>:<path>`: the value a study's `keys` column holds.
    pub name: &'static str,
    /// The path as the spec or command gave it.
    pub path: String,
    pub format: Format,
    /// The file's length on disk (compressed, for a gzipped file).
    pub bytes: u64,
    /// xxh3-64 of the file's bytes on disk.
    pub xxh3_64: u64,
    pub gzipped: bool,
    /// Records read (lines, or 8-byte records).
    pub records: u64,
    /// Records dropped because an earlier record held the same key.
    pub duplicates: u64,
    data: Vec<u8>,
    /// End offset of each distinct key in `data` (empty for a fixed-width
    /// format, whose keys are `width` bytes each).
    ends: Vec<usize>,
    /// The key width of a fixed-width format (u64le: 8), else None.
    width: Option<usize>,
    /// Distinct keys held.
    count: usize,
}

impl KeyFile {
    /// Reads and parses `path`. The error names the file and, for a bad
    /// record, its line (or record) number.
    pub fn load(path: &str, format: Format) -> Result<KeyFile, Error> {
        Self::from_bytes(path, format, &read_regular(path)?)
    }

    /// Parses a key file's bytes as read from disk (gzip detected by magic),
    /// keeping each distinct key once, in file order.
    pub fn from_bytes(path: &str, format: Format, raw: &[u8]) -> Result<KeyFile, Error> {
        Self::records(path, format, raw, true)
    }

    /// Every record of a key file, duplicates kept (`sketchlab hash --file`).
    pub fn load_records(path: &str, format: Format) -> Result<KeyFile, Error> {
        Self::records(path, format, &read_regular(path)?, false)
    }

    /// The records of a key file. What it holds is bounded before it grows:
    /// the file and its inflated text each by the table bound
    /// (`--max-input-bytes`, 1 GiB by default), and, deduplicating, the
    /// distinct keys' bytes, 8 bytes of offset (none for u64le's fixed
    /// 8-byte keys) and 5 to 10 of hash table each; a repeated key costs
    /// nothing (a gzip of one line repeated a billion times holds one key).
    /// More than 2^32 − 1 distinct keys are refused.
    fn records(path: &str, format: Format, raw: &[u8], dedup: bool) -> Result<KeyFile, Error> {
        let gzipped = raw.starts_with(&[0x1f, 0x8b]);
        let inflated;
        let text: &[u8] = if gzipped {
            inflated = crate::input::gunzip(raw, crate::input::table_bound())
                .map_err(|e| Error::input(format!("key file {path}: not readable as gzip: {e}")))?;
            &inflated
        } else {
            raw
        };
        let mut f = KeyFile {
            name: "",
            path: path.to_string(),
            format,
            bytes: raw.len() as u64,
            xxh3_64: xxhash_rust::xxh3::xxh3_64(raw),
            gzipped,
            records: 0,
            duplicates: 0,
            // listed in full, the records are the text's bytes; deduplicated,
            // they grow with the distinct keys only
            data: Vec::with_capacity(if dedup { 0 } else { text.len() }),
            ends: Vec::new(),
            width: (format == Format::U64le).then_some(8),
            count: 0,
        };
        // the distinct keys so far, by index, hashed by their bytes
        let mut seen: hashbrown::HashTable<u32> = hashbrown::HashTable::new();
        let hash = |k: &[u8]| xxhash_rust::xxh3::xxh3_64(k);
        let too_many = || {
            Error::input(format!(
                "key file {path}: more than {} distinct keys (sketchlab indexes a key file's keys with 32 bits)",
                u32::MAX
            ))
        };
        let mut keep = |f: &mut KeyFile, key: &[u8]| -> Result<(), Error> {
            f.records += 1;
            if dedup {
                let h = hash(key);
                if seen.find(h, |&i| f.key(i as usize) == key).is_some() {
                    f.duplicates += 1;
                    return Ok(());
                }
                let index = u32::try_from(f.count)
                    .ok()
                    .filter(|&i| i < u32::MAX)
                    .ok_or_else(too_many)?;
                f.push(key);
                let f = &*f;
                seen.insert_unique(h, index, |&i| hash(f.key(i as usize)));
            } else {
                f.push(key);
            }
            Ok(())
        };
        match format {
            Format::U64le => {
                if !text.len().is_multiple_of(8) {
                    return Err(Error::input(format!(
                        "key file {path}: u64le keys are 8-byte records, but the file holds {} bytes ({} left over after record {})",
                        text.len(),
                        text.len() % 8,
                        text.len() / 8
                    )));
                }
                for k in text.chunks_exact(8) {
                    keep(&mut f, k)?;
                }
            }
            Format::Lines | Format::Hex => {
                let body = text.strip_suffix(b"\n").unwrap_or(text);
                if !text.is_empty() {
                    for (i, line) in body.split(|&b| b == b'\n').enumerate() {
                        let line = line.strip_suffix(b"\r").unwrap_or(line);
                        let at = |what: String| {
                            Error::input(format!("key file {path} line {}: {what}", i + 1))
                        };
                        if line.len() > MAX_KEY_BYTES {
                            return Err(at(format!(
                                "a key of {} bytes; the longest allowed is {MAX_KEY_BYTES} (1 MiB)",
                                line.len()
                            )));
                        }
                        if format == Format::Hex {
                            let key = parse_hex(line).map_err(|e| at(e.to_string()))?;
                            keep(&mut f, &key)?;
                        } else {
                            keep(&mut f, line)?;
                        }
                    }
                }
            }
        }
        if f.records == 0 {
            return Err(Error::input(format!(
                "key file {path}: holds no keys (it is empty)"
            )));
        }
        Ok(f)
    }

    /// Appends one key.
    fn push(&mut self, key: &[u8]) {
        self.data.extend_from_slice(key);
        if self.width.is_none() {
            self.ends.push(self.data.len());
        }
        self.count += 1;
    }

    /// Distinct keys.
    pub fn len(&self) -> u64 {
        self.count as u64
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The `i`-th distinct key, in file order.
    #[inline]
    pub fn key(&self, i: usize) -> &[u8] {
        match self.width {
            Some(w) => &self.data[i * w..(i + 1) * w],
            None => {
                let start = if i == 0 { 0 } else { self.ends[i - 1] };
                &self.data[start..self.ends[i]]
            }
        }
    }

    /// Every distinct key, in file order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        (0..self.count).map(|i| self.key(i))
    }

    /// The common length of every key, if they share one.
    pub fn fixed_len(&self) -> Option<usize> {
        let first = self.key(0).len();
        self.keys().all(|k| k.len() == first).then_some(first)
    }

    /// Mean key length in bytes.
    pub fn mean_len(&self) -> f64 {
        self.data.len() as f64 / self.len() as f64
    }

    /// `path xxh3=…` (what a journal header compares on resume and merge).
    pub fn identity(&self) -> String {
        format!("{} xxh3={:016x}", self.name, self.xxh3_64)
    }
}

/// A regular file's bytes, through the reading layer ([`crate::input`]): a
/// device, a FIFO or a directory is refused (a read of /dev/zero would
/// never end), and so is a file over the table bound (`--max-input-bytes`).
pub fn read_regular(path: &str) -> Result<Vec<u8>, Error> {
    crate::input::read(std::path::Path::new(path), crate::input::table_bound())
        .map_err(|e| Error::input(format!("key file {path}: {e}")))
}

/// How a trial draws its keys from a file, in words (the manifest's `split`).
pub const SPLIT: &str = "a trial's key id i is the distinct key at position perm(i), perm a \
    Feistel permutation of 0..distinct_keys seeded by the trial's \"keys\" stream: members \
    are ids 0..n, absent keys the ids after them (disjoint, as the ids are)";

/// Hex digits to bytes; the error says which character or why.
pub fn parse_hex(line: &[u8]) -> Result<Vec<u8>, Error> {
    let shown: String = String::from_utf8_lossy(&line[..line.len().min(40)]).into_owned();
    let more = if line.len() > 40 { "…" } else { "" };
    if let Some((at, &c)) = line
        .iter()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_hexdigit())
    {
        return Err(Error::input(format!(
            "key \"{shown}{more}\": {:?} at byte {at} is not a hex digit (0-9, a-f)",
            c as char
        )));
    }
    if !line.len().is_multiple_of(2) {
        return Err(Error::input(format!(
            "key \"{shown}{more}\": a key is whole bytes, an even number of hex digits ({} given)",
            line.len()
        )));
    }
    let digit = |c: u8| (c as char).to_digit(16).expect("checked above") as u8;
    Ok(line
        .chunks_exact(2)
        .map(|p| digit(p[0]) << 4 | digit(p[1]))
        .collect())
}

fn registry() -> &'static Mutex<Vec<&'static KeyFile>> {
    static FILES: OnceLock<Mutex<Vec<&'static KeyFile>>> = OnceLock::new();
    FILES.get_or_init(|| Mutex::new(Vec::new()))
}

/// `file:<format>:<path>`.
pub fn canonical(path: &str, format: Format) -> String {
    format!("file:{}:{path}", format.name())
}

/// Splits `file:<format>:<path>`.
pub fn parse_name(s: &str) -> Option<(Format, &str)> {
    let rest = s.strip_prefix("file:")?;
    let (format, path) = rest.split_once(':')?;
    Some((Format::from_name(format)?, path)).filter(|(_, p)| !p.is_empty())
}

/// The loaded file named `file:<format>:<path>`, reading it on first use
/// (once per process). Returns its registry index.
pub fn open(path: &str, format: Format) -> Result<u32, Error> {
    let name = canonical(path, format);
    if let Some(i) = find(&name) {
        return Ok(i);
    }
    let mut f = KeyFile::load(path, format)?;
    f.name = Box::leak(name.into_boxed_str());
    let mut reg = registry().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = reg.iter().position(|g| g.name == f.name) {
        return Ok(i as u32);
    }
    reg.push(Box::leak(Box::new(f)));
    Ok(reg.len() as u32 - 1)
}

/// The registry index of an already-loaded file.
pub fn find(name: &str) -> Option<u32> {
    let reg = registry().lock().unwrap_or_else(|e| e.into_inner());
    reg.iter().position(|f| f.name == name).map(|i| i as u32)
}

/// A loaded file by registry index.
pub fn get(i: u32) -> &'static KeyFile {
    registry().lock().unwrap_or_else(|e| e.into_inner())[i as usize]
}

/// A bijection of `0..n` drawn from `seed`: a four-round Feistel network on
/// the smallest even number of bits covering `n`, cycle-walked (applied again
/// until the value falls below `n`; at most 4 tries expected, since the domain
/// is under 4n).
#[derive(Clone, Copy, Debug)]
pub struct Permutation {
    n: u64,
    half: u32,
    keys: [u64; 4],
}

impl Permutation {
    pub fn new(n: u64, seed: u64) -> Permutation {
        assert!(n > 0, "a permutation of nothing");
        let bits = 64 - (n - 1).leading_zeros();
        let half = bits.div_ceil(2).max(1);
        let mut s = seed;
        let keys = [0; 4].map(|_| {
            s = crate::hashing::splitmix64(s);
            s
        });
        Permutation { n, half, keys }
    }

    fn round(&self, x: u64) -> u64 {
        let mask = (1u64 << self.half) - 1;
        let (mut l, mut r) = (x >> self.half, x & mask);
        for k in self.keys {
            let f = crate::hashing::splitmix64(r ^ k) & mask;
            (l, r) = (r, l ^ f);
        }
        (l << self.half) | r
    }

    /// The position of `id` (which must be below `n`).
    #[inline]
    pub fn apply(&self, id: u64) -> u64 {
        assert!(
            id < self.n,
            "bug: key id {id} beyond the key file's {} distinct keys (the study's key count is checked before it runs)",
            self.n
        );
        let mut x = self.round(id);
        while x >= self.n {
            x = self.round(x);
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(format: Format, raw: &[u8]) -> Result<KeyFile, Error> {
        KeyFile::from_bytes("t.txt", format, raw)
    }

    #[test]
    fn lines_keep_bytes_drop_newlines_and_duplicates() {
        let f = parse(Format::Lines, b"a\r\nb\n\na\nc").unwrap();
        let keys: Vec<&[u8]> = f.keys().collect();
        assert_eq!(keys, [&b"a"[..], b"b", b"", b"c"]);
        assert_eq!((f.records, f.duplicates, f.len()), (5, 1, 4));
    }

    #[test]
    fn hex_and_u64le_decode() {
        let f = parse(Format::Hex, b"00ff\nAB\n").unwrap();
        assert_eq!(f.key(0), [0, 255]);
        assert_eq!(f.key(1), [0xab]);
        let f = parse(
            Format::U64le,
            &[1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0],
        )
        .unwrap();
        assert_eq!((f.len(), f.fixed_len()), (2, Some(8)));
    }

    /// u64le keys are read at their fixed width: 8 bytes a key and no
    /// offsets (a 128 MiB file of distinct keys through `keys check` peaked
    /// at 499 MB of RSS, against 810 MB with an offset per key); duplicates
    /// dropped keep the others in place.
    #[test]
    fn u64le_keys_hold_no_offsets() {
        let raw: Vec<u8> = [5u64, 7, 5, 9]
            .iter()
            .flat_map(|k| k.to_le_bytes())
            .collect();
        let f = parse(Format::U64le, &raw).unwrap();
        assert_eq!((f.len(), f.duplicates, f.ends.capacity()), (3, 1, 0));
        assert_eq!(f.data.len(), 24);
        let keys: Vec<u64> = f
            .keys()
            .map(|k| u64::from_le_bytes(k.try_into().unwrap()))
            .collect();
        assert_eq!(keys, [5, 7, 9]);
    }

    #[test]
    fn bad_files_name_the_line() {
        let e = parse(Format::Hex, b"00\n0g\n").unwrap_err().to_string();
        assert!(e.contains("t.txt line 2") && e.contains("'g'"), "{e}");
        let e = parse(Format::Hex, b"abc\n").unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("even"), "{e}");
        assert!(
            parse(Format::Lines, b"")
                .unwrap_err()
                .to_string()
                .contains("empty")
        );
        assert!(
            parse(Format::U64le, &[0; 9])
                .unwrap_err()
                .to_string()
                .contains("8-byte")
        );
        let mut long = vec![b'x'; MAX_KEY_BYTES + 1];
        long.splice(0..0, b"ok\n".iter().copied());
        let e = parse(Format::Lines, &long).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("1 MiB"), "{e}");
    }

    #[test]
    fn gzip_reads_transparently_and_checksums_the_file() {
        use std::io::Write;
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(b"x\ny\n").unwrap();
        let gz = z.finish().unwrap();
        let f = parse(Format::Lines, &gz).unwrap();
        assert!(f.gzipped);
        assert_eq!(f.len(), 2);
        assert_eq!(f.bytes, gz.len() as u64);
        assert_eq!(f.xxh3_64, xxhash_rust::xxh3::xxh3_64(&gz));
    }

    #[test]
    fn permutation_is_a_bijection_for_every_size() {
        for n in [1u64, 2, 3, 5, 17, 1000, 4096, 4097] {
            for seed in [0, 7] {
                let p = Permutation::new(n, seed);
                let mut seen: Vec<u64> = (0..n).map(|i| p.apply(i)).collect();
                seen.sort_unstable();
                assert_eq!(seen, (0..n).collect::<Vec<_>>(), "n={n}");
            }
        }
        let (a, b) = (Permutation::new(1000, 1), Permutation::new(1000, 2));
        assert!(
            (0..1000).any(|i| a.apply(i) != b.apply(i)),
            "the seed changes the split"
        );
    }

    #[test]
    fn canonical_names_round_trip() {
        let s = canonical("data/a:b.txt", Format::Hex);
        assert_eq!(parse_name(&s), Some((Format::Hex, "data/a:b.txt")));
        assert_eq!(parse_name("file:csv:x"), None);
        assert_eq!(parse_name("u64"), None);
    }
}
