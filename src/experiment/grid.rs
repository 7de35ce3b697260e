//! Grid expansion: lists form a cartesian sweep, each setting repeated
//! `replicates` times. A trial's identity is (kind, canonical parameters,
//! replicate), and its seed derives from (spec seed, identity) only, so adding
//! or removing a grid value leaves every other trial's seed and row unchanged.

use super::params::{Params, Value};
use crate::hashing::splitmix64;

/// One point of the sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// Position in the run (row order); not part of the identity.
    pub index: usize,
    pub replicate: u32,
    /// xxh3-64 of `kind`, the canonical parameters and the replicate.
    pub id: u64,
    pub seed: u64,
    pub params: Params,
}

/// The stable identity of one trial.
pub fn trial_id(kind: &str, params: &Params, replicate: u32) -> u64 {
    let text = format!("{kind}\u{1f}{}replicate={replicate}", params.canonical());
    xxhash_rust::xxh3::xxh3_64(text.as_bytes())
}

/// The seed of the trial with identity `id` in a study seeded `spec_seed`.
pub fn trial_seed(spec_seed: u64, id: u64) -> u64 {
    splitmix64(spec_seed ^ splitmix64(id ^ 0x7472_6961_6C00))
}

/// All combinations, in order: the first parameter varies slowest.
pub fn combinations(grid: &[(&'static str, Vec<Value>)]) -> Vec<Params> {
    let mut out = vec![Params(Vec::new())];
    for (name, values) in grid {
        let mut next = Vec::with_capacity(out.len() * values.len());
        for p in &out {
            for v in values {
                let mut q = p.clone();
                q.0.push((name, v.clone()));
                next.push(q);
            }
        }
        out = next;
    }
    out
}

/// The most trials one study may have (the largest committed study has a
/// few thousand): a spec beyond it is refused before anything is expanded.
pub const MAX_TRIALS: u64 = 1_000_000;

/// Number of trials without materialising them (saturating: a grid whose
/// product overflows counts as `u64::MAX`).
pub fn count_checked(grid: &[(&'static str, Vec<Value>)], replicates: u32) -> u64 {
    grid.iter()
        .map(|(_, v)| v.len() as u64)
        .chain([replicates as u64])
        .fold(1u64, |a, b| a.saturating_mul(b))
}

/// Number of trials without materialising them (the settings `except`
/// skips left out).
pub fn count(grid: &[(&'static str, Vec<Value>)], except: &Except, replicates: u32) -> usize {
    if except.0.is_empty() {
        return grid.iter().map(|(_, v)| v.len()).product::<usize>() * replicates as usize;
    }
    let mut settings = 0;
    let _ = try_each_combination::<()>(grid, |p| {
        settings += usize::from(!except.skips(p));
        Ok(())
    });
    settings * replicates as usize
}

/// Settings a grid does not run: each entry names some parameters' values,
/// and a combination holding all of them is skipped (a spec's
/// `except = [{ n = 10_000_000, keys = "url100" }]`). A skipped setting
/// changes no other trial's identity or seed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Except(pub Vec<Vec<(&'static str, Value)>>);

impl Except {
    pub fn skips(&self, p: &Params) -> bool {
        self.0
            .iter()
            .any(|entry| entry.iter().all(|(name, v)| p.get(name) == v))
    }
}

/// Calls `f` on every combination in [`combinations`] order, one at a time
/// (nothing materialised); stops at the first error.
pub fn try_each_combination<E>(
    grid: &[(&'static str, Vec<Value>)],
    mut f: impl FnMut(&Params) -> Result<(), E>,
) -> Result<(), E> {
    if grid.iter().any(|(_, v)| v.is_empty()) {
        return Ok(());
    }
    let mut digits = vec![0usize; grid.len()];
    loop {
        let params = Params(
            grid.iter()
                .zip(&digits)
                .map(|((name, values), &d)| (*name, values[d].clone()))
                .collect(),
        );
        f(&params)?;
        // the last parameter varies fastest
        let mut i = grid.len();
        loop {
            if i == 0 {
                return Ok(());
            }
            i -= 1;
            digits[i] += 1;
            if digits[i] < grid[i].1.len() {
                break;
            }
            digits[i] = 0;
        }
    }
}

/// Every trial: settings in grid order, each setting's replicates together.
pub fn expand(
    kind: &str,
    grid: &[(&'static str, Vec<Value>)],
    except: &Except,
    replicates: u32,
    spec_seed: u64,
) -> Vec<Trial> {
    let mut out = Vec::new();
    for params in combinations(grid).into_iter().filter(|p| !except.skips(p)) {
        for replicate in 0..replicates {
            let id = trial_id(kind, &params, replicate);
            out.push(Trial {
                index: out.len(),
                replicate,
                id,
                seed: trial_seed(spec_seed, id),
                params: params.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Vec<Value> {
        v.iter().map(|&i| Value::Int(i)).collect()
    }

    #[test]
    fn lazy_combinations_match_and_counts_saturate() {
        let grid = vec![("a", ints(&[1, 2, 3])), ("b", ints(&[4, 5]))];
        let mut seen = Vec::new();
        try_each_combination::<()>(&grid, |p| {
            seen.push(p.clone());
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, combinations(&grid));
        let huge: Vec<(&'static str, Vec<Value>)> =
            (0..8).map(|_| ("x", ints(&vec![1; 1000]))).collect();
        assert_eq!(count_checked(&huge, 2), u64::MAX);
        assert_eq!(count_checked(&grid, 3), 18);
    }

    #[test]
    fn cartesian_order_and_replicates() {
        let grid = vec![
            ("a", ints(&[1, 2])),
            (
                "b",
                vec![
                    Value::Str("x".into()),
                    Value::Str("y".into()),
                    Value::Str("z".into()),
                ],
            ),
        ];
        let t = expand("k", &grid, &Except::default(), 2, 9);
        assert_eq!(t.len(), 12);
        assert_eq!(count(&grid, &Except::default(), 2), 12);
        assert_eq!(
            t[2].params.0,
            vec![("a", Value::Int(1)), ("b", Value::Str("y".into()))]
        );
        assert_eq!((t[2].replicate, t[3].replicate), (0, 1));
        let seeds: std::collections::HashSet<u64> = t.iter().map(|t| t.seed).collect();
        assert_eq!(seeds.len(), 12);
        assert_ne!(trial_seed(9, t[0].id), trial_seed(10, t[0].id));
    }

    #[test]
    fn adding_a_grid_value_keeps_every_other_trials_identity() {
        let small = vec![("n", ints(&[10, 30])), ("m", ints(&[5]))];
        let large = vec![("n", ints(&[10, 20, 30])), ("m", ints(&[5, 6]))];
        let a = expand("k", &small, &Except::default(), 3, 1);
        let b = expand("k", &large, &Except::default(), 3, 1);
        for t in &a {
            let twin = b
                .iter()
                .find(|u| u.params == t.params && u.replicate == t.replicate);
            let twin = twin.expect("still in the larger grid");
            assert_eq!((twin.id, twin.seed), (t.id, t.seed));
        }
        // and the identity does depend on the kind and the values
        assert_ne!(
            trial_id("k", &a[0].params, 0),
            trial_id("j", &a[0].params, 0)
        );
        assert_ne!(a[0].id, a[3].id);
    }

    #[test]
    fn except_skips_only_the_settings_it_names_and_keeps_the_others_identities() {
        let grid = vec![
            ("n", ints(&[10, 20])),
            (
                "keys",
                vec![Value::Str("u64".into()), Value::Str("url".into())],
            ),
            ("m", ints(&[5, 6])),
        ];
        let none = Except::default();
        let except = Except(vec![vec![
            ("n", Value::Int(20)),
            ("keys", Value::Str("url".into())),
        ]]);
        let all = expand("k", &grid, &none, 2, 1);
        let some = expand("k", &grid, &except, 2, 1);
        // (n = 20, keys = url) is 2 of the 8 settings, 4 of the 16 trials
        assert_eq!((all.len(), some.len()), (16, 12));
        assert_eq!(count(&grid, &except, 2), 12);
        assert!(some.iter().all(|t| !(t.params.get("n") == &Value::Int(20)
            && t.params.get("keys") == &Value::Str("url".into()))));
        for t in &some {
            let twin = all
                .iter()
                .find(|u| u.params == t.params && u.replicate == t.replicate);
            assert_eq!(twin.map(|u| (u.id, u.seed)), Some((t.id, t.seed)));
        }
        // row order is the full grid's with the skipped settings left out
        let kept: Vec<u64> = all
            .iter()
            .filter(|t| !except.skips(&t.params))
            .map(|t| t.id)
            .collect();
        assert_eq!(kept, some.iter().map(|t| t.id).collect::<Vec<_>>());
        assert_eq!(
            some.iter().map(|t| t.index).collect::<Vec<_>>(),
            (0..12).collect::<Vec<_>>()
        );
    }
}
