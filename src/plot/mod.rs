//! Charts, drawn from result rows only. A kind describes its charts as
//! [`Chart`] values; [`render_all`] draws each as SVG and PNG with a bundled
//! font (data/fonts/DejaVuSans.ttf), so no system font library is needed.

pub mod declare;
pub mod figures;
pub mod heatmap;
mod layout;
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
        self.add(s);
        self
    }

    /// Adds a series in place (an empty one is left out).
    pub fn add(&mut self, s: Series) {
        if !s.points.is_empty() {
            self.series.push(s);
        }
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

/// Draws a PNG to a temporary beside `path`, then renames it into place; on
/// an error (a full disk) the temporary is removed and the message names the
/// file.
fn png_atomic(path: &Path, draw: impl FnOnce(&Path) -> anyhow::Result<()>) -> anyhow::Result<()> {
    let tmp = crate::export::tmp_path(path);
    let done = draw(&tmp).and_then(|()| std::fs::rename(&tmp, path).map_err(Into::into));
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        let why = format!("{e:#}");
        // plotters nests the I/O error in its backend's: say the cause
        let why = why
            .split("IoError(")
            .nth(1)
            .map(|s| s.trim_end_matches(')').to_string())
            .unwrap_or(why);
        anyhow::bail!("{}: cannot write the chart: {why}", path.display());
    }
    Ok(())
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
        png_atomic(&png_path, |tmp| xy::png(c, tmp))?;
        files.push(svg_path);
        files.push(png_path);
    }
    for h in heatmaps {
        let png_path = dir.join(format!("{}.png", h.stem));
        png_atomic(&png_path, |tmp| heatmap::png(h, tmp))?;
        files.push(png_path);
    }
    Ok(files)
}
