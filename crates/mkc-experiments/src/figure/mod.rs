//! SVG figures (plotters), one style for every paper: the learned weight of each kernel
//! as grouped bars (one group per kernel or view, named on the axis; one bar per dataset
//! row; rows with other kernel lists in panels of their own), or the objective value per
//! iteration as lines (one per dataset row), from the first run of the chosen grid point
//! of a column. Values are rounded to 4 significant digits before plotting so that the
//! files are identical across runs and thread counts.

use crate::config::{FigureCfg, FigureKind, PlanTable};
use crate::runner::{Report, TableReport};
use mkc_core::{Error, Result};
use panel::{objective_panel, plot_err, weight_panel};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

mod panel;
mod style;
#[cfg(test)]
mod tests;

/// File name of a figure (relative to the Markdown file).
pub fn file_name(config: &str, table: &str, figure: &str) -> String {
    format!("{config}-{table}-{figure}.svg")
}

/// One series of a figure: a dataset row's values, with a name per value.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The dataset row's label.
    pub label: String,
    /// A name per value: kernel (or view) names for weights, iteration numbers for
    /// objectives.
    pub names: Vec<String>,
    /// The values, rounded to 4 significant digits (non-finite values dropped from
    /// objective traces, drawn as 0 for weights).
    pub values: Vec<f64>,
}

pub(crate) fn round4(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return if x.is_finite() { 0.0 } else { f64::NAN };
    }
    let mag = 10f64.powi(3 - x.abs().log10().floor() as i32);
    (x * mag).round() / mag
}

/// The series of a figure, one per dataset row that has a run to show.
pub fn series(report: &Report, t: &PlanTable, tr: &TableReport, f: &FigureCfg) -> Vec<Series> {
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
        let (names, values): (Vec<String>, Vec<f64>) = match f.kind {
            FigureKind::Weights => {
                let w = ex.weights.clone().unwrap_or_default();
                let names = if w.len() == row.kernel_names.len() {
                    row.kernel_names.clone()
                } else {
                    (1..=w.len()).map(|i| format!("K{i}")).collect()
                };
                let w = w
                    .iter()
                    .map(|&x| round4(x))
                    .map(|x| if x.is_finite() { x } else { 0.0 });
                (names, w.collect())
            }
            FigureKind::Objective => ex
                .objective
                .iter()
                .enumerate()
                .map(|(i, &y)| ((i + 1).to_string(), round4(y)))
                .filter(|p| p.1.is_finite())
                .unzip(),
        };
        if !values.is_empty() {
            let label = report
                .plan
                .datasets
                .get(&row.key)
                .and_then(|d| d.label.clone())
                .unwrap_or_else(|| row.key.clone());
            out.push(Series {
                label,
                names,
                values,
            });
        }
    }
    out
}

/// Short tick labels for kernel names: the part that differs, when the names share a
/// prefix or suffix of at least three characters (`fac/linear`, `fou/linear` → `fac`,
/// `fou`, with the axis title `kernel (…/linear)`). Numbers are never cut.
pub fn short_names(names: &[String]) -> (Vec<String>, String) {
    let whole = |names: &[String]| (names.to_vec(), "kernel".to_string());
    if names.len() < 2 {
        return whole(names);
    }
    let chars: Vec<Vec<char>> = names.iter().map(|n| n.chars().collect()).collect();
    let min = chars.iter().map(Vec::len).min().unwrap_or(0);
    let cut = |c: char| c.is_ascii_digit() || c == '.';
    // A cut between two characters of a number moves out of the number.
    let splits = |i: usize| chars.iter().any(|c| cut(c[i - 1]) && cut(c[i]));
    let mut pre = (0..min)
        .take_while(|&i| chars.iter().all(|c| c[i] == chars[0][i]))
        .count();
    while pre > 0 && pre < min && splits(pre) {
        pre -= 1;
    }
    let last = |c: &Vec<char>, i: usize| c[c.len() - 1 - i];
    let mut suf = (0..min - pre)
        .take_while(|&i| chars.iter().all(|c| last(c, i) == last(&chars[0], i)))
        .count();
    while suf > 0
        && chars.iter().any(|c| {
            let i = c.len() - suf;
            i > 0 && cut(c[i - 1]) && cut(c[i])
        })
    {
        suf -= 1;
    }
    let pre = if pre >= 3 { pre } else { 0 };
    let suf = if suf >= 3 { suf } else { 0 };
    if pre == 0 && suf == 0 || chars.iter().any(|c| c.len() == pre + suf) {
        return whole(names);
    }
    let short = chars
        .iter()
        .map(|c| c[pre..c.len() - suf].iter().collect())
        .collect();
    let head: String = chars[0][..pre].iter().collect();
    let tail: String = chars[0][chars[0].len() - suf..].iter().collect();
    (short, format!("kernel ({head}…{tail})"))
}

/// Series with the same kernel names share a panel; panels in order of first row.
fn panels(data: &[Series]) -> Vec<Vec<&Series>> {
    let mut out: Vec<Vec<&Series>> = Vec::new();
    for s in data {
        match out.iter_mut().find(|p| p[0].names == s.names) {
            Some(p) => p.push(s),
            None => out.push(vec![s]),
        }
    }
    out
}

/// Draw one figure to `path`. Returns false (and writes nothing) when there is no data.
pub fn draw(path: &Path, title: &str, kind: FigureKind, data: &[Series]) -> Result<bool> {
    if data.iter().all(|s| s.values.is_empty()) {
        return Ok(false);
    }
    let groups = match kind {
        FigureKind::Weights => panels(data),
        FigureKind::Objective => vec![data.iter().collect()],
    };
    let height = 40 + style::PANEL * groups.len() as u32;
    let root = SVGBackend::new(path, (style::WIDTH, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
    let root = root
        .titled(title, (style::FONT, style::CAPTION))
        .map_err(|e| plot_err(path, e))?;
    let areas = root.split_evenly((groups.len(), 1));
    for (area, panel) in areas.iter().zip(&groups) {
        match kind {
            FigureKind::Weights => {
                // A panel of one row says whose weights these are; several have a legend.
                let only = (groups.len() > 1 && panel.len() == 1).then(|| panel[0].label.as_str());
                let only = only.or((data.len() == 1).then(|| data[0].label.as_str()));
                weight_panel(area, path, only, panel)?
            }
            FigureKind::Objective => {
                let owned: Vec<Series> = panel.iter().map(|s| (*s).clone()).collect();
                objective_panel(area, path, &owned)?
            }
        }
    }
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
