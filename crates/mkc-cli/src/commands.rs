//! `mkc score`, `mkc run`, `mkc datasets`, `mkc kernels`.

use crate::cluster::{find_recipe, load};
use crate::labels;
use mkc_core::{Error, Result};
use mkc_experiments::registry::RegistrySource;
use mkc_experiments::reproduce::load_plan;
use mkc_experiments::runner::{run_plan, RunOptions};
use mkc_experiments::table::{render, RenderOptions};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ScoreArgs {
    /// True labels, one per line (any text).
    #[arg(long)]
    pub truth: PathBuf,
    /// Predicted labels, one per line (any text).
    #[arg(long)]
    pub pred: PathBuf,
}

pub fn score(a: ScoreArgs) -> Result<()> {
    let t = labels::read(&a.truth)?;
    let p = labels::read(&a.pred)?;
    if t.len() != p.len() {
        return Err(Error::input(
            "score",
            format!(
                "{} has {} labels but {} has {}",
                a.truth.display(),
                t.len(),
                a.pred.display(),
                p.len()
            ),
        ));
    }
    let s = mkc_metrics::score_all(&t, &p)?;
    println!("n           {}", t.len());
    println!("ACC         {:.4}", s.acc);
    println!("NMI (max)   {:.4}", s.nmi_max);
    println!("NMI (arith) {:.4}", s.nmi_arith);
    println!("purity      {:.4}", s.purity);
    println!("ARI         {:.4}", s.ari);
    Ok(())
}

#[derive(clap::Args)]
pub struct RunArgs {
    /// The experiment config (e.g. configs/rmkc.toml).
    pub config: PathBuf,
    /// Profile: `full` (the paper's protocol) or one the config defines (e.g. `quick`).
    #[arg(long, default_value = "full")]
    pub profile: String,
    /// Write the Markdown here instead of printing it.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Append one JSON record per run to this file.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Continue an interrupted run: jobs whose runs are all in --records (same profile,
    /// dataset, method, parameters, kernel and seeds) are taken from there.
    #[arg(long, requires = "records")]
    pub resume: bool,
    /// Data directory (default: $MKC_DATA_DIR, else ./data).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Show wall-clock times in the tables.
    #[arg(long)]
    pub timings: bool,
}

pub fn run(a: RunArgs) -> Result<()> {
    let source = RegistrySource::new(a.data_dir.as_deref())?;
    let (plan, hash) = load_plan(&a.config, &a.profile, &source)?;
    let index = match (&a.records, a.resume) {
        (Some(path), true) => Some(mkc_experiments::resume::RecordIndex::read(path)?),
        _ => None,
    };
    let report = run_plan(
        &plan,
        &RunOptions {
            source: &source,
            records: a.records.clone(),
            progress: true,
            config_hash: hash,
            resume: index.as_ref(),
            recorded_only: false,
        },
    )?;
    let md = render(&report, RenderOptions { timings: a.timings });
    match &a.out {
        Some(p) => {
            std::fs::write(p, md + "\n").map_err(|e| Error::io(p, e))?;
            eprintln!("wrote {}", p.display());
        }
        None => println!("{md}"),
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct DatasetsArgs {
    /// Data directory (default: $MKC_DATA_DIR, else ./data).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
}

pub fn datasets(a: DatasetsArgs) -> Result<()> {
    let source = RegistrySource::new(a.data_dir.as_deref())?;
    let rows = source.registry.summaries(&source.dir)?;
    println!("data directory: {}", source.dir.root.display());
    let w = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    println!(
        "{:<w$}  {:>6}  {:>6}  {:>7}  {:<7}  description",
        "name", "n", "d", "classes", "files"
    );
    for r in rows {
        let files = if r.present { "present" } else { "missing" };
        println!(
            "{:<w$}  {:>6}  {:>6}  {:>7}  {:<7}  {}",
            r.name, r.n, r.d, r.n_classes, files, r.description
        );
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct KernelsArgs {
    /// A dataset of the registry.
    #[arg(long, conflicts_with = "data", required_unless_present = "data")]
    pub dataset: Option<String>,
    /// A feature file (CSV or .npy, one sample per row).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Kernel recipe: a name from configs/recipes.toml or from --config.
    #[arg(long)]
    pub recipe: String,
    /// An experiment config whose [recipes] are searched first.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Output directory: K1.npy, K2.npy, … and kernels.txt (one name per line).
    #[arg(long, short = 'o')]
    pub out: PathBuf,
    /// Data directory (default: $MKC_DATA_DIR, else ./data).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
}

pub fn kernels(a: KernelsArgs) -> Result<()> {
    find_recipe(&a.recipe, a.config.as_deref())?;
    let l = load(
        &[],
        a.dataset.as_deref(),
        a.data.as_deref(),
        Some(&a.recipe),
        a.config.as_deref(),
        a.data_dir.as_deref(),
    )?;
    std::fs::create_dir_all(&a.out).map_err(|e| Error::io(&a.out, e))?;
    let mut list = String::new();
    for (p, (k, name)) in l.kernels.iter().zip(&l.names).enumerate() {
        let path = a.out.join(format!("K{}.npy", p + 1));
        mkc_data::npy::write(&path, k.as_ref())?;
        list.push_str(&format!("K{}.npy\t{name}\n", p + 1));
    }
    let idx = a.out.join("kernels.txt");
    std::fs::write(&idx, list).map_err(|e| Error::io(&idx, e))?;
    println!(
        "wrote {} kernels ({} x {}) to {}",
        l.kernels.len(),
        l.kernels.first().map_or(0, |k| k.nrows()),
        l.kernels.first().map_or(0, |k| k.nrows()),
        a.out.display()
    );
    Ok(())
}
