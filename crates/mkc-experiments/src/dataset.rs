//! Loading a dataset row of a config: registry lookup, class and view subsets, feature
//! scaling and the kernel recipe. Kernels are built once per dataset and recipe (the
//! row's own, or one that columns name in `row_recipes`) and shared by every column and
//! table that runs on them.

use crate::config::{DatasetCfg, Recipe};
use crate::recipe::{build_kernels, normalize_all, scale_features};
use faer::Mat;
use mkc_core::{Error, Result};
use std::path::PathBuf;

/// Features of a loaded dataset (mirrors `mkc_data::Features`).
pub enum RawFeatures {
    /// n x d, rows = samples.
    Dense(Mat<f64>),
    /// Sparse n x d (e.g. tf-idf); kernels by `mkc_kernels::gram_sparse`.
    Sparse(faer::sparse::SparseRowMat<usize, f64>),
    /// Named views, same rows.
    Views(Vec<(String, Mat<f64>)>),
    /// Precomputed kernels.
    Kernels(Vec<Mat<f64>>),
}

/// A dataset as a [`DataSource`] returns it.
pub struct RawData {
    /// Features.
    pub features: RawFeatures,
    /// Class of each sample (0-based).
    pub labels: Vec<usize>,
    /// Name of each class.
    pub class_names: Vec<String>,
}

/// Where datasets come from: the mkc-data registry ([`crate::registry::RegistrySource`]) or,
/// in tests, memory.
pub trait DataSource: Sync {
    /// Whether `name` is a known dataset (present or not).
    fn contains(&self, name: &str) -> bool;
    /// Load it; a missing file is `Error::MissingData` (the table says "data missing").
    fn load(&self, name: &str) -> Result<RawData>;
}

/// A dataset ready for the methods.
pub struct Prepared {
    /// Config key.
    pub key: String,
    /// Number of samples.
    pub n: usize,
    /// Number of clusters.
    pub n_clusters: usize,
    /// True classes (0-based), for scoring only.
    pub truth: Vec<usize>,
    /// The kernels.
    pub kernels: Vec<Mat<f64>>,
    /// A name per kernel.
    pub kernel_names: Vec<String>,
    /// Scaled features (views side by side), when the dataset has dense features.
    pub features: Option<Mat<f64>>,
    /// Per kernel, a feature map of its own where it differs from `features` (empty, or
    /// one entry per kernel): the scaled view of a per-view linear kernel, so that a
    /// single-kernel method with a feature-space path can take it
    /// ([`Prepared::features_of`]).
    pub kernel_features: Vec<Option<Mat<f64>>>,
    /// The recipe the kernels were built with when it is not the row's own (a column's
    /// `row_recipes`); `None` for the row's own recipe.
    pub recipe: Option<String>,
}

impl Prepared {
    /// The features a single-kernel job on kernel `p` gets (`None`: a job on all
    /// kernels): the kernel's own feature map ([`Prepared::kernel_features`]) if it has
    /// one, else the dataset's features.
    pub fn features_of(&self, p: Option<usize>) -> Option<faer::MatRef<'_, f64>> {
        p.and_then(|p| self.kernel_features.get(p)?.as_ref())
            .or(self.features.as_ref())
            .map(|x| x.as_ref())
    }

    /// The dataset key, with `@recipe` when the kernels were built by another recipe
    /// than the row's own (`mnist-1v7@lgmmc-gauss5`): names the kernel set in the kernel
    /// times.
    pub fn kernels_key(&self) -> String {
        match &self.recipe {
            Some(r) => format!("{}@{r}", self.key),
            None => self.key.clone(),
        }
    }
}

/// Why a dataset row could not be run.
#[derive(Debug, Clone)]
pub enum Unavailable {
    /// A file is absent: its path as the registry names it.
    Missing(PathBuf),
    /// Anything else (bad file, recipe failure), in words.
    Failed(String),
}

impl Unavailable {
    /// From an error of loading / preparing.
    pub fn from_error(e: Error) -> Self {
        match e {
            Error::MissingData { file, .. } => Unavailable::Missing(file),
            other => Unavailable::Failed(other.to_string()),
        }
    }
}

fn select_rows(x: &Mat<f64>, rows: &[usize]) -> Mat<f64> {
    Mat::from_fn(rows.len(), x.ncols(), |i, j| x[(rows[i], j)])
}

fn hcat(views: &[(String, Mat<f64>)]) -> Mat<f64> {
    let n = views.first().map_or(0, |v| v.1.nrows());
    let d: usize = views.iter().map(|v| v.1.ncols()).sum();
    let mut out = Mat::zeros(n, d);
    let mut off = 0;
    for (_, x) in views {
        for j in 0..x.ncols() {
            for i in 0..n {
                out[(i, off + j)] = x[(i, j)];
            }
        }
        off += x.ncols();
    }
    out
}

/// The built kernels, their names, the scaled features (when dense) and the kernels'
/// own feature maps ([`Prepared::kernel_features`]; empty when none differ from the
/// features).
struct Built {
    kernels: Vec<Mat<f64>>,
    names: Vec<String>,
    features: Option<Mat<f64>>,
    kernel_features: Vec<Option<Mat<f64>>>,
}

impl Built {
    fn plain(kernels: Vec<Mat<f64>>, names: Vec<String>, features: Option<Mat<f64>>) -> Self {
        Built {
            kernels,
            names,
            features,
            kernel_features: Vec::new(),
        }
    }
}

/// The feature map of each per-view linear kernel: `√s · X_v` for the kernel named
/// `{view}/linear` of view `X_v`, with `s = tr K / ‖X_v‖²_F` the factor of the recipe's
/// normalisations (multiplicative, trace and max normalisation only rescale). Whether the
/// kernel is `(√s X_v)(√s X_v)ᵀ` is not assumed: a method checks it before it uses the
/// map (`KernelSet::is_features_linear`), so a centred or unit-diagonal kernel simply
/// stays on its kernel path.
fn linear_view_maps(
    kernels: &[Mat<f64>],
    names: &[String],
    views: &[(String, Mat<f64>)],
) -> Vec<Option<Mat<f64>>> {
    kernels
        .iter()
        .zip(names)
        .map(|(k, name)| {
            let view = name.strip_suffix("/linear")?;
            let x = &views.iter().find(|(v, _)| v == view)?.1;
            let trace: f64 = (0..k.nrows()).map(|i| k[(i, i)]).sum();
            let norm2: f64 = x.col_iter().flat_map(|c| c.iter().map(|v| v * v)).sum();
            let root = (trace / norm2).sqrt();
            (root.is_finite() && root > 0.0)
                .then(|| Mat::from_fn(x.nrows(), x.ncols(), |i, j| root * x[(i, j)]))
        })
        .collect()
}

/// The class subset of `cfg` (rows kept, relabelled 0.. in the order listed), or every
/// sample with its class.
fn select_classes(
    raw: &RawData,
    cfg: &DatasetCfg,
    what: &str,
) -> Result<(Option<Vec<usize>>, Vec<usize>)> {
    let Some(classes) = &cfg.classes else {
        return Ok((None, raw.labels.clone()));
    };
    let mut ids = Vec::new();
    for c in classes {
        let Some(id) = raw.class_names.iter().position(|n| n == c) else {
            return Err(Error::input(
                format!("{what}: classes"),
                format!("no class `{c}` (classes: {})", raw.class_names.join(", ")),
            ));
        };
        ids.push(id);
    }
    let mut rows = Vec::new();
    let mut truth = Vec::new();
    for (i, l) in raw.labels.iter().enumerate() {
        if let Some(pos) = ids.iter().position(|id| id == l) {
            rows.push(i);
            truth.push(pos);
        }
    }
    Ok((Some(rows), truth))
}

/// Rows `rows` of `x` (all of it when `None`).
fn pick(x: &Mat<f64>, rows: Option<&[usize]>) -> Mat<f64> {
    match rows {
        Some(r) => select_rows(x, r),
        None => x.clone(),
    }
}

/// Precomputed kernels: the subset's rows and columns, the recipe's normalisation.
fn from_kernels(
    ks: Vec<Mat<f64>>,
    rows: Option<&[usize]>,
    recipe: Option<&Recipe>,
) -> Result<Built> {
    let mut ks: Vec<Mat<f64>> = match rows {
        Some(r) => ks
            .iter()
            .map(|k| Mat::from_fn(r.len(), r.len(), |i, j| k[(r[i], r[j])]))
            .collect(),
        None => ks,
    };
    if let Some(rc) = recipe {
        normalize_all(&mut ks, &rc.normalize)?;
    }
    let names = (0..ks.len()).map(|p| format!("K{}", p + 1)).collect();
    Ok(Built::plain(ks, names, None))
}

/// One dense feature matrix: scaled, then the recipe's kernels.
fn from_dense(x: &Mat<f64>, rows: Option<&[usize]>, rc: &Recipe) -> Result<Built> {
    let mut x = pick(x, rows);
    scale_features(&mut x, rc.scale);
    let views = vec![(String::new(), x)];
    let (k, names) = build_kernels(&views, rc)?;
    let x = views.into_iter().next().map(|v| v.1);
    Ok(Built::plain(k, names, x))
}

/// Named views (all, or those `cfg` lists, in its order): each scaled, then the
/// recipe's kernels per view or on the views side by side.
fn from_views(
    vs: &[(String, Mat<f64>)],
    rows: Option<&[usize]>,
    cfg: &DatasetCfg,
    rc: &Recipe,
    what: &str,
) -> Result<Built> {
    let mut chosen = Vec::new();
    match &cfg.views {
        Some(names) => {
            for v in names {
                let Some((nm, x)) = vs.iter().find(|(nm, _)| nm == v) else {
                    let have: Vec<&str> = vs.iter().map(|(n, _)| n.as_str()).collect();
                    return Err(Error::input(
                        format!("{what}: views"),
                        format!("no view `{v}` (views: {})", have.join(", ")),
                    ));
                };
                chosen.push((nm.clone(), pick(x, rows)));
            }
        }
        None => {
            chosen = vs
                .iter()
                .map(|(nm, x)| (nm.clone(), pick(x, rows)))
                .collect()
        }
    }
    for v in chosen.iter_mut() {
        scale_features(&mut v.1, rc.scale);
    }
    let all = hcat(&chosen);
    if rc.per_view {
        let (k, names) = build_kernels(&chosen, rc)?;
        let kernel_features = linear_view_maps(&k, &names, &chosen);
        Ok(Built {
            kernels: k,
            names,
            features: Some(all),
            kernel_features,
        })
    } else {
        let (k, names) = build_kernels(&[(String::new(), all.clone())], rc)?;
        Ok(Built::plain(k, names, Some(all)))
    }
}

/// Sparse features: linear and cosine kernels sparse, the others on a dense copy.
fn from_sparse(
    x: &faer::sparse::SparseRowMat<usize, f64>,
    subset: bool,
    rc: &Recipe,
    what: &str,
) -> Result<Built> {
    if rc.scale != crate::config::Scale::None || subset {
        return Err(Error::input(
            what,
            "sparse features support neither feature scaling nor class subsets",
        ));
    }
    let mut ks = Vec::new();
    let mut names = Vec::new();
    for e in &rc.kernels {
        let f = match e.kind {
            crate::config::KernelKind::Linear => mkc_kernels::KernelFn::Linear,
            crate::config::KernelKind::Cosine => mkc_kernels::KernelFn::Cosine,
            _ => {
                // Dense fallback for distance-based kernels.
                let dense = x.to_dense();
                let (k, nm) = build_kernels(
                    &[(String::new(), dense)],
                    &Recipe {
                        kernels: vec![e.clone()],
                        normalize: vec![],
                        ..rc.clone()
                    },
                )?;
                ks.extend(k);
                names.extend(nm);
                continue;
            }
        };
        ks.push(mkc_kernels::gram_sparse(x.as_ref(), &f)?);
        names.push(format!("{:?}", e.kind).to_lowercase());
    }
    normalize_all(&mut ks, &rc.normalize)?;
    Ok(Built::plain(ks, names, None))
}

/// The kernels of `features` (rows `rows`) by the recipe.
fn build(
    features: RawFeatures,
    rows: Option<&[usize]>,
    cfg: &DatasetCfg,
    recipe: Option<&Recipe>,
    what: &str,
) -> Result<Built> {
    let need_recipe = || {
        recipe.ok_or_else(|| Error::input(what, "no kernel recipe given (set `recipe` in the config, or `--recipe NAME` on the command line)"))
    };
    match features {
        RawFeatures::Kernels(ks) => from_kernels(ks, rows, recipe),
        RawFeatures::Dense(x) => from_dense(&x, rows, need_recipe()?),
        RawFeatures::Views(vs) => from_views(&vs, rows, cfg, need_recipe()?, what),
        RawFeatures::Sparse(x) => from_sparse(&x, rows.is_some(), need_recipe()?, what),
    }
}

/// Load and prepare the dataset row `key`: a registered dataset from `source`, or the
/// row's own files ([`crate::own_data`]).
pub fn prepare(
    source: &dyn DataSource,
    key: &str,
    cfg: &DatasetCfg,
    recipe: Option<&Recipe>,
) -> Result<Prepared> {
    let raw = if cfg.is_own() {
        crate::own_data::load(key, cfg)?
    } else {
        source.load(cfg.source.as_deref().unwrap_or(key))?
    };
    let what = format!("dataset `{key}`");
    let (rows, truth) = select_classes(&raw, cfg, &what)?;
    let n = truth.len();
    let n_classes = mkc_core::validate::labels(&format!("{what}: labels"), &truth, 2)?;
    let n_clusters = cfg.clusters.unwrap_or(n_classes);
    mkc_core::validate::n_clusters(n_clusters, n, 2)?;
    let Built {
        kernels,
        names: kernel_names,
        features,
        kernel_features,
    } = build(raw.features, rows.as_deref(), cfg, recipe, &what)?;
    if kernels.is_empty() {
        // A features-only recipe: the methods get the scaled features and no kernel.
        if features.is_none() {
            return Err(Error::input(
                &what,
                "the recipe builds no kernel and the dataset has no dense features",
            ));
        }
    } else {
        mkc_core::validate::kernels(
            &format!("{what}: kernels"),
            &kernels.iter().map(|k| k.as_ref()).collect::<Vec<_>>(),
        )?;
    }
    Ok(Prepared {
        key: key.to_string(),
        n,
        n_clusters,
        truth,
        kernels,
        kernel_names,
        features,
        kernel_features,
        recipe: None,
    })
}

#[cfg(test)]
mod tests;
