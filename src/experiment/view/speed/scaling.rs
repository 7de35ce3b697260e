//! `scaling`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::speed::scaling::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::sig;
use crate::report::Section;

const VIEW: &str = include_str!("scaling.toml");

/// The view registered for [`Scaling`] (see [`crate::experiment::view::VIEWS`]).
pub struct ScalingView;

impl View for ScalingView {
    fn kind(&self) -> &'static str {
        Scaling::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        Section {
            table: crate::experiment::view::declared_table(VIEW, t),
            reading: reading(&typed_rows::<Scaling>(&t.results)),
        }
    }
}

fn human_bytes(b: f64) -> String {
    crate::export::markdown::bytes(b, crate::export::markdown::ByteUnits::Binary)
}

fn reading(rows: &[(P, R)]) -> String {
    let opt = |x: Option<f64>| x.unwrap_or(f64::NAN);
    let mut out = Vec::new();
    // memory costs: the smallest and the largest working set measured
    let by_bytes = |a: &&(P, R), b: &&(P, R)| a.1.bytes.cmp(&b.1.bytes);
    let (Some((_, small)), Some((_, big))) =
        (rows.iter().min_by(by_bytes), rows.iter().max_by(by_bytes))
    else {
        return "No rows.".into();
    };
    let bytes = |r: &R| human_bytes(r.bytes as f64);
    out.push(format!(
        "A dependent load costs {} ns at {} ({}) and {} ns at {} ({}); an independent random load {} ns and {} ns: at the largest size the core overlaps about {} misses.",
        sig(small.ns_load_latency, 3),
        bytes(small),
        small.level,
        sig(big.ns_load_latency, 3),
        bytes(big),
        big.level,
        sig(small.ns_load_independent, 3),
        sig(big.ns_load_independent, 3),
        sig(big.ns_load_latency / big.ns_load_independent, 2),
    ));
    // the cliff: the smallest size whose dependent load costs more than half
    // the largest size's
    let mut sized: Vec<&R> = rows.iter().map(|(_, r)| r).collect();
    sized.sort_by_key(|r| r.bytes);
    let half = big.ns_load_latency / 2.0;
    if let Some(i) = sized.iter().position(|r| r.ns_load_latency > half)
        && i > 0
    {
        out.push(format!(
            "The latency cliff lies between {} ({} ns) and {} ({} ns){}.",
            bytes(sized[i - 1]),
            sig(sized[i - 1].ns_load_latency, 3),
            bytes(sized[i]),
            sig(sized[i].ns_load_latency, 3),
            match big.l3_bytes {
                0 => String::new(),
                l3 => format!("; /sys reports an L3 of {}", human_bytes(l3 as f64)),
            }
        ));
    }
    if big.level != "DRAM" {
        out.push(
            "No structure here outgrows the last-level cache (a quick run stops at 10^7 keys): the DRAM figures are in the full run."
                .into(),
        );
    }
    // a structure's smallest and largest rows
    let ends = |s: Structure| {
        let mine = || rows.iter().filter(move |(p, _)| p.structure == s);
        Some((&mine().min_by(by_bytes)?.1, &mine().max_by(by_bytes)?.1))
    };
    for &s in Structure::ALL {
        let Some((a, b)) = ends(s) else {
            continue;
        };
        out.push(format!(
            "{s}: {} ns at {} ({}), {} ns at {} ({}), {}× its latency model there (hash {} ns + {} lines × {} ns).",
            sig(a.ns_per_op.value, 3),
            bytes(a),
            a.level,
            sig(b.ns_per_op.value, 3),
            bytes(b),
            b.level,
            sig(b.measured_over_latency_model, 2),
            sig(b.ns_hash, 3),
            sig(b.lines_per_op, 3),
            sig(b.ns_load_latency, 3),
        ));
    }
    let ratios: Vec<f64> = rows
        .iter()
        .filter_map(|(_, r)| r.sweep_throughput_ratio)
        .collect();
    if !ratios.is_empty() {
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(0.0, f64::max);
        out.push(format!(
            "The FPR studies' query loop reaches {}–{}× the bare loop's throughput across sizes (goal ≥ 0.8).",
            sig(lo, 2),
            sig(hi, 2)
        ));
    }
    for s in [Structure::Bloom, Structure::BlockedBloom] {
        let Some((a, b)) = ends(s) else {
            continue;
        };
        out.push(format!(
            "{s} batched + prefetch: {}× the one-by-one loop at {}, {}× at {}, where a key costs {} independent loads.",
            sig(opt(a.batched_speedup), 2),
            bytes(a),
            sig(opt(b.batched_speedup), 2),
            bytes(b),
            sig(opt(b.batched_over_independent), 2),
        ));
    }
    out.push("Timings are medians on a shared machine: compare ratios and shapes.".into());
    out.join(" ")
}
