//! The serde structs of the config file. Every struct denies unknown keys.

use crate::metric::Metric;
use crate::paper::PaperValue;
use crate::params::ParamValue;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A whole config file: one paper's experiments (or one group of tables).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Short name; the file stem when absent. Names the output files.
    #[serde(default)]
    pub name: Option<String>,
    /// Title printed at the top of the generated Markdown.
    pub title: String,
    /// Free text printed under the title (where the numbers come from, protocol).
    #[serde(default)]
    pub description: String,
    /// Base seeds (default `[0]`); run `r` of seed `s` uses `derive(s, r)`.
    #[serde(default)]
    pub seeds: Option<Vec<u64>>,
    /// Runs per grid point and seed (the papers' "restarts").
    pub restarts: usize,
    /// Default metrics of every table.
    #[serde(default)]
    pub metrics: Option<Vec<Metric>>,
    /// Named kernel recipes, reusable across datasets.
    #[serde(default)]
    pub recipes: BTreeMap<String, Recipe>,
    /// Datasets (rows of the tables).
    #[serde(default)]
    pub datasets: BTreeMap<String, DatasetCfg>,
    /// Tables, rendered in the order of their keys.
    pub tables: BTreeMap<String, TableCfg>,
    /// Profiles (`quick`, `full`): overrides applied by [`crate::config::resolve`].
    #[serde(default)]
    pub profiles: BTreeMap<String, ProfileCfg>,
}

/// Feature scaling applied (per column) before kernels are built.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    /// Raw features.
    #[default]
    None,
    /// Each column to [0, 1].
    Minmax,
    /// Each column to [−1, 1] (LG-MMC's package).
    Symmetric,
    /// Each column to mean 0, standard deviation 1.
    Zscore,
}

/// How a kernel list is built from the features of a dataset.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    /// Feature scaling before the kernels are built.
    #[serde(default)]
    pub scale: Scale,
    /// Kernel entries; each expands to one kernel per listed width / parameter. Empty:
    /// a features-only recipe (no kernel is built; feature-space methods only).
    #[serde(default)]
    pub kernels: Vec<KernelEntry>,
    /// Normalisations applied to every kernel, in order.
    #[serde(default)]
    pub normalize: Vec<NormalizeStep>,
    /// For multi-view data: build the kernel list on every view (default true). With
    /// `false` the views are concatenated column-wise first.
    #[serde(default = "yes")]
    pub per_view: bool,
}

fn yes() -> bool {
    true
}

/// Kernel families of a recipe entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KernelKind {
    /// xᵀy.
    Linear,
    /// (a + xᵀy)^degree for every listed `a` × `degree`.
    Polynomial,
    /// exp(−‖x−y‖²/(2σ²)), σ from exactly one width rule.
    Gaussian,
    /// exp(−‖x−y‖²/(t·d_max²)) for every listed `t` (SCMK).
    GaussianScaled,
    /// xᵀy / (‖x‖‖y‖).
    Cosine,
}

/// One entry of a recipe's kernel list.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelEntry {
    /// The kernel family.
    pub kind: KernelKind,
    /// Gaussian: absolute widths σ.
    #[serde(default)]
    pub sigma: Option<Vec<f64>>,
    /// Gaussian: σ = f · (max d − min d) over pairwise distances d (RMKC).
    #[serde(default)]
    pub sigma_range_fraction: Option<Vec<f64>>,
    /// Gaussian: σ = r · sqrt(mean pairwise squared distance) (LG-MMC).
    #[serde(default)]
    pub sigma_mean_ratio: Option<Vec<f64>>,
    /// Gaussian: σ = r · median pairwise distance.
    #[serde(default)]
    pub sigma_median_ratio: Option<Vec<f64>>,
    /// Gaussian-scaled: the factors t.
    #[serde(default)]
    pub t: Option<Vec<f64>>,
    /// Polynomial: offsets a.
    #[serde(default)]
    pub a: Option<Vec<f64>>,
    /// Polynomial: degrees.
    #[serde(default)]
    pub degree: Option<Vec<u32>>,
}

/// Kernel normalisations (see `mkc_kernels::normalize`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NormalizeStep {
    /// Centre in feature space.
    Center,
    /// K_ij / sqrt(K_ii K_jj).
    UnitDiagonal,
    /// Divide by the largest entry.
    DivideByMax,
    /// Divide by the trace / n (unit mean diagonal).
    Trace,
    /// Multiplicative normalisation: K / (tr(K)/n − 1ᵀK1/n²).
    Multiplicative,
}

/// A dataset row: a registered dataset (`source`, or the key), or the user's own files
/// (`features` or `kernels`, with `labels`). Every key is optional (absent: `None`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatasetCfg {
    /// Name in the dataset registry (`configs/datasets.toml`); defaults to the key.
    pub source: Option<String>,
    /// Own data: feature files, one sample per row (CSV of numbers, or `.npy`). One file
    /// is one feature matrix; several are views of the same samples, named by their file
    /// stems. Paths are relative to the config file.
    pub features: Option<Vec<PathBuf>>,
    /// Own data: precomputed kernel files, one n x n kernel each (`.npy`, or CSV).
    pub kernels: Option<Vec<PathBuf>>,
    /// Own data: the true class of every sample, one label per line (any text), to
    /// score the clusterings against.
    pub labels: Option<PathBuf>,
    /// Row label in the tables; defaults to the key.
    pub label: Option<String>,
    /// Name of the kernel recipe (ignored when the dataset ships precomputed kernels).
    pub recipe: Option<String>,
    /// Keep only samples of these classes (by class name, as the registry names them).
    pub classes: Option<Vec<String>>,
    /// Keep only these views (multi-view data), in this order.
    pub views: Option<Vec<String>>,
    /// Number of clusters; the number of classes (after the subset) when absent.
    pub clusters: Option<usize>,
}

impl DatasetCfg {
    /// Whether the row is the user's own files rather than a registered dataset.
    pub fn is_own(&self) -> bool {
        self.features.is_some() || self.kernels.is_some() || self.labels.is_some()
    }

    /// The same row with its relative file paths taken from directory `dir` (the
    /// config file's).
    pub fn with_base(&self, dir: &Path) -> DatasetCfg {
        let join = |files: &Option<Vec<PathBuf>>| {
            files
                .as_ref()
                .map(|v| v.iter().map(|p| dir.join(p)).collect())
        };
        DatasetCfg {
            features: join(&self.features),
            kernels: join(&self.kernels),
            labels: self.labels.as_ref().map(|p| dir.join(p)),
            ..self.clone()
        }
    }
}

/// How the runs of a column are summarised into one cell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SummaryRule {
    /// The grid point (and, for single-kernel methods, the kernel) with the best mean of
    /// the selection metric; mean ± std over its runs (the papers' "best").
    #[default]
    Best,
    /// Single-kernel methods: for each kernel its best grid point, then mean ± std over
    /// the runs of all kernels pooled (the papers' "average over kernels").
    Average,
}

/// A column of a table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnCfg {
    /// Identifier (keys the paper values and the profile overrides).
    pub id: String,
    /// Column header.
    pub label: String,
    /// Method name in the registry; absent = a column that shows the paper's numbers only.
    #[serde(default)]
    pub method: Option<String>,
    /// Fixed hyperparameters (the method's defaults fill the rest).
    #[serde(default)]
    pub params: BTreeMap<String, ParamValue>,
    /// Hyperparameter grid: every combination is run.
    #[serde(default)]
    pub grid: BTreeMap<String, Vec<ParamValue>>,
    /// Summary rule.
    #[serde(default)]
    pub summary: SummaryRule,
    /// Metric that picks the best grid point; the table's first metric when absent.
    /// `per_metric = true` picks the best grid point separately for each metric.
    #[serde(default)]
    pub select: Option<Metric>,
    /// Pick the best separately for each metric (some papers do).
    #[serde(default)]
    pub per_metric: bool,
    /// Runs per grid point (overrides the table / file value).
    #[serde(default)]
    pub restarts: Option<usize>,
    /// Which of the table's row parameters this column takes, and under which of its
    /// method's parameter names: `{ balance = "ell" }` (row key → method parameter;
    /// `{}` takes none). Absent: every row parameter, each under its own name, and each
    /// must be a parameter of the column's method.
    #[serde(default)]
    pub row_params: Option<BTreeMap<String, String>>,
    /// Run the method on these rows of the table only; the others show the paper's
    /// value alone (e.g. a method too slow for the large sets). Absent: every row.
    #[serde(default)]
    pub rows: Option<Vec<String>>,
    /// Dataset row → recipe: on these rows the column runs on the kernels of another
    /// recipe than the row's own (e.g. NC on MNIST's Gaussians while the other columns
    /// keep its features-only recipe). The runner builds each (row, recipe) kernel set
    /// once, shares it among the columns that use it and drops it when they are done.
    #[serde(default)]
    pub row_recipes: BTreeMap<String, String>,
}

/// What a figure shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FigureKind {
    /// The learned kernel weights of a column's chosen run, one bar per kernel.
    Weights,
    /// The objective value per iteration of a column's chosen run.
    Objective,
}

/// A figure (SVG) written beside the table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureCfg {
    /// File stem of the SVG.
    pub id: String,
    /// What it shows.
    pub kind: FigureKind,
    /// Column whose chosen run is plotted.
    pub column: String,
    /// Dataset rows plotted (one series / panel each); all rows when absent.
    #[serde(default)]
    pub datasets: Option<Vec<String>>,
    /// Caption.
    #[serde(default)]
    pub title: Option<String>,
}

/// A table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableCfg {
    /// Table heading.
    pub title: String,
    /// Notes printed under the table (Markdown).
    #[serde(default)]
    pub notes: String,
    /// Rows: dataset keys of `[datasets]`, in order.
    pub datasets: Vec<String>,
    /// Metrics (one Markdown table each); the file's `metrics` or `["acc"]` when absent.
    #[serde(default)]
    pub metrics: Option<Vec<Metric>>,
    /// Runs per grid point (overrides the file value).
    #[serde(default)]
    pub restarts: Option<usize>,
    /// Columns.
    pub columns: Vec<ColumnCfg>,
    /// Paper values: metric → dataset key → column id → value (`73.22`, `"73.22 ± 2.90"`).
    #[serde(default)]
    pub paper: BTreeMap<Metric, BTreeMap<String, BTreeMap<String, PaperValue>>>,
    /// Where the paper values come from (e.g. "rmkc.md, Table 2").
    #[serde(default)]
    pub paper_source: Option<String>,
    /// Figures.
    #[serde(default)]
    pub figures: Vec<FigureCfg>,
    /// Per-row parameters: dataset key → parameter → value, applied to every column
    /// whose method declares the parameter (e.g. LG-MMC's class balance, which the paper
    /// sets per dataset). A row parameter may not also be a grid key of such a column.
    #[serde(default)]
    pub row_params: BTreeMap<String, BTreeMap<String, ParamValue>>,
}

/// Overrides of a profile.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileCfg {
    /// Runs per grid point for every table.
    #[serde(default)]
    pub restarts: Option<usize>,
    /// Base seeds.
    #[serde(default)]
    pub seeds: Option<Vec<u64>>,
    /// Per-table overrides.
    #[serde(default)]
    pub tables: BTreeMap<String, TableOverride>,
}

/// Overrides of one table within a profile.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableOverride {
    /// Only these rows (dataset keys); the others are left out of the table.
    #[serde(default)]
    pub datasets: Option<Vec<String>>,
    /// Runs per grid point.
    #[serde(default)]
    pub restarts: Option<usize>,
    /// Column id → grid replacing (per parameter) the column's grid.
    #[serde(default)]
    pub grids: BTreeMap<String, BTreeMap<String, Vec<ParamValue>>>,
    /// Column id → fixed parameters merged over the column's.
    #[serde(default)]
    pub params: BTreeMap<String, BTreeMap<String, ParamValue>>,
    /// Column ids left out of the table.
    #[serde(default)]
    pub skip_columns: Vec<String>,
}
