//! sketchlab's Redis-compatible HyperLogLog against a real redis-server:
//! PFCOUNT must equal `RedisHll::count()` exactly, on random, sequential, tiny
//! (sparse-encoded) and large sets. The server is started here on a free
//! loopback port with no persistence and stopped at the end. Under `CI=true`
//! a missing `redis-server` fails the test; elsewhere the test says so and
//! returns.

use sketchlab::peer::redis::{Conn, Reply, Server, server_installed};
use sketchlab::structures::hyperloglog::redis::RedisHll;

/// A server on a free loopback port, or `None` (outside CI) when redis-server is missing.
fn start() -> Option<Server> {
    if !server_installed() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "redis-server is not installed (.ci/run installs it): under CI this is a failure"
        );
        eprintln!("redis-server not found: skipping the real-Redis comparison outside CI");
        return None;
    }
    Some(Server::start().expect("starting redis-server"))
}

fn conn(s: &Server) -> Conn {
    s.connect().expect("connecting")
}

fn sketch(elements: &[Vec<u8>]) -> u64 {
    let mut h = RedisHll::new();
    for e in elements {
        h.add(e);
    }
    h.count()
}

#[test]
fn pfcount_equals_the_redis_compatible_sketch() {
    let Some(server) = start() else { return };
    let mut c = conn(&server);
    assert_eq!(c.call(&[b"PING"]).unwrap(), Reply::Status("PONG".into()));
    let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(2026);
    let random = |n: usize, rng: &mut rand::rngs::Xoshiro256PlusPlus| -> Vec<Vec<u8>> {
        use rand::RngExt;
        (0..n)
            .map(|_| {
                let len = rng.random_range(1..40);
                (0..len).map(|_| rng.random::<u8>()).collect()
            })
            .collect()
    };
    let mut cases: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    // tiny sets: Redis keeps them in its sparse encoding
    for n in [1usize, 2, 3, 5, 10, 30, 100] {
        cases.push((format!("tiny{n}"), random(n, &mut rng)));
    }
    cases.push((
        "seq1e4".into(),
        (0..10_000)
            .map(|i: u32| i.to_string().into_bytes())
            .collect(),
    ));
    cases.push(("random1e4".into(), random(10_000, &mut rng)));
    cases.push(("random2e5".into(), random(200_000, &mut rng)));
    cases.push((
        "seq3e5".into(),
        (0..300_000)
            .map(|i: u32| format!("user:{i}").into_bytes())
            .collect(),
    ));
    let mut compared = 0;
    for (key, elements) in &cases {
        c.pfadd(key, elements).unwrap();
        let (redis, ours) = (c.pfcount(key).unwrap(), sketch(elements));
        assert_eq!(redis, ours, "{key}: PFCOUNT {redis}, sketchlab {ours}");
        compared += 1;
    }
    assert_eq!(compared, cases.len());
    // PFMERGE of two keys equals the merged sketch
    c.call(&[b"PFMERGE", b"merged", b"random1e4", b"seq1e4"])
        .unwrap();
    let mut a = RedisHll::new();
    for e in cases
        .iter()
        .filter(|(k, _)| k == "random1e4" || k == "seq1e4")
        .flat_map(|(_, v)| v)
    {
        a.add(e);
    }
    assert_eq!(c.pfcount("merged").unwrap(), a.count());
}

/// The CLI reads keys as redis-cli sends them: `estimate hll --redis` on
/// stdin lines answers what PFCOUNT answers after PFADDing those lines.
#[test]
fn estimate_hll_redis_equals_pfcount() {
    let Some(server) = start() else { return };
    let mut c = conn(&server);
    let lines: Vec<String> = (0..50_000).map(|i| format!("session-{}", i * 7)).collect();
    let elements: Vec<Vec<u8>> = lines.iter().map(|l| l.clone().into_bytes()).collect();
    c.pfadd("cli", &elements).unwrap();
    let out = assert_cmd::Command::cargo_bin("sketchlab")
        .unwrap()
        .args(["estimate", "hll", "--redis"])
        .write_stdin(lines.join("\r\n") + "\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(out, format!("redis\t{}\n", c.pfcount("cli").unwrap()));
}

/// The redis_hll study against a server given by --redis-url: every PFCOUNT
/// equals sketchlab's count; no redis-server at all leaves the study running
/// and saying so; a named server that does not answer, or a malformed URL,
/// is exit 2 before anything runs.
#[test]
fn redis_hll_study_uses_the_given_server_or_says_none_is_reachable() {
    let Some(server) = start() else { return };
    let d = tempfile::tempdir().unwrap();
    let run = |extra: &[&str], out: &str, path: Option<&str>| {
        let mut cmd = assert_cmd::Command::cargo_bin("sketchlab").unwrap();
        cmd.args(["run", "redis_hll", "--quick", "--quiet", "--out"])
            .arg(d.path().join(out))
            .args(extra);
        if let Some(p) = path {
            cmd.env("PATH", p);
        }
        cmd.assert()
    };
    let url = format!("redis://127.0.0.1:{}", server.port);
    run(&["--redis-url", &url], "given", None).success();
    let rows = sketchlab::export::read_output_at(&d.path().join("given/redis_hll/results.csv"))
        .map(|b| String::from_utf8(b).unwrap())
        .unwrap();
    assert!(
        rows.lines()
            .skip(1)
            .all(|l| l.contains(",true,") && l.contains("redis "))
    );
    drop(server);
    // nothing listens there now: a server the user named but cannot be
    // reached is bad input, said before anything runs (#61)
    run(&["--redis-url", &url], "gone", None).code(2);
    assert!(!d.path().join("gone").exists());
    // no redis-server on PATH
    run(&[], "none", Some("")).success();
    let rows = sketchlab::export::read_output_at(&d.path().join("none/redis_hll/results.csv"))
        .map(|b| String::from_utf8(b).unwrap())
        .unwrap();
    assert!(rows.contains("no redis-server on PATH"), "{rows}");
    run(&["--redis-url", "redis://nohost"], "bad", None).code(2);
}

/// The crafted HyperLogLog sets of `hll_attack`, against the real server:
/// PFCOUNT equals sketchlab's count, deflation reads below 10% of the truth
/// and inflation far above it.
#[test]
fn hll_attacks_fool_the_real_server() {
    use sketchlab::attack::hll::{self, Deflate};
    let Some(server) = start() else { return };
    let mut c = conn(&server);
    let item = |i: u64| format!("attacker-item-{i}").into_bytes();
    let (index, _) = hll::deflate(Deflate::Index(0.75), 500_000, item);
    let (rank1, _) = hll::deflate(Deflate::Rank1, 500_000, item);
    let mut x = 7u64;
    let inflated = hll::inflate(hll::REDIS_SEED, hll::REDIS_P, 10, || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        x
    });
    for (name, items, lo, hi) in [
        ("index", &index, 0.0, 0.1),
        ("rank1", &rank1, 0.0, 0.1),
        ("inflate", &inflated, 100.0, f64::INFINITY),
    ] {
        let key = format!("attack:{name}");
        c.del(&key).unwrap();
        c.pfadd(&key, items).unwrap();
        let pf = c.pfcount(&key).unwrap();
        assert_eq!(pf, sketch(items), "{name}");
        let ratio = pf as f64 / items.len() as f64;
        assert!(
            ratio >= lo && ratio < hi,
            "{name}: PFCOUNT {pf} of {}",
            items.len()
        );
    }
}
