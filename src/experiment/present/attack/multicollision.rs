//! `multicollision`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::attack::multicollision::*;
use crate::experiment::present::Present;
use crate::report::Section;

impl Present for Multicollision {
    const VIEW: &'static str = include_str!("multicollision.toml");

    fn section(&self, t: &Tables) -> Section {
        let t = &t.results;
        let table = t.project(
            &[
                "target",
                "units",
                "family_size",
                "message_bytes",
                "seeds_tested",
                "family_hashes_max",
                "random_hashes_min",
                "all_collide",
            ],
            |_| true,
        );
        let all = t
            .rows
            .iter()
            .filter(|r| t.str(r, "all_collide") == "true")
            .count();
        let largest = t
            .rows
            .iter()
            .filter(|r| t.str(r, "all_collide") == "true")
            .filter_map(|r| t.f64(r, "family_size"))
            .fold(0.0, f64::max);
        Section {
            table,
            reading: format!(
                "{all} of {} families hash to a single value under every random seed tried (the largest: {} distinct inputs), while as many random messages of the same length take as many values: the differences cancel inside the hash whatever the seed, so a per-process random seed does not stop these collisions. The crafted keys are in `keys.txt`.",
                t.rows.len(),
                largest
            ),
        }
    }
}
