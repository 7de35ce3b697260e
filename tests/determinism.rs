//! The same specs and seed give byte-identical results.csv (and claims.csv)
//! whatever the thread count.

use assert_cmd::Command;
use std::path::Path;

const SPECS: &[(&str, &str)] = &[
    (
        "a.toml",
        r#"name = "a"
kind = "bloom_fpr"
description = "d"
seed = 11
[grid]
n = [500, 3000]
bits_per_key = [3, 8, 12]
k = [2, "optimal"]
hash = ["sip13", "xxh3", "murmur3_x64_128"]
queries = 5000
[[claim]]
id = "no_fn"
document = "000"
quote = "no false negatives"
documented = 0
unit = "count"
metric = "false_negatives"
check = "max"
basis = "counted"
type = "exact"
quantity = "exact"
"#,
    ),
    (
        "lsm.toml",
        r#"name = "lsm"
kind = "lsm_read_path"
description = "d"
seed = 31
[grid]
n = 5000
runs = [3, 10]
hit_rate = [0.0, 0.5, 1.0]
lookups = 4000
"#,
    ),
    (
        "es.toml",
        r#"name = "es"
kind = "exact_state"
description = "d"
seed = 32
[grid]
universe_bits = [8, 12]
"#,
    ),
    (
        "hll_arithmetic.toml",
        r#"name = "hll_arithmetic"
kind = "hll_arithmetic"
description = "d"
seed = 47
[grid]
fact = ["averaging", "tenfold", "freak_register", "disjointness"]
"#,
    ),
    (
        "b.toml",
        r#"name = "b"
kind = "hit_rate"
description = "d"
seed = 12
[grid]
n = 5000
hit_rate = [0.02, 0.5]
requests = 20000
"#,
    ),
    (
        "c.toml",
        r#"name = "c"
kind = "doc_examples"
description = "d"
seed = 13
[grid]
example = ["essay_m16_k10", "chapter_m12_k3", "reference_fpr"]
trials = 3000
n = 2000
queries = 5000
"#,
    ),
    (
        "d.toml",
        r#"name = "d"
kind = "double_hashing"
description = "d"
seed = 14
[grid]
n = 2000
bits_per_key = [6, 10]
scheme = ["double", "enhanced", "independent"]
queries = 5000
replicates = 3
"#,
    ),
    (
        "e.toml",
        r#"name = "e"
kind = "birthday"
description = "d"
seed = 15
[grid]
hash = ["crc32", "xxh3_64"]
bits = 16
searches = 50
"#,
    ),
    (
        "f.toml",
        r#"name = "f"
kind = "hash_quality"
description = "d"
seed = 16
[grid]
hash = ["fx", "sip13"]
test = ["avalanche", "words", "high_bits"]
samples = 300
n = 5000
"#,
    ),
    (
        "g.toml",
        r#"name = "g"
kind = "hash_in_structures"
description = "d"
seed = 17
[grid]
hash = ["murmur3_x86_32", "foldhash"]
keyset = ["url_prefix", "random"]
n = 3000
queries = 5000
hll_p = 8
"#,
    ),
    (
        "h.toml",
        r#"name = "h"
kind = "bloom_sizing"
description = "d"
seed = 18
[grid]
n = 3000
p = [0.1, 0.01]
queries = 5000
"#,
    ),
    (
        "i.toml",
        r#"name = "i"
kind = "bloom_overfill"
description = "d"
seed = 19
[grid]
capacity = 2000
n = [1000, 4000]
queries = 5000
"#,
    ),
    (
        "j.toml",
        r#"name = "j"
kind = "key_size"
description = "d"
seed = 20
[grid]
n = 2000
keys = ["u32", "bytes16", "url100"]
queries = 5000
measure_python = true
"#,
    ),
    (
        "k.toml",
        r#"name = "k"
kind = "birthday_bound"
description = "d"
seed = 21
[grid]
bits = [16, 32]
m = [0, 100]
"#,
    ),
    (
        "l.toml",
        r#"name = "l"
kind = "counting_bloom"
description = "d"
seed = 22
[grid]
test = ["saturation", "forced_overflow", "bogus_deletes"]
capacity = 500
load = [2, 8]
counter_bits = [4, 8]
bogus_deletes = 50
delete_fraction = 0.9
replicates = 2
"#,
    ),
    (
        "m.toml",
        r#"name = "m"
kind = "blocked_bloom"
description = "d"
seed = 23
[grid]
n = 3000
bits_per_key = [6, 12]
queries = 5000
"#,
    ),
    (
        "n.toml",
        r#"name = "n"
kind = "scalable_bloom"
description = "d"
seed = 24
[grid]
n = [500, 5000]
initial_capacity = 200
growth = [2, 4]
fixed_capacity = 1000
queries = 5000
"#,
    ),
    (
        "o.toml",
        r#"name = "o"
kind = "cuckoo"
description = "d"
seed = 25
[grid]
test = ["load", "fpr", "bogus_deletes"]
buckets_log2 = 8
bucket_size = [2, 4]
fingerprint_bits = 8
bogus_deletes = 200
queries = 5000
replicates = 2
"#,
    ),
    (
        "p.toml",
        r#"name = "p"
kind = "hll_registers"
description = "d"
seed = 26
[grid]
p = [4, 10]
n = 3000
replicates = 3
"#,
    ),
    (
        "q.toml",
        r#"name = "q"
kind = "hll_merge"
description = "d"
seed = 27
[grid]
nodes = [3, 30]
n = 5000
p = 10
"#,
    ),
    (
        "r.toml",
        r#"name = "r"
kind = "hll_range"
description = "d"
seed = 28
[grid]
p = 8
max_n = 3000
per_decade = 3
peers_max_n = 1000
replicates = 5
"#,
    ),
    (
        "s.toml",
        r#"name = "s"
kind = "hll_intersection"
description = "d"
seed = 29
[grid]
p = 8
small = 50
max_ratio = 20
overlap = [0.2, 1.0]
replicates = 5
"#,
    ),
    (
        "t.toml",
        r#"name = "t"
kind = "hll_intuition"
description = "d"
seed = 30
[grid]
part = ["leading_zeros", "longest_run", "coin_wait", "coin_longest", "lucky", "twenty_zeros"]
n = 2000
max_x = 6
streams = 3
replicates = 5
"#,
    ),
    (
        "u.toml",
        r#"name = "u"
kind = "redis_hll"
description = "d"
seed = 31
[grid]
elements = ["random_bytes", "sequential", "u64"]
max_n = 3000
"#,
    ),
    (
        "v.toml",
        r#"name = "v"
kind = "hll_scale"
description = "d"
seed = 32
[grid]
p = 6
min_exp = 17
replicates = 3
"#,
    ),
    (
        "w.toml",
        r#"name = "w"
kind = "count_min"
description = "d"
seed = 33
[grid]
universe = 2000
updates = 20000
eps = 0.05
s = [0.8, 1.5]
counter = ["u32", "u64"]
conservative = [false, true]
weight = [1, 1000000]
replicates = 2
"#,
    ),
    (
        "x.toml",
        r#"name = "x"
kind = "count_min_examples"
description = "d"
seed = 34
[grid]
example = ["chapter_apple_banana", "essay_api_users", "essay_80kb"]
"#,
    ),
    (
        "y.toml",
        r#"name = "y"
kind = "minhash"
description = "d"
seed = 35
[grid]
jaccard = [0.1, 0.9]
k = [8, 64]
variant = ["k_hashes", "bottom_k"]
union_size = 300
replicates = 3
"#,
    ),
    (
        "z.toml",
        r#"name = "z"
kind = "minhash_lsh"
description = "d"
seed = 36
[grid]
bands = 4
rows = [2, 4]
threshold = 0.6
min_words = 60
replicates = 2
"#,
    ),
    (
        "za.toml",
        r#"name = "za"
kind = "multicollision"
description = "d"
seed = 38
[grid]
target = ["murmur3_x86_32", "murmur3_x64_128"]
units = 5
"#,
    ),
    (
        "zb.toml",
        r#"name = "zb"
kind = "crc32_forgery"
description = "d"
seed = 39
[grid]
searches = 3
"#,
    ),
    (
        "zc.toml",
        r#"name = "zc"
kind = "bloom_twins"
description = "d"
seed = 40
[grid]
n = 2000
hash = ["murmur3_x64_128", "sip13"]
"#,
    ),
    (
        "zd.toml",
        r#"name = "zd"
kind = "bloom_attack"
description = "d"
seed = 41
[grid]
attack = ["pollution", "forgery"]
target = ["chapter", "sip13"]
n = 1000
queries = 5000
forged = 50
"#,
    ),
    (
        "ze.toml",
        r#"name = "ze"
kind = "count_min_cover"
description = "d"
seed = 42
[grid]
target = ["public", "sip13"]
eps = 0.01
depth = 4
targets = 3
honest_updates = 5000
attack_updates = 3000
probes = 500
"#,
    ),
    (
        "zf.toml",
        r#"name = "zf"
kind = "hll_attack"
description = "d"
seed = 43
[grid]
attack = ["deflate_index", "deflate_rank1", "inflate"]
target = ["redis", "sip13"]
n = 3000
preload = 100
rank = 6
"#,
    ),
    (
        "zg.toml",
        r#"name = "zg"
kind = "universal_family"
description = "d"
seed = 44
[grid]
family = ["carter_wegman", "multiply_shift", "xxh3_64", "sip13"]
function = ["fresh", "constant"]
m = [16, 64]
pairs = 20
collisions = 100
universe_bits = 10
"#,
    ),
    (
        "zh.toml",
        r#"name = "zh"
kind = "seed_recovery"
description = "d"
seed = 45
[grid]
hash = ["murmur3_x86_32", "murmur64a", "xxh64", "xxh3_64", "sip13"]
secrets = 10
m = 64
pairs = 5
guesses = 200
"#,
    ),
    (
        "zi.toml",
        r#"name = "zi"
kind = "runtime_hashes"
description = "d"
seed = 46
[grid]
runtime = ["java", "php5", "python", "rust"]
blocks = 8
"#,
    ),
    (
        "zj.toml",
        r#"name = "zj"
kind = "filter_frontier"
description = "d"
seed = 47
[grid]
structure = ["bloom", "blocked_bloom", "counting_bloom", "cuckoo", "quotient", "xor", "binary_fuse", "datasketches_bloom"]
fpr = [0.01, 0.00001]
n = 2000
queries = 5000
"#,
    ),
    (
        "zk.toml",
        r#"name = "zk"
kind = "cardinality_frontier"
description = "d"
seed = 48
[grid]
sketch = ["hll6", "hll8", "ultraloglog", "cpc", "theta", "datasketches_hll4", "datasketches_hll6", "datasketches_hll8"]
lg_k = 6
max_n = 3000
simulate_to = 100000
replicates = 2
"#,
    ),
    (
        "zl.toml",
        r#"name = "zl"
kind = "heavy_hitters"
description = "d"
seed = 49
[grid]
bytes = 4096
s = [0.8, 1.5]
n = 20000
universe = 2000
top = 20
replicates = 2
"#,
    ),
    (
        "zm.toml",
        r#"name = "zm"
kind = "key_hashing"
description = "d"
seed = 50
[grid]
keys = ["u64", "decimal", { file = "data/words.txt", format = "lines" }]
hash = ["fx", "crc32", "xxh3"]
n = 5000
"#,
    ),
    (
        "zn.toml",
        r#"name = "zn"
kind = "bloom_fpr"
description = "d"
seed = 51
[grid]
n = 2000
bits_per_key = [6, 10]
keys = ["u64", { file = "data/words.txt", format = "lines" }]
queries = 5000
replicates = 2
"#,
    ),
];

/// Every study above by name (its file stem) whose kind is reproducible.
fn studies() -> Vec<&'static str> {
    SPECS
        .iter()
        .filter(|(_, text)| {
            let kind = text
                .lines()
                .find_map(|l| l.strip_prefix("kind = "))
                .unwrap();
            sketchlab::experiment::kinds::find(kind.trim_matches('"'))
                .unwrap()
                .reproducible()
        })
        .map(|(f, _)| f.strip_suffix(".toml").unwrap())
        .collect()
}

fn reproduce(exp: &Path, out: &Path, threads: &str) {
    Command::cargo_bin("sketchlab")
        .unwrap()
        .args([
            "reproduce",
            "--quiet",
            "--threads",
            threads,
            "--experiments",
        ])
        .arg(exp)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

#[test]
fn results_are_byte_identical_across_thread_counts() {
    let d = tempfile::tempdir().unwrap();
    let exp = d.path().join("exp");
    std::fs::create_dir(&exp).unwrap();
    for (f, text) in SPECS {
        std::fs::write(exp.join(f), text).unwrap();
    }
    let (one, two) = (d.path().join("t1"), d.path().join("t2"));
    reproduce(&exp, &one, "1");
    reproduce(&exp, &two, "2");
    for study in studies() {
        let a = sketchlab::export::read_output_at(&one.join(study).join("results.csv")).unwrap();
        let b = sketchlab::export::read_output_at(&two.join(study).join("results.csv")).unwrap();
        assert!(!a.is_empty());
        assert!(
            a == b,
            "{study}/results.csv differs between --threads 1 and 2"
        );
    }
    // the crafted keys too
    for study in ["za", "zb", "zc", "zd", "ze", "zf", "zg", "zh", "zi"] {
        assert_eq!(
            sketchlab::export::read_output_at(&one.join(study).join("keys.txt")).unwrap(),
            sketchlab::export::read_output_at(&two.join(study).join("keys.txt")).unwrap(),
            "{study}/keys.txt"
        );
    }
    // the replicate summary too
    assert_eq!(
        sketchlab::export::read_output_at(&one.join("d/summary.csv")).unwrap(),
        sketchlab::export::read_output_at(&two.join("d/summary.csv")).unwrap()
    );
    // a kind with several rows per trial (checkpoints along one stream)
    assert_eq!(
        sketchlab::export::read_output_at(&one.join("r/summary.csv")).unwrap(),
        sketchlab::export::read_output_at(&two.join("r/summary.csv")).unwrap()
    );
    assert_eq!(
        std::fs::read(one.join("claims.csv")).unwrap(),
        std::fs::read(two.join("claims.csv")).unwrap()
    );
    let claims = std::fs::read_to_string(one.join("claims.csv")).unwrap();
    assert_eq!(
        claims.lines().next().unwrap(),
        sketchlab::report::ledger::CSV_HEADER.join(",")
    );
    assert!(
        claims.contains(
            "no_fn,000,no false negatives,0,,0,count,holds,counted,,,intended,,exact,exact,"
        ),
        "{claims}"
    );
    let report = std::fs::read_to_string(one.join("REPORT.md")).unwrap();
    assert!(
        report.contains("## Findings")
            && report.contains("## Claims ledger")
            && report.contains("(<a/README.md>)")
    );
    let page = std::fs::read_to_string(one.join("a/README.md")).unwrap();
    assert!(
        page.contains("![fpr_vs_bits_per_key](fpr_vs_bits_per_key.svg)"),
        "{page}"
    );
}

#[test]
fn a_different_seed_gives_different_rows() {
    let d = tempfile::tempdir().unwrap();
    let exp = d.path().join("exp");
    std::fs::create_dir(&exp).unwrap();
    let b = SPECS.iter().find(|s| s.0 == "b.toml").unwrap().1;
    std::fs::write(exp.join("b.toml"), b).unwrap();
    let out1 = d.path().join("s1");
    reproduce(&exp, &out1, "2");
    let out2 = d.path().join("s2");
    Command::cargo_bin("sketchlab")
        .unwrap()
        .args(["reproduce", "--quiet", "--seed", "99", "--experiments"])
        .arg(&exp)
        .arg("--out")
        .arg(&out2)
        .assert()
        .success();
    assert_ne!(
        sketchlab::export::read_output_at(&out1.join("b/results.csv")).unwrap(),
        sketchlab::export::read_output_at(&out2.join("b/results.csv")).unwrap()
    );
}

#[test]
fn every_deterministic_kind_is_covered() {
    let covered: Vec<String> = SPECS
        .iter()
        .map(|(_, text)| {
            let line = text.lines().find(|l| l.starts_with("kind = ")).unwrap();
            line.trim_start_matches("kind = ")
                .trim_matches('"')
                .to_string()
        })
        .collect();
    for k in sketchlab::experiment::kinds::KINDS {
        if k.reproducible() {
            assert!(
                covered.iter().any(|c| c == k.name()),
                "kind {} has no determinism spec",
                k.name()
            );
        }
    }
}

/// Adding grid values (and replicates) leaves every other trial's row
/// byte-identical: identities and seeds do not depend on the grid's shape.
#[test]
fn adding_a_grid_value_keeps_every_other_row() {
    let d = tempfile::tempdir().unwrap();
    let write = |dir: &str, bits: &str, reps: u32| {
        let exp = d.path().join(dir);
        std::fs::create_dir(&exp).unwrap();
        std::fs::write(
            exp.join("s.toml"),
            format!(
                "name = \"s\"\nkind = \"double_hashing\"\ndescription = \"d\"\nseed = 5\n[grid]\nn = 2000\nbits_per_key = {bits}\nscheme = [\"double\", \"independent\"]\nqueries = 4000\nreplicates = {reps}\n"
            ),
        )
        .unwrap();
        let out = d.path().join(format!("{dir}-out"));
        reproduce(&exp, &out, "2");
        sketchlab::export::read_output_at(&out.join("s/results.csv"))
            .map(|b| String::from_utf8(b).unwrap())
            .unwrap()
    };
    let small = write("small", "[6, 10]", 2);
    let large = write("large", "[4, 6, 8, 10, 12]", 3);
    let large_rows: std::collections::HashSet<&str> = large.lines().collect();
    let mut rows = 0;
    for line in small.lines() {
        assert!(
            large_rows.contains(line),
            "row changed when the grid grew:\n{line}"
        );
        rows += 1;
    }
    assert_eq!(rows, 1 + 2 * 2 * 2);
    assert_eq!(large.lines().count(), 1 + 5 * 2 * 3);
}
