//! Sharding a study's trials across machines: `--shard i/N` runs the trials
//! assigned to shard i; every shard computes the same assignment from the
//! whole trial list, so the N shards together hold every trial exactly once.

use super::grid::Trial;

/// Shard `index` of `count` (0-based, as Slurm's array index and Kubernetes'
/// completion index are).
/// The most shards a run may be split into (more than trials is pointless;
/// a study has at most a million).
pub const MAX_SHARDS: u32 = 1_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Parses `i/N` with 0 <= i < N.
    pub fn parse(s: &str) -> crate::error::Result<Shard> {
        use crate::error::Error;
        let bad = || {
            Error::input(format!(
                "--shard = {s:?}: must be i/N with integers 0 <= i < N (e.g. 0/4)"
            ))
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (i, n): (u64, u64) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n > MAX_SHARDS as u64 {
            return Err(Error::input(format!(
                "--shard = {s:?}: N = {n} is more shards than a run may have (at most {MAX_SHARDS})"
            )));
        }
        let (index, count) = (i.min(u32::MAX as u64) as u32, n as u32);
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    pub fn pair(self) -> [u32; 2] {
        [self.index, self.count]
    }

    /// The shard file's name in `OUT/<study>/`.
    pub fn file_name(self) -> String {
        format!("shard-{}-of-{}.journal", self.index, self.count)
    }
}

/// The shard of every trial. With a cost per trial (the kind's estimate),
/// trials go, costliest first, to the least-loaded shard (equal costs: the
/// lower trial identity), which keeps the shards' totals within one trial's
/// cost of each other. Ties between shards go to the first from `start`
/// (a per-study number, so that the costliest trials of different studies do
/// not all land on shard 0). Without costs, a trial goes to shard
/// `identity mod N`.
pub fn assign(trials: &[Trial], costs: Option<&[f64]>, count: u32, start: u32) -> Vec<u32> {
    let n = count as usize;
    let Some(costs) = costs.filter(|c| c.len() == trials.len()) else {
        return trials
            .iter()
            .map(|t| (t.id % count as u64) as u32)
            .collect();
    };
    let mut order: Vec<usize> = (0..trials.len()).collect();
    order.sort_by(|&a, &b| {
        costs[b]
            .total_cmp(&costs[a])
            .then(trials[a].id.cmp(&trials[b].id))
    });
    let mut load = vec![0.0f64; n];
    let mut out = vec![0u32; trials.len()];
    for i in order {
        let s = (0..n)
            .min_by_key(|&a| (load[a].to_bits(), (a + n - start as usize % n) % n))
            .expect("count >= 1");
        load[s] += costs[i].max(0.0);
        out[i] = s as u32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::grid::expand;
    use crate::experiment::params::Value;

    #[test]
    fn parse_accepts_only_i_below_n() {
        assert_eq!(Shard::parse("2/3").ok(), Some(Shard { index: 2, count: 3 }));
        for bad in ["3/3", "0/0", "-1/3", "a/3", "1", "1/2/3", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_trial_in_exactly_one_shard_and_costs_balance() {
        let grid = vec![("n", (1..=20).map(Value::Int).collect::<Vec<_>>())];
        let trials = expand(
            "k",
            &grid,
            &crate::experiment::grid::Except::default(),
            3,
            5,
        );
        let by_id = assign(&trials, None, 4, 0);
        for (t, s) in trials.iter().zip(&by_id) {
            assert_eq!(*s as u64, t.id % 4);
        }
        // costs growing with n: each shard's total within the largest cost of the mean
        let costs: Vec<f64> = trials.iter().map(|t| (t.index / 3 + 1) as f64).collect();
        let a = assign(&trials, Some(&costs), 4, 1);
        let mut load = [0.0; 4];
        for (s, c) in a.iter().zip(&costs) {
            load[*s as usize] += c;
        }
        let mean = costs.iter().sum::<f64>() / 4.0;
        for l in load {
            assert!((l - mean).abs() <= 20.0, "{load:?}");
        }
        // and the same answer every time (every shard computes it alone)
        assert_eq!(a, assign(&trials, Some(&costs), 4, 1));
        // the costliest trial goes to the start shard
        let top = (0..costs.len())
            .max_by(|&i, &j| {
                costs[i]
                    .total_cmp(&costs[j])
                    .then(trials[j].id.cmp(&trials[i].id))
            })
            .unwrap();
        assert_eq!(a[top], 1);
    }
}
