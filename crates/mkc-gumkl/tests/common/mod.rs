//! Synthetic multi-view data for the integration tests, and the checks GUMKL and MVKKM share
//! ([`checks`]).
#![allow(dead_code)]

pub mod checks;

use faer::Mat;
#[allow(unused_imports)] // not every test file uses every fixture
pub use mkc_core::testing::{d2, linear_kernel};

/// `n_per` points in each of `k` clusters, one view of `dim` features per entry of
/// `signal` ([`mkc_core::testing::blob_views`]: centred, mean squared norm 1, so every
/// linear kernel is centred with trace n and a view's within-cluster variance measures
/// its cluster quality). Returns the feature matrices (rows = samples), their linear
/// kernels and the true labels.
pub fn views(
    k: usize,
    n_per: usize,
    dim: usize,
    signal: &[f64],
    seed: u64,
) -> (Vec<Mat<f64>>, Vec<Mat<f64>>, Vec<usize>) {
    let (feats, labels) = mkc_core::testing::blob_views(k, n_per, dim, signal, seed);
    let kernels = feats.iter().map(linear_kernel).collect();
    (feats, kernels, labels)
}

/// `params` fitted to the kernels `ks` with `k` clusters; the seed is 0 (GUMKL and MVKKM
/// ignore it).
pub fn fit<C: mkc_core::Clusterer>(
    params: C,
    ks: &[Mat<f64>],
    k: usize,
) -> mkc_core::Result<mkc_core::Clustering<C::Diagnostics>> {
    params.fit(&mkc_core::KernelSet::new(ks)?, k, 0)
}
