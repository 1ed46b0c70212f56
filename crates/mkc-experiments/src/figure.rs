//! SVG figures (plotters): learned weight per kernel, or objective per iteration, one
//! series per dataset row, from the first run of the chosen grid point of a column.
//! Values are rounded to 4 significant digits before plotting so that the files are
//! identical across runs and thread counts.

use crate::config::{FigureCfg, FigureKind, PlanTable};
use crate::runner::{Report, TableReport};
use mkc_core::{Error, Result};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// File name of a figure (relative to the Markdown file).
pub fn file_name(config: &str, table: &str, figure: &str) -> String {
    format!("{config}-{table}-{figure}.svg")
}

fn round4(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return if x.is_finite() { 0.0 } else { f64::NAN };
    }
    let mag = 10f64.powi(3 - x.abs().log10().floor() as i32);
    (x * mag).round() / mag
}

/// The series of a figure: (label, points).
pub fn series(
    report: &Report,
    t: &PlanTable,
    tr: &TableReport,
    f: &FigureCfg,
) -> Vec<(String, Vec<(f64, f64)>)> {
    let Some(ci) = t.columns.iter().position(|c| c.id == f.column) else {
        return vec![];
    };
    let mut out = Vec::new();
    for row in &tr.rows {
        if f.datasets.as_ref().is_some_and(|d| !d.contains(&row.key)) {
            continue;
        }
        let Ok(cols) = &row.result else { continue };
        let Some(ex) = cols.get(ci).and_then(|c| c.example.as_ref()) else {
            continue;
        };
        let ys: Vec<f64> = match f.kind {
            FigureKind::Weights => ex.weights.clone().unwrap_or_default(),
            FigureKind::Objective => ex.objective.clone(),
        };
        let start = if f.kind == FigureKind::Weights {
            1.0
        } else {
            0.0
        };
        let pts: Vec<(f64, f64)> = ys
            .iter()
            .enumerate()
            .map(|(i, &y)| (i as f64 + start, round4(y)))
            .filter(|p| p.1.is_finite())
            .collect();
        if !pts.is_empty() {
            let label = report
                .plan
                .datasets
                .get(&row.key)
                .and_then(|d| d.label.clone())
                .unwrap_or_else(|| row.key.clone());
            out.push((label, pts));
        }
    }
    out
}

fn plot_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::input(format!("figure {}", path.display()), e.to_string())
}

/// Draw one figure to `path`. Returns false (and writes nothing) when there is no data.
pub fn draw(
    path: &Path,
    title: &str,
    kind: FigureKind,
    data: &[(String, Vec<(f64, f64)>)],
) -> Result<bool> {
    let all: Vec<(f64, f64)> = data.iter().flat_map(|s| s.1.iter().copied()).collect();
    if all.is_empty() {
        return Ok(false);
    }
    let (x0, x1) = all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
        (a.0.min(p.0), a.1.max(p.0))
    });
    let (y0, y1) = all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
        (a.0.min(p.1), a.1.max(p.1))
    });
    let pad = ((y1 - y0).abs() * 0.05).max(1e-9);
    let (y0, y1) = if kind == FigureKind::Weights {
        (0.0, y1 + pad)
    } else {
        (y0 - pad, y1 + pad)
    };
    let (x0, x1) = (x0 - 0.5, x1 + 0.5);
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| plot_err(path, e))?;
    let (xl, yl) = match kind {
        FigureKind::Weights => ("kernel", "weight"),
        FigureKind::Objective => ("iteration", "objective"),
    };
    chart
        .configure_mesh()
        .x_desc(xl)
        .y_desc(yl)
        .draw()
        .map_err(|e| plot_err(path, e))?;
    for (i, (label, pts)) in data.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
            .map_err(|e| plot_err(path, e))?
            .label(label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
            });
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(|e| plot_err(path, e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| plot_err(path, e))?;
    root.present().map_err(|e| plot_err(path, e))?;
    Ok(true)
}

/// Draw every figure of the report into `dir`; returns the files written.
pub fn draw_all(report: &Report, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (t, tr) in report.plan.tables.iter().zip(&report.tables) {
        for f in &t.figures {
            let data = series(report, t, tr, f);
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            let path = dir.join(file_name(&report.plan.name, &t.id, &f.id));
            let title = f.title.clone().unwrap_or_else(|| f.id.clone());
            if draw(&path, &title, f.kind, &data)? {
                written.push(path);
            }
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_keeps_four_significant_digits() {
        assert_eq!(round4(0.123456), 0.1235);
        assert_eq!(round4(12345.6), 12350.0);
        assert_eq!(round4(0.0), 0.0);
    }

    #[test]
    fn draws_an_svg_and_skips_empty_data() {
        let dir = std::env::temp_dir().join(format!("mkc-fig-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("w.svg");
        let data = vec![("a".to_string(), vec![(1.0, 0.2), (2.0, 0.5), (3.0, 0.3)])];
        assert!(draw(&p, "weights", FigureKind::Weights, &data).unwrap());
        let svg = std::fs::read_to_string(&p).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("weights"));
        assert!(!draw(&dir.join("e.svg"), "e", FigureKind::Objective, &[]).unwrap());
        std::fs::remove_dir_all(&dir).ok();
    }
}
