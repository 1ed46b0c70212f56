//! The TOML schema of `configs/datasets.toml` (unknown keys are errors).

use crate::preprocess::Preprocess;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The whole registry file: `[datasets.<name>]` tables and the `[downloads]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RegistryFile {
    pub(crate) datasets: BTreeMap<String, DatasetEntry>,
    #[serde(default)]
    pub(crate) downloads: BTreeMap<String, super::download::DownloadToml>,
}

/// How the files of a dataset are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// The bundle layout: `data.csv[.gz]` or `views/*.csv`, `labels.csv`, optional
    /// `split.csv` (and `extra.csv`, checksummed but not loaded).
    Bundle,
    /// A MAT file (v5, or v7.3 with the `mat73` feature): `features_var`, `labels_var`.
    Mat,
    /// One CSV/TSV file holding the label in `label_column`.
    Csv,
    /// One LIBSVM/SVMlight file.
    Libsvm,
    /// A `.npy` feature matrix plus a labels file (one label per line).
    Npy,
    /// A `<name>_Kmatrix.mat` file: `KH` (n x n x m kernels) and `Y`.
    Kmatrix,
}

/// What to do with missing feature values (see [`crate::csv`] for what counts as one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NanHandling {
    /// A missing value is an error naming its row and column.
    #[default]
    Error,
    /// Keep NaN in the features (the caller must cope).
    Keep,
    /// Replace NaN by its column mean over the loaded rows (before any filtering).
    ImputeMean,
}

/// Expected shape of the loaded dataset (after filtering); checked on every load.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Samples.
    pub n: usize,
    /// Features (sum over views; number of kernels for kernel files).
    pub d: usize,
    /// Class name → count. May be left out for files we do not hold (see
    /// [`UNVERIFIED`](super::UNVERIFIED)); then `n_classes` is checked instead.
    #[serde(default)]
    pub classes: BTreeMap<String, usize>,
    /// Number of classes, for entries without per-class counts.
    #[serde(default)]
    pub n_classes: Option<usize>,
}

/// One dataset of the registry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatasetEntry {
    /// One line: what it is and where it comes from.
    pub description: String,
    /// File layout (required unless `base` is given).
    pub format: Option<Format>,
    /// Data-directory-relative path → sha256 (required unless `base` is given), or
    /// `"unverified"` for a file a user supplies whose bytes we have never seen.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// A derived dataset: the registered dataset whose files and reading rules it uses.
    pub base: Option<String>,
    /// MAT/Kmatrix: the feature variable (`X`; `KH` for kmatrix).
    pub features_var: Option<String>,
    /// MAT/Kmatrix: the label variable (`y`; `Y` for kmatrix).
    pub labels_var: Option<String>,
    /// MAT: names of the views of a cell-array feature variable, in cell order.
    pub view_names: Option<Vec<String>>,
    /// Keep only these views, in this order.
    pub views: Option<Vec<String>>,
    /// CSV: 0-based column holding the label; negative counts from the end (−1 = last).
    pub label_column: Option<i64>,
    /// CSV: skip a header line.
    #[serde(default)]
    pub header: bool,
    /// Missing feature values.
    #[serde(default)]
    pub nan: NanHandling,
    /// Drop samples whose label is missing (`?`, `NaN`, `NA`, empty); otherwise a
    /// missing label is an error.
    #[serde(default)]
    pub drop_missing_labels: bool,
    /// Bundle: keep rows whose `split.csv` part is one of these (e.g. `["tes"]`).
    pub split: Option<Vec<String>>,
    /// Keep these classes only (label names as in the source), in this order.
    pub classes: Option<Vec<String>>,
    /// Preprocessing steps, applied in order after all filtering.
    #[serde(default)]
    pub preprocess: Vec<Preprocess>,
    /// Columns (0-based, before encoding) that `one_hot` encodes.
    #[serde(default)]
    pub one_hot_columns: Vec<usize>,
    /// Expected n, d and class counts of the result.
    pub expect: Expect,
}
