//! Where things go on an x–y chart so that nothing hides anything: point
//! series that would sit on each other are set apart sideways (a dodge),
//! and the legend takes the corner that covers the fewest points.

use super::{Chart, Style};

/// The share of the smallest x step that the dodged series span together,
/// at most.
const SPREAD: f64 = 0.3;

/// Pixels between two dodged series' points (a marker's radius is 4), on
/// a plot area 846 pixels wide.
const GAP_PX: f64 = 5.0;
const PLOT_W: f64 = 846.0;

/// The legend line that says the points were set apart.
pub const DODGE_LABEL: &str = "points at one x set 5 px apart per series, so none hides another";

/// Axis coordinate: log10 on a log axis.
fn t(v: f64, log: bool) -> f64 {
    if log { v.log10() } else { v }
}

fn drawable(v: f64, log: bool) -> bool {
    v.is_finite() && (!log || v > 0.0)
}

/// The chart with its point series dodged, when two of them put points at
/// the same x less than 2% of the y span apart (so one would hide the
/// other); `None` when nothing overlaps. Each point series keeps its order
/// and moves by its own offset, 5 pixels from the next on an x axis
/// spanning `x` (a factor on a log axis), the whole spread within 30% of the
/// smallest step between x values: small enough that a point still reads
/// against a theory line, large enough that every marker shows.
pub fn dodge(c: &Chart, x: (f64, f64)) -> Option<Chart> {
    let points: Vec<usize> = (0..c.series.len())
        .filter(|&i| matches!(c.series[i].style, Style::Points | Style::LinePoints))
        .collect();
    if points.len() < 2 {
        return None;
    }
    let drawn = |i: usize| {
        c.series[i]
            .points
            .iter()
            .filter(|p| drawable(p.x, c.x_log) && drawable(p.y, c.y_log))
            .map(|p| (t(p.x, c.x_log), t(p.y, c.y_log)))
    };
    let ys: Vec<f64> = points.iter().flat_map(|&i| drawn(i).map(|p| p.1)).collect();
    let (y0, y1) = ys
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &y| {
            (a.min(y), b.max(y))
        });
    let near = 0.02 * (y1 - y0).max(f64::MIN_POSITIVE);
    let mut xs: Vec<f64> = points.iter().flat_map(|&i| drawn(i).map(|p| p.0)).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let step = xs
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    if !step.is_finite() || step <= 0.0 {
        return None;
    }
    let overlap = points.iter().enumerate().any(|(a, &i)| {
        points[a + 1..].iter().any(|&j| {
            drawn(i).any(|(xi, yi)| drawn(j).any(|(xj, yj)| xi == xj && (yi - yj).abs() < near))
        })
    });
    if !overlap {
        return None;
    }
    let mut out = c.clone();
    let n = points.len() as f64;
    let px = (t(x.1, c.x_log) - t(x.0, c.x_log)).abs() / PLOT_W;
    let gap = (GAP_PX * px).min(SPREAD * step / (n - 1.0));
    for (j, &i) in points.iter().enumerate() {
        let shift = (j as f64 - (n - 1.0) / 2.0) * gap;
        for p in &mut out.series[i].points {
            p.x = if c.x_log {
                p.x * 10f64.powf(shift)
            } else {
                p.x + shift
            };
        }
    }
    Some(out)
}

/// The legend's corner, as an index into upper right, upper left, lower
/// right, lower left, and the data points its box covers there: the corner
/// whose box (estimated from the number of entries and the longest label on
/// a 960 × 600 chart) covers the fewest, upper right on a tie.
pub fn legend_corner(c: &Chart, labels: &[&str], x: (f64, f64), y: (f64, f64)) -> (usize, usize) {
    // the plot area and the legend box in pixels, as plotters draws them
    let (plot_w, plot_h) = (846.0, 498.0);
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let w = ((longest * 7.2 + 40.0) / plot_w).min(1.0);
    let h = ((labels.len() as f64 * 17.0 + 12.0) / plot_h).min(1.0);
    let (x0, x1) = (t(x.0, c.x_log), t(x.1, c.x_log));
    let (y0, y1) = (t(y.0, c.y_log), t(y.1, c.y_log));
    let at: Vec<(f64, f64)> = c
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|p| drawable(p.x, c.x_log) && drawable(p.y, c.y_log))
        .map(|p| {
            (
                (t(p.x, c.x_log) - x0) / (x1 - x0),
                (t(p.y, c.y_log) - y0) / (y1 - y0),
            )
        })
        .collect();
    let covered = |right: bool, upper: bool| {
        at.iter()
            .filter(|(px, py)| {
                (if right { *px >= 1.0 - w } else { *px <= w })
                    && (if upper { *py >= 1.0 - h } else { *py <= h })
            })
            .count()
    };
    let counts = [
        covered(true, true),
        covered(false, true),
        covered(true, false),
        covered(false, false),
    ];
    let best = (0..4).min_by_key(|&i| (counts[i], i)).unwrap_or(0);
    (best, counts[best])
}

/// A legend label broken into lines of at most `width` characters, at
/// spaces (a longer word keeps its own line).
pub fn wrap(label: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in label.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::{Point, Series};

    fn pts(xy: &[(f64, f64)]) -> Vec<Point> {
        xy.iter().map(|&(x, y)| Point::new(x, y)).collect()
    }

    #[test]
    fn series_on_top_of_each_other_are_set_apart_and_others_are_left_alone() {
        let same = [(1.0, 0.1), (2.0, 0.05), (3.0, 0.02)];
        let c = Chart::new("s", "t", "x", "y")
            .log_y()
            .series(Series::new("theory", Style::Line, pts(&same)))
            .series(Series::new("a", Style::Points, pts(&same)))
            .series(Series::new("b", Style::Points, pts(&same)))
            .series(Series::new("c", Style::Points, pts(&same)));
        // an x axis 846 units wide: 5 units apart
        let d = dodge(&c, (0.0, 846.0)).unwrap();
        assert_eq!(d.series[0].points[0].x, 1.0, "a line stays where it is");
        let xs: Vec<f64> = d.series[1..].iter().map(|s| s.points[1].x).collect();
        assert!((xs[0] - 1.85).abs() < 1e-12 && xs[1] == 2.0 && (xs[2] - 2.15).abs() < 1e-12);
        // a narrow axis: 5 pixels apart
        let d = dodge(&c, (0.0, 4.0)).unwrap();
        let xs: Vec<f64> = d.series[1..].iter().map(|s| s.points[1].x).collect();
        let gap = 5.0 * 4.0 / 846.0;
        assert!((xs[0] - (2.0 - gap)).abs() < 1e-12 && (xs[2] - (2.0 + gap)).abs() < 1e-12);
        // apart in y: nothing to dodge
        let c = Chart::new("s", "t", "x", "y")
            .series(Series::new(
                "a",
                Style::Points,
                pts(&[(1.0, 0.0), (2.0, 0.0)]),
            ))
            .series(Series::new(
                "b",
                Style::Points,
                pts(&[(1.0, 1.0), (2.0, 1.0)]),
            ));
        assert!(dodge(&c, (0.0, 3.0)).is_none());
        // on a log x axis the shift is a factor
        let c = Chart::new("s", "t", "x", "y")
            .log_x()
            .series(Series::new(
                "a",
                Style::Points,
                pts(&[(10.0, 1.0), (100.0, 1.0)]),
            ))
            .series(Series::new(
                "b",
                Style::Points,
                pts(&[(10.0, 1.0), (100.0, 1.0)]),
            ));
        let d = dodge(&c, (1.0, 1000.0)).unwrap();
        let f = 10f64.powf(-2.5 * 3.0 / 846.0);
        assert!((d.series[0].points[0].x - 10.0 * f).abs() < 1e-9);
    }

    #[test]
    fn the_legend_takes_the_emptiest_corner() {
        // points crowd the upper right and upper left: the legend goes low
        let c = Chart::new("s", "t", "x", "y").series(Series::new(
            "a",
            Style::Points,
            pts(&[
                (0.95, 0.95),
                (0.9, 0.97),
                (0.05, 0.95),
                (0.5, 0.5),
                (0.05, 0.05),
            ]),
        ));
        assert_eq!(legend_corner(&c, &["a"], (0.0, 1.0), (0.0, 1.0)), (2, 0));
        // an empty chart keeps the upper right
        let c = Chart::new("s", "t", "x", "y");
        assert_eq!(legend_corner(&c, &["a"], (0.0, 1.0), (0.0, 1.0)), (0, 0));
        // a legend as tall as the plot covers points wherever it goes
        let tall: Vec<&str> = vec!["a series"; 40];
        let c = Chart::new("s", "t", "x", "y").series(Series::new(
            "a",
            Style::Points,
            pts(&[(0.95, 0.5), (0.05, 0.5)]),
        ));
        assert_eq!(legend_corner(&c, &tall, (0.0, 1.0), (0.0, 1.0)).1, 1);
    }

    #[test]
    fn labels_wrap_at_spaces() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(
            wrap("averyveryverylongword x", 5),
            ["averyveryverylongword", "x"]
        );
        assert_eq!(wrap("", 5), [""]);
    }
}
