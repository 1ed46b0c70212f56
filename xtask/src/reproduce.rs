//! `cargo xtask reproduce [TABLE…] [--quick | --full]`: regenerate the paper tables.
//!
//! TABLE is a config name (`rmkc`, the stem of `configs/rmkc.toml`) or one table of it
//! (`rmkc.table2`); all configs when none is given. `--quick` (the default) uses each
//! config's `[profiles.quick]` (fewer restarts, smaller grids) and writes
//! `results/quick/<name>.md`; `--full` follows the paper's protocol and writes
//! `results/<name>.md`. Figures go beside the Markdown, run records to
//! `results/runs/<name>.jsonl` (git-ignored). Datasets are read from `--data-dir`, else
//! `$MKC_DATA_DIR`, else `./data`. A reproduction never replaces results by "data
//! missing": a table with a row that has results in the file on disk but no data here
//! is left as it is, and the run says which and what `mkc datasets fetch` gets the data
//! (rows without results anywhere are written as "data missing").
//! `--resume` continues an interrupted run from its records (records are appended per
//! dataset as soon as it is done); `--recorded-only` renders what is on record without
//! running anything.
//! `--timings` runs nothing either: it writes `results/timings.md`, where the time of
//! the selected configs (all with records when none is given) went, per table, method,
//! phase and job, from `results/runs/<name>.jsonl` and `<name>.kernels.jsonl` (both
//! profiles unless `--quick` or `--full` is given; see `mkc_experiments::timings`), and
//! the wall-clock times of the reproductions on record (module `walls`: every run that
//! runs jobs appends its config's wall time, load and commit to
//! `results/runs/<name>.walls.jsonl`).

use mkc_experiments::registry::RegistrySource;
use mkc_experiments::reproduce::{output_path, reproduce, Reproduce};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Configs (`rmkc`) or single tables (`rmkc.table2`) to regenerate (all when empty).
    pub tables: Vec<String>,
    /// Fewer restarts and smaller grids (what the snapshot tests run); the default.
    #[arg(long, conflicts_with = "full")]
    pub quick: bool,
    /// The paper's full protocol.
    #[arg(long)]
    pub full: bool,
    /// Data directory (default: $MKC_DATA_DIR, else ./data).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Continue an interrupted run: jobs whose runs are all in `results/runs/<name>.jsonl`
    /// (same profile, dataset, method, parameters, kernel and seeds) are not run again.
    #[arg(long)]
    pub resume: bool,
    /// Run nothing: render the tables from the records alone; datasets without complete
    /// records appear as "not run".
    #[arg(long)]
    pub recorded_only: bool,
    /// Run nothing: write results/timings.md (time per table, method, phase and job)
    /// from the run records of the selected configs.
    #[arg(long, conflicts_with_all = ["resume", "recorded_only"])]
    pub timings: bool,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

pub fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let root = workspace_root();
    if args.timings {
        return timings(&root, &args);
    }
    let profile = if args.full { "full" } else { "quick" };
    let source = RegistrySource::new(args.data_dir.as_deref())?;
    let cli_dir = args.data_dir.is_some();
    eprintln!(
        "reproduce --{profile}: data directory {}",
        source.dir.root.display()
    );
    let t0 = Instant::now();
    let load_before = crate::walls::load();
    // The commit of the code that runs: taken before the run, as the tree may change
    // while it runs.
    let commit = crate::walls::commit(&root);
    let recorded_only = args.recorded_only;
    let out = reproduce(&Reproduce {
        configs: root.join("configs"),
        results: root.join("results"),
        profile: profile.to_string(),
        select: args.tables,
        source: &source,
        write: true,
        progress: true,
        resume: args.resume,
        recorded_only: args.recorded_only,
    })?;
    let load_after = crate::walls::load();
    for r in &out {
        if !recorded_only {
            let wall = crate::walls::Wall {
                profile: profile.to_string(),
                tables: r.report.tables.iter().map(|t| t.id.clone()).collect(),
                seconds: r.report.seconds,
                recorded_runs: r.report.recorded_runs,
                threads: rayon::current_num_threads(),
                load_before,
                load_after,
                finished: crate::walls::now(),
                commit: commit.clone(),
            };
            let runs = root.join("results").join("runs");
            if let Err(e) = crate::walls::append(&runs, &r.name, &wall) {
                eprintln!("{}: wall-clock time not recorded: {e}", r.name);
            }
        }
        let mut missing = 0;
        for t in &r.report.tables {
            missing += t.rows.iter().filter(|row| row.result.is_err()).count();
        }
        for w in &r.written {
            eprintln!("wrote {}", w.strip_prefix(&root).unwrap_or(w).display());
        }
        for k in &r.kept {
            eprintln!(
                "{}",
                kept_line(&r.name, profile, k, &source.dir.root, cli_dir)
            );
        }
        eprintln!(
            "{}: {:.1} s{}",
            r.name,
            r.report.seconds,
            if missing > 0 {
                format!(", {missing} row(s) without data")
            } else {
                String::new()
            }
        );
    }
    eprintln!("total {:.1} s", t0.elapsed().as_secs_f64());
    Ok(())
}

/// `--timings`: sum the records of the selected configs into results/timings.md.
fn timings(root: &Path, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    use mkc_experiments::timings::{markdown, ConfigTimings};
    let runs = root.join("results").join("runs");
    let mut names: Vec<String> = args
        .tables
        .iter()
        .map(|s| s.split_once('.').map_or(s.as_str(), |(c, _)| c).to_string())
        .collect();
    if names.is_empty() {
        for p in mkc_experiments::reproduce::config_files(&root.join("configs"))? {
            if let Some(stem) = p.file_stem().and_then(|s| s.to_str()) {
                names.push(stem.to_string());
            }
        }
    }
    names.dedup();
    let keep = |p: &str| match (args.quick, args.full) {
        (true, _) => p == "quick",
        (_, true) => p == "full",
        _ => true,
    };
    let mut all = Vec::new();
    let mut walls = Vec::new();
    for name in names {
        let w = crate::walls::read(&runs, &name)?;
        let w: Vec<_> = w.into_iter().filter(|w| keep(&w.profile)).collect();
        if !w.is_empty() {
            walls.push((name.clone(), w));
        }
        let mut c = ConfigTimings::read(&runs, &name)?;
        c.profiles.retain(|p, _| keep(p));
        if c.profiles.is_empty() {
            eprintln!("{name}: no records");
            continue;
        }
        for (p, t) in &c.profiles {
            eprintln!(
                "{name} {p}: {:.0} run-seconds in {:.0} runs",
                t.total.seconds, t.total.runs
            );
        }
        all.push(c);
    }
    let out = root.join("results").join("timings.md");
    let mut text = markdown(&all, "results/runs", 15);
    text.push('\n');
    text.push_str(&crate::walls::markdown(&walls));
    std::fs::write(&out, text)?;
    eprintln!("wrote {}", out.strip_prefix(root).unwrap_or(&out).display());
    Ok(())
}

/// What a kept table means: which file, which rows, and the command that fetches them.
fn kept_line(
    name: &str,
    profile: &str,
    k: &mkc_experiments::reproduce::KeptTable,
    data_dir: &Path,
    cli_dir: bool,
) -> String {
    let file = output_path(Path::new("results"), profile, name);
    let flag = if cli_dir {
        format!(" --data-dir {}", data_dir.display())
    } else {
        String::new()
    };
    format!(
        "left table `{}` of {} as it is: {} ha{} results there but no data in the data \
         directory {} (`mkc datasets fetch {}{flag}` gets the data)",
        k.table,
        file.display(),
        k.rows.join(", "),
        if k.rows.len() == 1 { "s" } else { "ve" },
        data_dir.display(),
        k.datasets.join(" "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quick reproduction with an empty data directory leaves every committed results
    /// file as it is, draws no figure, and says which tables it left alone.
    #[test]
    fn missing_data_never_replaces_committed_results() {
        let root = workspace_root();
        let tmp = std::env::temp_dir().join(format!("mkc-xtask-keep-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let (empty, results) = (tmp.join("data"), tmp.join("results"));
        std::fs::create_dir_all(results.join("quick")).unwrap();
        std::fs::create_dir_all(&empty).unwrap();
        let committed = root.join("results/quick");
        let mut files = Vec::new();
        for e in std::fs::read_dir(&committed).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md") {
                let name = p.file_name().unwrap().to_owned();
                std::fs::copy(&p, results.join("quick").join(&name)).unwrap();
                files.push(name);
            }
        }
        assert!(!files.is_empty());
        let source = RegistrySource::new(Some(&empty)).unwrap();
        let out = reproduce(&Reproduce {
            configs: root.join("configs"),
            results: results.clone(),
            profile: "quick".into(),
            select: vec![],
            source: &source,
            write: true,
            progress: false,
            resume: false,
            recorded_only: false,
        })
        .unwrap();
        for name in &files {
            let now = std::fs::read_to_string(results.join("quick").join(name)).unwrap();
            let then = std::fs::read_to_string(committed.join(name)).unwrap();
            assert!(now == then, "{name:?} changed");
        }
        for r in &out {
            assert!(r.written.is_empty(), "{}: wrote {:?}", r.name, r.written);
            assert!(!r.kept.is_empty(), "{}: no table kept", r.name);
            let line = kept_line(&r.name, "quick", &r.kept[0], &empty, true);
            assert!(
                line.contains("`mkc datasets fetch ") && line.contains("--data-dir"),
                "{line}"
            );
        }
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
