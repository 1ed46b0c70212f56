//! Synthetic multi-view data for the integration tests, and the checks GUMKL and MVKKM share
//! ([`checks`]).
#![allow(dead_code)]

pub mod checks;

use faer::Mat;
use rand::Rng as _;

/// `n_per` points in each of `k` clusters; view v has `dim` features: the cluster centre
/// scaled by `signal[v]` plus unit Gaussian-ish noise (sum of uniforms). Each view's features
/// are centred and scaled to a mean squared norm of 1 (so every linear kernel is centred with
/// trace n and a view's within-cluster variance measures its cluster quality). Returns the
/// feature matrices (rows = samples), their linear kernels and the true labels.
pub fn views(
    k: usize,
    n_per: usize,
    dim: usize,
    signal: &[f64],
    seed: u64,
) -> (Vec<Mat<f64>>, Vec<Mat<f64>>, Vec<usize>) {
    let mut rng = mkc_core::seed::rng(seed);
    let n = k * n_per;
    let labels: Vec<usize> = (0..n).map(|i| i / n_per).collect();
    let mut feats = Vec::new();
    for &s in signal {
        let centres: Vec<Vec<f64>> = (0..k)
            .map(|_| (0..dim).map(|_| rng.random_range(-1.0..1.0) * s).collect())
            .collect();
        let x = Mat::from_fn(n, dim, |_, _| 0.0);
        let mut x = x;
        for i in 0..n {
            for d in 0..dim {
                let noise: f64 = (0..4).map(|_| rng.random_range(-0.5..0.5)).sum();
                x[(i, d)] = centres[labels[i]][d] + noise;
            }
        }
        for d in 0..dim {
            let mean = (0..n).map(|i| x[(i, d)]).sum::<f64>() / n as f64;
            (0..n).for_each(|i| x[(i, d)] -= mean);
        }
        let scale = (n as f64 / x.squared_norm_l2()).sqrt();
        feats.push(x * faer::Scale(scale));
    }
    let kernels = feats.iter().map(linear_kernel).collect();
    (feats, kernels, labels)
}

pub fn linear_kernel(x: &Mat<f64>) -> Mat<f64> {
    x.as_ref() * x.as_ref().transpose()
}

/// Squared Euclidean distance between rows i and j of x.
pub fn d2(x: &Mat<f64>, i: usize, j: usize) -> f64 {
    (0..x.ncols())
        .map(|d| (x[(i, d)] - x[(j, d)]).powi(2))
        .sum()
}
