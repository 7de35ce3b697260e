//! The measured recommendation of `design cardinality`: every menu sketch
//! measured for the target ([`super::measure_sketch::candidate`]) and
//! ranked among those that meet it, or by measured error when none does.

use super::choice::{Choice, Clock};
use super::measure::Left;
use super::measure_sketch::{REPLAYED, SketchMeasured, candidate, estimator, lg_k_for};
use crate::export::markdown::{pct, sig};
use crate::structures::menu::Sketch;
use crate::vocab::Prefer;
use serde::Serialize;
use std::time::Instant;

/// The measured recommendation for one distinct-count target.
#[derive(Clone, Debug, Serialize)]
pub struct SketchAdvice {
    /// The distinct count asked about (None: not given).
    pub distinct: Option<f64>,
    pub target_rse: f64,
    pub merges: bool,
    pub keys: String,
    /// Seconds one measurement of one sketch may take.
    pub measure_seconds: f64,
    pub measured: Vec<SketchMeasured>,
    pub left_out: Vec<Left>,
    /// The ranking of the sketches that meet the target (of all, by
    /// measured RSE, when none does).
    #[serde(flatten)]
    pub choice: Choice,
    /// Whether some sketch meets the target; when none does, the
    /// recommendation is the nearest one.
    pub target_met: bool,
    pub clock: Clock,
    pub seconds: f64,
}

impl SketchAdvice {
    pub fn get(&self, name: &str) -> Option<&SketchMeasured> {
        self.measured.iter().find(|m| m.structure == name)
    }

    /// One sketch in one line.
    pub fn line(&self, m: &SketchMeasured) -> String {
        self.described(m, false)
    }

    /// One sketch in one line, with its theory's RSE beside the target.
    fn described(&self, m: &SketchMeasured, theory: bool) -> String {
        format!(
            "{} (lg_k = {}, {} estimator): {}, measured RSE {} [{}, {}] (target {}{}), {} ns per insert",
            m.structure,
            m.lg_k,
            m.estimator,
            crate::design::render::bytes(m.bytes as f64),
            pct(m.rse, 3),
            pct(m.rse_lo, 3),
            pct(m.rse_hi, 3),
            pct(self.target_rse, 3),
            if theory {
                format!(", theory {}", pct(m.rse_theory, 3))
            } else {
                String::new()
            },
            sig(m.insert_ns, 3)
        )
    }

    /// The answer in one line: the recommended sketch, its bytes for
    /// `groups` sketches (and what `nodes` nodes send a coordinator), and
    /// the runner-up.
    pub fn answer(&self, groups: f64, nodes: f64) -> String {
        use crate::design::render::{bytes, count};
        let Some(rec) = self.choice.recommended.as_deref().and_then(|r| self.get(r)) else {
            return format!(
                "No sketch could be measured for an RSE of {}: see what was left out and why.",
                pct(self.target_rse, 3)
            );
        };
        let mut s = if self.target_met {
            format!("Use {}", self.line(rec))
        } else {
            format!(
                "No sketch reaches an RSE of {}; the nearest is {}",
                pct(self.target_rse, 3),
                self.line(rec)
            )
        };
        if groups > 1.0 {
            s += &format!(
                "; {} for {} groups",
                bytes(rec.bytes as f64 * groups),
                count(groups)
            );
        }
        if nodes > 1.0 {
            s += &format!(
                "; {} nodes send a coordinator {} per round",
                count(nodes),
                bytes(rec.bytes as f64 * groups * nodes)
            );
        }
        if let Some(r) = self.choice.runner_up.as_deref().and_then(|r| self.get(r)) {
            s += &format!("; runner-up {}", self.line(r));
        }
        s + "."
    }

    /// The recommendation in a few lines, for the terminal.
    pub fn summary(&self) -> String {
        // the answer's line with the theory beside the target
        let line = |m: &SketchMeasured| self.described(m, true);
        let mut s = format!(
            "for an RSE of {}{} at {}, measured on {} in {:.1} s:\n",
            pct(self.target_rse, 3),
            if self.merges {
                " after merging"
            } else {
                ", never merged"
            },
            self.distinct
                .map_or("10·2^lg_k distinct items (no --distinct)".into(), |d| {
                    format!("{} distinct items", crate::design::render::count(d))
                }),
            self.keys,
            self.seconds
        );
        if !self.target_met {
            s += &format!(
                "  no sketch reaches {}: the nearest configurations follow\n",
                pct(self.target_rse, 3)
            );
        }
        s += &self
            .choice
            .lines("sketch", "fastest insert", |n| self.get(n).map(line));
        // one line per distinct scaling note, naming the sketches it covers
        let mut notes: Vec<(&str, Vec<&str>)> = Vec::new();
        for m in self.measured.iter().filter(|m| !m.scaled.is_empty()) {
            match notes.iter_mut().find(|(n, _)| *n == m.scaled) {
                Some((_, names)) => names.push(&m.structure),
                None => notes.push((&m.scaled, vec![&m.structure])),
            }
        }
        for (note, names) in notes {
            s += &format!("  {}: {note}\n", names.join(", "));
        }
        let replayed: Vec<&str> = self
            .measured
            .iter()
            .filter(|m| m.method == "replayed")
            .map(|m| m.structure.as_str())
            .collect();
        if !replayed.is_empty() {
            s += &format!("  {}: {REPLAYED}\n", replayed.join(", "));
        }
        for m in &self.measured {
            for note in [&m.resized, &m.below_theory, &m.short_of_target] {
                if !note.is_empty() {
                    s += &format!("  {}: {note}\n", m.structure);
                }
            }
        }
        for l in &self.left_out {
            s += &format!("  left out {}: {}\n", l.structure, l.why);
        }
        let w = self.clock.warning();
        if !w.is_empty() {
            s += &format!("  warning: {w}\n");
        }
        s
    }
}

/// Every menu sketch measured for `target` at `distinct` (None: at
/// 10·2^lg_k, each in its asymptotic regime) within `measure_seconds` in
/// all, ranked by measured bytes (or speed, by `prefer`) among those that
/// meet the target, or by measured RSE when none does.
pub fn recommend(
    target: f64,
    distinct: Option<f64>,
    merges: bool,
    measure_seconds: f64,
    prefer: Prefer,
) -> SketchAdvice {
    let t = Instant::now();
    let load = Clock::start();
    let (mut measured, mut left_out) = (Vec::new(), Vec::new());
    let each = measure_seconds / Sketch::ALL.len() as f64;
    for (i, s) in Sketch::ALL.into_iter().enumerate() {
        crate::design::progress(&format!(
            "design: measuring {} ({}/{})",
            s.name(),
            i + 1,
            Sketch::ALL.len()
        ));
        let n = distinct.map_or_else(
            || {
                let est = estimator(s, merges);
                10u64 << lg_k_for(s, est, target).unwrap_or(4)
            },
            |d| d as u64,
        );
        match candidate(s, target, n, merges, each) {
            Ok(m) => measured.push(m),
            Err(l) => left_out.push(l),
        }
    }
    let meeting: Vec<&SketchMeasured> = measured
        .iter()
        .filter(|m| m.short_of_target.is_empty())
        .collect();
    let target_met = !meeting.is_empty();
    let choice = if target_met {
        super::choice::choose(
            &meeting
                .iter()
                .map(|m| (m.structure.clone(), m.bytes as f64, m.insert_ns))
                .collect::<Vec<_>>(),
            prefer,
        )
    } else {
        // the nearest: ranked by measured RSE (its "bytes" slot), then speed
        super::choice::choose(
            &measured
                .iter()
                .map(|m| (m.structure.clone(), m.rse, m.insert_ns))
                .collect::<Vec<_>>(),
            Prefer::Bytes,
        )
    };
    SketchAdvice {
        distinct,
        target_rse: target,
        merges,
        measure_seconds,
        keys: "synthetic distinct 8-byte ids (sketchlab's sketches through XXH3, fixed seed; DataSketches' through its own hash, seed 9001)".into(),
        choice,
        target_met,
        measured,
        left_out,
        clock: Clock::finish(load),
        seconds: t.elapsed().as_secs_f64(),
    }
}
