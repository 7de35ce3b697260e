use super::theory;
use crate::hashing::double::{EnhancedProbes, FastMod, MAX_SLOTS, Probes, Scheme};
use crate::hashing::{KeyHasher, Xxh3, process_random_seed};
use crate::structures::{ParamError, invalid};

/// A fixed-size array of bits stored in 64-bit words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitArray {
    words: Vec<u64>,
    len: u64,
}

impl BitArray {
    pub fn new(len: u64) -> Self {
        BitArray {
            words: vec![0; len.div_ceil(64) as usize],
            len,
        }
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn set(&mut self, i: u64) {
        self.words[(i >> 6) as usize] |= 1 << (i & 63);
    }

    #[inline]
    pub fn get(&self, i: u64) -> bool {
        self.words[(i >> 6) as usize] >> (i & 63) & 1 == 1
    }

    #[inline]
    pub fn unset(&mut self, i: u64) {
        self.words[(i >> 6) as usize] &= !(1 << (i & 63));
    }

    pub fn count_ones(&self) -> u64 {
        self.words.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// The word holding bit i.
    #[inline]
    pub fn word(&self, i: u64) -> &u64 {
        &self.words[(i >> 6) as usize]
    }

    /// Bytes of bit storage (what the filter costs in memory).
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Indices of the set bits, ascending.
    pub fn ones(&self) -> Vec<u64> {
        (0..self.len).filter(|&i| self.get(i)).collect()
    }

    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
}

fn check_mk(m: u64, k: u32) -> Result<(), ParamError> {
    if m == 0 || m > MAX_SLOTS {
        return Err(invalid("m", m, "must be in 1..=2^63"));
    }
    if k == 0 {
        return Err(invalid("k", k, "must be >= 1"));
    }
    Ok(())
}

/// Parameters from a capacity and a target rate, by the chapter's formulas.
fn sized(n: u64, p: f64) -> Result<(u64, u32), ParamError> {
    if n == 0 {
        return Err(invalid("n", n, "must be >= 1"));
    }
    if !(p > 0.0 && p < 1.0) {
        return Err(invalid("p", p, "must be in (0, 1)"));
    }
    let m = theory::optimal_m(n, p);
    Ok((m, theory::optimal_k_int(m, n)))
}

/// Probes a query reads with no branch between them before it may stop.
const EXIT_GROUP: usize = 4;

/// A standard Bloom filter: m bits, k probes by Kirsch–Mitzenmacher double
/// hashing from one 128-bit hash per key.
///
/// The hasher is a type parameter, chosen once at construction, so every
/// `insert` and `contains` is monomorphised around it: the default,
/// [`Xxh3`] ([`BloomFilter::sized`]), or any concrete strategy type. A
/// strategy chosen at run time ([`crate::hashing::HashStrategy`]) pays one
/// `match` per key; [`crate::hashing::HashStrategy::visit`] hoists it out of
/// a loop.
#[derive(Clone, Debug)]
pub struct BloomFilter<H = Xxh3> {
    bits: BitArray,
    /// m, with its precomputed remainder (the probes reduce by it).
    fm: FastMod,
    k: u32,
    hasher: H,
    scheme: Scheme,
}

impl BloomFilter {
    /// The public fast path: sized for `n` keys at false-positive rate `p` as
    /// [`Self::with_rate`] sizes it, hashed by XXH3-128 under this process's
    /// random key. The key is per process, so nobody can search offline for
    /// keys that light up its bits (the essay's fifth question); for a
    /// reproducible filter give a seed: `with_rate(n, p, Xxh3::new(Seed::fixed(s)))`.
    pub fn sized(n: u64, p: f64) -> Result<Self, ParamError> {
        Self::with_rate(n, p, Xxh3::new(process_random_seed()))
    }
}

impl<H: KeyHasher> BloomFilter<H> {
    /// A filter of `m` bits probed `k` times per key.
    pub fn new(m: u64, k: u32, hasher: H) -> Result<Self, ParamError> {
        check_mk(m, k)?;
        Ok(BloomFilter {
            bits: BitArray::new(m),
            fm: FastMod::new(m),
            k,
            hasher,
            scheme: Scheme::KirschMitzenmacher,
        })
    }

    /// The same filter deriving its probes by `scheme`.
    pub fn with_scheme(mut self, scheme: Scheme) -> Self {
        self.scheme = scheme;
        self
    }

    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// Sized for `n` keys at false-positive rate `p`:
    /// m = ceil(−n ln p / (ln 2)²), k = max(1, round(m/n · ln 2)).
    pub fn with_rate(n: u64, p: f64, hasher: H) -> Result<Self, ParamError> {
        let (m, k) = sized(n, p)?;
        Self::new(m, k, hasher)
    }

    pub fn m(&self) -> u64 {
        self.bits.len()
    }

    pub fn k(&self) -> u32 {
        self.k
    }

    pub fn hasher(&self) -> &H {
        &self.hasher
    }

    #[inline]
    pub fn insert(&mut self, key: &[u8]) {
        let h = self.hasher.hash128(key);
        self.insert_hash(h);
    }

    #[inline]
    pub fn contains(&self, key: &[u8]) -> bool {
        self.contains_hash(self.hasher.hash128(key))
    }

    /// Inserts every key of `keys`: the same bits as [`Self::insert`] key by
    /// key (setting a bit is idempotent, so the order is free). Each window
    /// of [`super::PIPELINE`] keys is hashed and all its probe words are
    /// prefetched before any bit is set, so an out-of-cache build overlaps
    /// its misses instead of waiting for each.
    pub fn insert_batch<K: AsRef<[u8]>>(&mut self, keys: &[K]) {
        let mut hashes = [(0u64, 0u64); super::PIPELINE];
        for chunk in keys.chunks(super::PIPELINE) {
            for (h, key) in hashes.iter_mut().zip(chunk) {
                *h = self.hasher.hash128(key.as_ref());
                let (m, k) = (&self.fm, self.k);
                match self.scheme {
                    Scheme::KirschMitzenmacher => Probes::fast(h.0, h.1, k, m)
                        .for_each(|p| super::prefetch(self.bits.word(p))),
                    Scheme::Enhanced => EnhancedProbes::fast(h.0, h.1, k, m)
                        .for_each(|p| super::prefetch(self.bits.word(p))),
                }
            }
            for &h in &hashes[..chunk.len()] {
                self.insert_hash(h);
            }
        }
    }

    /// Insert a key already hashed by this filter's hasher.
    #[inline]
    pub fn insert_hash(&mut self, (h1, h2): (u64, u64)) {
        let m = &self.fm;
        match self.scheme {
            Scheme::KirschMitzenmacher => {
                for pos in Probes::fast(h1, h2, self.k, m) {
                    self.bits.set(pos);
                }
            }
            Scheme::Enhanced => {
                for pos in EnhancedProbes::fast(h1, h2, self.k, m) {
                    self.bits.set(pos);
                }
            }
        }
    }

    /// Query a key already hashed by this filter's hasher.
    #[inline]
    pub fn contains_hash(&self, (h1, h2): (u64, u64)) -> bool {
        let m = &self.fm;
        // reads the probes in groups of EXIT_GROUP with no branch inside a
        // group, and stops after a group that found a zero bit: an absent
        // key of a half-full filter is decided by the first group 15 times
        // in 16 (a well-predicted branch), where a test per probe would
        // mispredict about every other query
        match self.scheme {
            Scheme::KirschMitzenmacher => self.grouped(Probes::fast(h1, h2, self.k, m)),
            Scheme::Enhanced => self.grouped(EnhancedProbes::fast(h1, h2, self.k, m)),
        }
    }

    #[inline(always)]
    fn grouped(&self, probes: impl Iterator<Item = u64>) -> bool {
        let mut ok = true;
        for (i, p) in probes.enumerate() {
            ok &= self.bits.get(p);
            // a branch the predictor learns: taken only at a group's end
            // after a zero bit
            if i % EXIT_GROUP == EXIT_GROUP - 1 && !ok {
                return false;
            }
        }
        ok
    }

    /// [`Self::contains`] reading every probe, with no branch on a bit: the
    /// k loads are independent (they overlap in the memory system), which
    /// pays when most queried keys are members (each reads all k anyway,
    /// and no branch is mispredicted).
    #[inline]
    pub fn contains_all_probes(&self, key: &[u8]) -> bool {
        let (h1, h2) = self.hasher.hash128(key);
        let m = &self.fm;
        match self.scheme {
            Scheme::KirschMitzenmacher => {
                Probes::fast(h1, h2, self.k, m).fold(true, |ok, p| ok & self.bits.get(p))
            }
            Scheme::Enhanced => {
                EnhancedProbes::fast(h1, h2, self.k, m).fold(true, |ok, p| ok & self.bits.get(p))
            }
        }
    }

    /// How many of `keys` test positive: the answers of [`Self::contains`],
    /// computed by [`Self::contains_batch`]'s pipeline when the filter
    /// outgrows the last-level cache ([`super::prefetch_pays`]), one by one
    /// otherwise.
    pub fn count_contained<K: AsRef<[u8]>>(&self, keys: &[K]) -> u64 {
        if super::prefetch_pays(self.bytes()) {
            self.count_prefetched(keys)
        } else {
            keys.iter().filter(|k| self.contains(k.as_ref())).count() as u64
        }
    }

    /// [`Self::count_contained`]'s pipelined path at any size (see
    /// [`Self::contains_batch`]).
    pub fn count_prefetched<K: AsRef<[u8]>>(&self, keys: &[K]) -> u64 {
        let mut hits = 0u64;
        self.pipelined(keys, |_, hit| hits += hit as u64);
        hits
    }

    /// The answer of [`Self::contains`] for each of `keys`, in order, from a
    /// pipeline that keeps [`super::PIPELINE`] keys in flight: each key's
    /// next probe word is prefetched, the other keys are visited in turn,
    /// and when the key's turn comes back its bit is read; a zero bit
    /// answers it "absent" and a fresh key takes its place. An absent key of
    /// a half-full filter reads about two probes, not k, and the misses of
    /// different keys overlap, so an out-of-cache filter answers at a few
    /// independent-load times per key rather than a dependent miss per probe.
    pub fn contains_batch<K: AsRef<[u8]>>(&self, keys: &[K]) -> Vec<bool> {
        let mut out = vec![false; keys.len()];
        self.pipelined(keys, |i, hit| out[i] = hit);
        out
    }

    /// Runs the pipeline of [`Self::contains_batch`], calling `answer(i,
    /// hit)` once per key (in no particular order).
    fn pipelined<K: AsRef<[u8]>>(&self, keys: &[K], answer: impl FnMut(usize, bool)) {
        let m = &self.fm;
        let k = self.k;
        match self.scheme {
            Scheme::KirschMitzenmacher => {
                self.pipeline(keys, |(h1, h2)| Probes::fast(h1, h2, k, m), answer)
            }
            Scheme::Enhanced => {
                self.pipeline(keys, |(h1, h2)| EnhancedProbes::fast(h1, h2, k, m), answer)
            }
        }
    }

    #[inline(always)]
    fn pipeline<K: AsRef<[u8]>, P: Iterator<Item = u64>>(
        &self,
        keys: &[K],
        probes: impl Fn((u64, u64)) -> P,
        mut answer: impl FnMut(usize, bool),
    ) {
        /// A key in flight: its remaining probes, the probe whose word was
        /// prefetched, and its index (`usize::MAX`: an empty slot).
        struct Slot<P> {
            probes: P,
            pos: u64,
            key: usize,
        }
        let start = |i: usize| {
            let mut probes = probes(self.hasher.hash128(keys[i].as_ref()));
            // k >= 1 (checked at construction)
            let pos = probes.next().unwrap_or(0);
            super::prefetch(self.bits.word(pos));
            Slot {
                probes,
                pos,
                key: i,
            }
        };
        let mut slots: Vec<Slot<P>> = (0..keys.len().min(super::PIPELINE)).map(start).collect();
        let (mut next, mut live) = (slots.len(), slots.len());
        let mut i = 0;
        while live > 0 {
            let s = &mut slots[i];
            if s.key != usize::MAX {
                let set = self.bits.get(s.pos);
                let more = if set { s.probes.next() } else { None };
                match more {
                    Some(p) => {
                        s.pos = p;
                        super::prefetch(self.bits.word(p));
                    }
                    None => {
                        answer(s.key, set);
                        if next < keys.len() {
                            *s = start(next);
                            next += 1;
                        } else {
                            s.key = usize::MAX;
                            live -= 1;
                        }
                    }
                }
            }
            i += 1;
            if i == slots.len() {
                i = 0;
            }
        }
    }

    /// "Deletes" a key the only way a plain Bloom filter could: by clearing its
    /// k bits, which also clears bits other members share (the chapter:
    /// "Cannot delete"; the essay: clearing /logout makes /login vanish).
    pub fn clear_bits_of(&mut self, key: &[u8]) {
        for pos in self.positions(key) {
            self.bits.unset(pos);
        }
    }

    /// How many bits a query of `key` reads: `contains` stops at the first
    /// zero bit, so an absent key usually costs far fewer than k lookups.
    pub fn probes_read(&self, key: &[u8]) -> u32 {
        let mut n = 0;
        for pos in self.positions(key) {
            n += 1;
            if !self.bits.get(pos) {
                break;
            }
        }
        n
    }

    /// The distinct 64-byte lines of a line-aligned bit array a query of
    /// `key` reads: every probe's line up to the first zero bit (all k for
    /// a member).
    pub fn lines_read(&self, key: &[u8]) -> u32 {
        let mut lines: Vec<u64> = Vec::with_capacity(self.k as usize);
        for pos in self.positions(key) {
            let line = pos / 512;
            if !lines.contains(&line) {
                lines.push(line);
            }
            if !self.bits.get(pos) {
                break;
            }
        }
        lines.len() as u32
    }

    /// The probe positions of a key (for worked examples and debugging).
    pub fn positions(&self, key: &[u8]) -> Vec<u64> {
        let (h1, h2) = self.hasher.hash128(key);
        match self.scheme {
            Scheme::KirschMitzenmacher => Probes::new(h1, h2, self.k, self.bits.len()).collect(),
            Scheme::Enhanced => EnhancedProbes::new(h1, h2, self.k, self.bits.len()).collect(),
        }
    }

    /// Fraction of bits set.
    pub fn fill_ratio(&self) -> f64 {
        self.bits.count_ones() as f64 / self.bits.len() as f64
    }

    /// Bytes of bit storage.
    pub fn bytes(&self) -> usize {
        self.bits.bytes()
    }

    /// Empties the filter, keeping its size and hasher.
    pub fn clear(&mut self) {
        self.bits.clear();
    }

    pub fn bits(&self) -> &BitArray {
        &self.bits
    }
}

/// The baseline double hashing is measured against: k hashers with
/// independently derived seeds, one full hash evaluation per probe.
#[derive(Clone, Debug)]
pub struct IndependentBloom<H> {
    bits: BitArray,
    hashers: Vec<H>,
}

impl<H: KeyHasher> IndependentBloom<H> {
    /// `k` hashers derived from `base` by [`KeyHasher::derive`].
    pub fn new(m: u64, k: u32, base: &H) -> Result<Self, ParamError> {
        check_mk(m, k)?;
        Ok(IndependentBloom {
            bits: BitArray::new(m),
            hashers: (0..k as u64).map(|i| base.derive(i)).collect(),
        })
    }

    pub fn with_rate(n: u64, p: f64, base: &H) -> Result<Self, ParamError> {
        let (m, k) = sized(n, p)?;
        Self::new(m, k, base)
    }

    pub fn m(&self) -> u64 {
        self.bits.len()
    }

    pub fn k(&self) -> u32 {
        self.hashers.len() as u32
    }

    #[inline]
    fn slot(&self, h: &H, key: &[u8]) -> u64 {
        h.hash128(key).0 % self.bits.len()
    }

    pub fn insert(&mut self, key: &[u8]) {
        for i in 0..self.hashers.len() {
            let pos = self.slot(&self.hashers[i], key);
            self.bits.set(pos);
        }
    }

    pub fn contains(&self, key: &[u8]) -> bool {
        self.hashers
            .iter()
            .all(|h| self.bits.get(self.slot(h, key)))
    }

    pub fn fill_ratio(&self) -> f64 {
        self.bits.count_ones() as f64 / self.bits.len() as f64
    }

    pub fn count_ones(&self) -> u64 {
        self.bits.count_ones()
    }

    pub fn bytes(&self) -> usize {
        self.bits.bytes()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_batch_insert_sets_the_bits_one_by_one_inserts_set() {
        use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};
        for scheme in [Scheme::KirschMitzenmacher, Scheme::Enhanced] {
            let h = HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(3));
            let keys: Vec<[u8; 8]> = (0..10_007u64).map(|i| i.to_le_bytes()).collect();
            let mut one = BloomFilter::new(60_000, 5, h.clone()).unwrap();
            one.scheme = scheme;
            let mut batch = one.clone();
            keys.iter().for_each(|k| one.insert(k));
            batch.insert_batch(&keys);
            assert_eq!(one.bits, batch.bits);
        }
    }

    #[test]
    fn batched_queries_give_the_single_answers() {
        for scheme in Scheme::ALL {
            let h = crate::hashing::HashStrategy::new(
                crate::hashing::StrategyId::Xxh3,
                crate::hashing::SeedPolicy::Fixed(4),
            );
            let mut f = BloomFilter::with_rate(2_000, 0.05, h)
                .unwrap()
                .with_scheme(scheme);
            let keys: Vec<[u8; 8]> = (0..5_000u64).map(|i| i.to_le_bytes()).collect();
            for k in &keys[..2_000] {
                f.insert(k);
            }
            for n in [0, 1, 15, 16, 17, 5_000] {
                let one = keys[..n].iter().filter(|k| f.contains(&k[..])).count() as u64;
                assert_eq!(f.count_prefetched(&keys[..n]), one, "{n}");
                assert_eq!(f.count_contained(&keys[..n]), one, "{n}");
                let each: Vec<bool> = keys[..n].iter().map(|k| f.contains(k)).collect();
                assert_eq!(f.contains_batch(&keys[..n]), each, "{n}");
            }
            // the early-exit and the every-probe query answer alike
            for k in &keys {
                assert_eq!(f.contains(k), f.contains_all_probes(k));
            }
        }
    }

    use super::*;
    use crate::hashing::{HashStrategy, SeedPolicy, StrategyId};

    fn h() -> HashStrategy {
        HashStrategy::new(StrategyId::Xxh3, SeedPolicy::Fixed(3))
    }

    #[test]
    fn sizing_follows_the_chapter() {
        let f = BloomFilter::with_rate(1_000_000, 0.01, h()).unwrap();
        assert_eq!(f.m(), 9_585_059);
        assert_eq!(f.k(), 7);
        assert_eq!(f.bytes(), 9_585_059usize.div_ceil(64) * 8);
    }

    #[test]
    fn rejects_bad_parameters() {
        assert!(BloomFilter::new(0, 3, h()).is_err());
        assert!(BloomFilter::new(10, 0, h()).is_err());
        assert!(BloomFilter::with_rate(0, 0.01, h()).is_err());
        for p in [0.0, 1.0, -0.1, f64::NAN] {
            assert!(BloomFilter::with_rate(10, p, h()).is_err(), "{p}");
        }
        assert!(IndependentBloom::new(10, 0, &h()).is_err());
    }

    #[test]
    fn inserted_keys_are_found_and_fill_grows() {
        let mut f = BloomFilter::new(1000, 4, h()).unwrap();
        assert_eq!(f.fill_ratio(), 0.0);
        for i in 0u32..50 {
            f.insert(&i.to_le_bytes());
        }
        for i in 0u32..50 {
            assert!(f.contains(&i.to_le_bytes()));
        }
        let ones = f.bits().count_ones();
        assert!(ones <= 200 && ones > 100, "{ones}");
        let mut g0 = f.clone();
        g0.clear();
        assert_eq!((g0.fill_ratio(), g0.m(), g0.k()), (0.0, 1000, 4));
        let mut g = IndependentBloom::new(1000, 4, &h()).unwrap();
        for i in 0u32..50 {
            g.insert(&i.to_le_bytes());
        }
        assert!((0u32..50).all(|i| g.contains(&i.to_le_bytes())));
    }

    #[test]
    fn bit_array_basics() {
        let mut b = BitArray::new(130);
        b.set(0);
        b.set(129);
        assert!(b.get(129) && b.get(0) && !b.get(64));
        assert_eq!(b.ones(), vec![0, 129]);
        assert_eq!(b.bytes(), 24);
        b.clear();
        assert_eq!(b.count_ones(), 0);
    }
}
