//! `mkc score`, `mkc run`, `mkc datasets` (and `mkc datasets fetch`), `mkc kernels`.

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
    /// Run the jobs on the Dask scheduler at this address (tcp://host:8786) through the
    /// Python package (`python -m mkc.sweep`; interpreter: $MKC_PYTHON, else python3).
    #[arg(long, value_name = "ADDRESS")]
    pub dask: Option<String>,
}

pub fn run(a: RunArgs) -> Result<()> {
    if let Some(address) = &a.dask {
        return crate::dask::run(&a, address);
    }
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
    #[command(subcommand)]
    pub action: Option<DatasetsAction>,
    /// Data directory (default: $MKC_DATA_DIR, else ./data).
    #[arg(long, global = true)]
    pub data_dir: Option<PathBuf>,
}

#[derive(clap::Subcommand)]
pub enum DatasetsAction {
    /// Download datasets into the data directory, each file checked against its
    /// registered size and sha256 before it takes its name; resumes interrupted
    /// downloads, retries with back-off, one line per file.
    Fetch(FetchArgs),
}

/// The experiment configs whose datasets `--paper` fetches (compiled in, like the
/// registry).
const PAPERS: [(&str, &str); 5] = [
    ("rmkc", include_str!("../../../configs/rmkc.toml")),
    (
        "simplemkkm",
        include_str!("../../../configs/simplemkkm.toml"),
    ),
    ("lgmmc", include_str!("../../../configs/lgmmc.toml")),
    ("gumkl", include_str!("../../../configs/gumkl.toml")),
    ("scmk", include_str!("../../../configs/scmk.toml")),
];

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true).args(["names", "paper", "all"])))]
pub struct FetchArgs {
    /// Datasets by registry name (`mkc datasets` lists them).
    pub names: Vec<String>,
    /// Every dataset of a paper's tables.
    #[arg(long, value_parser = ["rmkc", "simplemkkm", "lgmmc", "gumkl", "scmk"])]
    pub paper: Vec<String>,
    /// Every registered dataset.
    #[arg(long, conflicts_with_all = ["names", "paper"])]
    pub all: bool,
    /// A folder laid out like the data directory (e.g. a shared copy) whose verified
    /// files are copied instead of downloaded; may be repeated. The repository's own
    /// data/ folder is always searched.
    #[arg(long)]
    pub from: Vec<PathBuf>,
    /// Attempts per URL (1..=20).
    #[arg(long, default_value_t = 4)]
    pub attempts: u32,
}

pub fn datasets(a: DatasetsArgs) -> Result<()> {
    let source = RegistrySource::new(a.data_dir.as_deref())?;
    match a.action {
        Some(DatasetsAction::Fetch(f)) => fetch(f, &source),
        None => list(&source),
    }
}

/// Where the data directory came from, in words.
fn dir_origin(dir: &mkc_data::DataDir) -> &'static str {
    match dir.source {
        mkc_data::DataDirSource::Cli => "--data-dir",
        mkc_data::DataDirSource::Env => "$MKC_DATA_DIR",
        mkc_data::DataDirSource::Default => "the default ./data",
    }
}

/// The missing files of `name` that can be fetched (not manual), and whether any
/// missing file has no public download.
fn missing_files(
    source: &RegistrySource,
    name: &str,
) -> Result<(Vec<mkc_data::registry::Download>, bool)> {
    let (mut fetchable, mut manual) = (Vec::new(), false);
    for f in source.registry.status(name, &source.dir)?.missing() {
        let d = source.registry.download(&f.rel)?;
        if d.is_fetchable() {
            fetchable.push(d);
        } else {
            manual = true;
        }
    }
    Ok((fetchable, manual))
}

fn list(source: &RegistrySource) -> Result<()> {
    use mkc_data::fetch::human_bytes;
    use std::fmt::Write as _;
    let mut out = String::new();
    let rows = source.registry.summaries(&source.dir)?;
    let _ = writeln!(
        out,
        "data directory: {} (from {})",
        source.dir.root.display(),
        dir_origin(&source.dir)
    );
    let w = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "{:<w$}  {:>6}  {:>6}  {:>7}  {:<14}  description",
        "name", "n", "d", "classes", "files"
    );
    let mut to_fetch: Vec<mkc_data::registry::Download> = Vec::new();
    let (mut present, mut manual_sets) = (0, 0);
    for r in &rows {
        let (fetchable, manual) = missing_files(source, &r.name)?;
        let size: u64 = fetchable.iter().filter_map(|d| d.size).sum();
        let files = if r.present {
            present += 1;
            "present".to_string()
        } else if manual {
            manual_sets += 1;
            "manual".to_string()
        } else {
            format!("fetch {}", human_bytes(size))
        };
        for d in fetchable {
            if !to_fetch.iter().any(|x| x.rel == d.rel) {
                to_fetch.push(d);
            }
        }
        let _ = writeln!(
            out,
            "{:<w$}  {:>6}  {:>6}  {:>7}  {:<14}  {}",
            r.name, r.n, r.d, r.n_classes, files, r.description
        );
    }
    let total: u64 = to_fetch.iter().filter_map(|d| d.size).sum();
    let _ = writeln!(
        out,
        "\n{present} of {} datasets present. `mkc datasets fetch NAME…` (or --paper P, --all) gets \
         the {} missing files that can be fetched ({}).",
        rows.len(),
        to_fetch.len(),
        human_bytes(total)
    );
    if manual_sets > 0 {
        let _ = writeln!(
            out,
            "{manual_sets} datasets (\"manual\") have a file without a public download: \
             `mkc datasets fetch NAME` says what it is and where it goes."
        );
    }
    // `mkc datasets | head` closes the pipe early: not an error
    use std::io::Write as _;
    match std::io::stdout().lock().write_all(out.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::io("standard output", e))
        }
        _ => Ok(()),
    }
}

/// Registry names of the datasets of a paper's config.
fn paper_datasets(paper: &str) -> Result<Vec<String>> {
    let (name, text) = PAPERS.iter().find(|(n, _)| *n == paper).ok_or_else(|| {
        Error::param(
            "paper",
            paper,
            "one of rmkc, simplemkkm, lgmmc, gumkl, scmk",
        )
    })?;
    let cfg = mkc_experiments::config::parse_config(&format!("configs/{name}.toml"), text)?;
    Ok(cfg
        .datasets
        .iter()
        .map(|(key, d)| d.source.clone().unwrap_or_else(|| key.clone()))
        .collect())
}

fn fetch(a: FetchArgs, source: &RegistrySource) -> Result<()> {
    use mkc_data::fetch::{human_bytes, FetchOptions, Outcome, TermProgress};
    let mut names: Vec<String> = if a.all {
        source
            .registry
            .names()
            .into_iter()
            .map(String::from)
            .collect()
    } else {
        a.names.clone()
    };
    for p in &a.paper {
        names.extend(paper_datasets(p)?);
    }
    let mut seen = std::collections::BTreeSet::new();
    names.retain(|n| seen.insert(n.clone()));
    let mut local_copies = a.from.clone();
    // the checkout this binary was built from holds the committed files
    let repo_data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    if let Ok(dir) = repo_data.canonicalize() {
        local_copies.push(dir);
    }
    let opts = FetchOptions {
        attempts: a.attempts,
        local_copies,
        ..FetchOptions::default()
    };
    println!(
        "fetching {} datasets into {} (from {})",
        names.len(),
        source.dir.root.display(),
        dir_origin(&source.dir)
    );
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let reports = mkc_data::fetch::fetch(
        &source.registry,
        &refs,
        &source.dir,
        &opts,
        &TermProgress::new(),
    )?;
    let count =
        |f: &dyn Fn(&mkc_data::fetch::FileReport) -> bool| reports.iter().filter(|r| f(r)).count();
    let fetched_bytes: u64 = reports
        .iter()
        .filter(|r| matches!(r.result, Ok(Outcome::Fetched { .. })))
        .filter_map(|r| r.download.size)
        .sum();
    let failed = count(&|r| !r.is_ok() && !r.is_manual());
    println!(
        "{} files: {} fetched ({}), {} copied, {} already present, {} without a public download, {} failed",
        reports.len(),
        count(&|r| matches!(r.result, Ok(Outcome::Fetched { .. }))),
        human_bytes(fetched_bytes),
        count(&|r| matches!(r.result, Ok(Outcome::Copied { .. }))),
        count(&|r| matches!(r.result, Ok(Outcome::Present))),
        count(&|r| r.is_manual()),
        failed
    );
    if failed > 0 {
        return Err(Error::input(
            "mkc datasets fetch",
            format!("{failed} file(s) failed (see above); run the command again to resume"),
        ));
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
    /// An experiment config whose `[recipes]` are searched first.
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
