//! Building a configured filter: [`Config::build`] and [`Filter::build`].

use super::*;

impl Config {
    /// Builds exactly this configuration and inserts the keys `each` hands
    /// over (a static filter is built from them). `seed` seeds what is not
    /// the key hash (the cuckoo eviction walk, DataSketches' own hash).
    pub fn build<H: KeyHasher + 'static>(
        &self,
        hasher: H,
        seed: u64,
        each: impl FnOnce(&mut dyn FnMut(&[u8])),
    ) -> anyhow::Result<Built> {
        let n = self.n;
        let mut filter: Box<dyn Membership> = match (self.filter, self.shape) {
            (Filter::Bloom, Shape::Bits { m, k }) => Box::new(BloomFilter::new(m, k, hasher)?),
            (Filter::BlockedBloom, Shape::Bits { m, k }) => {
                Box::new(BlockedBloom::new(m, k, hasher)?)
            }
            (Filter::SplitBlockBloom, Shape::Bits { m, .. }) => {
                Box::new(SplitBlockBloom::new(m / SBBF_BLOCK_BITS, hasher)?)
            }
            // the structures that delete: one constructor for both
            (Filter::CountingBloom | Filter::Cuckoo | Filter::Quotient, _) => {
                let d: Box<dyn Membership> = self
                    .build_deletable(hasher, seed)?
                    .ok_or_else(|| crate::error::bug(format!("{self:?} cannot delete")))?;
                d
            }
            (Filter::Xor | Filter::BinaryFuse, Shape::Static { kind, .. }) => {
                let kind = StaticKind::from_name(kind)
                    .ok_or_else(|| crate::error::bug(format!("static kind {kind}")))?;
                let f = StaticFilter::build_each(kind, hasher, each)?;
                return Ok(Built {
                    filter: Box::new(f),
                    config: self.clone(),
                });
            }
            (Filter::Ribbon, Shape::Ribbon { r, slots }) => {
                let f = RibbonFilter::build_each(r, hasher, each)?;
                if f.slots() != slots {
                    return Err(crate::error::bug(format!(
                        "pleat chose {} slots, not {slots}, for {n} keys at r = {r}",
                        f.slots()
                    )));
                }
                return Ok(Built {
                    filter: Box::new(f),
                    config: self.clone(),
                });
            }
            (Filter::DataSketchesBloom, Shape::Bits { m, k }) => {
                Box::new(DataSketchesBloom::with_shape(m, k, seed)?)
            }
            (f, s) => {
                return Err(crate::error::bug(format!(
                    "{f:?} cannot have the shape {s:?}"
                )));
            }
        };
        let mut failed = None;
        let mut inserted = 0u64;
        each(&mut |key| {
            if failed.is_none() {
                match filter.insert(key) {
                    Ok(()) => inserted += 1,
                    Err(e) => failed = Some(e),
                }
            }
        });
        if let Some(e) = failed {
            anyhow::bail!(
                "{} ({}): insert {} of {n} failed: {e}",
                self.filter.name(),
                self.words(),
                inserted + 1
            );
        }
        Ok(Built {
            filter,
            config: self.clone(),
        })
    }
}

impl Config {
    /// An empty structure of this configuration that can delete (counting
    /// Bloom, cuckoo, quotient), `None` for one that cannot.
    pub fn build_deletable<H: KeyHasher + 'static>(
        &self,
        hasher: H,
        seed: u64,
    ) -> anyhow::Result<Option<Box<dyn crate::structures::Deletion>>> {
        Ok(Some(match (self.filter, self.shape) {
            (Filter::CountingBloom, Shape::Counters { m, k, width }) => {
                Box::new(CountingBloom::new(m, k, width, Overflow::Sticky, hasher)?)
            }
            (Filter::Cuckoo, Shape::Cuckoo { buckets, b, f }) => Box::new(CuckooFilter::new(
                buckets as usize,
                b as usize,
                f,
                CUCKOO_KICKS,
                seed,
                hasher,
            )?),
            (Filter::Quotient, Shape::Quotient { q, r }) => {
                // qfilter's own constructor: 2^−r gives exactly r remainder bits
                let f = QuotientFilter::with_rate(self.n.max(1), 2f64.powi(-(r as i32)), hasher)?;
                if (f.slots(), f.remainder_bits()) != (1 << q, r) {
                    return Err(crate::error::bug(format!(
                        "qfilter chose 2^{} slots, r = {}, not 2^{q}, r = {r}",
                        f.slots().trailing_zeros(),
                        f.remainder_bits()
                    )));
                }
                Box::new(f)
            }
            _ => return Ok(None),
        }))
    }
}

/// A structure built and filled with its n keys.
pub struct Built {
    pub filter: Box<dyn Membership>,
    /// What it was configured as.
    pub config: Config,
}

impl Filter {
    /// Configures the structure for `n` keys at rate `eps` and builds it
    /// ([`Filter::configure`], [`Config::build`]).
    pub fn build<H: KeyHasher + 'static>(
        self,
        n: u64,
        eps: f64,
        hasher: H,
        seed: u64,
        each: impl FnOnce(&mut dyn FnMut(&[u8])),
    ) -> anyhow::Result<Built> {
        let c = self
            .configure(n, eps)
            .map_err(|why| anyhow::anyhow!("{}: {why}", self.name()))?;
        c.build(hasher, seed, each)
    }
}
