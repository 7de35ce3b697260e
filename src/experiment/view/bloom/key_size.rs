//! `key_size`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Measure as _;
use crate::experiment::kinds::bloom::key_size::*;
use crate::experiment::kinds::{Tables, typed_rows};
use crate::experiment::view::View;
use crate::export::markdown::{pct, sig};
use crate::report::Section;

const VIEW: &str = include_str!("key_size.toml");

/// The view registered for [`KeySize`] (see [`crate::experiment::view::VIEWS`]).
pub struct KeySizeView;

impl View for KeySizeView {
    fn kind(&self) -> &'static str {
        KeySize::NAME
    }

    fn toml(&self) -> &'static str {
        VIEW
    }
    fn section(&self, t: &Tables) -> Section {
        let table = crate::experiment::view::declared_table(VIEW, t);
        let rows = typed_rows::<KeySize>(&t.results);
        let (lo, hi) = rows
            .iter()
            .map(|(_, r)| r.fpr_measured.rate)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
        let hs: Vec<String> = rows
            .iter()
            .filter_map(|(p, r)| Some(format!("{} {} MB", p.keys.name(), sig(r.hashset_mb?, 3))))
            .collect();
        let py: Vec<String> = rows
            .iter()
            .filter_map(|(p, r)| {
                Some(format!(
                    "{} as {} {} MB ({}× the raw key bytes)",
                    p.keys.name(),
                    r.python_wraps_as,
                    sig(r.python_mb?, 3),
                    sig(r.python_over_raw?, 3)
                ))
            })
            .collect();
        let version = rows
            .iter()
            .map(|(_, r)| r.python_version.clone())
            .find(|v| !v.is_empty())
            .unwrap_or_default();
        Section {
            table,
            reading: format!(
                "Measured FPR ranges {}–{} across key sizes at the same bits per key; the filter is the same size for every key type, while the exact HashSet measures {}. {}",
                pct(lo, 3),
                pct(hi, 3),
                if hs.is_empty() {
                    "nothing (counting allocator not installed)".to_string()
                } else {
                    hs.join(", ")
                },
                if py.is_empty() {
                    format!(
                        "CPython's set was not measured{}.",
                        if version.is_empty() {
                            String::new()
                        } else {
                            format!(" ({version})")
                        }
                    )
                } else {
                    format!(
                        "A real CPython {version} set of the same keys (tracemalloc: the table and every key object) holds {}; the 2 KiB blobs are not sent to it.",
                        py.join(", ")
                    )
                }
            ),
        }
    }
}
