//! `count_min_peers`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::sketches::count_min_peers::*;
use crate::experiment::present::Present;
use crate::export::markdown::sig;
use crate::report::Section;

impl Present for CountMinPeers {
    const VIEW: &'static str = include_str!("count_min_peers.toml");

    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let table = s.project(
            &[
                "s",
                "replicates",
                "w",
                "d",
                "eps_n",
                "overshoot_sketchlab",
                "overshoot_sketchlab_conservative",
                "overshoot_datasketches",
                "overshoot_count_min_sketch",
                "beyond_eps_n_sketchlab",
                "beyond_eps_n_count_min_sketch",
                "underestimates",
                "bytes_sketchlab",
                "bytes_count_min_sketch",
            ],
            |_| true,
        );
        let parts: Vec<String> = s
            .rows
            .iter()
            .map(|r| {
                let g = |c: &str| s.f64(r, c).map(|v| sig(v, 3)).unwrap_or_else(|| "-".into());
                format!(
                    "s = {}: sketchlab {} (conservative {}), DataSketches {}, count-min-sketch {}",
                    s.str(r, "s"),
                    g("overshoot_sketchlab"),
                    g("overshoot_sketchlab_conservative"),
                    g("overshoot_datasketches"),
                    g("overshoot_count_min_sketch")
                )
            })
            .collect();
        Section {
            table,
            reading: format!(
                "Mean overshoot per key: {}. Conservative ÷ plain (sketchlab): {}. The count-min-sketch columns are not reproducible: that crate keys its hash from the OS.",
                parts.join("; "),
                s.rows
                    .iter()
                    .filter_map(|r| Some(sig(
                        s.f64(r, "overshoot_sketchlab_conservative")?
                            / s.f64(r, "overshoot_sketchlab")?,
                        3
                    )))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}
