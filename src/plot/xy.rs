//! The x–y chart: lines, points with error bars, reference lines, log axes.

use super::{Chart, Style};
use anyhow::anyhow;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::prelude::*;

const W: u32 = 960;
const H: u32 = 600;

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("plotting: {e}")
}

/// The width of a legend drawn beside the plot, and its characters per line.
const LEGEND_W: u32 = 330;
const LEGEND_CHARS: usize = 42;

pub fn svg(c: &Chart) -> anyhow::Result<String> {
    let plan = plan(c);
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, (plan.width(), H)).into_drawing_area();
        draw(&root, c, plan)?;
        root.present().map_err(err)?;
    }
    Ok(super::svg::slim(&s))
}

/// The pixel size of a chart's PNG (its SVG's).
pub fn png_size(c: &Chart) -> (u32, u32) {
    (plan(c).width(), H)
}

/// Draws a chart onto a bitmap of [`png_size`].
pub fn png(c: &Chart, root: DrawingArea<BitMapBackend<'_>, Shift>) -> anyhow::Result<()> {
    draw(&root, c, plan(c))?;
    root.present().map_err(err)
}

const COLORS: [RGBColor; 16] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(127, 127, 127),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(0, 0, 128),
    RGBColor(128, 0, 0),
    RGBColor(0, 128, 128),
    RGBColor(255, 187, 120),
    RGBColor(152, 223, 138),
    RGBColor(0, 0, 0),
];

/// The farthest power of ten a log axis reaches, and its widest span.
const MAX_DECADE: f64 = 300.0;

/// Data range of one axis, over points, interval ends and reference lines.
fn range(values: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return if log { (0.1, 1.0) } else { (0.0, 1.0) };
    }
    if log {
        // pad a little so points on a power of ten are not drawn on the frame;
        // keep the axis within 10^±300 and 300 decades (plotters' log key
        // points loop without end when an end reaches 0 or the ratio of the
        // ends overflows: subnormal or huge values would hang the chart)
        let (a, b) = ((lo / 1.15).log10().floor(), (hi * 1.15).log10().ceil());
        let b = b.clamp(-299.0, MAX_DECADE);
        let a = a.clamp(-MAX_DECADE, b - 1.0).max(b - MAX_DECADE);
        (10f64.powf(a), 10f64.powf(b))
    } else {
        let pad = if hi > lo {
            (hi - lo) * 0.05
        } else {
            lo.abs().max(1.0) * 0.1
        };
        (lo - pad, hi + pad)
    }
}

/// What is decided before drawing: the chart with its points dodged (when
/// they would hide each other), the axes' ranges, the legend's place.
struct Plan {
    dodged: Option<Chart>,
    x: (f64, f64),
    y: (f64, f64),
    place: Place,
}

impl Plan {
    /// The canvas width: wider by the legend when it sits beside the plot.
    fn width(&self) -> u32 {
        W + if self.place.outside { LEGEND_W } else { 0 }
    }
}

fn plan(c: &Chart) -> Plan {
    // the x range before any dodge (a dodge moves points by pixels in it)
    let raw = range(
        c.series.iter().flat_map(|s| s.points.iter().map(|p| p.x)),
        c.x_log,
    );
    let dodged = super::layout::dodge(c, raw);
    let d = dodged.as_ref().unwrap_or(c);
    let xs = d.series.iter().flat_map(|s| s.points.iter().map(|p| p.x));
    let ys = d
        .series
        .iter()
        .flat_map(|s| {
            s.points
                .iter()
                .flat_map(|p| [Some(p.y), p.lo, p.hi])
                .flatten()
        })
        .chain(d.hlines.iter().map(|h| h.0));
    let (x0, x1) = range(xs, d.x_log);
    let (y0, y1) = range(ys, d.y_log);
    // a linear axis's tick at "zero" can come out as 3e-18 (the sum of
    // float steps): below a billionth of the span it is 0
    let zero = |log: bool, lo: f64, hi: f64| if log { 0.0 } else { (hi - lo).abs() * 1e-9 };
    let zeros = (zero(d.x_log, x0, x1), zero(d.y_log, y0, y1));
    let entries = legend_entries(d, dodged.is_some());
    let labels: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
    let (corner, covered) = super::layout::legend_corner(d, &labels, (x0, x1), (y0, y1));
    let place = Place {
        zeros,
        corner,
        // a legend that would hide data in every corner goes beside the plot
        outside: covered > 0,
        dodged: dodged.is_some(),
    };
    Plan {
        dodged,
        x: (x0, x1),
        y: (y0, y1),
        place,
    }
}

/// How a legend line marks its entry.
#[derive(Clone, Copy)]
enum Mark {
    Line(RGBColor, u32),
    Dot(RGBColor),
    Zero,
    Dodge,
    Dashed(RGBColor, u32),
}

/// The legend's lines in the order they are drawn (the same order plotters
/// uses inside the plot).
fn legend_entries(c: &Chart, dodged: bool) -> Vec<(String, Mark)> {
    let mut out = Vec::new();
    let mut zero = false;
    for (i, s) in c.series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        match s.style {
            Style::Line => out.push((s.name.clone(), Mark::Line(color, 3))),
            Style::Points | Style::LinePoints => {
                out.push((s.name.clone(), Mark::Dot(color)));
                if c.y_log && !zero && s.points.iter().any(|p| p.y == 0.0) {
                    zero = true;
                    out.push((ZERO_LABEL.to_string(), Mark::Zero));
                }
            }
        }
    }
    if dodged {
        out.push((super::layout::DODGE_LABEL.to_string(), Mark::Dodge));
    }
    for (i, (_, label)) in c.vlines.iter().enumerate() {
        out.push((
            label.clone(),
            Mark::Dashed(RGBColor(90, 90, 90), if i == 0 { 2 } else { 1 }),
        ));
    }
    for (_, label) in &c.hlines {
        out.push((label.clone(), Mark::Dashed(RGBColor(160, 160, 160), 2)));
    }
    out
}

/// The legend beside the plot: each entry's mark, then its label wrapped.
fn outside_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, Mark)],
) -> anyhow::Result<()> {
    let font = ("sans-serif", 13).into_font().color(&BLACK);
    let mut y = 20;
    for (label, mark) in entries {
        let (x, my) = (8, y + 7);
        match *mark {
            Mark::Line(color, w) => area
                .draw(&PathElement::new(
                    vec![(x, my), (x + 18, my)],
                    color.stroke_width(w),
                ))
                .map_err(err)?,
            Mark::Dot(color) => area
                .draw(&Circle::new((x + 9, my), 4, color.filled()))
                .map_err(err)?,
            Mark::Zero => area
                .draw(&TriangleMarker::new((x + 9, my), 7, BLACK.stroke_width(2)))
                .map_err(err)?,
            Mark::Dodge => {
                area.draw(&Circle::new((x + 4, my), 3, BLACK.filled()))
                    .map_err(err)?;
                area.draw(&Circle::new((x + 14, my), 3, BLACK.filled()))
                    .map_err(err)?
            }
            Mark::Dashed(color, w) => area
                .draw(&PathElement::new(
                    vec![(x, my), (x + 6, my)],
                    color.stroke_width(w),
                ))
                .and_then(|_| {
                    area.draw(&PathElement::new(
                        vec![(x + 11, my), (x + 18, my)],
                        color.stroke_width(w),
                    ))
                })
                .map_err(err)?,
        }
        for line in super::layout::wrap(label, LEGEND_CHARS) {
            area.draw(&Text::new(line, (x + 26, y), font.clone()))
                .map_err(err)?;
            y += 16;
        }
        y += 4;
    }
    Ok(())
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
    plan: Plan,
) -> anyhow::Result<()> {
    root.fill(&WHITE).map_err(err)?;
    let c = plan.dodged.as_ref().unwrap_or(c);
    // a long title is set smaller so that it fits the canvas
    let width = plan.width() as f64;
    let size = (22.0f64).min((width - 24.0) / (0.56 * c.title.chars().count().max(1) as f64));
    let root = root
        .titled(&c.title, ("sans-serif", size.max(12.0)))
        .map_err(err)?;
    let plot = if plan.place.outside {
        let (plot, side) = root.split_horizontally(W);
        outside_legend(&side, &legend_entries(c, plan.place.dodged))?;
        plot
    } else {
        root
    };
    let ((x0, x1), (y0, y1), place) = (plan.x, plan.y, plan.place);
    match (c.x_log, c.y_log) {
        (false, false) => draw_on(&plot, c, x0..x1, y0..y1, place),
        (true, false) => draw_on(&plot, c, (x0..x1).log_scale(), y0..y1, place),
        (false, true) => draw_on(&plot, c, x0..x1, (y0..y1).log_scale(), place),
        (true, true) => draw_on(&plot, c, (x0..x1).log_scale(), (y0..y1).log_scale(), place),
    }
}

/// A tick label; values within `zero` of 0 are "0".
fn fmt_tick(v: f64, zero: f64) -> String {
    let v = if v.abs() <= zero { 0.0 } else { v };
    if v != 0.0 && (v.abs() < 1e-3 || v.abs() >= 1e6) {
        format!("{v:.0e}")
    } else {
        crate::export::markdown::sig(v, 3)
    }
}

const ZERO_LABEL: &str = "0, drawn on the log axis floor";

/// What `plan` decided about the layout: ticks' zero, the legend's corner
/// (or beside the plot), whether points were dodged.
struct Place {
    zeros: (f64, f64),
    corner: usize,
    outside: bool,
    dodged: bool,
}

fn draw_on<DB, X, Y>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
    x: X,
    y: Y,
    place: Place,
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let (x_zero, y_zero) = place.zeros;
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(80)
        .build_cartesian_2d(x, y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(c.x_label.as_str())
        .y_desc(c.y_label.as_str())
        .x_label_formatter(&|v| fmt_tick(*v, x_zero))
        .y_label_formatter(&|v| fmt_tick(*v, y_zero))
        .label_style(("sans-serif", 14))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(err)?;

    let (xr, yr) = (chart.x_range(), chart.y_range());
    let mut zero_said = false;
    for (i, s) in c.series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|p| {
                p.x.is_finite()
                    && p.y.is_finite()
                    && (!c.y_log || p.y > 0.0)
                    && (!c.x_log || p.x > 0.0)
            })
            .map(|p| (p.x, p.y))
            .collect();
        let legend = move |(x, y): (i32, i32)| {
            PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(3))
        };
        match s.style {
            Style::Line => {
                chart
                    .draw_series(LineSeries::new(pts, color.stroke_width(2)))
                    .map_err(err)?
                    .label(s.name.as_str())
                    .legend(legend);
            }
            Style::Points | Style::LinePoints => {
                if s.style == Style::LinePoints {
                    chart
                        .draw_series(LineSeries::new(pts.clone(), color.mix(0.6).stroke_width(1)))
                        .map_err(err)?;
                }
                chart
                    .draw_series(
                        pts.iter()
                            .map(|&(x, y)| Circle::new((x, y), 4, color.filled())),
                    )
                    .map_err(err)?
                    .label(s.name.as_str())
                    .legend(move |(x, y)| Circle::new((x + 9, y), 4, color.filled()));
                // a 0 has no place on a log axis: drawn on the axis floor
                // as a hollow triangle (and said so once in the legend)
                let zeros: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .filter(|p| c.y_log && p.y == 0.0 && p.x.is_finite() && (!c.x_log || p.x > 0.0))
                    .map(|p| (p.x, yr.start))
                    .collect();
                if !zeros.is_empty() {
                    let marker = color.stroke_width(2);
                    let drawn = chart
                        .draw_series(
                            zeros
                                .iter()
                                .map(move |&(x, y)| TriangleMarker::new((x, y), 7, marker)),
                        )
                        .map_err(err)?;
                    if !zero_said {
                        zero_said = true;
                        drawn.label(ZERO_LABEL).legend(move |(x, y)| {
                            TriangleMarker::new((x + 9, y), 7, BLACK.stroke_width(2))
                        });
                    }
                }
                let floor = if c.y_log {
                    yr.start.max(f64::MIN_POSITIVE)
                } else {
                    f64::NEG_INFINITY
                };
                let bars = s.points.iter().filter_map(|p| match (p.lo, p.hi) {
                    (Some(lo), Some(hi)) if p.y.is_finite() && (!c.y_log || hi > 0.0) => {
                        Some(ErrorBar::new_vertical(
                            p.x,
                            lo.max(floor),
                            p.y.max(floor),
                            hi,
                            color.stroke_width(1),
                            6,
                        ))
                    }
                    _ => None,
                });
                chart.draw_series(bars).map_err(err)?;
            }
        }
    }
    if place.dodged {
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(err)?
            .label(super::layout::DODGE_LABEL)
            .legend(|(x, y)| {
                EmptyElement::at((x, y))
                    + Circle::new((4, 0), 3, BLACK.filled())
                    + Circle::new((14, 0), 3, BLACK.filled())
            });
    }
    for (i, (vx, label)) in c.vlines.iter().enumerate() {
        let color = RGBColor(90, 90, 90);
        let style = ShapeStyle::from(&color).stroke_width(if i == 0 { 2 } else { 1 });
        chart
            .draw_series(DashedLineSeries::new(
                vec![(*vx, yr.start), (*vx, yr.end)],
                6,
                4,
                style,
            ))
            .map_err(err)?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
    }
    for (hy, label) in &c.hlines {
        let style = ShapeStyle::from(&RGBColor(160, 160, 160)).stroke_width(2);
        chart
            .draw_series(DashedLineSeries::new(
                vec![(xr.start, *hy), (xr.end, *hy)],
                10,
                5,
                style,
            ))
            .map_err(err)?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
    }
    if place.outside {
        return Ok(());
    }
    chart
        .configure_series_labels()
        .position(match place.corner {
            1 => SeriesLabelPosition::UpperLeft,
            2 => SeriesLabelPosition::LowerRight,
            3 => SeriesLabelPosition::LowerLeft,
            _ => SeriesLabelPosition::UpperRight,
        })
        .label_font(("sans-serif", 13))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod extreme_tests {
    use super::*;
    use crate::plot::{Chart, Point, Series, Style};

    fn chart(ys: &[f64]) -> Chart {
        let pts = ys
            .iter()
            .enumerate()
            .map(|(i, y)| Point::new(i as f64 + 1.0, *y))
            .collect();
        Chart::new("x", "t", "x", "y")
            .log_y()
            .log_x()
            .series(Series::new("s", Style::Points, pts))
    }

    /// Log axes over extreme values draw in bounded time: subnormals, a
    /// span of hundreds of decades, and the largest floats (plotters' key
    /// points loop without end when an axis end reaches 0 or infinity).
    #[test]
    fn log_axes_with_extreme_values_are_drawn() {
        for ys in [
            vec![5e-324, 1.0],
            vec![1e-310, 0.5],
            vec![1e-300, 1.0],
            vec![1e-80, 0.01],
            vec![1e-240, 1e300],
            vec![1.0, f64::MAX],
            vec![f64::MIN_POSITIVE, f64::MAX],
        ] {
            crate::plot::register_font();
            let svg = svg(&chart(&ys)).unwrap();
            assert!(svg.contains("<svg"), "{ys:?}");
        }
    }

    /// A 0 on a log axis is drawn on the axis floor with its own marker and
    /// a legend line, not left out with only its error bar.
    #[test]
    fn a_zero_on_a_log_axis_is_drawn_on_the_floor() {
        crate::plot::register_font();
        let with_zero = chart(&[0.0, 0.01, 0.1]);
        let svg0 = svg(&with_zero).unwrap();
        assert!(svg0.contains("0, drawn on the log axis floor"));
        let svg1 = svg(&chart(&[0.02, 0.01, 0.1])).unwrap();
        assert!(!svg1.contains("0, drawn on the log axis floor"));
    }
}
