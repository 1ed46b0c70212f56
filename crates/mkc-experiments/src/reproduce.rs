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

/// The experiment configs in `dir`, sorted by name.
pub fn config_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !NOT_EXPERIMENTS.contains(&n))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Read, check and resolve one config with `profile`; the plan's name defaults to the
/// file stem. Returns the plan and the hash of the config text.
pub fn load_plan(path: &Path, profile: &str, source: &dyn DataSource) -> Result<(Plan, String)> {
    let (cfg, text) = read_config(path)?;
    let src = path.display().to_string();
    let mut plan = resolve(&src, &cfg, profile, &|n| source.contains(n))?;
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
            std::fs::write(&md_path, format!("{text}\n")).map_err(|e| Error::io(&md_path, e))?;
            written.push(md_path);
            written.extend(crate::figure::draw_all(&report, &dir)?);
        }
        out.push(Reproduced {
            name,
            report,
            markdown,
            written,
        });
    }
    Ok(out)
}
