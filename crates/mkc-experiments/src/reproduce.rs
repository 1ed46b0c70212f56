//! The library side of `cargo xtask reproduce`: find the configs, run them with a
//! profile, write `results/<name>.md` (full) or `results/quick/<name>.md` (quick), the
//! figures beside them, and the run records to `results/runs/<name>.jsonl`.

use crate::config::{read_config, resolve, Plan};
use crate::dataset::DataSource;
use crate::record::config_hash;
use crate::runner::{run_plan, Report, RunOptions};
use crate::table::{render, RenderOptions};
use mkc_core::{Error, Result};
use std::path::{Path, PathBuf};

/// Files in `configs/` that are not experiment configs.
pub const NOT_EXPERIMENTS: &[&str] = &["datasets.toml", "recipes.toml"];

/// Configs whose file name starts with this are examples for users (`mkc run FILE`),
/// not paper reproductions.
pub const EXAMPLE_PREFIX: &str = "example-";

/// The experiment configs (paper reproductions) in `dir`, sorted by name.
pub fn config_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !NOT_EXPERIMENTS.contains(&n) && !n.starts_with(EXAMPLE_PREFIX))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Read, check and resolve one config with `profile`; the plan's name defaults to the
/// file stem, and the own-data files of its datasets are taken relative to the config
/// file. Returns the plan and the hash of the config text.
pub fn load_plan(path: &Path, profile: &str, source: &dyn DataSource) -> Result<(Plan, String)> {
    let (cfg, text) = read_config(path)?;
    let src = path.display().to_string();
    let mut plan = resolve(&src, &cfg, profile, &|n| source.contains(n))?;
    let dir = path.parent().unwrap_or(Path::new(""));
    for d in plan.datasets.values_mut() {
        *d = d.with_base(dir);
    }
    if plan.name.is_empty() {
        plan.name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("experiment")
            .to_string();
    }
    Ok((plan, config_hash(&format!("{profile}\n{text}"))))
}

/// What to reproduce and where.
pub struct Reproduce<'a> {
    /// The `configs/` directory.
    pub configs: PathBuf,
    /// The `results/` directory.
    pub results: PathBuf,
    /// `quick` or `full`.
    pub profile: String,
    /// Selection: config names (`rmkc`) or single tables (`rmkc.table2`); all when empty.
    pub select: Vec<String>,
    /// Where datasets come from.
    pub source: &'a dyn DataSource,
    /// Write Markdown, figures and records (false: only return the reports).
    pub write: bool,
    /// Progress bar on a terminal.
    pub progress: bool,
    /// Take jobs already in `results/runs/<name>.jsonl` from there (see [`crate::resume`]).
    pub resume: bool,
    /// With `resume`: run nothing, render what is on record (other rows: "not run").
    pub recorded_only: bool,
}

/// One reproduced config.
pub struct Reproduced {
    /// Config name.
    pub name: String,
    /// The report.
    pub report: Report,
    /// Markdown without timings (what the snapshots hold).
    pub markdown: String,
    /// Files written.
    pub written: Vec<PathBuf>,
    /// Tables left as they are in the results file (rows there have results, their data
    /// is missing here).
    pub kept: Vec<KeptTable>,
}

/// The Markdown file of a config (`results/<name>.md` or `results/<profile>/<name>.md`).
pub fn output_path(results: &Path, profile: &str, name: &str) -> PathBuf {
    if profile == "full" {
        results.join(format!("{name}.md"))
    } else {
        results.join(profile).join(format!("{name}.md"))
    }
}

/// Run the selected configs. Selection entries that match no config or table are errors.
pub fn reproduce(r: &Reproduce<'_>) -> Result<Vec<Reproduced>> {
    let files = config_files(&r.configs)?;
    let stem = |p: &PathBuf| {
        p.file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string()
    };
    for s in &r.select {
        let cfg = s.split_once('.').map_or(s.as_str(), |(c, _)| c);
        if !files.iter().any(|p| stem(p) == cfg) {
            let known: Vec<String> = files.iter().map(stem).collect();
            return Err(Error::input(
                "reproduce",
                format!(
                    "no config `{cfg}` in {} (have: {})",
                    r.configs.display(),
                    known.join(", ")
                ),
            ));
        }
    }
    let mut out = Vec::new();
    for path in &files {
        let name = stem(path);
        let wanted: Vec<&str> = r
            .select
            .iter()
            .filter_map(|s| match s.split_once('.') {
                Some((c, t)) if c == name => Some(t),
                None if *s == name => Some(""),
                _ => None,
            })
            .collect();
        if !r.select.is_empty() && wanted.is_empty() {
            continue;
        }
        let (mut plan, hash) = load_plan(path, &r.profile, r.source)?;
        let only: Vec<&str> = wanted.iter().copied().filter(|t| !t.is_empty()).collect();
        let partial = !only.is_empty() && !wanted.contains(&"");
        if partial {
            for t in &only {
                if !plan.tables.iter().any(|x| x.id == *t) {
                    return Err(Error::input(
                        "reproduce",
                        format!("config `{name}` has no table `{t}`"),
                    ));
                }
            }
            plan.tables.retain(|t| only.contains(&t.id.as_str()));
        }
        let records = r
            .write
            .then(|| r.results.join("runs").join(format!("{name}.jsonl")));
        let index = if r.resume || r.recorded_only {
            let path = r.results.join("runs").join(format!("{name}.jsonl"));
            Some(crate::resume::RecordIndex::read(&path)?)
        } else {
            None
        };
        let opts = RunOptions {
            source: r.source,
            records,
            progress: r.progress,
            config_hash: hash,
            resume: index.as_ref(),
            recorded_only: r.recorded_only,
        };
        let report = run_plan(&plan, &opts)?;
        let markdown = render(&report, RenderOptions { timings: false });
        let mut written = Vec::new();
        let mut kept = Vec::new();
        if r.write {
            let file_name = if partial {
                format!("{name}.{}", only.join("."))
            } else {
                name.clone()
            };
            let md_path = output_path(&r.results, &r.profile, &file_name);
            let dir = md_path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| r.results.clone());
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            let text = render(
                &report,
                RenderOptions {
                    timings: r.profile == "full",
                },
            );
            let old = std::fs::read_to_string(&md_path).ok();
            let (text, k, drawn) = keep_results(&report, old.as_deref(), &format!("{text}\n"));
            if old.as_deref() != Some(text.as_str()) {
                std::fs::write(&md_path, text).map_err(|e| Error::io(&md_path, e))?;
                written.push(md_path);
            }
            kept = k;
            written.extend(crate::figure::draw_all(&drawn, &dir)?);
        }
        out.push(Reproduced {
            name,
            report,
            markdown,
            written,
            kept,
        });
    }
    Ok(out)
}

/// A table left as it is in its results file: these rows have results there but no
/// data in this data directory, and a reproduction never replaces results by "data
/// missing".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptTable {
    /// Table id.
    pub table: String,
    /// Row labels (as the file shows them).
    pub rows: Vec<String>,
    /// Their registry names (what `mkc datasets fetch` takes).
    pub datasets: Vec<String>,
}

/// The byte range of the section `## {title}` of `md`: to the next heading of one of
/// `titles`, the closing wall-clock line, or the end.
fn section(md: &str, title: &str, titles: &[&str]) -> Option<std::ops::Range<usize>> {
    let mut start = None;
    let mut pos = 0;
    for line in md.split_inclusive('\n') {
        let l = line.trim_end();
        match start {
            None if l.strip_prefix("## ") == Some(title) => start = Some(pos),
            Some(s)
                if l.strip_prefix("## ").is_some_and(|t| titles.contains(&t))
                    || l.starts_with("Wall-clock time of this reproduction") =>
            {
                return Some(s..pos)
            }
            _ => {}
        }
        pos += line.len();
    }
    start.map(|s| s..md.len())
}

/// Whether a Markdown table row of `label` in `section` shows results.
fn has_results(section: &str, label: &str) -> bool {
    let head = format!("| {label} |");
    section
        .lines()
        .any(|l| l.starts_with(&head) && !l.contains("data missing"))
}

/// The text to write for a results file whose current content is `old`: `new`, except
/// that every table with a row that has results in `old` and no data now keeps its
/// section of `old`. Returns the text, the kept tables, and the report of the tables
/// that were written (for their figures).
pub fn keep_results(
    report: &Report,
    old: Option<&str>,
    new: &str,
) -> (String, Vec<KeptTable>, Report) {
    let titles: Vec<&str> = report
        .plan
        .tables
        .iter()
        .map(|t| t.title.as_str())
        .collect();
    let mut text = new.to_string();
    let mut kept = Vec::new();
    let mut drawn = report.clone();
    for (t, tr) in report.plan.tables.iter().zip(&report.tables) {
        let Some(old_range) = old.and_then(|o| section(o, &t.title, &titles)) else {
            continue;
        };
        let old_sec = &old.unwrap_or_default()[old_range];
        let (mut rows, mut datasets) = (Vec::new(), Vec::new());
        for row in &tr.rows {
            if !matches!(row.result, Err(crate::dataset::Unavailable::Missing(_))) {
                continue;
            }
            let d = report.plan.datasets.get(&row.key);
            let label = d
                .and_then(|d| d.label.clone())
                .unwrap_or_else(|| row.key.clone());
            if has_results(old_sec, &label) {
                rows.push(label);
                let name = d
                    .and_then(|d| d.source.clone())
                    .unwrap_or_else(|| row.key.clone());
                if !datasets.contains(&name) {
                    datasets.push(name);
                }
            }
        }
        let Some(new_range) = section(&text, &t.title, &titles).filter(|_| !rows.is_empty()) else {
            continue;
        };
        text.replace_range(new_range, old_sec);
        drawn.tables.retain(|x| x.id != t.id);
        drawn.plan.tables.retain(|x| x.id != t.id);
        kept.push(KeptTable {
            table: t.id.clone(),
            rows,
            datasets,
        });
    }
    (text, kept, drawn)
}

#[cfg(test)]
mod keep_tests {
    use super::{has_results, section};

    const MD: &str = "# T\n\nintro\n\n## Table A\n\n| Dataset | n | X |\n| --- | ---: | --- |\n| Iono | 351 | 70.00 ± 1.00 |\n| Flo17 | — | data missing: `f` |\n\n## Table B\n\nb\n\nWall-clock time of this reproduction: 1.0 s.\n";

    #[test]
    fn sections_end_at_the_next_table_or_the_time_line() {
        let titles = ["Table A", "Table B"];
        let a = section(MD, "Table A", &titles).unwrap();
        assert!(MD[a.clone()].starts_with("## Table A\n") && MD[a].ends_with("`f` |\n\n"));
        let b = section(MD, "Table B", &titles).unwrap();
        assert_eq!(&MD[b], "## Table B\n\nb\n\n");
        assert_eq!(section(MD, "Table C", &titles), None);
    }

    #[test]
    fn a_row_has_results_unless_it_says_data_missing() {
        assert!(has_results(MD, "Iono"));
        assert!(!has_results(MD, "Flo17"));
        assert!(!has_results(MD, "Flo"), "whole labels only");
        assert!(!has_results(MD, "Cal-5"));
    }
}
