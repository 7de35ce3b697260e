//! `key_size`: a Bloom filter's cost and FPR do not depend on the key size;
//! an exact set's memory does. The exact set's memory is measured with the
//! counting global allocator (bytes requested from the allocator while
//! building it), not estimated.

use crate::error::Error;
use crate::experiment::kinds::Footprint;
use crate::experiment::kinds::Measure;
use crate::experiment::kinds::common::{self, HASH, HASH_SEED, KEYS, QUERIES, fill_and_query};
use crate::experiment::kinds::footprint::{bloom_bits, bloom_bytes, exact_set, key_len};
use crate::experiment::params::{Def, HashSeed, PType, ParamDef, Seeds};
use crate::hashing::StrategyId;
use crate::metrics::alloc::measure_retained;
use crate::peer::python::{self, PyKey, SetMemory};
use crate::stats::Proportion;
use crate::structures::bloom::{BloomFilter, theory};
use crate::workload::{KeyGen, KeyType};
use std::collections::HashSet;

pub struct KeySize;

crate::params! {
    pub struct P {
        n: u64 [count] = common::count(Def::Int(1_000_000), "keys inserted"),
        p: f64 [fraction] = common::rate(Def::Float(0.01), "design false-positive rate (sets bits per key)"),
        keys: KeyType = KEYS,
        hash: StrategyId = HASH,
        hash_seed: HashSeed = HASH_SEED,
        queries: u64 [count] = QUERIES,
        measure_hashset: bool = ParamDef::new("", PType::Bool, Def::Bool(true), "also build an exact HashSet of the keys and measure its memory"),
        measure_python: bool = ParamDef::new("", PType::Bool, Def::Bool(false), "also build a CPython set of the same keys in a real python3 and measure it with tracemalloc (not for blob2k)"),
    }
}

crate::row! {
    pub struct R {
        key_bytes: u64 [Same, bytes],
        m: u64 [Same, bits],
        k: u32 [Same, count],
        bits_per_key: f64 [Same, bits_per_key],
        filter_bytes: usize [Same, bytes],
        filter_bytes_per_key: f64 [Same, bytes_per_key],
        filter_mb: f64 [Same, megabytes],
        fill_measured: Proportion [fraction],
        members_checked: u64 [Sum, count],
        false_negatives: u64 [Max, count],
        fpr_measured: Proportion [fraction],
        fpr_theory: f64 [Same, fraction],
        raw_key_bytes: u64 [Same, bytes],
        hashset_bytes: Option<u64> [bytes],
        hashset_bytes_per_key: Option<f64> [bytes_per_key],
        hashset_mb: Option<f64> [megabytes],
        hashset_over_filter: Option<f64> [ratio],
        raw_gb_per_100m_keys: f64 [Same, gigabytes],
        hashset_gb_per_100m_keys: Option<f64> [gigabytes],
        hashset_over_raw: Option<f64> [ratio],
        python_wraps_as: String [Same],
        python_bytes: Option<u64> [bytes],
        python_table_bytes: Option<u64> [bytes],
        python_key_object_bytes: Option<u64> [bytes],
        python_bytes_per_key: Option<f64> [bytes_per_key],
        python_mb: Option<f64> [megabytes],
        python_over_raw: Option<f64> [ratio],
        python_gb_per_100m_keys: Option<f64> [gigabytes],
        python_version: String [Same],
    }
}

/// How CPython wraps a key of this type, and whether it is measured there
/// (not the 2 KiB blobs: 2 GB through a pipe for one row).
fn python_kind(k: KeyType) -> Option<(PyKey, &'static str)> {
    match k {
        KeyType::U32 | KeyType::U64 => Some((PyKey::Int, "int")),
        KeyType::Url100 | KeyType::Decimal => Some((PyKey::Str, "str")),
        KeyType::Bytes16 => Some((PyKey::Bytes, "bytes")),
        // a file's keys are bytes of any length: a Python set of them is
        // not one of the shapes measured (ints, str, fixed-width bytes)
        KeyType::Blob2k | KeyType::File(_) => None,
    }
}

/// The same keys in a CPython set, when asked for and possible; `Err` when
/// python3 is missing or fails (the row says so in `python_version`).
fn python_set(p: &P, keys: &mut KeyGen) -> Result<Option<SetMemory>, Error> {
    let (Some((kind, _)), Some(width)) = (python_kind(p.keys), p.keys.key_len()) else {
        return Ok(None);
    };
    if !p.measure_python {
        return Ok(None);
    }
    if !python::installed() {
        return Err(Error::other("python3 not installed"));
    }
    let mut buf = Vec::with_capacity(width * p.n as usize);
    for id in 0..p.n {
        buf.extend_from_slice(keys.key(id));
    }
    let m = python::set_memory(kind, width, &buf)?;
    if m.len != p.n {
        return Err(Error::other(format!(
            "python3's set holds {} of {} keys",
            m.len, p.n
        )));
    }
    Ok(Some(m))
}

/// Builds the exact set of keys `0..n` the natural way for the key type and
/// returns the bytes it retains (`None` without the counting allocator).
fn hashset_bytes(keys: &mut KeyGen, n: u64) -> Option<u64> {
    fn retained<T: std::hash::Hash + Eq>(make: impl FnMut(u64) -> T, n: u64) -> Option<u64> {
        let (set, bytes) = measure_retained(|| (0..n).map(make).collect::<HashSet<T>>());
        drop(set);
        bytes
    }
    match keys.key_type() {
        KeyType::U32 => retained(|id| u32::from_le_bytes(keys.key(id).try_into().unwrap()), n),
        KeyType::U64 => retained(|id| u64::from_le_bytes(keys.key(id).try_into().unwrap()), n),
        KeyType::Url100 | KeyType::Decimal => retained(
            |id| String::from_utf8(keys.key(id).to_vec()).expect("ascii keys"),
            n,
        ),
        KeyType::Blob2k | KeyType::File(_) => retained(|id| keys.key(id).to_vec(), n),
        KeyType::Bytes16 => retained(|id| <[u8; 16]>::try_from(keys.key(id)).unwrap(), n),
    }
}

impl Measure for KeySize {
    type P = P;
    type R = R;
    const NAME: &'static str = "key_size";
    const ABOUT: &'static str = "Bloom FPR and bytes at equal bits per key for small and large keys, next to a measured exact HashSet";

    fn validate(&self, p: &P) -> crate::error::Result<()> {
        if p.n > 10_000_000 {
            return Err(crate::error::Error::invalid(
                "n",
                "must be <= 10000000 (the exact set of 2 KiB keys must fit in memory)",
            ));
        }
        Ok(())
    }

    fn run(&self, p: &P, seeds: Seeds) -> anyhow::Result<R> {
        let (n, target) = (p.n, p.p);
        let mut f = BloomFilter::with_rate(n, target, p.hash_seed.hasher(p.hash, seeds))?;
        let (m, k) = (f.m(), f.k());
        let mut keys = KeyGen::new(p.keys, seeds.derive("keys"));
        let fq = fill_and_query(&mut f, &mut keys, n, p.queries)?;
        let key_bytes = p.keys.key_len().map(|l| l as u64).unwrap_or_else(|| {
            (0..n.min(1000))
                .map(|id| keys.key(id).len() as u64)
                .sum::<u64>()
                / n.min(1000)
        });
        let hs = if p.measure_hashset {
            hashset_bytes(&mut keys, n)
        } else {
            None
        };
        let nf = n as f64;
        let (py, python_version) = match python_set(p, &mut keys) {
            Ok(Some(m)) => {
                let v = m.version.clone();
                (Some(m), v)
            }
            Ok(None) => (None, String::new()),
            Err(e) => (None, format!("not measured: {e}")),
        };
        let raw = (key_bytes * n) as f64;
        let py_bytes = py.as_ref().map(|m| m.traced_bytes);
        Ok(R {
            key_bytes,
            m,
            k,
            bits_per_key: m as f64 / nf,
            filter_bytes: f.bytes(),
            filter_bytes_per_key: f.bytes() as f64 / nf,
            filter_mb: f.bytes() as f64 / 1e6,
            fill_measured: fq.fill,
            members_checked: fq.members_checked,
            false_negatives: fq.false_negatives,
            fpr_measured: fq.fpr,
            fpr_theory: theory::fpr(nf, m as f64, k as f64),
            raw_key_bytes: key_bytes * n,
            hashset_bytes: hs,
            hashset_bytes_per_key: hs.map(|b| b as f64 / nf),
            hashset_mb: hs.map(|b| b as f64 / 1e6),
            hashset_over_filter: hs.map(|b| b as f64 / f.bytes() as f64),
            raw_gb_per_100m_keys: key_bytes as f64 * 1e8 / 1e9,
            hashset_gb_per_100m_keys: hs.map(|b| b as f64 / nf * 1e8 / 1e9),
            hashset_over_raw: hs.map(|b| b as f64 / raw),
            python_wraps_as: python_kind(p.keys)
                .map(|k| k.1)
                .unwrap_or_default()
                .to_string(),
            python_bytes: py_bytes,
            python_table_bytes: py.as_ref().map(|m| m.table_bytes),
            python_key_object_bytes: py.as_ref().map(|m| m.key_object_bytes),
            python_bytes_per_key: py_bytes.map(|b| b as f64 / nf),
            python_mb: py_bytes.map(|b| b as f64 / 1e6),
            python_over_raw: py_bytes.map(|b| b as f64 / raw),
            python_gb_per_100m_keys: py_bytes.map(|b| b as f64 / nf * 1e8 / 1e9),
            python_version,
        })
    }

    fn draws(&self, p: &P, metric: &str) -> Option<f64> {
        // the FPR is over the trial's absent-key queries
        (metric == "fpr_measured").then_some(p.queries as f64)
    }

    fn key_ids(&self, p: &P) -> Option<u64> {
        Some(p.n + p.queries)
    }

    fn footprint(&self, p: &P) -> Option<Footprint> {
        let n = p.n as f64;
        // work in 8-byte words of key hashed or copied
        let words = 1.0 + key_len(p.keys) / 8.0;
        let filter = Footprint::one(
            bloom_bytes(bloom_bits(p.n, p.p)),
            (n + p.queries as f64) * words,
        );
        // the keys' buffer for python3 (the child's own memory is its own)
        let filter = if p.measure_python && python_kind(p.keys).is_some() {
            filter.plus(n * key_len(p.keys))
        } else {
            filter
        };
        Some(if p.measure_hashset {
            let set = exact_set(n, p.keys);
            Footprint {
                structure_bytes: set.max(filter.structure_bytes),
                work: filter.work + 4.0 * n * words,
                ..filter.plus(set)
            }
        } else {
            filter
        })
    }
}
