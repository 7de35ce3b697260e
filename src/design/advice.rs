//! The measured recommendation of `design filter`: every menu structure
//! that has what the user needs, measured at the user's n
//! ([`super::measure::candidate`]), ranked ([`super::choice`]), with the
//! capacity of the power-of-two tables ([`super::capacity`]) and, with
//! deletes, the hazard of deleting a key never inserted
//! ([`super::hazard`]).

use super::capacity::Cliff;
use super::choice::{Choice, Clock};
use super::hazard::DeleteHazard;
use super::measure::{Budget, Keys, Left, Measured, candidate};
use crate::structures::menu::Filter;
use crate::vocab::Prefer;
use serde::Serialize;
use std::time::Instant;

/// The measured recommendation: every candidate that meets the needs,
/// measured at the user's n, and the choices among them.
#[derive(Clone, Debug, Serialize)]
pub struct Advice {
    pub n: u64,
    pub target_fpr: f64,
    pub needs: String,
    pub keys: String,
    pub budget: Budget,
    pub measured: Vec<Measured>,
    /// Structures without a measurement: they lack a need, cannot reach ε,
    /// or no configuration qualified.
    pub left_out: Vec<Left>,
    /// The ranking: the recommendation, the runner-up, the smallest, the
    /// fastest absent query, and the trade-off between them.
    #[serde(flatten)]
    pub choice: Choice,
    /// The capacity of every power-of-two candidate at n, with its
    /// alternatives measured.
    pub cliffs: Vec<Cliff>,
    /// With deletes: what deleting a key never inserted does to the
    /// recommended structure, measured.
    pub delete_hazard: Option<DeleteHazard>,
    pub clock: Clock,
    pub seconds: f64,
}

impl Advice {
    pub fn get(&self, name: &str) -> Option<&Measured> {
        self.measured.iter().find(|m| m.structure == name)
    }

    /// One candidate in one line.
    pub fn line(&self, m: &Measured) -> String {
        use crate::export::markdown::{pct, sig};
        format!(
            "{} ({}): {}, measured FPR {} [{}, {}] (target {}), {} ns per absent query, {} present{}",
            m.structure,
            m.configured.words(),
            crate::design::render::bytes(m.configured.bytes as f64),
            pct(m.fpr, 3),
            pct(m.fpr_lo, 3),
            pct(m.fpr_hi, 3),
            pct(self.target_fpr, 3),
            sig(m.absent_ns, 3),
            sig(m.present_ns, 3),
            if m.resized.is_empty() {
                String::new()
            } else {
                format!(" (resized: {})", m.resized.join("; "))
            }
        )
    }

    /// The answer in one line: the recommendation for n keys and the
    /// runner-up.
    pub fn answer(&self) -> String {
        let Some(rec) = self.choice.recommended.as_deref().and_then(|r| self.get(r)) else {
            return format!(
                "No structure qualifies for {} keys at FPR {} (needs: {}): see what was left out and why.",
                crate::design::render::count(self.n as f64),
                crate::export::markdown::pct(self.target_fpr, 3),
                self.needs
            );
        };
        let mut s = format!(
            "For {} keys at FPR {} use {}",
            crate::design::render::count(self.n as f64),
            crate::export::markdown::pct(self.target_fpr, 3),
            self.line(rec)
        );
        if let Some(r) = self.choice.runner_up.as_deref().and_then(|r| self.get(r)) {
            s += &format!("; runner-up {}", self.line(r));
        }
        s + "."
    }

    /// The recommendation in a few lines, for the terminal.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "for n = {} keys at FPR {} (needs: {}), measured on {} in {:.1} s:\n",
            self.n,
            crate::export::markdown::pct(self.target_fpr, 3),
            self.needs,
            self.keys,
            self.seconds
        );
        s += &self.choice.lines("structure", "fastest absent query", |n| {
            self.get(n).map(|m| self.line(m))
        });
        for m in &self.measured {
            if !m.scaled.is_empty() {
                s += &format!("  {}: {}\n", m.structure, m.scaled);
            }
        }
        for c in &self.cliffs {
            s += &format!("  capacity: {}\n", c.summary);
        }
        s += &self
            .warnings()
            .iter()
            .map(|w| format!("  warning: {w}\n"))
            .collect::<String>();
        s
    }

    /// What a practitioner must know beside the numbers.
    pub fn warnings(&self) -> Vec<String> {
        let mut w: Vec<String> = self
            .delete_hazard
            .iter()
            .map(DeleteHazard::warning)
            .collect();
        w.push(self.clock.warning());
        w.retain(|x| !x.is_empty());
        w
    }
}

/// Measures every menu structure that meets `needs` for `n` keys at `eps`
/// and ranks them by measured bytes and absent-query time (`prefer` says
/// which comes first); the power-of-two candidates' capacity is measured
/// beside them, and with deletes the hazard of deleting a key never
/// inserted.
pub fn recommend(
    n: u64,
    eps: f64,
    needs: &[&str],
    budget: Budget,
    prefer: Prefer,
    keys: &Keys,
    seed: u64,
) -> Advice {
    let t = Instant::now();
    let load = Clock::start();
    let (mut measured, mut left_out) = (Vec::new(), Vec::new());
    let eligible: Vec<Filter> = Filter::ALL
        .into_iter()
        .filter(|f| {
            let lacks: Vec<String> = [
                ("inserts", f.inserts_after_build()),
                ("deletes", f.deletes()),
                ("merges", f.merges()),
            ]
            .iter()
            .filter(|(need, has)| needs.contains(need) && !has)
            .map(|(need, _)| format!("no {need}"))
            .collect();
            if !lacks.is_empty() {
                left_out.push(Left {
                    structure: f.name().into(),
                    why: lacks.join(", "),
                });
            }
            lacks.is_empty()
        })
        .collect();
    // one budget for the review: shared by the candidates, and by the
    // alternatives of the power-of-two ones (two more measurements each)
    let shares = eligible
        .iter()
        .map(|f| if f.power_of_two() { 3 } else { 1 })
        .sum::<usize>()
        .max(1);
    let each = Budget {
        seconds: budget.seconds / shares as f64,
        ..budget
    };
    for (i, f) in eligible.iter().enumerate() {
        crate::design::progress(&format!(
            "design filter: measuring {} ({}/{})",
            f.name(),
            i + 1,
            eligible.len()
        ));
        match candidate(*f, n, eps, each, keys, seed) {
            Ok(m) => measured.push(m),
            Err(l) => left_out.push(l),
        }
    }
    let cliffs: Vec<Cliff> = measured
        .iter()
        .filter(|m| m.configured.filter.power_of_two())
        .filter_map(|m| {
            crate::design::progress(&format!("design filter: capacity of {}", m.structure));
            super::capacity::cliff(&m.configured, eps, each, keys, seed)
        })
        .collect();
    let choice = super::choice::choose(
        &measured
            .iter()
            .map(|m| (m.structure.clone(), m.configured.bytes as f64, m.absent_ns))
            .collect::<Vec<_>>(),
        prefer,
    );
    let delete_hazard = if needs.contains(&"deletes") {
        choice
            .recommended
            .as_deref()
            .and_then(|r| measured.iter().find(|m| m.structure == r))
            .and_then(|m| super::hazard::measure(&m.configured, keys, seed))
    } else {
        None
    };
    Advice {
        n,
        target_fpr: eps,
        needs: if needs.is_empty() {
            "none (a static filter qualifies)".into()
        } else {
            needs.join(", ")
        },
        keys: keys.describe(),
        budget,
        choice,
        measured,
        left_out,
        cliffs,
        delete_hazard,
        clock: Clock::finish(load),
        seconds: t.elapsed().as_secs_f64(),
    }
}
