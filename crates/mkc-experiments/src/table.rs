//! Markdown rendering of a [`Report`]: one table per metric, the paper's value beside
//! ours in every cell the paper has, "data missing" rows naming the absent file, and
//! notes (settings chosen by the grid search, failures). Numbers are rounded to two
//! decimals so that the text is identical across runs and thread counts; timings are
//! left out unless asked for. Columns with a `weights` figure also get their learned
//! kernel weights as a table (one per dataset row: a line per column, a column per kernel),
//! with three decimals.

use crate::config::{PlanColumn, PlanTable};
use crate::dataset::Unavailable;
use crate::metric::Metric;
use crate::runner::{Report, RowReport, TableReport};
use std::fmt::Write;

/// Rendering options.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderOptions {
    /// Show wall-clock times (never in snapshots).
    pub timings: bool,
}

/// `x` with two decimals, never `-0.00`.
pub fn fixed2(x: f64) -> String {
    let s = format!("{x:.2}");
    if s == "-0.00" {
        "0.00".into()
    } else {
        s
    }
}

/// A missing file as the tables show it: relative to the data directory
/// (`<data dir>/external/…`), so that the text does not depend on where the data lives.
fn shown(file: &std::path::Path) -> String {
    let parts: Vec<_> = file.components().collect();
    match parts
        .iter()
        .position(|c| c.as_os_str() == "external" || c.as_os_str() == "bundle")
    {
        Some(i) => {
            let rel: std::path::PathBuf = parts[i..].iter().collect();
            format!("<data dir>/{}", rel.display())
        }
        None => file.display().to_string(),
    }
}

fn row_label(report: &Report, key: &str) -> String {
    report
        .plan
        .datasets
        .get(key)
        .and_then(|d| d.label.clone())
        .unwrap_or_else(|| key.to_string())
}

fn cell_text(
    t: &PlanTable,
    col: &PlanColumn,
    row: &RowReport,
    metric: Metric,
    ci: usize,
    opts: RenderOptions,
) -> String {
    let ours = match &row.result {
        Err(Unavailable::Missing(file)) if ci == 0 => format!("data missing: `{}`", shown(file)),
        Err(Unavailable::Missing(_)) => "data missing".to_string(),
        Err(Unavailable::Failed(_)) => "not run ¹".to_string(),
        Ok(cols) => match cols.get(ci) {
            _ if col.method.is_none() => "—".to_string(),
            Some(c) => match c.cell.as_ref().and_then(|cell| cell.stats.get(&metric)) {
                Some(_) if metric == Metric::Time && !opts.timings => {
                    "(timing omitted)".to_string()
                }
                Some(s) if metric == Metric::Time => fixed2(s.mean),
                Some(s) => format!("{} ± {}", fixed2(s.mean), fixed2(s.std)),
                None if c.error.is_some() => "failed ¹".to_string(),
                None => "—".to_string(),
            },
            None => "—".to_string(),
        },
    };
    match t
        .paper
        .get(&metric)
        .and_then(|d| d.get(&row.key))
        .and_then(|c| c.get(&col.id))
    {
        Some(p) => format!("{ours} (paper {})", p.text),
        None => ours,
    }
}

fn render_table(
    out: &mut String,
    report: &Report,
    t: &PlanTable,
    tr: &TableReport,
    opts: RenderOptions,
) {
    let _ = writeln!(out, "## {}\n", t.title);
    if let Some(src) = &t.paper_source {
        let _ = writeln!(out, "Paper values (in parentheses) from {src}.\n");
    }
    let restarts: Vec<String> = t
        .columns
        .iter()
        .filter(|c| c.method.is_some())
        .map(|c| format!("{} × {}", c.restarts, report.plan.seeds.len()))
        .collect();
    if let Some(r) = restarts.first() {
        let same = restarts.iter().all(|x| x == r);
        let runs = if same {
            format!("{r} runs (restarts × seeds) per grid point")
        } else {
            "runs per grid point vary by column (see the config)".into()
        };
        let _ = writeln!(
            out,
            "Ours: mean ± std over {runs}; profile `{}`.\n",
            report.plan.profile
        );
    }
    for &metric in &t.metrics {
        if t.metrics.len() > 1 {
            let _ = writeln!(out, "### {}\n", metric.heading());
        } else {
            let _ = writeln!(out, "{}\n", metric.heading());
        }
        let _ = write!(out, "| Dataset | n |");
        for c in &t.columns {
            let _ = write!(out, " {} |", c.label);
        }
        let _ = write!(out, "\n| --- | ---: |");
        for _ in &t.columns {
            let _ = write!(out, " --- |");
        }
        out.push('\n');
        for row in &tr.rows {
            let n = if row.n > 0 {
                row.n.to_string()
            } else {
                "—".into()
            };
            let _ = write!(out, "| {} | {n} |", row_label(report, &row.key));
            for (ci, c) in t.columns.iter().enumerate() {
                let _ = write!(out, " {} |", cell_text(t, c, row, metric, ci, opts));
            }
            out.push('\n');
        }
        out.push('\n');
    }
    // Notes: chosen settings, failures, missing data, the config's notes.
    let mut chosen = Vec::new();
    let mut problems = Vec::new();
    for row in &tr.rows {
        match &row.result {
            Ok(cols) => {
                for (c, col) in cols.iter().zip(&t.columns) {
                    if let Some(ch) = c.chosen.as_ref().filter(|s| !s.is_empty()) {
                        chosen.push(format!("{} / {}: {ch}", row_label(report, &row.key), col.label));
                    }
                    if let Some(e) = &c.error {
                        problems.push(format!("¹ {} / {}: {e}", row_label(report, &row.key), col.label));
                    }
                }
            }
            Err(Unavailable::Missing(f)) => problems.push(format!(
                "{}: data missing (`{}` is not in the data directory; `mkc datasets fetch {}` gets it or says where it goes)",
                row_label(report, &row.key),
                shown(f),
                report.plan.datasets.get(&row.key).and_then(|d| d.source.clone()).unwrap_or_else(|| row.key.clone())
            )),
            Err(Unavailable::Failed(e)) => problems.push(format!("¹ {}: {e}", row_label(report, &row.key))),
        }
    }
    if !t.notes.trim().is_empty() {
        let _ = writeln!(out, "{}\n", t.notes.trim());
    }
    if !chosen.is_empty() {
        let _ = writeln!(
            out,
            "Settings chosen (best by the table's first metric unless stated):\n"
        );
        for c in chosen {
            let _ = writeln!(out, "- {c}");
        }
        out.push('\n');
    }
    if !problems.is_empty() {
        for p in problems {
            let _ = writeln!(out, "- {p}");
        }
        out.push('\n');
    }
    render_weights(out, report, t, tr);
    for f in &t.figures {
        let _ = writeln!(
            out,
            "![{}]({})\n",
            f.title.clone().unwrap_or_else(|| f.id.clone()),
            crate::figure::file_name(&report.plan.name, &t.id, &f.id)
        );
    }
}

/// The learned kernel weights of every column that has a `weights` figure, one table per
/// dataset row (the first run of the column's chosen setting, as the figure shows).
fn render_weights(out: &mut String, report: &Report, t: &PlanTable, tr: &TableReport) {
    use crate::config::FigureKind;
    let mut cols: Vec<usize> = Vec::new();
    for f in t.figures.iter().filter(|f| f.kind == FigureKind::Weights) {
        if let Some(ci) = t.columns.iter().position(|c| c.id == f.column) {
            if !cols.contains(&ci) {
                cols.push(ci);
            }
        }
    }
    cols.sort_unstable();
    let mut header_done = false;
    for row in &tr.rows {
        let Ok(results) = &row.result else { continue };
        let lines: Vec<(usize, &Vec<f64>)> = cols
            .iter()
            .filter_map(|&ci| {
                let w = results.get(ci)?.example.as_ref()?.weights.as_ref()?;
                (w.len() == row.kernel_names.len()).then_some((ci, w))
            })
            .collect();
        if lines.is_empty() {
            continue;
        }
        if !header_done {
            let _ = writeln!(
                out,
                "### Learned kernel weights (first run of the chosen setting)\n"
            );
            header_done = true;
        }
        let _ = writeln!(out, "{}\n", row_label(report, &row.key));
        let _ = write!(out, "| Column |");
        for k in &row.kernel_names {
            let _ = write!(out, " {k} |");
        }
        let _ = write!(out, "\n| --- |");
        for _ in &row.kernel_names {
            let _ = write!(out, " ---: |");
        }
        out.push('\n');
        for (ci, w) in lines {
            let _ = write!(out, "| {} |", t.columns[ci].label);
            for &x in w {
                let v = format!("{x:.3}");
                let _ = write!(out, " {} |", if v == "-0.000" { "0.000" } else { &v });
            }
            out.push('\n');
        }
        out.push('\n');
    }
}

/// The whole Markdown document of a report.
pub fn render(report: &Report, opts: RenderOptions) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", report.plan.title);
    let _ = writeln!(
        out,
        "<!-- generated by `cargo xtask reproduce {} --{}`; do not edit -->\n",
        report.plan.name, report.plan.profile
    );
    if !report.plan.description.trim().is_empty() {
        let _ = writeln!(out, "{}\n", report.plan.description.trim());
    }
    for (t, tr) in report.plan.tables.iter().zip(&report.tables) {
        render_table(&mut out, report, t, tr, opts);
    }
    if opts.timings {
        let _ = write!(
            out,
            "Wall-clock time of this reproduction: {:.1} s.",
            report.seconds
        );
        if report.recorded_runs > 0 {
            let _ = write!(
                out,
                " {} run results were taken from the run records (`--resume`; a run that \
                 several tables share counts once per table); their recorded times sum to \
                 {:.0} s (runs ran in parallel).",
                report.recorded_runs, report.recorded_seconds
            );
        }
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}
