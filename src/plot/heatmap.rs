//! A matrix as a PNG heatmap (white = 0, dark red = 1), with a colour scale.

use anyhow::anyhow;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Values in [0, 1], row-major, `rows × cols`.
#[derive(Clone, Debug)]
pub struct Heatmap {
    pub stem: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub rows: usize,
    pub cols: usize,
    pub values: Vec<f64>,
    /// What a value of 1 means, for the legend (e.g. "bias 100%").
    pub scale_max: String,
}

/// A matrix as one CSV cell: `"ROWSxCOLS:"` then each value in [0, 1] as
/// two hex digits (value × 255, rounded), row-major.
pub fn encode(rows: usize, cols: usize, values: &[f64]) -> String {
    let hex: String = values
        .iter()
        .map(|v| format!("{:02x}", (v.clamp(0.0, 1.0) * 255.0).round() as u8))
        .collect();
    format!("{rows}x{cols}:{hex}")
}

/// The matrix an [`encode`]d cell holds: `None` unless it is well formed.
pub fn decode(cell: &str) -> Option<(usize, usize, Vec<f64>)> {
    let (dims, hex) = cell.split_once(':')?;
    let (rows, cols) = dims.split_once('x')?;
    let (rows, cols): (usize, usize) = (rows.parse().ok()?, cols.parse().ok()?);
    if !hex.is_ascii() || hex.len() != 2 * rows.checked_mul(cols)? {
        return None;
    }
    let values = (0..hex.len() / 2)
        .map(|i| {
            u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)
                .ok()
                .map(|b| b as f64 / 255.0)
        })
        .collect::<Option<Vec<f64>>>()?;
    Some((rows, cols, values))
}

fn colour(v: f64) -> RGBColor {
    // white -> orange -> dark red
    let v = v.clamp(0.0, 1.0).sqrt();
    let lerp = |a: f64, b: f64, t: f64| (a + (b - a) * t).round() as u8;
    if v < 0.5 {
        let t = v / 0.5;
        RGBColor(255, lerp(255.0, 160.0, t), lerp(255.0, 40.0, t))
    } else {
        let t = (v - 0.5) / 0.5;
        RGBColor(
            lerp(255.0, 120.0, t),
            lerp(160.0, 0.0, t),
            lerp(40.0, 0.0, t),
        )
    }
}

/// A heatmap's PNG size in pixels.
pub const SIZE: (u32, u32) = (900, 560);

/// Draws a heatmap onto a bitmap of [`SIZE`].
pub fn png(h: &Heatmap, root: DrawingArea<BitMapBackend<'_>, Shift>) -> anyhow::Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow!("plotting {}: {e}", h.stem);
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (main, legend) = root.split_horizontally(800);
    let mut chart = ChartBuilder::on(&main)
        .caption(&h.title, ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0..h.cols as i32, 0..h.rows as i32)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(h.x_label.as_str())
        .y_desc(h.y_label.as_str())
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(
            (0..h.rows)
                .flat_map(|r| (0..h.cols).map(move |c| (r, c)))
                .map(|(r, c)| {
                    Rectangle::new(
                        [(c as i32, r as i32), (c as i32 + 1, r as i32 + 1)],
                        colour(h.values[r * h.cols + c]).filled(),
                    )
                }),
        )
        .map_err(|e| err(&e))?;
    // colour scale
    let steps = 50;
    let (w, ht) = legend.dim_in_pixel();
    let top = 60i32;
    let bottom = ht as i32 - 60;
    for i in 0..steps {
        let v = 1.0 - i as f64 / steps as f64;
        let y0 = top + (bottom - top) * i / steps;
        let y1 = top + (bottom - top) * (i + 1) / steps;
        legend
            .draw(&Rectangle::new([(20, y0), (45, y1)], colour(v).filled()))
            .map_err(|e| err(&e))?;
    }
    let style = ("sans-serif", 12).into_font();
    legend
        .draw_text(&h.scale_max, &style.color(&BLACK), (5, top - 20))
        .map_err(|e| err(&e))?;
    legend
        .draw_text("0", &style.color(&BLACK), (25, bottom + 8))
        .map_err(|e| err(&e))?;
    let _ = w;
    root.present().map_err(|e| err(&e))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_matrix_round_trips_through_its_cell_and_a_bad_cell_is_none() {
        let v = [0.0, 1.0, 0.5, 0.2, 1.5, -1.0];
        let cell = super::encode(2, 3, &v);
        assert_eq!(cell, "2x3:00ff8033ff00");
        let (r, c, back) = super::decode(&cell).unwrap();
        assert_eq!((r, c), (2, 3));
        for (a, b) in back.iter().zip([0.0, 1.0, 0.5, 0.2, 1.0, 0.0]) {
            assert!((a - b).abs() <= 0.5 / 255.0, "{a} vs {b}");
        }
        for bad in [
            "",
            "2x3",
            "2x3:00ff",
            "2x3:00ff8033ffzz",
            "ax3:00",
            "2x3:é0ff8033ff0",
        ] {
            assert!(super::decode(bad).is_none(), "{bad}");
        }
    }
}
