//! Charts, drawn from result rows only. A kind describes its charts as
//! [`Chart`] values; [`render_all`] draws each as SVG and PNG with a bundled
//! font (data/fonts/DejaVuSans.ttf), so no system font library is needed.

mod heatmap;
pub mod svg;
mod xy;

pub use heatmap::Heatmap;

use std::path::{Path, PathBuf};
use std::sync::Once;

/// One measured or theoretical point; `lo`/`hi` draw an error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
}

impl Point {
    pub fn new(x: f64, y: f64) -> Self {
        Point {
            x,
            y,
            lo: None,
            hi: None,
        }
    }

    pub fn with_interval(x: f64, y: f64, lo: f64, hi: f64) -> Self {
        Point {
            x,
            y,
            lo: Some(lo),
            hi: Some(hi),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A theory curve.
    Line,
    /// Measurements (with error bars where given).
    Points,
    /// Measurements joined by a line.
    LinePoints,
}

#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub style: Style,
    pub points: Vec<Point>,
}

impl Series {
    pub fn new(name: impl Into<String>, style: Style, points: Vec<Point>) -> Self {
        Series {
            name: name.into(),
            style,
            points,
        }
    }
}

/// An x–y chart: any mix of lines and points, optional log axes, and
/// labelled vertical/horizontal reference lines.
#[derive(Clone, Debug)]
pub struct Chart {
    /// File name without extension; `<stem>.svg` and `<stem>.png` are written.
    pub stem: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_log: bool,
    pub y_log: bool,
    pub series: Vec<Series>,
    pub vlines: Vec<(f64, String)>,
    pub hlines: Vec<(f64, String)>,
}

impl Chart {
    pub fn new(stem: &str, title: &str, x_label: &str, y_label: &str) -> Self {
        Chart {
            stem: stem.into(),
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            x_log: false,
            y_log: false,
            series: Vec::new(),
            vlines: Vec::new(),
            hlines: Vec::new(),
        }
    }

    pub fn log_x(mut self) -> Self {
        self.x_log = true;
        self
    }

    pub fn log_y(mut self) -> Self {
        self.y_log = true;
        self
    }

    pub fn series(mut self, s: Series) -> Self {
        if !s.points.is_empty() {
            self.series.push(s);
        }
        self
    }

    pub fn vline(mut self, x: f64, label: impl Into<String>) -> Self {
        self.vlines.push((x, label.into()));
        self
    }

    pub fn hline(mut self, y: f64, label: impl Into<String>) -> Self {
        self.hlines.push((y, label.into()));
        self
    }
}

static FONT: &[u8] = include_bytes!("../../data/fonts/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

/// Registers the bundled font as "sans-serif" (idempotent). Anything that draws
/// with plotters in this build (criterion's reports too) needs it: the
/// `ab_glyph` feature has no system fonts.
pub fn register_font() {
    REGISTER.call_once(|| {
        plotters::style::register_font("sans-serif", plotters::style::FontStyle::Normal, FONT)
            .unwrap_or_else(|_| panic!("bug: the bundled font does not parse"));
    });
}

/// Draws every chart with points into `dir` as SVG and PNG, and every
/// heatmap as PNG only (an SVG of thousands of cells is large and adds
/// nothing); returns the files.
pub fn render_all(
    charts: &[Chart],
    heatmaps: &[Heatmap],
    dir: &Path,
) -> anyhow::Result<Vec<PathBuf>> {
    register_font();
    let mut files = Vec::new();
    for c in charts.iter().filter(|c| !c.series.is_empty()) {
        let svg = xy::svg(c)?;
        let svg_path = dir.join(format!("{}.svg", c.stem));
        crate::export::write_atomic(&svg_path, svg.as_bytes())?;
        let png_path = dir.join(format!("{}.png", c.stem));
        let tmp = crate::export::tmp_path(&png_path);
        xy::png(c, &tmp)?;
        std::fs::rename(&tmp, &png_path)?;
        files.push(svg_path);
        files.push(png_path);
    }
    for h in heatmaps {
        let png_path = dir.join(format!("{}.png", h.stem));
        let tmp = crate::export::tmp_path(&png_path);
        heatmap::png(h, &tmp)?;
        std::fs::rename(&tmp, &png_path)?;
        files.push(png_path);
    }
    Ok(files)
}
