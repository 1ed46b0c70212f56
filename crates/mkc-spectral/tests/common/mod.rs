//! Synthetic multiple kernel data for the integration tests.
#![allow(dead_code)]

use faer::Mat;
#[allow(unused_imports)] // not every test file uses every fixture
pub use mkc_core::testing::same_partition;
use mkc_core::testing::{blob_views, d2, linear_kernel};
use mkc_core::{Clusterer, Error, KernelSet};

/// `n_per` points in each of `k` clusters of a `dim`-dimensional space, one view per entry
/// of `signal` ([`mkc_core::testing::blob_views`]), and a kernel per view: Gaussian
/// `exp(−‖x − y‖² / m)` with m the mean squared distance (`gaussian = true`), else linear
/// on the centred features scaled to trace n (so that a view's D_v measures its cluster
/// quality, not the units of its features). Returns the kernels and the true labels.
pub fn views(
    k: usize,
    n_per: usize,
    dim: usize,
    signal: &[f64],
    gaussian: bool,
    seed: u64,
) -> (Vec<Mat<f64>>, Vec<usize>) {
    let (feats, labels) = blob_views(k, n_per, dim, signal, seed);
    let n = k * n_per;
    let kernels = feats
        .iter()
        .map(|x| {
            if gaussian {
                let mean = (0..n)
                    .flat_map(|i| (0..n).map(move |j| (i, j)))
                    .map(|(i, j)| d2(x, i, j))
                    .sum::<f64>()
                    / (n * n) as f64;
                Mat::from_fn(n, n, |i, j| (-d2(x, i, j) / mean).exp())
            } else {
                linear_kernel(x)
            }
        })
        .collect();
    (kernels, labels)
}

/// The eigenvectors of a symmetric matrix by the dense solver, eigenvalues ascending.
pub fn dense_eigvecs(a: &Mat<f64>) -> Mat<f64> {
    mkc_linalg::eigen::dense_sym(a.as_ref()).unwrap().vectors
}

/// Every case's parameters are rejected by `validate_params` with an
/// [`Error::InvalidParam`] naming the case's parameter, and fitting them on `data` fails.
pub fn rejects_each<C: Clusterer>(cases: Vec<(C, &str)>, data: &KernelSet<'_>) {
    for (p, name) in cases {
        match p.validate_params() {
            Err(Error::InvalidParam { name: got, .. }) => assert_eq!(got, name),
            other => panic!("{name}: {other:?}"),
        }
        assert!(p.fit(data, 2, 0).is_err());
    }
}
