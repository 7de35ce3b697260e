//! sketchlab's structures against the best Rust crates for each workload,
//! on the same keys, **one contender per process**: the driver starts this
//! binary again for every (contender, run), so allocator state, code
//! placement, cache warmth and frequency left by one contender cannot
//! flatter or burden another. Each child builds only its own contender,
//! times it three times and reports its median; the driver runs every
//! contender `runs` times (at least 5; the starting contender rotates each
//! round) and reports the median over those processes with their min and
//! max, next to the contender's accuracy on the same keys (a fast
//! structure that is wrong shows). Writes `reports/speed/versus.csv`:
//! `workload,implementation,version,ns_per_op,ns_min,ns_max,ratio_to_best_peer,accuracy,accuracy_unit,processes,load_avg_1m,machine`
//! (the load is the 1-minute load average read before each of the row's
//! processes, its median) and prints the same table.
//!
//! cargo bench --bench versus [-- --quick] [WORKLOAD...]
//!
//! Keys are 8-byte integers (splitmix64 of an index). sketchlab hashes their
//! bytes; each crate gets the u64 through its own documented API and its
//! own default hasher (what a user of that crate gets) unless the
//! implementation name says otherwise.

use sketchlab::hashing::{
    HashStrategy, KeyHasher, Seed, SeedPolicy, StrategyId, Xxh3, Xxh3_64, splitmix64,
};
use sketchlab::structures::bloom::BloomFilter;
use sketchlab::structures::bloom::blocked::BlockedBloom;
use sketchlab::structures::count_min::CountMin;
use sketchlab::structures::cuckoo::CuckooFilter;
use sketchlab::structures::hyperloglog::HyperLogLog;
use sketchlab::structures::tdigest::TDigest;
use std::hint::black_box;
use std::io::Write;
use std::process::Command;
use std::time::Instant;

struct Sizes {
    n: u64,
    hll_n: u64,
    /// Processes per contender (each one run of the contender).
    runs: usize,
}

/// Timed repetitions inside one child process; it reports their median.
const INNER: usize = 3;

/// One contender of a workload: a timed run (ns per operation) and its accuracy.
struct Contender<'a> {
    implementation: String,
    version: String,
    ours: bool,
    run: Box<dyn FnMut() -> f64 + 'a>,
    accuracy: f64,
    unit: &'static str,
}

/// A contender not yet built: only the child process that times it builds it.
type Entry<'a> = Box<dyn FnOnce() -> Contender<'a> + 'a>;

fn entry<'a>(f: impl FnOnce() -> Contender<'a> + 'a) -> Entry<'a> {
    Box::new(f)
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
    unit: String,
    processes: usize,
    load: f64,
}

/// What a child prints: the contender count of its workload, then (when it
/// ran one) its description and its median ns per operation.
const CHILD_TAG: &str = "versus-child";

/// How this process runs: the driver, or a child timing one contender.
enum Mode {
    Driver { quick: bool },
    Child { workload: String, index: usize },
}

struct Ctx {
    mode: Mode,
    runs: usize,
    out: Vec<Row>,
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

/// The 1-minute load average (0 where /proc is absent).
fn load_avg() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

/// The processor's model and the cores the OS offers.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{model}, {cores} cores")
}

/// Runs one child: `--child=WORKLOAD:INDEX` (and `--quick` when the driver had it).
fn child(quick: bool, workload: &str, index: usize) -> (usize, Option<(String, f64)>) {
    let exe = std::env::current_exe().expect("the bench binary's path");
    let mut cmd = Command::new(exe);
    cmd.arg(format!("--child={workload}:{index}"));
    if quick {
        cmd.arg("--quick");
    }
    let out = cmd.output().expect("a child process");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child {workload}:{index} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix(CHILD_TAG))
        .unwrap_or_else(|| panic!("child {workload}:{index} printed no result:\n{text}"));
    let mut f = line.trim_start().splitn(2, '\t');
    let count: usize = f.next().unwrap().parse().expect("a contender count");
    let rest = f.next().filter(|r| !r.is_empty());
    let ran = rest.map(|r| {
        let (desc, ns) = r.rsplit_once('\t').expect("description and ns");
        (desc.to_string(), ns.parse().expect("ns per op"))
    });
    (count, ran)
}

/// Times the contenders of one workload: in a child, the one it was asked
/// for (then the process ends); in the driver, every contender `runs` times,
/// each run a process of its own.
fn contest(ctx: &mut Ctx, workload: &str, cs: Vec<Entry>) {
    match &ctx.mode {
        Mode::Child { workload: w, index } => {
            if w != workload {
                return;
            }
            let count = cs.len();
            let mut ran = String::new();
            if let Some(make) = cs.into_iter().nth(*index) {
                let mut c = make();
                let mut samples: Vec<f64> = (0..INNER).map(|_| (c.run)()).collect();
                ran = format!(
                    "{}\t{}\t{}\t{}\t{}\t{}",
                    c.implementation,
                    c.version,
                    c.ours,
                    c.accuracy,
                    c.unit,
                    median(&mut samples)
                );
            }
            println!("{CHILD_TAG}\t{count}\t{ran}");
            std::process::exit(0);
        }
        Mode::Driver { quick } => {
            let quick = *quick;
            drop(cs);
            driver(ctx, quick, workload);
        }
    }
}

/// The driver's side of [`contest`]: `runs` rounds, each contender once per
/// round in a process of its own, the first contender of a round rotating.
fn driver(ctx: &mut Ctx, quick: bool, workload: &str) {
    let load = load_avg();
    let (count, first) = child(quick, workload, 0);
    let mut desc: Vec<Option<String>> = vec![None; count];
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); count];
    let mut loads: Vec<Vec<f64>> = vec![Vec::new(); count];
    let mut record = |i: usize, ran: Option<(String, f64)>, load: f64| {
        let (d, ns) = ran.unwrap_or_else(|| panic!("{workload}: contender {i} did not run"));
        desc[i] = Some(d);
        samples[i].push(ns);
        loads[i].push(load);
    };
    if count > 0 {
        record(0, first, load);
    }
    for r in 0..ctx.runs {
        for j in 0..count {
            let i = (j + r) % count;
            if r == 0 && i == 0 {
                continue; // the first child's run
            }
            let load = load_avg();
            let (c, ran) = child(quick, workload, i);
            assert_eq!(c, count, "{workload}: children disagree on the contenders");
            record(i, ran, load);
        }
    }
    let parsed: Vec<(String, String, bool, f64, String)> = desc
        .into_iter()
        .map(|d| {
            let d = d.expect("every contender ran");
            let f: Vec<&str> = d.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2] == "true",
                f[3].parse().expect("an accuracy"),
                f[4].to_string(),
            )
        })
        .collect();
    let medians: Vec<f64> = samples.iter_mut().map(|s| median(s)).collect();
    let best_peer = parsed
        .iter()
        .zip(&medians)
        .filter(|(c, _)| !c.2)
        .map(|(_, &m)| m)
        .fold(f64::INFINITY, f64::min);
    for (((c, s), m), l) in parsed
        .into_iter()
        .zip(&samples)
        .zip(&medians)
        .zip(&mut loads)
    {
        let row = Row {
            workload: workload.into(),
            implementation: c.0,
            version: c.1,
            median: *m,
            min: s[0],
            max: s[s.len() - 1],
            ratio: m / best_peer,
            accuracy: c.3,
            unit: c.4,
            processes: s.len(),
            load: median(l),
        };
        println!(
            "{:<22} {:<40} {:>8.2} ns  [{:>7.2} – {:>7.2}]  ×{:<5.2}  {:.4} {}  (load {:.2})",
            row.workload,
            format!("{} {}", row.implementation, row.version),
            row.median,
            row.min,
            row.max,
            row.ratio,
            row.accuracy,
            row.unit,
            row.load
        );
        ctx.out.push(row);
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

/// A contender that adds every item of `items` to a fresh structure `S`:
/// its accuracy read off one structure holding them all, its run timing
/// the adds into a new one.
fn adds<'a, T: Copy + 'a, S: 'a>(
    (implementation, version): (String, String),
    ours: bool,
    items: &'a [T],
    empty: impl Fn() -> S + 'a,
    add: impl Fn(&mut S, T) + Copy + 'a,
    (accuracy, unit): (impl FnOnce(&mut S) -> f64, &'static str),
) -> Contender<'a> {
    let mut full = empty();
    items.iter().for_each(|&x| add(&mut full, x));
    Contender {
        implementation,
        version,
        ours,
        accuracy: accuracy(&mut full),
        unit,
        run: Box::new(move || {
            let mut s = empty();
            timed(items.len() as u64, || {
                items.iter().for_each(|&x| add(&mut s, x));
                black_box(&s);
                items.len() as u64
            })
        }),
    }
}

/// An insert contender on a filter of type `F`: [`adds`] of the members,
/// its accuracy the FPR over the absent keys.
fn inserts<'a, F: 'a>(
    who: (String, String),
    ours: bool,
    members: &'a [u64],
    fpr: impl Fn(&dyn Fn(u64) -> bool) -> f64,
    empty: impl Fn() -> F + 'a,
    insert: impl Fn(&mut F, u64) + Copy + 'a,
    contains: impl Fn(&F, u64) -> bool,
) -> Contender<'a> {
    let accuracy = move |f: &mut F| fpr(&|k| contains(f, k));
    adds(who, ours, members, empty, insert, (accuracy, "FPR"))
}

/// A batched query contender: `count` answers every query at once.
fn batched<'a>(
    (implementation, version): (String, String),
    accuracy: f64,
    queries: u64,
    count: impl Fn() -> u64 + 'a,
) -> Contender<'a> {
    Contender {
        implementation,
        version,
        ours: true,
        accuracy,
        unit: "FPR",
        run: Box::new(move || timed(queries, &count)),
    }
}

/// Bloom p = 1%: insert, query (half members), blocked query.
fn bloom(ctx: &mut Ctx, s: &Sizes) {
    let n = s.n;
    let members = keys(n, 1);
    let absent = keys(n, 2);
    let queries = half_members(&members, &absent, n as usize);
    let qbytes: Vec<[u8; 8]> = queries.iter().map(|k| k.to_le_bytes()).collect();
    let (m, a, q, qb) = (&members[..], &absent[..], &queries[..], &qbytes[..]);
    let fb_ver = version("fastbloom");
    let ours_ids = [StrategyId::Xxh3, StrategyId::Xxh3_64, StrategyId::Sip13];
    // FPR over the absent keys
    let fpr =
        move |hit: &dyn Fn(u64) -> bool| a.iter().filter(|&&k| hit(k)).count() as f64 / n as f64;
    // the public fast path: the default type `BloomFilter` (= BloomFilter<Xxh3>,
    // what `BloomFilter::sized` returns), seeded so runs are reproducible
    let default_empty = move || -> BloomFilter {
        BloomFilter::with_rate(n, 0.01, Xxh3::new(Seed::fixed(7))).unwrap()
    };
    let default_filled = move || {
        let mut f = default_empty();
        m.iter().for_each(|k| f.insert(&k.to_le_bytes()));
        f
    };
    // the strategy named at run time: one `match` per key
    let strategy_empty =
        move |id: StrategyId| BloomFilter::with_rate(n, 0.01, strategy(id)).unwrap();
    let strategy_filled = move |id: StrategyId| {
        let mut f = strategy_empty(id);
        m.iter().for_each(|k| f.insert(&k.to_le_bytes()));
        f
    };
    let fb = move || {
        fastbloom::BloomFilter::with_false_pos(0.01)
            .seed(&7)
            .expected_items(n as usize)
    };
    let fb_xxh3 = move || {
        fastbloom::BloomFilter::with_false_pos(0.01)
            .hasher(xxhash_rust::xxh3::Xxh3Builder::new())
            .expected_items(n as usize)
    };
    let fb_filled = move || {
        let mut f = fb();
        m.iter().for_each(|k| {
            f.insert(k);
        });
        f
    };
    let fb_xxh3_filled = move || {
        let mut f = fb_xxh3();
        m.iter().for_each(|k| {
            f.insert(k);
        });
        f
    };
    const DEFAULT: &str = "BloomFilter (default type BloomFilter<Xxh3>, as BloomFilter::sized)";
    let strategy_name = |id: StrategyId| {
        format!(
            "BloomFilter {} (HashStrategy: strategy named at run time)",
            id.name()
        )
    };

    fn put<H: KeyHasher>(f: &mut BloomFilter<H>, k: u64) {
        f.insert(&k.to_le_bytes())
    }
    fn has<H: KeyHasher>(f: &BloomFilter<H>, k: u64) -> bool {
        f.contains(&k.to_le_bytes())
    }
    fn fb_put<S: std::hash::BuildHasher>(f: &mut fastbloom::BloomFilter<S>, k: u64) {
        f.insert(&k);
    }
    fn fb_has<S: std::hash::BuildHasher>(f: &fastbloom::BloomFilter<S>, k: u64) -> bool {
        f.contains(&k)
    }
    let mut cs: Vec<Entry> = Vec::new();
    cs.push(entry(move || {
        inserts(ours(DEFAULT), true, m, fpr, default_empty, put, has)
    }));
    for id in ours_ids {
        let name = strategy_name(id);
        cs.push(entry(move || {
            inserts(
                ours(&name),
                true,
                m,
                fpr,
                move || strategy_empty(id),
                put,
                has,
            )
        }));
    }
    let v = fb_ver.clone();
    cs.push(entry(move || {
        let who = ("fastbloom (SipHash-1-3)".to_string(), v);
        inserts(who, false, m, fpr, fb, fb_put, fb_has)
    }));
    let v = fb_ver.clone();
    cs.push(entry(move || {
        let who = ("fastbloom (xxh3)".to_string(), v);
        inserts(who, false, m, fpr, fb_xxh3, fb_put, fb_has)
    }));
    contest(ctx, "bloom_insert", cs);

    // queries on filters built once (half members, interleaved)
    let mut cs: Vec<Entry> = Vec::new();
    cs.push(entry(move || {
        let f = default_filled();
        let (name, ver) = ours(DEFAULT);
        query(name, ver, true, a, q, move |k| f.contains(&k.to_le_bytes()))
    }));
    for id in ours_ids {
        let name = strategy_name(id);
        cs.push(entry(move || {
            let f = strategy_filled(id);
            let (name, ver) = ours(&name);
            query(name, ver, true, a, q, move |k| f.contains(&k.to_le_bytes()))
        }));
    }
    cs.push(entry(move || {
        let f = default_filled();
        let who = ours("BloomFilter (default type), batched: count_contained");
        batched(who, fpr(&|k| f.contains(&k.to_le_bytes())), n, move || {
            f.count_contained(qb)
        })
    }));
    cs.push(entry(move || {
        let f = default_filled();
        let who = ours("BloomFilter (default type), pipelined: contains_batch");
        batched(who, fpr(&|k| f.contains(&k.to_le_bytes())), n, move || {
            f.contains_batch(qb).iter().filter(|&&b| b).count() as u64
        })
    }));
    let v = fb_ver.clone();
    cs.push(entry(move || {
        let f = fb_filled();
        query("fastbloom (SipHash-1-3)".into(), v, false, a, q, move |k| {
            f.contains(&k)
        })
    }));
    let v = fb_ver.clone();
    cs.push(entry(move || {
        let f = fb_xxh3_filled();
        query("fastbloom (xxh3)".into(), v, false, a, q, move |k| {
            f.contains(&k)
        })
    }));
    contest(ctx, "bloom_query", cs);

    // blocked Bloom query: sketchlab's blocked filter against fastbloom
    // (itself one 512-bit block per key)
    let m_bits = sketchlab::structures::bloom::theory::optimal_m(n, 0.01);
    let k = sketchlab::structures::bloom::theory::optimal_k_int(m_bits, n);
    let blocked_filled = move || {
        let mut f = BlockedBloom::new(m_bits, k, Xxh3::new(Seed::fixed(7))).unwrap();
        m.iter().for_each(|key| f.insert(&key.to_le_bytes()));
        f
    };
    let mut cs: Vec<Entry> = Vec::new();
    cs.push(entry(move || {
        let f = blocked_filled();
        let (name, ver) = ours("BlockedBloom<Xxh3>");
        query(name, ver, true, a, q, move |key| {
            f.contains(&key.to_le_bytes())
        })
    }));
    cs.push(entry(move || {
        let f = blocked_filled();
        let who = ours("BlockedBloom<Xxh3>, batched: count_contained");
        batched(who, fpr(&|k| f.contains(&k.to_le_bytes())), n, move || {
            f.count_contained(qb)
        })
    }));
    let v = fb_ver.clone();
    cs.push(entry(move || {
        let f = fb_filled();
        query("fastbloom (SipHash-1-3)".into(), v, false, a, q, move |k| {
            f.contains(&k)
        })
    }));
    let v = fb_ver;
    cs.push(entry(move || {
        let f = fb_xxh3_filled();
        query("fastbloom (xxh3)".into(), v, false, a, q, move |k| {
            f.contains(&k)
        })
    }));
    contest(ctx, "blocked_bloom_query", cs);
}

/// HyperLogLog p = 14: insert `hll_n` distinct keys.
fn hll(ctx: &mut Ctx, s: &Sizes) {
    let n = s.hll_n;
    let ks = keys(n, 3);
    let ks = &ks[..];
    let err = move |e: f64| (e / n as f64 - 1.0).abs();
    const UNIT: &str = "relative error";
    fn put<H: KeyHasher>(h: &mut HyperLogLog<H>, k: u64) {
        h.insert(&k.to_le_bytes());
    }
    let mut cs: Vec<Entry> = Vec::new();
    cs.push(entry(move || {
        // the default type HyperLogLog<Xxh3_64> (what with_precision returns)
        let new = || -> HyperLogLog { HyperLogLog::new(14, Xxh3_64::new(Seed::fixed(7))).unwrap() };
        let who = ours("HyperLogLog (default type HyperLogLog<Xxh3_64>, as with_precision)");
        adds(
            who,
            true,
            ks,
            new,
            put,
            (|h: &mut HyperLogLog| err(h.ertl()), UNIT),
        )
    }));
    for id in [StrategyId::Xxh3_64, StrategyId::Xxh3, StrategyId::Foldhash] {
        cs.push(entry(move || {
            let new = move || HyperLogLog::new(14, strategy(id)).unwrap();
            let who = ours(&format!("HyperLogLog {} (HashStrategy)", id.name()));
            adds(
                who,
                true,
                ks,
                new,
                put,
                (|h: &mut HyperLogLog<_>| err(h.ertl()), UNIT),
            )
        }));
    }
    cs.push(entry(move || {
        type Sa = streaming_algorithms::HyperLogLog<u64>;
        let who = (
            "streaming_algorithms (xxh3)".into(),
            version("streaming_algorithms"),
        );
        let acc = |h: &mut Sa| err(h.len());
        adds(
            who,
            false,
            ks,
            || Sa::with_p(14),
            |h, k| h.push(&k),
            (acc, UNIT),
        )
    }));
    cs.push(entry(move || {
        type Ce = cardinality_estimator::CardinalityEstimator<u64, wyhash::WyHash, 14, 6>;
        let who = (
            "cardinality-estimator (wyhash)".into(),
            version("cardinality-estimator"),
        );
        let acc = |h: &mut Ce| err(h.estimate() as f64);
        adds(who, false, ks, Ce::new, |h, k| h.insert(&k), (acc, UNIT))
    }));
    cs.push(entry(move || {
        use datasketches::hll::{HllSketch, HllType};
        let who = ("datasketches Hll8".into(), version("datasketches"));
        let new = || HllSketch::new(14, HllType::Hll8).unwrap();
        let acc = |h: &mut HllSketch| err(h.estimate());
        adds(who, false, ks, new, |h, k| h.update(k), (acc, UNIT))
    }));
    contest(ctx, "hll_insert_p14", cs);
}

/// One of sketchlab's Count-Min sketches through the calls every workload
/// times: its update (plain or conservative) and its estimate.
trait Cms {
    fn add(&mut self, key: &[u8], conservative: bool);
    fn get(&self, key: &[u8]) -> u64;
}

impl<H: KeyHasher> Cms for CountMin<u64, H> {
    #[inline]
    fn add(&mut self, key: &[u8], conservative: bool) {
        if conservative {
            self.update_conservative(key, 1)
        } else {
            self.update(key, 1)
        }
    }
    #[inline]
    fn get(&self, key: &[u8]) -> u64 {
        self.estimate(key)
    }
}

/// Count-Min 6 × 4096: updates of a Zipf(1.1) stream, then point queries.
fn count_min(ctx: &mut Ctx, s: &Sizes) {
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
    let (ks, truth) = (&ks[..], &truth[..]);
    // mean overestimate over the universe, in units of εN
    let over = move |est: &dyn Fn(u64) -> u64| {
        (0..universe)
            .map(|i| est(splitmix64(i ^ 0xc0ffee)) as f64 - truth[i as usize] as f64)
            .sum::<f64>()
            / universe as f64
            / eps_n
    };
    const UNIT: &str = "mean overestimate / εN";
    // count-min-sketch sizes by (capacity, probability, tolerance): width
    // next_pow2(2·capacity/tolerance) = 4096, k = ⌊ln(1 − p)/ln ½⌋ = 6
    let crate_cms = || {
        count_min_sketch::CountMinSketch64::<u64>::new(1_000_000, 0.985, 1_000_000.0 / 2048.0)
            .unwrap()
    };
    let ds =
        || datasketches::countmin::CountMinSketch::<u64>::with_seed(d as u8, w as u32, 7).unwrap();
    // sketchlab: the default type CountMin<u64, Xxh3> (what CountMin::sized
    // returns), and a strategy named at run time
    fn ours_entries<'a>(
        cs: &mut Vec<Entry<'a>>,
        w: u64,
        d: u64,
        conservative: Option<bool>,
        ks: &'a [u64],
        over: impl Fn(&dyn Fn(u64) -> u64) -> f64 + Copy + 'a,
    ) {
        fn one<'a, C: Cms + 'a>(
            name: &str,
            make: impl Fn() -> C + 'a,
            conservative: Option<bool>,
            ks: &'a [u64],
            over: impl Fn(&dyn Fn(u64) -> u64) -> f64,
        ) -> Contender<'a> {
            let n = ks.len() as u64;
            let mut c = make();
            ks.iter()
                .for_each(|k| c.add(&k.to_le_bytes(), conservative.unwrap_or(false)));
            let accuracy = over(&|k| c.get(&k.to_le_bytes()));
            let (implementation, version) = ours(name);
            let run: Box<dyn FnMut() -> f64 + 'a> = match conservative {
                Some(cons) => Box::new(move || {
                    let mut c = make();
                    timed(n, || {
                        ks.iter().for_each(|k| c.add(&k.to_le_bytes(), cons));
                        c.get(b"x")
                    })
                }),
                None => {
                    Box::new(move || timed(n, || ks.iter().map(|k| c.get(&k.to_le_bytes())).sum()))
                }
            };
            Contender {
                implementation,
                version,
                ours: true,
                run,
                accuracy,
                unit: UNIT,
            }
        }
        let suffix = if conservative == Some(true) {
            " conservative"
        } else {
            ""
        };
        let name =
            format!("CountMin{suffix} (default type CountMin<u64, Xxh3>, as CountMin::sized)");
        cs.push(entry(move || {
            one(
                &name,
                move || CountMin::<u64, Xxh3>::new(w, d, Xxh3::new(Seed::fixed(7))).unwrap(),
                conservative,
                ks,
                over,
            )
        }));
        let name = format!("CountMin{suffix} xxh3_64 (HashStrategy)");
        cs.push(entry(move || {
            one(
                &name,
                move || CountMin::<u64, _>::new(w, d, strategy(StrategyId::Xxh3_64)).unwrap(),
                conservative,
                ks,
                over,
            )
        }));
    }

    for conservative in [false, true] {
        let workload = if conservative {
            "cms_update_conservative"
        } else {
            "cms_update"
        };
        let mut cs: Vec<Entry> = Vec::new();
        ours_entries(&mut cs, w, d, Some(conservative), ks, over);
        let v = version("count-min-sketch");
        cs.push(entry(move || {
            let who = ("count-min-sketch (conservative, SipHash-1-3)".into(), v);
            let acc = |c: &mut count_min_sketch::CountMinSketch64<u64>| over(&|k| c.estimate(&k));
            adds(
                who,
                false,
                ks,
                crate_cms,
                |c, k| c.increment(&k),
                (acc, UNIT),
            )
        }));
        let v = version("datasketches");
        cs.push(entry(move || {
            let who = ("datasketches CountMin".into(), v);
            let acc =
                |c: &mut datasketches::countmin::CountMinSketch<u64>| over(&|k| c.estimate(k));
            adds(who, false, ks, ds, |c, k| c.update(k), (acc, UNIT))
        }));
        contest(ctx, workload, cs);
    }

    let mut cs: Vec<Entry> = Vec::new();
    ours_entries(&mut cs, w, d, None, ks, over);
    let v = version("count-min-sketch");
    cs.push(entry(move || {
        let mut c = crate_cms();
        ks.iter().for_each(|k| c.increment(k));
        let accuracy = over(&|k| c.estimate(&k));
        Contender {
            implementation: "count-min-sketch (conservative, SipHash-1-3)".into(),
            version: v,
            ours: false,
            accuracy,
            unit: UNIT,
            run: Box::new(move || timed(n, || ks.iter().map(|k| c.estimate(k)).sum())),
        }
    }));
    let v = version("datasketches");
    cs.push(entry(move || {
        let mut c = ds();
        ks.iter().for_each(|k| c.update(k));
        let accuracy = over(&|k| c.estimate(k));
        Contender {
            implementation: "datasketches CountMin".into(),
            version: v,
            ours: false,
            accuracy,
            unit: UNIT,
            run: Box::new(move || timed(n, || ks.iter().map(|k| c.estimate(k)).sum())),
        }
    }));
    contest(ctx, "cms_query", cs);
}

/// Cuckoo filter, 4-slot buckets: insert to 95% of the slots, then query (half members).
fn cuckoo(ctx: &mut Ctx, s: &Sizes) {
    let slots = s.n.next_power_of_two();
    let buckets = (slots / 4) as usize;
    let fill = (slots as f64 * 0.95) as u64;
    let members = keys(fill, 4);
    let absent = keys(fill, 5);
    let queries = half_members(&members, &absent, fill as usize);
    let (m, a, q) = (&members[..], &absent[..], &queries[..]);
    let ours_cf =
        move || CuckooFilter::new(buckets, 4, 12, 500, 9, strategy(StrategyId::Xxh3_64)).unwrap();
    let peer = move || {
        cuckoofilter::CuckooFilter::<std::collections::hash_map::DefaultHasher>::with_capacity(
            slots as usize,
        )
    };
    const OURS: &str = "CuckooFilter 12-bit xxh3_64";
    const PEER: &str = "cuckoofilter (8-bit, SipHash-1-3)";

    let cs: Vec<Entry> = vec![
        entry(move || {
            let (implementation, version) = ours(OURS);
            let mut f = ours_cf();
            let failed = m
                .iter()
                .filter(|k| f.insert(&k.to_le_bytes()).is_err())
                .count() as f64;
            Contender {
                implementation,
                version,
                ours: true,
                accuracy: failed,
                unit: "inserts failed",
                run: Box::new(move || {
                    let mut f = ours_cf();
                    timed(fill, || {
                        m.iter()
                            .filter(|k| f.insert(&k.to_le_bytes()).is_err())
                            .count() as u64
                    })
                }),
            }
        }),
        entry(move || {
            let mut f = peer();
            let failed = m.iter().filter(|k| f.add(k).is_err()).count() as f64;
            Contender {
                implementation: PEER.into(),
                version: version("cuckoofilter"),
                ours: false,
                accuracy: failed,
                unit: "inserts failed",
                run: Box::new(move || {
                    let mut f = peer();
                    timed(fill, || {
                        m.iter().filter(|k| f.add(k).is_err()).count() as u64
                    })
                }),
            }
        }),
    ];
    contest(ctx, "cuckoo_insert_95pct", cs);

    let cs: Vec<Entry> = vec![
        entry(move || {
            let mut f = ours_cf();
            m.iter().for_each(|k| {
                let _ = f.insert(&k.to_le_bytes());
            });
            let (name, v) = ours(OURS);
            query(name, v, true, a, q, move |k| f.contains(&k.to_le_bytes()))
        }),
        entry(move || {
            let mut g = peer();
            m.iter().for_each(|k| {
                let _ = g.add(k);
            });
            query(
                PEER.into(),
                version("cuckoofilter"),
                false,
                a,
                q,
                move |k| g.contains(&k),
            )
        }),
    ];
    contest(ctx, "cuckoo_query", cs);
}

/// t-digest, compression 100: add n normal samples.
fn tdigest(ctx: &mut Ctx, s: &Sizes) {
    use rand::SeedableRng;
    use rand_distr::Distribution;
    let n = s.n;
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(13);
    let normal = rand_distr::Normal::new(0.0, 1.0).unwrap();
    let xs: Vec<f64> = (0..n).map(|_| normal.sample(&mut rng)).collect();
    let mut sorted = xs.clone();
    sorted.sort_by(f64::total_cmp);
    let (xs, sorted) = (&xs[..], &sorted[..]);
    // |rank of the estimated 0.99 quantile − 0.99|
    let rank_err =
        move |q: f64| (sorted.partition_point(|&x| x < q) as f64 / n as f64 - 0.99).abs();
    const UNIT: &str = "rank error at q = 0.99";
    let cs: Vec<Entry> = vec![
        entry(move || {
            let acc = |t: &mut TDigest| rank_err(t.quantile(0.99).unwrap());
            let new = || TDigest::new(100.0).unwrap();
            adds(ours("TDigest"), true, xs, new, |t, x| t.add(x), (acc, UNIT))
        }),
        entry(move || {
            use datasketches::tdigest::TDigestMut;
            let who = ("datasketches TDigest".into(), version("datasketches"));
            let acc = |t: &mut TDigestMut| rank_err(t.quantile(0.99).unwrap().unwrap());
            let new = || TDigestMut::new(100).unwrap();
            adds(who, false, xs, new, |t, x| t.update(x), (acc, UNIT))
        }),
    ];
    contest(ctx, "tdigest_add", cs);
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
fn hashing(ctx: &mut Ctx, s: &Sizes) {
    for len in [8usize, 64, 1024] {
        let ks: Vec<Vec<u8>> = (0..1024u64)
            .map(|i| {
                (0..len as u64)
                    .map(|j| (splitmix64(i * 131 + j) >> 7) as u8)
                    .collect()
            })
            .collect();
        let ops = (s.n / 4).max(1 << 16);
        let ks = &ks[..];
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
            let cs: Vec<Entry> = vec![
                entry(move || {
                    let h = id.build(Seed::fixed(black_box(SEED)));
                    let (implementation, version) = ours(&format!("strategy {}", id.name()));
                    Contender {
                        implementation,
                        version,
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
                    }
                }),
                entry(move || Contender {
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
                }),
            ];
            contest(ctx, &format!("hash_{}_{len}B", id.name()), cs);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let child = args
        .iter()
        .find_map(|a| a.strip_prefix("--child="))
        .map(|c| {
            let (w, i) = c.rsplit_once(':').expect("--child=WORKLOAD:INDEX");
            (
                w.to_string(),
                i.parse::<usize>().expect("a contender index"),
            )
        });
    // `cargo bench` passes --bench; anything else is a filter on workload names
    let filter: Vec<String> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .cloned()
        .collect();
    let s = if quick {
        Sizes {
            n: 200_000,
            hll_n: 2_000_000,
            runs: 5,
        }
    } else {
        Sizes {
            n: 1_000_000,
            hll_n: 10_000_000,
            runs: 7,
        }
    };
    // VERSUS_N overrides n (e.g. a filter larger than the last-level cache);
    // VERSUS_RUNS the processes per contender (5 at least)
    let s = match std::env::var("VERSUS_N")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
    {
        Some(n) if n >= 1.0 => Sizes {
            n: n as u64,
            hll_n: (n as u64).max(s.hll_n),
            runs: s.runs,
        },
        _ => s,
    };
    let runs = std::env::var("VERSUS_RUNS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(s.runs, |r| r.max(5));
    let want = |w: &str| match &child {
        // a child runs only the function holding its workload
        Some((cw, _)) => cw.contains(w),
        None => filter.is_empty() || filter.iter().any(|f| w.contains(f.as_str())),
    };
    let mut ctx = Ctx {
        mode: match &child {
            Some((workload, index)) => Mode::Child {
                workload: workload.clone(),
                index: *index,
            },
            None => Mode::Driver { quick },
        },
        runs,
        out: Vec::new(),
    };
    let t = Instant::now();
    let machine = machine();
    if want("bloom") || want("blocked") {
        bloom(&mut ctx, &s);
    }
    if want("hll") {
        hll(&mut ctx, &s);
    }
    if want("cms") {
        count_min(&mut ctx, &s);
    }
    if want("cuckoo") {
        cuckoo(&mut ctx, &s);
    }
    if want("tdigest") {
        tdigest(&mut ctx, &s);
    }
    if want("hash") {
        hashing(&mut ctx, &s);
    }
    if let Mode::Child { workload, .. } = &ctx.mode {
        panic!("no workload is called {workload}");
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
    let mut text = String::from(
        "workload,implementation,version,ns_per_op,ns_min,ns_max,ratio_to_best_peer,accuracy,accuracy_unit,processes,load_avg_1m,machine\n",
    );
    for r in &ctx.out {
        text.push_str(&format!(
            "{},\"{}\",{},{:.3},{:.3},{:.3},{:.3},{},{},{},{:.2},\"{}\"\n",
            r.workload,
            r.implementation,
            r.version,
            r.median,
            r.min,
            r.max,
            r.ratio,
            r.accuracy,
            r.unit,
            r.processes,
            r.load,
            machine
        ));
    }
    // written whole, then renamed: a failed run leaves the old table
    let tmp = dir.join(format!(".{name}.tmp"));
    let mut f = std::fs::File::create(&tmp).unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f.sync_all().unwrap();
    std::fs::rename(&tmp, dir.join(name)).unwrap();
    eprintln!(
        "wrote {} ({} rows, n = {}, {} processes per contender, {:.0} s)",
        dir.join(name).display(),
        ctx.out.len(),
        s.n,
        runs,
        t.elapsed().as_secs_f64()
    );
}
