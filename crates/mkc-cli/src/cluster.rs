//! `mkc cluster`: one run of one method on kernel files, a registered dataset, or a
//! feature file with a kernel recipe.

use crate::labels;
use faer::Mat;
use mkc_core::{Error, Result};
use mkc_experiments::config::{recipe_library, DatasetCfg, Recipe};
use mkc_experiments::dataset::prepare;
use mkc_experiments::methods::{self, Input, KernelUse, Outcome};
use mkc_experiments::params::{ParamSet, ParamValue};
use mkc_experiments::record::RunRecord;
use mkc_experiments::registry::RegistrySource;
use mkc_experiments::Scores;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
#[command(
    after_help = "Methods: run with --method NAME; each method's options are listed below with their defaults."
)]
pub struct ClusterArgs {
    /// Clustering method: kkm (kernel k-means on one kernel), avg-kkm (kernel k-means on the uniform kernel average), and every method registered in mkc-experiments.
    #[arg(long, short = 'm')]
    pub method: String,
    /// Kernel files: .npy (n x n) or `*_Kmatrix.mat` (kernels and labels).
    #[arg(long, num_args = 1.., conflicts_with_all = ["dataset", "data"], required_unless_present_any = ["dataset", "data"])]
    pub kernel: Vec<PathBuf>,
    /// A dataset of the registry (`mkc datasets` lists them).
    #[arg(long, conflicts_with = "data")]
    pub dataset: Option<String>,
    /// A feature file: CSV (numbers only, one sample per row) or .npy (n x d).
    #[arg(long, requires = "recipe")]
    pub data: Option<PathBuf>,
    /// Kernel recipe for --dataset / --data: a name from configs/recipes.toml or from --config.
    #[arg(long)]
    pub recipe: Option<String>,
    /// An experiment config: its `[recipes]` are searched before the built-in ones, and a
    /// --dataset that is one of its `[datasets]` rows comes with that row's source or own
    /// files, subsets and (without --recipe) recipe.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Number of clusters (default for --dataset: the number of classes).
    #[arg(long, short = 'k')]
    pub clusters: Option<usize>,
    /// Random seed (runs are reproducible for a given seed, whatever the thread count).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// For single-kernel methods given several kernels: which kernel to use (1-based).
    #[arg(long)]
    pub kernel_index: Option<usize>,
    /// Where to write the labels (one per line, 0-based).
    #[arg(long, short = 'o')]
    pub out: PathBuf,
    /// Also write the run record (parameters, seed, weights, objective trace, scores) as JSON.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// True labels (one per line) to score against; --dataset and Kmatrix files bring their own.
    #[arg(long)]
    pub truth: Option<PathBuf>,
    /// Data directory (default: $MKC_DATA_DIR, else ./data).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
}

/// Recipe `name`: from the config's `[recipes]` first, then the built-in ones.
pub fn find_recipe(name: &str, config: Option<&Path>) -> Result<Recipe> {
    if let Some(path) = config {
        let (cfg, _) = mkc_experiments::read_config(path)?;
        if let Some(r) = cfg.recipes.get(name) {
            return Ok(r.clone());
        }
    }
    let lib = recipe_library()?;
    lib.get(name).cloned().ok_or_else(|| {
        Error::param(
            "recipe",
            name,
            format!(
                "unknown recipe (built-in: {})",
                lib.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        )
    })
}

/// Kernels, kernel names, features, truth and dataset name from the input options.
pub struct Loaded {
    pub kernels: Vec<Mat<f64>>,
    pub names: Vec<String>,
    pub features: Option<Mat<f64>>,
    /// Per kernel, its own feature map where it has one (`Prepared::kernel_features`).
    pub kernel_features: Vec<Option<Mat<f64>>>,
    pub truth: Option<Vec<usize>>,
    pub n_clusters: Option<usize>,
    pub dataset: String,
}

/// A feature file: CSV (numbers only, one sample per row) or `.npy` (n x d).
pub fn read_features(path: &Path) -> Result<Mat<f64>> {
    mkc_experiments::own_data::read_matrix(path)
}

/// Dataset row `name` of the config at `path` (own-data paths taken relative to the
/// config file) and the name of its recipe; `None` when the config has no such row.
fn config_dataset(path: &Path, name: &str) -> Result<Option<(DatasetCfg, Option<String>)>> {
    let (cfg, _) = mkc_experiments::read_config(path)?;
    let dir = path.parent().unwrap_or(Path::new(""));
    Ok(cfg
        .datasets
        .get(name)
        .map(|d| (d.with_base(dir), d.recipe.clone())))
}

/// `--dataset NAME`: a row of `--config` (its source or own files, subsets, clusters and,
/// without `--recipe`, its recipe), else a registered dataset.
fn load_dataset(
    name: &str,
    recipe: Option<&str>,
    config: Option<&Path>,
    data_dir: Option<&Path>,
) -> Result<Loaded> {
    let source = RegistrySource::new(data_dir)?;
    let row = config
        .map(|c| config_dataset(c, name))
        .transpose()?
        .flatten();
    let (cfg, own_recipe) = row.unwrap_or_default();
    let registered = cfg.source.as_deref().unwrap_or(name);
    if !cfg.is_own() && !source.registry.names().contains(&registered) {
        return Err(Error::param(
            "dataset",
            registered,
            "not in the registry (`mkc datasets` lists the names) nor a dataset of --config",
        ));
    }
    let recipe = recipe
        .or(own_recipe.as_deref())
        .map(|r| find_recipe(r, config))
        .transpose()?;
    let p = prepare(&source, name, &cfg, recipe.as_ref())?;
    Ok(Loaded {
        kernels: p.kernels,
        names: p.kernel_names,
        features: p.features,
        kernel_features: p.kernel_features,
        truth: Some(p.truth),
        n_clusters: Some(p.n_clusters),
        dataset: name.to_string(),
    })
}

/// `--data FILE --recipe R`: the recipe's kernels on a feature file.
fn load_features(path: &Path, recipe: Option<&str>, config: Option<&Path>) -> Result<Loaded> {
    let name =
        recipe.ok_or_else(|| Error::param("recipe", "(missing)", "--data needs --recipe"))?;
    let rc = find_recipe(name, config)?;
    let mut x = read_features(path)?;
    mkc_core::validate::finite(&path.display().to_string(), x.as_ref())?;
    mkc_experiments::recipe::scale_features(&mut x, rc.scale);
    let views = vec![(String::new(), x)];
    let (kernels, names) = mkc_experiments::recipe::build_kernels(&views, &rc)?;
    let x = views.into_iter().next().map(|v| v.1);
    Ok(Loaded {
        kernels,
        names,
        features: x,
        kernel_features: vec![],
        truth: None,
        n_clusters: None,
        dataset: path.display().to_string(),
    })
}

/// `--kernel FILE…`: `.npy` kernels, or `*_Kmatrix.mat` files (kernels and labels).
fn load_kernel_files(files: &[PathBuf]) -> Result<Loaded> {
    let mut kernels = Vec::new();
    let mut names = Vec::new();
    let mut truth = None;
    for path in files {
        let is_mat = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("mat"));
        if is_mat {
            let (ks, y) = mkc_data::read_kmatrix(path)?;
            for (p, k) in ks.into_iter().enumerate() {
                names.push(format!("{}[{}]", path.display(), p + 1));
                kernels.push(k);
            }
            let mut classes: Vec<f64> = y.clone();
            classes.sort_by(f64::total_cmp);
            classes.dedup();
            truth = Some(
                y.iter()
                    .map(|v| classes.iter().position(|c| c == v).unwrap_or(0))
                    .collect(),
            );
        } else {
            kernels.push(mkc_data::npy::read(path)?);
            names.push(path.display().to_string());
        }
    }
    let refs: Vec<_> = kernels.iter().map(|k| k.as_ref()).collect();
    mkc_core::validate::kernels("--kernel", &refs)?;
    Ok(Loaded {
        kernels,
        names,
        features: None,
        kernel_features: vec![],
        truth,
        n_clusters: None,
        dataset: String::new(),
    })
}

/// The kernels (and features, truth) of `mkc cluster` / `mkc kernels`: from a dataset
/// (`--dataset`, with `--config`'s row when it has one), a feature file (`--data`) or
/// kernel files (`--kernel`).
pub fn load(
    kernel: &[PathBuf],
    dataset: Option<&str>,
    data: Option<&Path>,
    recipe: Option<&str>,
    config: Option<&Path>,
    data_dir: Option<&Path>,
) -> Result<Loaded> {
    match (dataset, data) {
        (Some(name), _) => load_dataset(name, recipe, config, data_dir),
        (None, Some(path)) => load_features(path, recipe, config),
        (None, None) => load_kernel_files(kernel),
    }
}

/// Parse `--<param> value` pairs for `method`.
pub fn params_for(method: &dyn methods::Method, given: &[(String, String)]) -> Result<ParamSet> {
    let specs = method.params();
    let mut map: BTreeMap<String, ParamValue> = BTreeMap::new();
    for (name, text) in given {
        let Some(spec) = specs.iter().find(|s| s.name == name) else {
            let own: Vec<String> = specs.iter().map(|s| format!("--{}", s.name)).collect();
            return Err(Error::param(
                name,
                text,
                format!(
                    "option --{name} does not apply to method {} (its options: {})",
                    method.name(),
                    if own.is_empty() {
                        "none".into()
                    } else {
                        own.join(", ")
                    }
                ),
            ));
        };
        map.insert(name.clone(), spec.kind.parse(name, text)?);
    }
    let set = ParamSet::from_specs(&specs, &map)?;
    method.check(&set)?;
    Ok(set)
}

/// The kernels `lo..hi` the method uses: all of them, or the one `--kernel-index`
/// chooses for a single-kernel method given several.
fn kernel_range(
    method: &dyn methods::Method,
    m: usize,
    kernel_index: Option<usize>,
) -> Result<(usize, usize)> {
    match method.kernels() {
        KernelUse::Single if m > 1 => match kernel_index {
            Some(i) if (1..=m).contains(&i) => Ok((i - 1, i)),
            Some(i) => Err(Error::param("kernel-index", i, format!("must be between 1 and {m}"))),
            None => Err(Error::param(
                "kernel-index",
                "(missing)",
                format!("method {} uses one kernel but {m} were given; choose one with --kernel-index 1..{m}", method.name()),
            )),
        },
        _ => Ok((0, m)),
    }
}

/// The true labels: `--truth`, else those the data brought.
fn truth_of(path: Option<&Path>, loaded: &Loaded, n: usize) -> Result<Option<Vec<usize>>> {
    match path {
        Some(p) => {
            let t = labels::read(p)?;
            mkc_core::validate::len(&format!("--truth {}", p.display()), t.len(), n)?;
            Ok(Some(t))
        }
        None => Ok(loaded.truth.clone()),
    }
}

/// What the run found, on stdout.
fn print_summary(a: &ClusterArgs, run: &RunRecord, out: &Outcome, kernels: usize) {
    println!(
        "method {}  n = {}  clusters = {}  kernels = {kernels}  seed = {}",
        run.method, run.n, run.n_clusters, a.seed
    );
    println!("labels written to {}", a.out.display());
    if let Some(w) = &out.weights {
        let ws: Vec<String> = w.iter().map(|x| format!("{x:.4}")).collect();
        println!("kernel weights: {}", ws.join(" "));
    }
    if out.iterations > 0 {
        println!(
            "iterations: {}  final objective: {}",
            out.iterations,
            out.objective
                .last()
                .map_or("-".into(), |v| format!("{v:.6e}"))
        );
    }
    if let Some(s) = &run.metrics {
        println!(
            "ACC {:.2}  NMI(max) {:.2}  NMI(arith) {:.2}  purity {:.2}  ARI {:.2}  (%)",
            s.acc, s.nmi, s.nmi_arith, s.purity, s.ari
        );
    }
    println!("time {:.3} s", run.wall_time_s);
}

pub fn run(a: ClusterArgs, given: &[(String, String)]) -> Result<()> {
    let method = methods::require(&a.method)?;
    let params = params_for(method, given)?;
    let loaded = load(
        &a.kernel,
        a.dataset.as_deref(),
        a.data.as_deref(),
        a.recipe.as_deref(),
        a.config.as_deref(),
        a.data_dir.as_deref(),
    )?;
    // Features-only recipes (`kernels = []`) bring no kernel: n comes from the features.
    let n = loaded
        .kernels
        .first()
        .map(|k| k.nrows())
        .or_else(|| loaded.features.as_ref().map(|x| x.nrows()))
        .unwrap_or(0);
    let truth = truth_of(a.truth.as_deref(), &loaded, n)?;
    let k = a
        .clusters
        .or(loaded.n_clusters)
        .ok_or_else(|| Error::param("clusters", "(missing)", "give --clusters K"))?;
    mkc_core::validate::n_clusters(k, n, 2)?;
    let m = loaded.kernels.len();
    let (lo, hi) = kernel_range(method, m, a.kernel_index)?;
    // A single kernel brings its own feature map when it has one (as in the experiments).
    let own = match hi - lo {
        1 => loaded.kernel_features.get(lo).and_then(Option::as_ref),
        _ => None,
    };
    let input = Input {
        kernels: &loaded.kernels[lo..hi],
        kernel_names: &loaded.names[lo..hi],
        features: own.or(loaded.features.as_ref()).map(|x| x.as_ref()),
        n_clusters: k,
        n,
    };
    let t0 = Instant::now();
    let out = method.run(&input, &params, a.seed)?;
    let secs = t0.elapsed().as_secs_f64();
    labels::write(&a.out, &out.labels)?;
    let mut rec = RunRecord {
        profile: "cli".into(),
        dataset: loaded.dataset.clone(),
        method: method.name().into(),
        params,
        kernel: (hi - lo == 1 && m > 1).then(|| (lo, loaded.names[lo].clone())),
        base_seed: a.seed,
        seed: a.seed,
        n,
        n_clusters: k,
        metrics: truth
            .as_ref()
            .map(|t| Scores::compute(t, &out.labels, secs))
            .transpose()?,
        wall_time_s: secs,
        ..RunRecord::default()
    };
    rec.set_outcome(&out);
    print_summary(&a, &rec, &out, hi - lo);
    if let Some(path) = &a.report {
        let text = serde_json::to_string_pretty(&rec)
            .map_err(|e| Error::input("run report", e.to_string()))?;
        std::fs::write(path, text + "\n").map_err(|e| Error::io(path, e))?;
        println!("report written to {}", path.display());
    }
    Ok(())
}
