//! Synthetic multiple kernel data for the integration tests.
#![allow(dead_code)]

use faer::Mat;
use rand::Rng as _;

/// `n_per` points in each of `k` clusters of a `dim`-dimensional space, one view per entry
/// of `signal` (cluster centres scaled by it, plus noise that is a sum of uniforms), and a
/// kernel per view: Gaussian `exp(−‖x − y‖² / m)` with m the mean squared distance
/// (`gaussian = true`), else linear on the centred features scaled to trace n. Returns the
/// kernels and the true labels.
pub fn views(
    k: usize,
    n_per: usize,
    dim: usize,
    signal: &[f64],
    gaussian: bool,
    seed: u64,
) -> (Vec<Mat<f64>>, Vec<usize>) {
    let mut rng = mkc_core::seed::rng(seed);
    let n = k * n_per;
    let labels: Vec<usize> = (0..n).map(|i| i / n_per).collect();
    let mut kernels = Vec::new();
    for &s in signal {
        let centres: Vec<Vec<f64>> = (0..k)
            .map(|_| (0..dim).map(|_| rng.random_range(-1.0..1.0) * s).collect())
            .collect();
        let mut x = Mat::from_fn(n, dim, |_, _| 0.0);
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
        let d2 = |i: usize, j: usize| {
            (0..dim)
                .map(|d| (x[(i, d)] - x[(j, d)]).powi(2))
                .sum::<f64>()
        };
        kernels.push(if gaussian {
            let mean = (0..n)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .map(|(i, j)| d2(i, j))
                .sum::<f64>()
                / (n * n) as f64;
            Mat::from_fn(n, n, |i, j| (-d2(i, j) / mean).exp())
        } else {
            // Scaled to trace n, so that a view's D_v measures its cluster quality, not the
            // units of its features.
            let k = x.as_ref() * x.as_ref().transpose();
            let tr: f64 = (0..n).map(|i| k[(i, i)]).sum();
            k * faer::Scale(n as f64 / tr)
        });
    }
    (kernels, labels)
}

/// Same partition up to a relabelling.
pub fn same_partition(a: &[usize], b: &[usize]) -> bool {
    let mut map = std::collections::HashMap::new();
    let mut back = std::collections::HashMap::new();
    a.iter()
        .zip(b)
        .all(|(x, y)| *map.entry(*x).or_insert(*y) == *y && *back.entry(*y).or_insert(*x) == *x)
}

/// The eigenvectors of a symmetric matrix by the dense solver, eigenvalues ascending.
pub fn dense_eigvecs(a: &Mat<f64>) -> Mat<f64> {
    mkc_linalg::eigen::dense_sym(a.as_ref()).unwrap().vectors
}
