//! The one style of every figure: canvas, fonts, colours, and the axis helpers shared
//! by the bar and line panels.

use super::round4;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::style::RGBColor;

/// Width of a figure (px).
pub const WIDTH: u32 = 760;
/// Height of one panel (px).
pub const PANEL: u32 = 340;
/// Font family.
pub const FONT: &str = "sans-serif";
/// Caption, axis title and tick label sizes (px).
pub const CAPTION: u32 = 18;
pub const PANEL_TITLE: u32 = 15;
pub const AXIS: u32 = 14;
pub const TICK: u32 = 12;
/// Approximate width of one tick-label character (px), to decide on rotation.
pub const CHAR: u32 = 7;
/// Okabe–Ito colours (distinguishable with colour-vision deficiencies).
pub const COLORS: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];
/// The colour of series `i`.
pub fn color(i: usize) -> RGBColor {
    COLORS[i % COLORS.len()]
}

/// A value axis label: at most 4 significant digits, no trailing zeros.
pub(super) fn tick(y: f64) -> String {
    let r = round4(y);
    if r == 0.0 {
        "0".into()
    } else {
        format!("{r}")
    }
}

/// A linear axis over `lo..hi` with its ticks at the points `at` (the kernels' group
/// centres, the iterations).
pub(super) struct Ticks {
    pub lo: f64,
    pub hi: f64,
    pub at: Vec<f64>,
}

impl Ranged for Ticks {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let f = (v - self.lo) / (self.hi - self.lo);
        limit.0 + (f * f64::from(limit.1 - limit.0)).round() as i32
    }
    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            vec![]
        } else {
            self.at.clone()
        }
    }
    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}
