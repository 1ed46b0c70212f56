//! `cargo xtask reproduce [TABLE…] [--quick | --full]`: regenerate the paper tables.
//!
//! TABLE is a config name (`rmkc`, the stem of `configs/rmkc.toml`) or one table of it
//! (`rmkc.table2`); all configs when none is given. `--quick` (the default) uses each
//! config's `[profiles.quick]` (fewer restarts, smaller grids) and writes
//! `results/quick/<name>.md`; `--full` follows the paper's protocol and writes
//! `results/<name>.md`. Figures go beside the Markdown, run records to
//! `results/runs/<name>.jsonl` (git-ignored). Datasets are read from `--data-dir`, else
//! `$MKC_DATA_DIR`, else `./data`; absent datasets give "data missing" rows.
//! `--resume` continues an interrupted run from its records (records are appended per
//! dataset as soon as it is done); `--recorded-only` renders what is on record without
//! running anything.

use mkc_experiments::registry::RegistrySource;
use mkc_experiments::reproduce::{reproduce, Reproduce};
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
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

pub fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let root = workspace_root();
    let profile = if args.full { "full" } else { "quick" };
    let source = RegistrySource::new(args.data_dir.as_deref())?;
    eprintln!(
        "reproduce --{profile}: data directory {}",
        source.dir.root.display()
    );
    let t0 = Instant::now();
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
    for r in &out {
        let mut missing = 0;
        for t in &r.report.tables {
            missing += t.rows.iter().filter(|row| row.result.is_err()).count();
        }
        for w in &r.written {
            eprintln!("wrote {}", w.strip_prefix(&root).unwrap_or(w).display());
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
