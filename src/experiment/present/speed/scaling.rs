//! `scaling`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::speed::scaling::*;
use crate::experiment::present::Present;
use crate::export::markdown::sig;
use crate::report::Section;
use crate::table::{Table, Value};

impl Present for Scaling {
    const VIEW: &'static str = include_str!("scaling.toml");

    fn section(&self, t: &Tables) -> Section {
        Section {
            table: crate::experiment::present::declared_table(Self::VIEW, t),
            reading: reading(&t.results),
        }
    }
}

fn human_bytes(b: f64) -> String {
    crate::export::markdown::bytes(b, crate::export::markdown::ByteUnits::Binary)
}

fn reading(t: &Table) -> String {
    let rows_at = |s: &'static str| -> Vec<&Vec<Value>> { t.where_str("structure", s).collect() };
    let f = |r: &Vec<Value>, c: &str| t.f64(r, c).unwrap_or(f64::NAN);
    let mut out = Vec::new();
    // memory costs: the smallest and the largest working set measured
    let by_bytes = |a: &&Vec<Value>, b: &&Vec<Value>| f(a, "bytes").total_cmp(&f(b, "bytes"));
    let (Some(small), Some(big)) = (
        t.rows.iter().min_by(by_bytes),
        t.rows.iter().max_by(by_bytes),
    ) else {
        return "No rows.".into();
    };
    out.push(format!(
        "A dependent load costs {} ns at {} ({}) and {} ns at {} ({}); an independent random load {} ns and {} ns: at the largest size the core overlaps about {} misses.",
        sig(f(small, "ns_load_latency"), 3),
        human_bytes(f(small, "bytes")),
        t.str(small, "level"),
        sig(f(big, "ns_load_latency"), 3),
        human_bytes(f(big, "bytes")),
        t.str(big, "level"),
        sig(f(small, "ns_load_independent"), 3),
        sig(f(big, "ns_load_independent"), 3),
        sig(f(big, "ns_load_latency") / f(big, "ns_load_independent"), 2),
    ));
    // the cliff: the smallest size whose dependent load costs more than half
    // the largest size's
    let mut sized: Vec<&Vec<Value>> = t.rows.iter().collect();
    sized.sort_by(by_bytes);
    let half = f(big, "ns_load_latency") / 2.0;
    if let Some(i) = sized.iter().position(|r| f(r, "ns_load_latency") > half)
        && i > 0
    {
        out.push(format!(
            "The latency cliff lies between {} ({} ns) and {} ({} ns){}.",
            human_bytes(f(sized[i - 1], "bytes")),
            sig(f(sized[i - 1], "ns_load_latency"), 3),
            human_bytes(f(sized[i], "bytes")),
            sig(f(sized[i], "ns_load_latency"), 3),
            match t.f64(big, "l3_bytes").filter(|&b| b > 0.0) {
                Some(l3) => format!("; /sys reports an L3 of {}", human_bytes(l3)),
                None => String::new(),
            }
        ));
    }
    if t.str(big, "level") != "DRAM" {
        out.push(
            "No structure here outgrows the last-level cache (a quick run stops at 10^7 keys): the DRAM figures are in the full run."
                .into(),
        );
    }
    // a structure's smallest and largest rows
    let ends = |s: &'static str| {
        let rows = rows_at(s);
        Some((
            rows.iter().copied().min_by(by_bytes)?,
            rows.iter().copied().max_by(by_bytes)?,
        ))
    };
    for s in ["bloom", "blocked_bloom", "cuckoo", "hll", "count_min"] {
        let Some((a, b)) = ends(s) else {
            continue;
        };
        out.push(format!(
            "{s}: {} ns at {} ({}), {} ns at {} ({}), {}× its latency model there (hash {} ns + {} lines × {} ns).",
            sig(f(a, "ns_per_op"), 3),
            human_bytes(f(a, "bytes")),
            t.str(a, "level"),
            sig(f(b, "ns_per_op"), 3),
            human_bytes(f(b, "bytes")),
            t.str(b, "level"),
            sig(f(b, "measured_over_latency_model"), 2),
            sig(f(b, "ns_hash"), 3),
            sig(f(b, "lines_per_op"), 3),
            sig(f(b, "ns_load_latency"), 3),
        ));
    }
    let ratios: Vec<f64> = t
        .rows
        .iter()
        .filter_map(|r| t.f64(r, "sweep_throughput_ratio"))
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
    for s in ["bloom", "blocked_bloom"] {
        let Some((a, b)) = ends(s) else {
            continue;
        };
        out.push(format!(
            "{s} batched + prefetch: {}× the one-by-one loop at {}, {}× at {}.",
            sig(f(a, "batched_speedup"), 2),
            human_bytes(f(a, "bytes")),
            sig(f(b, "batched_speedup"), 2),
            human_bytes(f(b, "bytes")),
        ));
    }
    out.push("Timings are medians on a shared machine: compare ratios and shapes.".into());
    out.join(" ")
}
