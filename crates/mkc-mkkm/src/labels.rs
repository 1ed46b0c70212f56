//! Final labels from a spectral embedding H (the authors' protocol): normalise every
//! row of H to unit Euclidean length, then k-means with restarts (100 iterations,
//! 10 replicates by default). Rows of zero norm are left at zero (the authors' MATLAB
//! code would divide by zero).

use faer::{Mat, MatRef};
use mkc_core::{validate, ParamGuard, Result};
use mkc_kmeans::KMeansParams;

/// Settings of the final k-means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelOptions {
    /// Number of k-means restarts (replicates). Default 10.
    pub n_init: usize,
    /// Lloyd iterations per restart. Default 100.
    pub max_iter: usize,
}

impl Default for LabelOptions {
    fn default() -> Self {
        Self {
            n_init: 10,
            max_iter: 100,
        }
    }
}

/// H with every row scaled to unit length (zero rows stay zero; [`mkc_linalg::unit_rows`]).
pub fn row_normalised(h: MatRef<'_, f64>) -> Mat<f64> {
    let mut out = h.to_owned();
    mkc_linalg::unit_rows(out.as_mut());
    out
}

/// Cluster labels (`0..n_clusters`) from H: row normalisation, then k-means on the rows
/// with the default [`LabelOptions`] and `seed`. The same seed gives the same labels.
pub fn labels_from_h(h: MatRef<'_, f64>, n_clusters: usize, seed: u64) -> Result<Vec<usize>> {
    labels_from_h_with(h, n_clusters, &LabelOptions::default(), seed)
}

/// [`labels_from_h`] with explicit k-means settings.
pub fn labels_from_h_with(
    h: MatRef<'_, f64>,
    n_clusters: usize,
    opts: &LabelOptions,
    seed: u64,
) -> Result<Vec<usize>> {
    validate::non_empty("h", h)?;
    validate::finite("h", h)?;
    validate::n_clusters(n_clusters, h.nrows(), 1)?;
    crate::params::at_least_one("n_init", opts.n_init)?;
    crate::params::at_least_one("max_iter", opts.max_iter)?;
    let x = row_normalised(h);
    let fit = KMeansParams::new()
        .n_init(opts.n_init)
        .max_iter(opts.max_iter)
        .check()?
        .fit_features(x.as_ref(), n_clusters, seed)?;
    Ok(fit.labels)
}
