//! `runtime_hashes`: the runtimes of the essay's flooding paragraph. Java's
//! `String.hashCode` and PHP 5's DJBX33A (the functions of the 2011
//! advisories, modelled from their published definitions) hashed over 2^n
//! strings built from equivalent blocks; the same strings through a real
//! CPython (`python3`, two processes, `PYTHONHASHSEED` unset) and through
//! Rust's std `RandomState`. Per runtime: its algorithm, whether its key
//! differs per process, and how many distinct hash values the crafted
//! strings get.

use crate::attack::strings::{self, JAVA_BLOCKS, PHP5_BLOCKS};
use crate::error::Error;
use crate::experiment::kinds::common;
use crate::experiment::kinds::{Footprint, Measure};
use crate::experiment::params::{Def, Seeds};
use crate::peer::python;
use std::collections::HashSet;
use std::hash::{BuildHasher, Hasher};

pub struct RuntimeHashes;

crate::closed_set! {
    /// The values of `runtime`.
    pub enum Runtime {
        Java = "java",
        Php5 = "php5",
        Python = "python",
        Rust = "rust",
    }
}

crate::params! {
    pub struct P {
        runtime: Runtime = common::choice(Runtime::NAMES, Def::Required, "java: String.hashCode; php5: DJBX33A (both modelled from their definitions); python: a real python3; rust: std's RandomState"),
        blocks: u64 [count] = common::int(1, 20, Def::Int(16), "2-character blocks per crafted string: 2^blocks strings per runtime's set"),
    }
}

crate::row! {
    pub struct R {
        version: String [Same],
        algorithm: String [Same],
        hash_bits: Option<u64> [Same, bits],
        /// 1 when two processes (Python) or two RandomStates (Rust) hash the same string differently.
        randomized_per_process: Option<u64> [Same, flag],
        /// 1 when the runtime's string hash is SipHash (any variant).
        siphash: Option<u64> [Same, flag],
        /// Strings in each crafted set.
        crafted_keys: u64 [Same, count],
        /// Distinct hash values among the strings crafted for Java ("Aa"/"BB" blocks).
        distinct_java_keys: Option<u64> [Same, count],
        /// Distinct hash values among the strings crafted for PHP 5 ("Ez"/"FY" blocks).
        distinct_php5_keys: Option<u64> [Same, count],
        /// Distinct hash values among the strings crafted against this runtime's own hash (Java, PHP 5).
        distinct_own_keys: Option<u64> [Same, count],
    }
}

fn distinct<T: std::hash::Hash + Eq>(it: impl Iterator<Item = T>) -> u64 {
    it.collect::<HashSet<T>>().len() as u64
}

const PYTHON: &str = "import sys\n\
sets = sys.stdin.read().split('\\n\\n')\n\
print(sys.version.split()[0], sys.hash_info.algorithm, sys.hash_info.hash_bits)\n\
for s in sets: print(len({hash(k) for k in s.split('\\n')}))\n\
print(hash('sketchlab: is this hash keyed per process?'))\n";

/// Python's answer for the two key sets: (version, algorithm, bits,
/// distinct java, distinct php, randomized), or why not.
fn python_row(
    java: &[Vec<u8>],
    php: &[Vec<u8>],
) -> Result<(String, String, u64, u64, u64, bool), Error> {
    let join = |s: &[Vec<u8>]| s.join(&b'\n');
    let mut input = join(java);
    input.extend_from_slice(b"\n\n");
    input.extend(join(php));
    let a = python::run(PYTHON, &input)?;
    let b = python::run(PYTHON, b"x\n\nx")?;
    let lines: Vec<&str> = a.lines().collect();
    let (Some(head), Some(dj), Some(dp), Some(ha)) =
        (lines.first(), lines.get(1), lines.get(2), lines.get(3))
    else {
        return Err(Error::other(format!("unexpected python3 output: {a:?}")));
    };
    let hb = b
        .lines()
        .nth(3)
        .ok_or_else(|| Error::other("unexpected python3 output"))?;
    let head: Vec<&str> = head.split_whitespace().collect();
    let [version, algorithm, bits] = head[..] else {
        return Err(Error::other(format!("unexpected python3 header: {head:?}")));
    };
    let num = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|e| Error::other(format!("{s:?}: {e}")))
    };
    Ok((
        version.into(),
        algorithm.into(),
        num(bits)?,
        num(dj)?,
        num(dp)?,
        ha.trim() != hb.trim(),
    ))
}

/// Whether std's `DefaultHasher::new()` is SipHash-1-3 with the zero key:
/// the same bytes through it and through siphasher's SipHash-1-3.
fn rust_default_is_sip13() -> bool {
    (0u64..1000).all(|i| {
        let key = crate::hashing::splitmix64(i).to_le_bytes();
        let mut a = std::hash::DefaultHasher::new();
        a.write(&key[..(i % 9) as usize]);
        let mut b = siphasher::sip::SipHasher13::new_with_keys(0, 0);
        b.write(&key[..(i % 9) as usize]);
        a.finish() == b.finish()
    })
}

impl Measure for RuntimeHashes {
    type P = P;
    type R = R;
    const NAME: &'static str = "runtime_hashes";
    const ABOUT: &'static str = "The 2011 string hashes (Java, PHP 5) flooded by equivalent blocks, next to today's CPython and Rust (SipHash, keyed per process)";

    fn run(&self, p: &P, _seeds: Seeds) -> anyhow::Result<R> {
        let n = p.blocks as u32;
        let java = strings::colliding(JAVA_BLOCKS, n);
        let php = strings::colliding(PHP5_BLOCKS, n);
        let crafted_keys = java.len() as u64;
        let row = |version: &str, algorithm: &str| R {
            version: version.into(),
            algorithm: algorithm.into(),
            hash_bits: None,
            randomized_per_process: None,
            siphash: None,
            crafted_keys,
            distinct_java_keys: None,
            distinct_php5_keys: None,
            distinct_own_keys: None,
        };
        Ok(match p.runtime {
            Runtime::Java | Runtime::Php5 => {
                let h = |k: &Vec<u8>| -> u64 {
                    if p.runtime == Runtime::Java {
                        strings::java_hash(k) as u32 as u64
                    } else {
                        strings::php5_hash(k)
                    }
                };
                let (dj, dp) = (distinct(java.iter().map(h)), distinct(php.iter().map(h)));
                let java_rt = p.runtime == Runtime::Java;
                R {
                    hash_bits: Some(if java_rt { 32 } else { 64 }),
                    randomized_per_process: Some(0),
                    siphash: Some(0),
                    distinct_java_keys: Some(dj),
                    distinct_php5_keys: Some(dp),
                    distinct_own_keys: Some(if java_rt { dj } else { dp }),
                    ..if java_rt {
                        row("model of String.hashCode", "31·h + c (32-bit)")
                    } else {
                        row(
                            "model of PHP 5 zend_inline_hash_func",
                            "DJBX33A: 33·h + c (64-bit)",
                        )
                    }
                }
            }
            Runtime::Python => {
                if !python::installed() {
                    row("python3 not installed", "not measured")
                } else {
                    let (version, algorithm, bits, dj, dp, randomized) =
                        python_row(&java, &php).map_err(anyhow::Error::msg)?;
                    R {
                        hash_bits: Some(bits),
                        randomized_per_process: Some(randomized as u64),
                        siphash: Some(algorithm.starts_with("siphash") as u64),
                        distinct_java_keys: Some(dj),
                        distinct_php5_keys: Some(dp),
                        ..row(&format!("CPython {version}"), &algorithm)
                    }
                }
            }
            _ => {
                let sip = rust_default_is_sip13();
                let key = b"sketchlab: is this hash keyed per process?".as_slice();
                let (a, b) = (
                    std::collections::hash_map::RandomState::new(),
                    std::collections::hash_map::RandomState::new(),
                );
                let s = std::collections::hash_map::RandomState::new();
                R {
                    hash_bits: Some(64),
                    randomized_per_process: Some((a.hash_one(key) != b.hash_one(key)) as u64),
                    siphash: Some(sip as u64),
                    distinct_java_keys: Some(distinct(java.iter().map(|k| s.hash_one(k)))),
                    distinct_php5_keys: Some(distinct(php.iter().map(|k| s.hash_one(k)))),
                    ..row(
                        "std::collections::hash_map::RandomState",
                        if sip { "siphash13" } else { "not SipHash-1-3" },
                    )
                }
            }
        })
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let keys = (1u64 << p.blocks) as f64;
        Some(Footprint::one(
            keys * (2.0 * p.blocks as f64 + 48.0) * 2.0,
            keys * 4.0,
        ))
    }

    fn keys(&self, p: &P, _seeds: Seeds) -> anyhow::Result<Option<Vec<Vec<u8>>>> {
        // the set crafted against this runtime's own hash, its first 256 strings
        let blocks = if p.runtime == Runtime::Php5 {
            PHP5_BLOCKS
        } else {
            JAVA_BLOCKS
        };
        let mut k = strings::colliding(blocks, p.blocks as u32);
        k.truncate(256);
        Ok(Some(k))
    }
}
