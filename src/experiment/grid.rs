//! Grid expansion: lists form a cartesian sweep; each trial gets a seed
//! derived from (spec seed, trial index) only.

use super::params::{Params, Value};
use crate::hashing::splitmix64;

/// One point of the sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    pub index: usize,
    pub seed: u64,
    pub params: Params,
}

/// The seed of trial `index` of a study seeded `spec_seed`.
pub fn trial_seed(spec_seed: u64, index: usize) -> u64 {
    splitmix64(spec_seed ^ splitmix64(index as u64 ^ 0x7472_6961_6C00))
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

/// Number of trials without materialising them.
pub fn count(grid: &[(&'static str, Vec<Value>)]) -> usize {
    grid.iter().map(|(_, v)| v.len()).product()
}

pub fn expand(grid: &[(&'static str, Vec<Value>)], spec_seed: u64) -> Vec<Trial> {
    combinations(grid)
        .into_iter()
        .enumerate()
        .map(|(index, params)| Trial {
            index,
            seed: trial_seed(spec_seed, index),
            params,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cartesian_order_and_seeds() {
        let grid = vec![
            ("a", vec![Value::Int(1), Value::Int(2)]),
            (
                "b",
                vec![
                    Value::Str("x".into()),
                    Value::Str("y".into()),
                    Value::Str("z".into()),
                ],
            ),
        ];
        let t = expand(&grid, 9);
        assert_eq!(t.len(), 6);
        assert_eq!(count(&grid), 6);
        assert_eq!(
            t[1].params.0,
            vec![("a", Value::Int(1)), ("b", Value::Str("y".into()))]
        );
        assert_eq!(t[3].params.get("a"), &Value::Int(2));
        assert_eq!(t[4].seed, trial_seed(9, 4));
        let seeds: std::collections::HashSet<u64> = t.iter().map(|t| t.seed).collect();
        assert_eq!(seeds.len(), 6);
        assert_ne!(trial_seed(9, 0), trial_seed(10, 0));
    }
}
