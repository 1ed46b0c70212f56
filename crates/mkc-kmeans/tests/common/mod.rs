#![allow(dead_code)]
use faer::Mat;
use mkc_core::ParamGuard;
use mkc_kmeans::{
    KMeansFit, KMeansParams, KMedoidsFit, KernelKMeansFit, KernelKMeansParams, KernelKMedoidsParams,
};
use rand::Rng;

#[allow(unused_imports)] // not every test file uses every fixture
pub use mkc_core::testing::{gaussian_kernel, linear_kernel, with_threads};

/// n points in d dimensions around `centres` well-spread Gaussian-ish blobs (seeded).
pub fn blobs(n: usize, d: usize, centres: usize, spread: f64, seed: u64) -> Mat<f64> {
    let mut rng = mkc_core::seed::rng(seed);
    let c: Vec<f64> = (0..centres * d)
        .map(|_| rng.random::<f64>() * 10.0)
        .collect();
    let mut x = Mat::zeros(n, d);
    for i in 0..n {
        let b = i % centres;
        for j in 0..d {
            let noise: f64 = (0..3).map(|_| rng.random::<f64>() - 0.5).sum();
            x[(i, j)] = c[b * d + j] + spread * noise;
        }
    }
    x
}

pub fn non_increasing(trace: &[f64]) -> bool {
    trace
        .windows(2)
        .all(|w| w[1] <= w[0] + 1e-9 * w[0].abs().max(1.0))
}

/// Within-cluster sum of squares of `labels` on the features (the k-means objective
/// with centres at the means).
pub fn wcss(x: &Mat<f64>, labels: &[usize], k: usize) -> f64 {
    let d = x.ncols();
    let mut sum = vec![0.0; k * d];
    let mut cnt = vec![0.0; k];
    for (i, &l) in labels.iter().enumerate() {
        cnt[l] += 1.0;
        for j in 0..d {
            sum[l * d + j] += x[(i, j)];
        }
    }
    labels
        .iter()
        .enumerate()
        .map(|(i, &l)| {
            (0..d)
                .map(|j| (x[(i, j)] - sum[l * d + j] / cnt[l]).powi(2))
                .sum::<f64>()
        })
        .sum()
}

/// Kernel k-means with `params` (checked) on `k`: `c` clusters, seed `seed`.
pub fn kkm(params: KernelKMeansParams, k: &Mat<f64>, c: usize, seed: u64) -> KernelKMeansFit {
    params
        .check()
        .unwrap()
        .fit_kernel(k.as_ref(), c, seed)
        .unwrap()
}

/// k-means with `params` (checked) on the rows of `x`.
pub fn km(params: KMeansParams, x: &Mat<f64>, c: usize, seed: u64) -> KMeansFit {
    params
        .check()
        .unwrap()
        .fit_features(x.as_ref(), c, seed)
        .unwrap()
}

/// Kernel k-medoids with `params` (checked) on `k`.
pub fn kmedoids(params: KernelKMedoidsParams, k: &Mat<f64>, c: usize, seed: u64) -> KMedoidsFit {
    params
        .check()
        .unwrap()
        .fit_kernel(k.as_ref(), c, seed)
        .unwrap()
}

/// The name of the error variant a result fails with (`"InvalidParam"`, …), or `"Ok"`.
pub fn err_kind<T>(r: mkc_core::Result<T>) -> String {
    r.err()
        .map_or_else(|| "Ok".into(), |e| mkc_core::testing::variant(&e))
}

/// The number of distinct values in `labels`.
pub fn distinct(labels: &[usize]) -> usize {
    labels
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
}
