//! Keys from a user's file through the library: every kind that takes a key
//! type declares how many distinct keys a trial draws ([`Kind::key_ids`]),
//! and a file holding exactly that many runs the trial, one fewer is refused.

use sketchlab::experiment::grid;
use sketchlab::experiment::kinds::{KINDS, Kind};
use sketchlab::experiment::params::{PType, Params, Seeds};
use sketchlab::experiment::spec::Spec;
use sketchlab::table::Value;
use sketchlab::workload::KeyType;
use std::path::Path;

/// The largest key file this test writes (keeps it to a few seconds).
const MAX_KEYS: u64 = 2_100_000;

fn keys_param(kind: &dyn Kind) -> Option<&'static str> {
    kind.params()
        .iter()
        .find(|d| matches!(d.ty, PType::Keys))
        .map(|d| d.name)
}

/// A key file of `n` distinct lines under target/.
fn key_file(n: u64) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("key_files");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("keys-{n}.txt"));
    // 40 bytes and more: long enough for every kind (bloom_twins needs 32)
    let mut text = String::with_capacity(n as usize * 48);
    for i in 0..n {
        text += &format!("https://example.org/user/profile-{i:08}\n");
    }
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// With the key type swapped for a file of `keys` keys.
fn with_file(p: &Params, name: &str, file: &str) -> Params {
    let value = Value::Str(format!("file:lines:{file}"));
    KeyType::open(&format!("file:lines:{file}")).expect("the file loads");
    Params(
        p.0.iter()
            .map(|(n, v)| (*n, if *n == name { value.clone() } else { v.clone() }))
            .collect(),
    )
}

#[test]
fn every_kind_with_a_key_type_runs_on_exactly_its_declared_keys() {
    let mut covered = Vec::new();
    for entry in std::fs::read_dir("experiments").unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        let spec = Spec::parse(&path, &source).unwrap();
        let Some(name) = keys_param(spec.kind) else {
            continue;
        };
        if covered.contains(&spec.kind.name()) {
            continue;
        }
        // the quick trial drawing the fewest keys (birthday's 32-bit searches
        // may draw up to 2^32 + 2 keys: its 16-bit ones at most 65,538)
        let mut quick = spec.grid(true).to_vec();
        if spec.kind.name() == "birthday" {
            quick
                .iter_mut()
                .filter(|(n, _)| *n == "bits")
                .for_each(|(_, v)| *v = vec![Value::Int(16)]);
        }
        let trials = grid::expand(spec.kind.name(), &quick, 1, spec.seed);
        let Some((need, t)) = trials
            .iter()
            .filter_map(|t| Some((spec.kind.key_ids(&t.params)?, t)))
            .filter(|(need, _)| (1..=MAX_KEYS).contains(need))
            .min_by_key(|(need, _)| *need)
        else {
            let needs: Vec<Option<u64>> = trials
                .iter()
                .take(5)
                .map(|t| spec.kind.key_ids(&t.params))
                .collect();
            eprintln!("{}: quick trials draw {needs:?} keys", spec.name);
            continue;
        };
        let exact = with_file(&t.params, name, &key_file(need));
        spec.kind.validate(&exact).unwrap();
        let rows = spec.kind.run(&exact, Seeds(t.seed)).unwrap();
        assert!(!rows.is_empty(), "{}", spec.kind.name());
        let short = with_file(&t.params, name, &key_file(need - 1));
        let (field, why) = spec.kind.validate(&short).unwrap_err();
        assert_eq!(field, name);
        assert!(why.contains(&format!("draws {need}")), "{why}");
        covered.push(spec.kind.name());
    }
    let mut missing: Vec<&str> = KINDS
        .iter()
        .filter(|k| keys_param(**k).is_some() && !covered.contains(&k.name()))
        .map(|k| k.name())
        .collect();
    missing.sort();
    assert!(
        missing.is_empty(),
        "kinds taking a key type with no quick trial checked on a file: {missing:?}"
    );
}
