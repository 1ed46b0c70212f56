//! Final labels: k-means on the rows of the indicator P (the authors: MATLAB `kmeans`
//! with 100 replicates). P is used as it is, without row normalisation, as the authors do.

use faer::MatRef;
use mkc_core::{ParamGuard, Result};
use mkc_kmeans::KMeansParams;

use crate::params::Settings;

/// Labels in `0..n_clusters` and the k-means inertia of the best replicate.
pub(crate) fn kmeans_on_indicator(
    p: MatRef<'_, f64>,
    s: &Settings,
    n_clusters: usize,
    seed: u64,
) -> Result<(Vec<usize>, f64)> {
    let fit = KMeansParams::new()
        .n_init(s.n_init)
        .max_iter(s.kmeans_max_iter)
        .check()?
        .fit_features(p, n_clusters, seed)?;
    Ok((fit.labels, fit.inertia))
}
