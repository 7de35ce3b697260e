//! `tdigest`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::sketches::tdigest::*;
use crate::experiment::present::Present;
use crate::export::markdown::sig;
use crate::report::Section;

impl Present for TDigestStudy {
    const VIEW: &'static str = include_str!("tdigest.toml");

    fn section(&self, t: &Tables) -> Section {
        let s = t.summary();
        let table = s.project(
            &[
                "dist",
                "q",
                "replicates",
                "rank_err_tdigest",
                "rank_err_reservoir",
                "rank_err_ds_tdigest",
                "rank_err_ds_kll",
                "tdigest_bound",
                "bytes_tdigest",
                "reservoir_values",
                "bytes_ds_tdigest",
                "bytes_ds_kll",
            ],
            |_| true,
        );
        let get = |d: &str, q: f64, c: &str| {
            s.where_str("dist", d)
                .find(|r| s.f64(r, "q") == Some(q))
                .and_then(|r| s.f64(r, c))
                .map(|v| sig(v, 2))
                .unwrap_or_else(|| "-".into())
        };
        Section {
            table,
            reading: format!(
                "Normal stream: t-digest rank error {} at the median, {} at p99, {} at p99.99; a reservoir of the same {} bytes: {}, {}, {}. DataSketches t-digest {}, {}, {}; KLL (k = 200, {} bytes) {}, {}, {}.",
                get("normal", 0.5, "rank_err_tdigest"),
                get("normal", 0.99, "rank_err_tdigest"),
                get("normal", 0.9999, "rank_err_tdigest"),
                get("normal", 0.5, "bytes_tdigest"),
                get("normal", 0.5, "rank_err_reservoir"),
                get("normal", 0.99, "rank_err_reservoir"),
                get("normal", 0.9999, "rank_err_reservoir"),
                get("normal", 0.5, "rank_err_ds_tdigest"),
                get("normal", 0.99, "rank_err_ds_tdigest"),
                get("normal", 0.9999, "rank_err_ds_tdigest"),
                get("normal", 0.5, "bytes_ds_kll"),
                get("normal", 0.5, "rank_err_ds_kll"),
                get("normal", 0.99, "rank_err_ds_kll"),
                get("normal", 0.9999, "rank_err_ds_kll"),
            ),
        }
    }
}
