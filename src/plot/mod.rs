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

use plotters::coord::Shift;
use plotters::prelude::{BitMapBackend, DrawingArea, IntoDrawingArea};
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
/// Draws a `width × height` picture into an RGB buffer and writes it to
/// `path` as a PNG, atomically. The encoding is the `png` crate's best
/// compression with adaptive filtering (a filter chosen per row): the same
/// pixels as plotters' own encoder writes, in about half the bytes
/// (the reference's 15 heatmaps: 637 kB → 331 kB).
fn png_atomic(
    path: &Path,
    (width, height): (u32, u32),
    draw: impl FnOnce(DrawingArea<BitMapBackend<'_>, Shift>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    draw(BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area())?;
    let bytes = encode_png(&rgb, (width, height))
        .map_err(|e| anyhow::anyhow!("{}: cannot encode the chart: {e}", path.display()))?;
    crate::export::write_atomic(path, &bytes)
        .map_err(|e| anyhow::anyhow!("{}: cannot write the chart: {e:#}", path.display()))
}

/// An RGB buffer as PNG bytes (8 bits a channel, best compression,
/// adaptive filtering).
fn encode_png(rgb: &[u8], (width, height): (u32, u32)) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, width, height);
    e.set_color(png::ColorType::Rgb);
    e.set_depth(png::BitDepth::Eight);
    e.set_compression(png::Compression::Best);
    e.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let mut w = e.write_header()?;
    w.write_image_data(rgb)?;
    w.finish()?;
    Ok(out)
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
        png_atomic(&png_path, xy::png_size(c), |root| xy::png(c, root))?;
        files.push(svg_path);
        files.push(png_path);
    }
    for h in heatmaps {
        let png_path = dir.join(format!("{}.png", h.stem));
        png_atomic(&png_path, heatmap::SIZE, |root| heatmap::png(h, root))?;
        files.push(png_path);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_png_decodes_to_the_pixels_it_was_given() {
        let (w, h) = (37u32, 11u32);
        let rgb: Vec<u8> = (0..w * h * 3).map(|i| (i * 7 % 251) as u8).collect();
        let bytes = super::encode_png(&rgb, (w, h)).unwrap();
        let mut r = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut back = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut back).unwrap();
        assert_eq!((info.width, info.height), (w, h));
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(&back[..info.buffer_size()], &rgb[..]);
    }
}
