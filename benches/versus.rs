//! sketchlab's structures against the best Rust crates for each workload, in
//! one process, on the same keys: each contender's timed run alternates with
//! the others' (the starting contender rotates every repetition), at least 7
//! repetitions, and the median ns per operation with its min and max is
//! reported next to the contender's accuracy on the same keys (a fast
//! structure that is wrong shows). Writes `reports/speed/versus.csv`:
//! `workload,implementation,version,ns_per_op,ns_min,ns_max,ratio_to_best_peer,accuracy,accuracy_unit`
//! and prints the same table.
//!
//! cargo bench --bench versus [-- --quick]
//!
//! Keys are 8-byte integers (splitmix64 of an index). sketchlab hashes their
//! bytes; each crate gets the u64 through its own documented API and its
//! own default hasher (what a user of that crate gets) unless the
//! implementation name says otherwise.

use sketchlab::hashing::{HashStrategy, KeyHasher, Seed, SeedPolicy, StrategyId, Xxh3, splitmix64};
use sketchlab::structures::bloom::BloomFilter;
use sketchlab::structures::bloom::blocked::BlockedBloom;
use sketchlab::structures::count_min::CountMin;
use sketchlab::structures::cuckoo::CuckooFilter;
use sketchlab::structures::hyperloglog::HyperLogLog;
use sketchlab::structures::tdigest::TDigest;
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

struct Sizes {
    n: u64,
    hll_n: u64,
    reps: usize,
}

/// One contender of a workload: a timed run (ns per operation) and its accuracy.
struct Contender<'a> {
    implementation: String,
    version: String,
    ours: bool,
    run: Box<dyn FnMut() -> f64 + 'a>,
    accuracy: f64,
    unit: &'static str,
}

struct Row {
    workload: String,
    implementation: String,
    version: String,
    median: f64,
    min: f64,
    max: f64,
    ratio: f64,
    accuracy: f64,
    unit: &'static str,
}

/// Versions of the crates from Cargo.lock (benches run from the package root).
fn version(krate: &str) -> String {
    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    let pat = format!("name = \"{krate}\"\nversion = \"");
    lock.find(&pat)
        .map(|i| {
            let rest = &lock[i + pat.len()..];
            rest[..rest.find('"').unwrap_or(0)].to_string()
        })
        .unwrap_or_else(|| "?".into())
}

fn ours(name: &str) -> (String, String) {
    (
        format!("sketchlab {name}"),
        env!("CARGO_PKG_VERSION").to_string(),
    )
}

/// Times `ops` operations done by `f`, in ns per operation.
fn timed(ops: u64, f: impl FnOnce() -> u64) -> f64 {
    let t = Instant::now();
    black_box(f());
    t.elapsed().as_nanos() as f64 / ops as f64
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn contest(out: &mut Vec<Row>, workload: &str, reps: usize, mut cs: Vec<Contender>) {
    let mut samples = vec![Vec::with_capacity(reps); cs.len()];
    for r in 0..reps {
        for j in 0..cs.len() {
            let i = (j + r) % cs.len();
            samples[i].push((cs[i].run)());
        }
    }
    let medians: Vec<f64> = samples.iter_mut().map(|s| median(s)).collect();
    let best_peer = cs
        .iter()
        .zip(&medians)
        .filter(|(c, _)| !c.ours)
        .map(|(_, &m)| m)
        .fold(f64::INFINITY, f64::min);
    for ((c, s), m) in cs.iter().zip(&samples).zip(&medians) {
        let row = Row {
            workload: workload.into(),
            implementation: c.implementation.clone(),
            version: c.version.clone(),
            median: *m,
            min: s[0],
            max: s[s.len() - 1],
            ratio: m / best_peer,
            accuracy: c.accuracy,
            unit: c.unit,
        };
        println!(
            "{:<22} {:<40} {:>8.2} ns  [{:>7.2} – {:>7.2}]  ×{:<5.2}  {:.4} {}",
            row.workload,
            format!("{} {}", row.implementation, row.version),
            row.median,
            row.min,
            row.max,
            row.ratio,
            row.accuracy,
            row.unit
        );
        out.push(row);
    }
}

fn keys(n: u64, salt: u64) -> Vec<u64> {
    (0..n)
        .map(|i| splitmix64(i ^ salt.rotate_left(40)))
        .collect()
}

fn strategy(id: StrategyId) -> HashStrategy {
    HashStrategy::new(id, SeedPolicy::Fixed(7))
}

/// Half members, half absent, interleaved: `n` queries.
fn half_members(members: &[u64], absent: &[u64], n: usize) -> Vec<u64> {
    members
        .iter()
        .zip(absent)
        .flat_map(|(a, b)| [*a, *b])
        .take(n)
        .collect()
}

/// A query contender on a structure built once: `hit` answers a key (and
/// owns the structure). Its accuracy is the FPR over `absent`; its run
/// times `queries`.
fn query<'a>(
    implementation: String,
    version: String,
    ours: bool,
    absent: &[u64],
    queries: &'a [u64],
    hit: impl Fn(u64) -> bool + 'a,
) -> Contender<'a> {
    let accuracy = absent.iter().filter(|&&k| hit(k)).count() as f64 / absent.len() as f64;
    Contender {
        implementation,
        version,
        ours,
        accuracy,
        unit: "FPR",
        run: Box::new(move || {
            timed(queries.len() as u64, || {
                queries.iter().filter(|&&k| hit(k)).count() as u64
            })
        }),
    }
}

/// Bloom p = 1%: insert, query (half members), blocked query.
fn bloom(out: &mut Vec<Row>, s: &Sizes) {
    let n = s.n;
    let members = keys(n, 1);
    let absent = keys(n, 2);
    let queries = half_members(&members, &absent, n as usize);
    let qbytes: Vec<[u8; 8]> = queries.iter().map(|k| k.to_le_bytes()).collect();
    let (m, qb) = (&members, &qbytes);
    let fb_ver = version("fastbloom");
    let ours_ids = [StrategyId::Xxh3, StrategyId::Xxh3_64, StrategyId::Sip13];
    let bloom = |id: StrategyId| {
        let mut f = BloomFilter::with_rate(n, 0.01, strategy(id)).unwrap();
        m.iter().for_each(|k| f.insert(&k.to_le_bytes()));
        f
    };
    let fb = || {
        fastbloom::BloomFilter::with_false_pos(0.01)
            .seed(&7)
            .expected_items(n as usize)
    };
    let fb_xxh3 = || {
        fastbloom::BloomFilter::with_false_pos(0.01)
            .hasher(xxhash_rust::xxh3::Xxh3Builder::new())
            .expected_items(n as usize)
    };
    // filled peers, for the query workloads
    let fb_filled = || {
        let mut f = fb();
        m.iter().for_each(|k| {
            f.insert(k);
        });
        f
    };
    let fb_xxh3_filled = || {
        let mut f = fb_xxh3();
        m.iter().for_each(|k| {
            f.insert(k);
        });
        f
    };

    // the public API as a user calls it: `BloomFilter::with_rate(n, p,
    // HashStrategy::new(..))` (the strategy chosen at run time, one match per
    // key) and `insert(&key.to_le_bytes())`; and the same filter over the
    // concrete `hashing::Xxh3` type (monomorphised, no dispatch)
    let concrete = || {
        let mut f = BloomFilter::with_rate(n, 0.01, Xxh3::new(Seed::fixed(7))).unwrap();
        m.iter().for_each(|k| f.insert(&k.to_le_bytes()));
        f
    };
    let mut cs: Vec<Contender> = Vec::new();
    {
        let (name, ver) = ours("BloomFilter<hashing::Xxh3> (concrete hasher type)");
        let f = concrete();
        cs.push(Contender {
            implementation: name,
            version: ver,
            ours: true,
            accuracy: absent
                .iter()
                .filter(|k| f.contains(&k.to_le_bytes()))
                .count() as f64
                / n as f64,
            unit: "FPR",
            run: Box::new(move || {
                let mut f = BloomFilter::with_rate(n, 0.01, Xxh3::new(Seed::fixed(7))).unwrap();
                timed(n, || {
                    m.iter().for_each(|k| f.insert(&k.to_le_bytes()));
                    f.k() as u64
                })
            }),
        });
    }
    for id in ours_ids {
        let (name, ver) = ours(&format!(
            "BloomFilter {} (HashStrategy: public API, run-time strategy)",
            id.name()
        ));
        let f = bloom(id);
        cs.push(Contender {
            implementation: name,
            version: ver,
            ours: true,
            accuracy: absent
                .iter()
                .filter(|k| f.contains(&k.to_le_bytes()))
                .count() as f64
                / n as f64,
            unit: "FPR",
            run: Box::new(move || {
                let mut f = BloomFilter::with_rate(n, 0.01, strategy(id)).unwrap();
                timed(n, || {
                    m.iter().for_each(|k| f.insert(&k.to_le_bytes()));
                    f.k() as u64
                })
            }),
        });
    }
    let f = fb_filled();
    cs.push(Contender {
        implementation: "fastbloom (SipHash-1-3)".into(),
        version: fb_ver.clone(),
        ours: false,
        accuracy: absent.iter().filter(|k| f.contains(k)).count() as f64 / n as f64,
        unit: "FPR",
        run: Box::new(move || {
            let mut f = fb();
            timed(n, || m.iter().map(|k| f.insert(k) as u64).sum())
        }),
    });
    let f = fb_xxh3_filled();
    cs.push(Contender {
        implementation: "fastbloom (xxh3)".into(),
        version: fb_ver.clone(),
        ours: false,
        accuracy: absent.iter().filter(|k| f.contains(k)).count() as f64 / n as f64,
        unit: "FPR",
        run: Box::new(move || {
            let mut f = fb_xxh3();
            timed(n, || m.iter().map(|k| f.insert(k) as u64).sum())
        }),
    });
    contest(out, "bloom_insert", s.reps, cs);

    // queries on filters built once; the batched contender counts the same
    // queries as bytes
    let mut cs: Vec<Contender> = Vec::new();
    let f = bloom(StrategyId::Xxh3);
    let (implementation, version) = ours("BloomFilter xxh3, batched (count_contained)");
    cs.push(Contender {
        implementation,
        version,
        ours: true,
        accuracy: absent
            .iter()
            .filter(|k| f.contains(&k.to_le_bytes()))
            .count() as f64
            / n as f64,
        unit: "FPR",
        run: Box::new(move || timed(n, || f.count_contained(qb))),
    });
    {
        let f = concrete();
        let (name, ver) = ours("BloomFilter<hashing::Xxh3> (concrete hasher type)");
        cs.push(query(name, ver, true, &absent, &queries, move |k| {
            f.contains(&k.to_le_bytes())
        }));
    }
    for id in ours_ids {
        let f = bloom(id);
        let (name, ver) = ours(&format!(
            "BloomFilter {} (HashStrategy: public API, run-time strategy)",
            id.name()
        ));
        cs.push(query(name, ver, true, &absent, &queries, move |k| {
            f.contains(&k.to_le_bytes())
        }));
    }
    let f = fb_filled();
    cs.push(query(
        "fastbloom (SipHash-1-3)".into(),
        fb_ver.clone(),
        false,
        &absent,
        &queries,
        move |k| f.contains(&k),
    ));
    let f = fb_xxh3_filled();
    cs.push(query(
        "fastbloom (xxh3)".into(),
        fb_ver.clone(),
        false,
        &absent,
        &queries,
        move |k| f.contains(&k),
    ));
    contest(out, "bloom_query", s.reps, cs);

    // blocked Bloom query: sketchlab's blocked filter against the standard peers
    let mut cs: Vec<Contender> = Vec::new();
    let m_bits = sketchlab::structures::bloom::theory::optimal_m(n, 0.01);
    let k = sketchlab::structures::bloom::theory::optimal_k_int(m_bits, n);
    let blocked = |id: StrategyId| {
        let mut f = BlockedBloom::new(m_bits, k, strategy(id)).unwrap();
        m.iter().for_each(|key| f.insert(&key.to_le_bytes()));
        f
    };
    for id in [StrategyId::Xxh3, StrategyId::Xxh3_64] {
        let f = blocked(id);
        let (name, ver) = ours(&format!("BlockedBloom {}", id.name()));
        cs.push(query(name, ver, true, &absent, &queries, move |key| {
            f.contains(&key.to_le_bytes())
        }));
    }
    let f = blocked(StrategyId::Xxh3);
    let (implementation, version) = ours("BlockedBloom xxh3, batched (count_contained)");
    cs.push(Contender {
        implementation,
        version,
        ours: true,
        accuracy: absent
            .iter()
            .filter(|k| f.contains(&k.to_le_bytes()))
            .count() as f64
            / n as f64,
        unit: "FPR",
        run: Box::new(move || timed(n, || f.count_contained(qb))),
    });
    let f = fb_filled();
    cs.push(query(
        "fastbloom (SipHash-1-3, standard)".into(),
        fb_ver.clone(),
        false,
        &absent,
        &queries,
        move |k| f.contains(&k),
    ));
    let f = fb_xxh3_filled();
    cs.push(query(
        "fastbloom (xxh3, standard)".into(),
        fb_ver,
        false,
        &absent,
        &queries,
        move |k| f.contains(&k),
    ));
    contest(out, "blocked_bloom_query", s.reps, cs);
}

/// HyperLogLog p = 14: insert `hll_n` distinct keys.
fn hll(out: &mut Vec<Row>, s: &Sizes) {
    let n = s.hll_n;
    let ks = keys(n, 3);
    let err = |e: f64| (e / n as f64 - 1.0).abs();
    let ks = &ks;
    let mut cs: Vec<Contender> = Vec::new();
    for id in [StrategyId::Xxh3_64, StrategyId::Xxh3, StrategyId::Foldhash] {
        let mut h = HyperLogLog::new(14, strategy(id)).unwrap();
        ks.iter().for_each(|k| {
            h.insert(&k.to_le_bytes());
        });
        let (name, ver) = ours(&format!("HyperLogLog {}", id.name()));
        cs.push(Contender {
            implementation: name,
            version: ver,
            ours: true,
            accuracy: err(h.ertl()),
            unit: "relative error",
            run: Box::new(move || {
                let mut h = HyperLogLog::new(14, strategy(id)).unwrap();
                timed(n, || {
                    ks.iter().filter(|k| h.insert(&k.to_le_bytes())).count() as u64
                })
            }),
        });
    }
    let mut h = streaming_algorithms::HyperLogLog::<u64>::with_p(14);
    ks.iter().for_each(|k| h.push(k));
    cs.push(Contender {
        implementation: "streaming_algorithms (xxh3)".into(),
        version: version("streaming_algorithms"),
        ours: false,
        accuracy: err(h.len()),
        unit: "relative error",
        run: Box::new(move || {
            let mut h = streaming_algorithms::HyperLogLog::<u64>::with_p(14);
            timed(n, || {
                ks.iter().for_each(|k| h.push(k));
                0
            })
        }),
    });
    type Ce = cardinality_estimator::CardinalityEstimator<u64, wyhash::WyHash, 14, 6>;
    let mut h = Ce::new();
    ks.iter().for_each(|k| h.insert(k));
    cs.push(Contender {
        implementation: "cardinality-estimator (wyhash)".into(),
        version: version("cardinality-estimator"),
        ours: false,
        accuracy: err(h.estimate() as f64),
        unit: "relative error",
        run: Box::new(move || {
            let mut h = Ce::new();
            timed(n, || {
                ks.iter().for_each(|k| h.insert(k));
                0
            })
        }),
    });
    let ds = || datasketches::hll::HllSketch::new(14, datasketches::hll::HllType::Hll8).unwrap();
    let mut h = ds();
    ks.iter().for_each(|k| h.update(k));
    cs.push(Contender {
        implementation: "datasketches Hll8".into(),
        version: version("datasketches"),
        ours: false,
        accuracy: err(h.estimate()),
        unit: "relative error",
        run: Box::new(move || {
            let mut h = ds();
            timed(n, || {
                ks.iter().for_each(|k| h.update(k));
                0
            })
        }),
    });
    contest(out, "hll_insert_p14", s.reps, cs);
}

/// Count-Min 6 × 4096: updates of a Zipf(1.1) stream, then point queries.
fn count_min(out: &mut Vec<Row>, s: &Sizes) {
    let n = s.n;
    let (w, d) = (4096u64, 6u64);
    let universe = 100_000u64;
    let mut stream =
        sketchlab::workload::zipf::ZipfStream::new(universe, 1.1, 11).expect("a Zipf stream");
    let ids: Vec<u64> = (0..n).map(|_| stream.next_id()).collect();
    let ks: Vec<u64> = ids.iter().map(|&i| splitmix64(i ^ 0xc0ffee)).collect();
    let mut truth = vec![0u64; universe as usize];
    ids.iter().for_each(|&i| truth[i as usize] += 1);
    let eps_n = std::f64::consts::E / w as f64 * n as f64;
    // mean overestimate over the universe, in units of εN
    let over = |est: &dyn Fn(u64) -> u64| {
        (0..universe)
            .map(|i| est(splitmix64(i ^ 0xc0ffee)) as f64 - truth[i as usize] as f64)
            .sum::<f64>()
            / universe as f64
            / eps_n
    };
    let ks = &ks;
    let cms_ver = version("count-min-sketch");
    let ds_ver = version("datasketches");
    // count-min-sketch sizes by (capacity, probability, tolerance): width
    // next_pow2(2·capacity/tolerance) = 4096, k = ⌊ln(1 − p)/ln ½⌋ = 6
    let crate_cms = || {
        count_min_sketch::CountMinSketch64::<u64>::new(1_000_000, 0.985, 1_000_000.0 / 2048.0)
            .unwrap()
    };
    let ds =
        || datasketches::countmin::CountMinSketch::<u64>::with_seed(d as u8, w as u32, 7).unwrap();
    let ours_cm = || CountMin::<u64, _>::new(w, d, strategy(StrategyId::Xxh3_64)).unwrap();

    for conservative in [false, true] {
        let workload = if conservative {
            "cms_update_conservative"
        } else {
            "cms_update"
        };
        let mut cs: Vec<Contender> = Vec::new();
        let mut c = ours_cm();
        ks.iter().for_each(|k| {
            if conservative {
                c.update_conservative(&k.to_le_bytes(), 1)
            } else {
                c.update(&k.to_le_bytes(), 1)
            }
        });
        let (name, ver) = ours(if conservative {
            "CountMin conservative xxh3_64"
        } else {
            "CountMin xxh3_64"
        });
        cs.push(Contender {
            implementation: name,
            version: ver,
            ours: true,
            accuracy: over(&|k| c.estimate(&k.to_le_bytes())),
            unit: "mean overestimate / εN",
            run: Box::new(move || {
                let mut c = ours_cm();
                timed(n, || {
                    ks.iter().for_each(|k| {
                        if conservative {
                            c.update_conservative(&k.to_le_bytes(), 1)
                        } else {
                            c.update(&k.to_le_bytes(), 1)
                        }
                    });
                    c.total()
                })
            }),
        });
        let mut c = crate_cms();
        ks.iter().for_each(|k| c.increment(k));
        cs.push(Contender {
            implementation: "count-min-sketch (conservative, SipHash-1-3)".into(),
            version: cms_ver.clone(),
            ours: false,
            accuracy: over(&|k| c.estimate(&k)),
            unit: "mean overestimate / εN",
            run: Box::new(move || {
                let mut c = crate_cms();
                timed(n, || {
                    ks.iter().for_each(|k| c.increment(k));
                    0
                })
            }),
        });
        let mut c = ds();
        ks.iter().for_each(|k| c.update(k));
        cs.push(Contender {
            implementation: "datasketches CountMin".into(),
            version: ds_ver.clone(),
            ours: false,
            accuracy: over(&|k| c.estimate(k)),
            unit: "mean overestimate / εN",
            run: Box::new(move || {
                let mut c = ds();
                timed(n, || {
                    ks.iter().for_each(|k| c.update(k));
                    0
                })
            }),
        });
        contest(out, workload, s.reps, cs);
    }

    let mut cs: Vec<Contender> = Vec::new();
    let mut c = ours_cm();
    ks.iter().for_each(|k| c.update(&k.to_le_bytes(), 1));
    let acc = over(&|k| c.estimate(&k.to_le_bytes()));
    let (name, ver) = ours("CountMin xxh3_64");
    cs.push(Contender {
        implementation: name,
        version: ver,
        ours: true,
        accuracy: acc,
        unit: "mean overestimate / εN",
        run: Box::new(move || timed(n, || ks.iter().map(|k| c.estimate(&k.to_le_bytes())).sum())),
    });
    let mut c = crate_cms();
    ks.iter().for_each(|k| c.increment(k));
    let acc = over(&|k| c.estimate(&k));
    cs.push(Contender {
        implementation: "count-min-sketch (conservative, SipHash-1-3)".into(),
        version: cms_ver,
        ours: false,
        accuracy: acc,
        unit: "mean overestimate / εN",
        run: Box::new(move || timed(n, || ks.iter().map(|k| c.estimate(k)).sum())),
    });
    let mut c = ds();
    ks.iter().for_each(|k| c.update(k));
    let acc = over(&|k| c.estimate(k));
    cs.push(Contender {
        implementation: "datasketches CountMin".into(),
        version: ds_ver,
        ours: false,
        accuracy: acc,
        unit: "mean overestimate / εN",
        run: Box::new(move || timed(n, || ks.iter().map(|k| c.estimate(k)).sum())),
    });
    contest(out, "cms_query", s.reps, cs);
}

/// Cuckoo filter, 4-slot buckets: insert to 95% of the slots, then query (half members).
fn cuckoo(out: &mut Vec<Row>, s: &Sizes) {
    let slots = s.n.next_power_of_two();
    let buckets = (slots / 4) as usize;
    let fill = (slots as f64 * 0.95) as u64;
    let members = keys(fill, 4);
    let absent = keys(fill, 5);
    let queries = half_members(&members, &absent, fill as usize);
    let ver = version("cuckoofilter");
    let ours_cf =
        || CuckooFilter::new(buckets, 4, 12, 500, 9, strategy(StrategyId::Xxh3_64)).unwrap();
    let peer = || {
        cuckoofilter::CuckooFilter::<std::collections::hash_map::DefaultHasher>::with_capacity(
            slots as usize,
        )
    };
    let m = &members;

    let mut cs: Vec<Contender> = Vec::new();
    let (name, v) = ours("CuckooFilter 12-bit xxh3_64");
    cs.push(Contender {
        implementation: name,
        version: v,
        ours: true,
        accuracy: 0.0,
        unit: "inserts failed",
        run: Box::new(move || {
            let mut f = ours_cf();
            timed(fill, || {
                m.iter()
                    .filter(|k| f.insert(&k.to_le_bytes()).is_err())
                    .count() as u64
            })
        }),
    });
    cs.push(Contender {
        implementation: "cuckoofilter (8-bit, SipHash-1-3)".into(),
        version: ver.clone(),
        ours: false,
        accuracy: 0.0,
        unit: "inserts failed",
        run: Box::new(move || {
            let mut f = peer();
            timed(fill, || {
                m.iter().filter(|k| f.add(k).is_err()).count() as u64
            })
        }),
    });
    // the failures, counted once
    let mut f = ours_cf();
    cs[0].accuracy = m
        .iter()
        .filter(|k| f.insert(&k.to_le_bytes()).is_err())
        .count() as f64;
    let mut g = peer();
    cs[1].accuracy = m.iter().filter(|k| g.add(k).is_err()).count() as f64;
    contest(out, "cuckoo_insert_95pct", s.reps, cs);

    let (name, v) = ours("CuckooFilter 12-bit xxh3_64");
    let cs = vec![
        query(name, v, true, &absent, &queries, move |k| {
            f.contains(&k.to_le_bytes())
        }),
        query(
            "cuckoofilter (8-bit, SipHash-1-3)".into(),
            ver,
            false,
            &absent,
            &queries,
            move |k| g.contains(&k),
        ),
    ];
    contest(out, "cuckoo_query", s.reps, cs);
}

/// t-digest, compression 100: add n normal samples.
fn tdigest(out: &mut Vec<Row>, s: &Sizes) {
    use rand::SeedableRng;
    use rand_distr::Distribution;
    let n = s.n;
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(13);
    let normal = rand_distr::Normal::new(0.0, 1.0).unwrap();
    let xs: Vec<f64> = (0..n).map(|_| normal.sample(&mut rng)).collect();
    let mut sorted = xs.clone();
    sorted.sort_by(f64::total_cmp);
    // |rank of the estimated 0.99 quantile − 0.99|
    let rank_err = |q: f64| (sorted.partition_point(|&x| x < q) as f64 / n as f64 - 0.99).abs();
    let xs = &xs;
    let mut cs: Vec<Contender> = Vec::new();
    let mut t = TDigest::new(100.0).unwrap();
    xs.iter().for_each(|&x| t.add(x));
    let (name, v) = ours("TDigest");
    cs.push(Contender {
        implementation: name,
        version: v,
        ours: true,
        accuracy: rank_err(t.quantile(0.99).unwrap()),
        unit: "rank error at q = 0.99",
        run: Box::new(move || {
            let mut t = TDigest::new(100.0).unwrap();
            timed(n, || {
                xs.iter().for_each(|&x| t.add(x));
                t.count() as u64
            })
        }),
    });
    let mut t = datasketches::tdigest::TDigestMut::new(100).unwrap();
    xs.iter().for_each(|&x| t.update(x));
    cs.push(Contender {
        implementation: "datasketches TDigest".into(),
        version: version("datasketches"),
        ours: false,
        accuracy: rank_err(t.quantile(0.99).unwrap().unwrap()),
        unit: "rank error at q = 0.99",
        run: Box::new(move || {
            let mut t = datasketches::tdigest::TDigestMut::new(100).unwrap();
            timed(n, || {
                xs.iter().for_each(|&x| t.update(x));
                t.total_weight()
            })
        }),
    });
    contest(out, "tdigest_add", s.reps, cs);
}

const SEED: u64 = 0x5EED;

fn direct(id: StrategyId, k: &[u8]) -> u128 {
    use std::hash::Hasher;
    match id {
        StrategyId::Xxh3 => xxhash_rust::xxh3::xxh3_128_with_seed(k, SEED),
        StrategyId::Xxh3_64 => xxhash_rust::xxh3::xxh3_64_with_seed(k, SEED) as u128,
        StrategyId::Xxh64 => xxhash_rust::xxh64::xxh64(k, SEED) as u128,
        StrategyId::Murmur3x64_128 => {
            let (a, b) = mur3::murmurhash3_x64_128(k, SEED as u32);
            (b as u128) << 64 | a as u128
        }
        StrategyId::Murmur3x86_32 => mur3::murmurhash3_x86_32(k, SEED as u32) as u128,
        StrategyId::Murmur64a => murmurhash64::murmur_hash64a(k, SEED) as u128,
        StrategyId::Sip13 => siphasher::sip128::SipHasher13::new_with_keys(SEED, 0)
            .hash(k)
            .as_u128(),
        StrategyId::Crc32 => {
            let mut h = crc32fast::Hasher::new_with_initial(SEED as u32);
            h.update(k);
            h.finalize() as u128
        }
        StrategyId::Fnv1a64 => {
            let mut h = fnv::FnvHasher::with_key(0xcbf2_9ce4_8422_2325 ^ SEED);
            h.write(k);
            h.finish() as u128
        }
        _ => unreachable!(),
    }
}

/// Each hash strategy at 8, 64 and 1024 bytes against its crate called directly.
fn hashing(out: &mut Vec<Row>, s: &Sizes) {
    for len in [8usize, 64, 1024] {
        let ks: Vec<Vec<u8>> = (0..1024u64)
            .map(|i| {
                (0..len as u64)
                    .map(|j| (splitmix64(i * 131 + j) >> 7) as u8)
                    .collect()
            })
            .collect();
        let ops = (s.n / 4).max(1 << 16);
        for id in [
            StrategyId::Xxh3,
            StrategyId::Xxh3_64,
            StrategyId::Xxh64,
            StrategyId::Murmur3x64_128,
            StrategyId::Murmur3x86_32,
            StrategyId::Murmur64a,
            StrategyId::Sip13,
            StrategyId::Crc32,
            StrategyId::Fnv1a64,
        ] {
            let h = id.build(Seed::fixed(black_box(SEED)));
            let ks = &ks;
            let (name, ver) = ours(&format!("strategy {}", id.name()));
            let cs = vec![
                Contender {
                    implementation: name,
                    version: ver,
                    ours: true,
                    accuracy: (h.native(&ks[0]) == direct(id, &ks[0])) as u64 as f64,
                    unit: "equal to the crate",
                    run: Box::new(move || {
                        timed(ops, || {
                            (0..ops as usize)
                                .map(|i| h.native(black_box(&ks[i & 1023])) as u64)
                                .fold(0, u64::wrapping_add)
                        })
                    }),
                },
                Contender {
                    implementation: format!("{} direct", id.source()),
                    version: String::new(),
                    ours: false,
                    accuracy: 1.0,
                    unit: "equal to the crate",
                    run: Box::new(move || {
                        timed(ops, || {
                            (0..ops as usize)
                                .map(|i| direct(id, black_box(&ks[i & 1023])) as u64)
                                .fold(0, u64::wrapping_add)
                        })
                    }),
                },
            ];
            contest(out, &format!("hash_{}_{len}B", id.name()), s.reps, cs);
        }
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    // `cargo bench` passes --bench; anything else is a filter on workload names
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let s = if quick {
        Sizes {
            n: 200_000,
            hll_n: 2_000_000,
            reps: 7,
        }
    } else {
        Sizes {
            n: 1_000_000,
            hll_n: 10_000_000,
            reps: 9,
        }
    };
    // VERSUS_N overrides n (e.g. a filter larger than the last-level cache)
    let s = match std::env::var("VERSUS_N")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
    {
        Some(n) if n >= 1.0 => Sizes {
            n: n as u64,
            hll_n: (n as u64).max(s.hll_n),
            reps: s.reps,
        },
        _ => s,
    };
    let want = |w: &str| filter.is_empty() || filter.iter().any(|f| w.contains(f.as_str()));
    let mut out = Vec::new();
    let t = Instant::now();
    if want("bloom") {
        bloom(&mut out, &s);
    }
    if want("hll") {
        hll(&mut out, &s);
    }
    if want("cms") {
        count_min(&mut out, &s);
    }
    if want("cuckoo") {
        cuckoo(&mut out, &s);
    }
    if want("tdigest") {
        tdigest(&mut out, &s);
    }
    if want("hash") {
        hashing(&mut out, &s);
    }
    let dir = std::path::Path::new("reports/speed");
    std::fs::create_dir_all(dir).unwrap();
    // only a complete run at the default sizes writes the committed table
    let partial = !filter.is_empty() || std::env::var_os("VERSUS_N").is_some();
    let name = match (quick, partial) {
        (_, true) => "versus_partial.csv",
        (true, false) => "versus_quick.csv",
        (false, false) => "versus.csv",
    };
    let mut f = std::fs::File::create(dir.join(name)).unwrap();
    writeln!(
        f,
        "workload,implementation,version,ns_per_op,ns_min,ns_max,ratio_to_best_peer,accuracy,accuracy_unit"
    )
    .unwrap();
    for r in &out {
        writeln!(
            f,
            "{},\"{}\",{},{:.3},{:.3},{:.3},{:.3},{},{}",
            r.workload,
            r.implementation,
            r.version,
            r.median,
            r.min,
            r.max,
            r.ratio,
            r.accuracy,
            r.unit
        )
        .unwrap();
    }
    eprintln!(
        "wrote {} ({} rows, n = {}, {} repetitions, {:.0} s)",
        dir.join(name).display(),
        out.len(),
        s.n,
        s.reps,
        t.elapsed().as_secs_f64()
    );
}
