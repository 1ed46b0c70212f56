//! The two kinds of panel: grouped bars of kernel weights, lines of objective traces.

use super::style::{self, tick, Ticks};
use super::{short_names, Series};
use mkc_core::{Error, Result};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

pub(super) fn plot_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::input(format!("figure {}", path.display()), e.to_string())
}

pub(super) type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// The legend box (series names) of a chart.
fn legend<'a, DB, CT>(chart: &mut ChartContext<'a, DB, CT>, path: &Path) -> Result<()>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((style::FONT, style::TICK))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.5))
        .draw()
        .map_err(|e| plot_err(path, e))
}

/// One panel of grouped bars: a group per kernel, a bar per series.
pub(super) fn weight_panel(
    area: &Area<'_>,
    path: &Path,
    title: Option<&str>,
    panel: &[&Series],
) -> Result<()> {
    let m = panel[0].names.len();
    let (ticks, axis) = short_names(&panel[0].names);
    let top = panel
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .fold(0.0f64, f64::max);
    let top = if top > 0.0 { top * 1.12 } else { 1.0 };
    let longest = ticks
        .iter()
        .map(|t| t.chars().count() as u32)
        .max()
        .unwrap_or(1);
    let slot = (style::WIDTH - 100) / m.max(1) as u32;
    let rotate = longest * style::CHAR > slot;
    let label_area = if rotate {
        (longest * style::CHAR + 16).min(160)
    } else {
        36
    };
    let centers: Vec<f64> = (0..m).map(|i| i as f64).collect();
    let mut b = ChartBuilder::on(area);
    b.margin(12)
        .x_label_area_size(label_area)
        .y_label_area_size(64);
    if let Some(t) = title {
        b.caption(t, (style::FONT, style::PANEL_TITLE));
    }
    let mut chart = b
        .build_cartesian_2d(
            Ticks {
                lo: -0.5,
                hi: m as f64 - 0.5,
                at: centers,
            },
            0.0..top,
        )
        .map_err(|e| plot_err(path, e))?;
    let tick_style = TextStyle::from((style::FONT, style::TICK).into_font());
    let tick_style = if rotate {
        tick_style
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Right, VPos::Center))
    } else {
        tick_style
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(axis)
        .y_desc("learned weight (unitless)")
        .axis_desc_style((style::FONT, style::AXIS))
        .x_label_style(tick_style)
        .y_label_style((style::FONT, style::TICK))
        .y_label_formatter(&|y| tick(*y))
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < m {
                ticks[i as usize].clone()
            } else {
                String::new()
            }
        })
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(|e| plot_err(path, e))?;
    let width = 0.8 / panel.len() as f64;
    for (s, series) in panel.iter().enumerate() {
        let color = style::color(s);
        let bars = series.values.iter().enumerate().map(|(i, &v)| {
            let x0 = i as f64 - 0.4 + s as f64 * width;
            Rectangle::new([(x0, 0.0), (x0 + width * 0.92, v)], color.filled())
        });
        let drawn = chart.draw_series(bars).map_err(|e| plot_err(path, e))?;
        if panel.len() > 1 {
            drawn.label(series.label.clone()).legend(move |(x, y)| {
                Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled())
            });
        }
    }
    if panel.len() > 1 {
        legend(&mut chart, path)?;
    }
    Ok(())
}

/// Objective traces: a line (with points) per series over the iterations.
pub(super) fn objective_panel(area: &Area<'_>, path: &Path, data: &[Series]) -> Result<()> {
    let iters = data.iter().map(|s| s.values.len()).max().unwrap_or(1);
    let (y0, y1) = data
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |a, y| {
            (a.0.min(y), a.1.max(y))
        });
    let pad = ((y1 - y0).abs() * 0.08).max(1e-9 * y1.abs().max(1.0));
    let keys: Vec<f64> = if iters <= 20 {
        (1..=iters).map(|i| i as f64).collect()
    } else {
        let step = iters.div_ceil(10);
        (1..=iters).step_by(step).map(|i| i as f64).collect()
    };
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(
            Ticks {
                lo: 0.5,
                hi: iters as f64 + 0.5,
                at: keys,
            },
            y0 - pad..y1 + pad,
        )
        .map_err(|e| plot_err(path, e))?;
    chart
        .configure_mesh()
        .x_desc("iteration")
        .y_desc("objective value (as the title defines it)")
        .axis_desc_style((style::FONT, style::AXIS))
        .x_label_style((style::FONT, style::TICK))
        .y_label_style((style::FONT, style::TICK))
        .x_label_formatter(&|x| format!("{}", x.round()))
        .y_label_formatter(&|y| tick(*y))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(|e| plot_err(path, e))?;
    for (i, s) in data.iter().enumerate() {
        let color = style::color(i);
        let pts: Vec<(f64, f64)> = s
            .names
            .iter()
            .zip(&s.values)
            .map(|(n, &v)| (n.parse::<f64>().unwrap_or(0.0), v))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
            .map_err(|e| plot_err(path, e))?
            .label(s.label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
            });
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(|e| plot_err(path, e))?;
    }
    legend(&mut chart, path)
}
