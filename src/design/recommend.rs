//! Recommendations read from the frontier studies of a reference run (the
//! distinct-count sketches; filters are measured at the user's size by
//! [`super::measure`]): which structures meet the user's needs, what each measured in that run (with
//! the file and row it came from), and the smallest and fastest of them.
//! Nothing here prefers a structure by name: a choice is the minimum of a
//! measured column over the rows that qualify.

use crate::structures::menu::Sketch;
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;

/// One candidate of a recommendation table.
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    pub structure: String,
    /// Why it does not qualify ("" when it does).
    pub excluded: String,
    /// The measured row's parameters in words (n, ε, keys; p; …).
    pub row: String,
    /// Bytes for the user's size, from the measured bits per key (or the
    /// sketch's measured bytes, scaled to the error asked for).
    pub bytes: Option<f64>,
    /// The measured error: a filter's FPR, a sketch's RSE.
    pub error: Option<f64>,
    /// ns per absent query (filters), when the speed study ran.
    pub ns_per_query: Option<f64>,
    /// `<study>/<file> row R` of each figure.
    pub source: String,
}

/// A recommendation: the candidates, and the choices with their reasons.
#[derive(Clone, Debug, Serialize, Default)]
pub struct Recommendation {
    pub needs: String,
    pub candidates: Vec<Candidate>,
    pub smallest: Option<String>,
    pub fastest: Option<String>,
    pub reason: String,
}

/// A study's results (or summary) from a reference run: (header, rows).
struct Rows {
    file: String,
    header: HashMap<String, usize>,
    rows: Vec<Vec<String>>,
}

impl Rows {
    fn read(dir: &Path, study: &str, name: &str) -> Option<Rows> {
        let bytes = crate::export::read_output(&dir.join(study), name).ok()?;
        let mut r = csv::Reader::from_reader(&bytes[..]);
        let header = r
            .headers()
            .ok()?
            .iter()
            .enumerate()
            .map(|(i, h)| (h.to_string(), i))
            .collect();
        let rows = r
            .records()
            .filter_map(|x| x.ok())
            .map(|x| x.iter().map(String::from).collect())
            .collect();
        Some(Rows {
            file: format!("{study}/{name}"),
            header,
            rows,
        })
    }

    fn get<'a>(&self, row: &'a [String], col: &str) -> &'a str {
        self.header
            .get(col)
            .and_then(|&i| row.get(i))
            .map(String::as_str)
            .unwrap_or("")
    }

    fn num(&self, row: &[String], col: &str) -> Option<f64> {
        self.get(row, col).parse().ok()
    }

    /// `file row R` (data rows numbered from 1, the header not counted).
    fn cite(&self, index: usize) -> String {
        format!("{} row {}", self.file, index + 1)
    }
}

/// The smallest and the fastest qualifying candidate, and why.
fn choose(mut r: Recommendation, unit: &str) -> Recommendation {
    let ok: Vec<&Candidate> = r
        .candidates
        .iter()
        .filter(|c| c.excluded.is_empty())
        .collect();
    let min_by = |f: &dyn Fn(&Candidate) -> Option<f64>| {
        ok.iter()
            .filter_map(|c| Some((f(c)?, *c)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    };
    let small = min_by(&|c| c.bytes);
    let fast = min_by(&|c| c.ns_per_query);
    r.smallest = small.map(|(_, c)| c.structure.clone());
    r.fastest = fast.map(|(_, c)| c.structure.clone());
    let mut why = Vec::new();
    if let Some((b, c)) = small {
        why.push(format!(
            "smallest: {} at {} with a measured {unit} of {} ({})",
            c.structure,
            crate::design::render::bytes(b),
            c.error
                .map(|e| crate::export::markdown::sig(e, 3))
                .unwrap_or_else(|| "—".into()),
            c.source
        ));
    }
    if let Some((ns, c)) = fast {
        why.push(format!(
            "fastest absent query: {} at {} ns ({})",
            c.structure,
            crate::export::markdown::sig(ns, 3),
            c.source
        ));
    }
    if ok.is_empty() {
        why.push("no structure of the reference run meets these needs".into());
    }
    r.reason = why.join("; ");
    r
}

/// The distinct-count table: for a relative standard error `error`, each
/// sketch's estimator from `cardinality_frontier`'s summary at its largest
/// streamed n (the merged estimator when merges are needed), and the bytes
/// that error needs, from the measured memory-variance product:
/// bytes = MVP / (8 · error²).
pub fn sketches(reference_dir: &Path, error: f64, merges: bool) -> Option<Recommendation> {
    let s = Rows::read(reference_dir, "cardinality_frontier", "summary.csv")?;
    let streamed = s
        .rows
        .iter()
        .filter(|x| s.get(x, "simulated") != "true")
        .filter_map(|x| s.num(x, "n"))
        .fold(0.0, f64::max);
    let mut r = Recommendation {
        needs: if merges {
            "merges".into()
        } else {
            "none".into()
        },
        ..Default::default()
    };
    for k in Sketch::ALL {
        let rows: Vec<(usize, &Vec<String>)> = s
            .rows
            .iter()
            .enumerate()
            .filter(|(_, x)| {
                s.get(x, "sketch") == k.name()
                    && s.num(x, "n") == Some(streamed)
                    && (s.get(x, "merged") == "true") == merges
            })
            .collect();
        // the estimator of least measured MVP
        let best = rows
            .iter()
            .filter_map(|(i, x)| Some((s.num(x, "mvp")?, *i, *x)))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        let Some((mvp, i, x)) = best else {
            continue;
        };
        r.candidates.push(Candidate {
            structure: format!("{} ({})", k.name(), s.get(x, "estimator")),
            excluded: String::new(),
            row: format!("2^{} registers, n = {}", s.get(x, "lg_k"), s.get(x, "n")),
            bytes: Some(mvp / 8.0 / (error * error)),
            error: s.num(x, "rel_err_sd"),
            ns_per_query: None,
            source: s.cite(i),
        });
    }
    Some(choose(r, "RSE at its own size"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distinct-count table on the committed reference: one candidate
    /// per sketch, a merge requirement picks only merged estimators (never
    /// HIP, whose history a merge loses), the bytes are MVP/(8·e²) of the
    /// cited row, and the choice is their minimum.
    #[test]
    fn the_sketch_choice_is_the_least_bytes_for_the_error() {
        let dir = Path::new("reports");
        let s = Rows::read(dir, "cardinality_frontier", "summary.csv").expect("reference run");
        for merges in [false, true] {
            let r = sketches(dir, 0.01, merges).unwrap();
            assert_eq!(r.candidates.len(), Sketch::ALL.len());
            for c in &r.candidates {
                let row: usize = c.source.rsplit(" row ").next().unwrap().parse().unwrap();
                let x = &s.rows[row - 1];
                assert_eq!(s.get(x, "merged") == "true", merges, "{}", c.structure);
                if merges {
                    assert_ne!(s.get(x, "estimator"), "hip", "{}", c.structure);
                }
                let want = s.num(x, "mvp").unwrap() / 8.0 / 1e-4;
                assert!(
                    (c.bytes.unwrap() - want).abs() < 1e-9 * want,
                    "{}",
                    c.structure
                );
            }
            let least = r
                .candidates
                .iter()
                .filter_map(|c| c.bytes)
                .fold(f64::INFINITY, f64::min);
            let chosen = r
                .candidates
                .iter()
                .find(|c| Some(&c.structure) == r.smallest.as_ref());
            assert_eq!(chosen.and_then(|c| c.bytes), Some(least));
        }
    }
}
