//! Test fixtures shared by the method crates' tests (feature `testing`, used as a
//! dev-dependency): seeded synthetic multi-view data, the linear and Gaussian kernels of
//! features, partition comparison, a fixed thread count, and spoiled kernels with the
//! error each must give. Not part of the method API.

use faer::Mat;
use rand::Rng as _;

/// Squared Euclidean distance between rows `i` and `j` of `x`.
pub fn d2(x: &Mat<f64>, i: usize, j: usize) -> f64 {
    (0..x.ncols())
        .map(|d| (x[(i, d)] - x[(j, d)]).powi(2))
        .sum()
}

/// The linear kernel `X Xᵀ` of the rows of `x`.
pub fn linear_kernel(x: &Mat<f64>) -> Mat<f64> {
    x.as_ref() * x.as_ref().transpose()
}

/// The Gaussian kernel `exp(−‖x_i − x_j‖² / (2σ²))` of the rows of `x`.
pub fn gaussian_kernel(x: &Mat<f64>, sigma: f64) -> Mat<f64> {
    let n = x.nrows();
    Mat::from_fn(n, n, |i, j| (-d2(x, i, j) / (2.0 * sigma * sigma)).exp())
}

/// `n_per` points in each of `k` clusters (labels `i / n_per`); one view per entry of
/// `signal` with `dim` features: the cluster centre (uniform in [−1, 1)^dim, scaled by
/// `signal[v]`) plus noise that is a sum of four uniforms on [−0.5, 0.5). Each view's
/// features are centred and scaled to a mean squared row norm of 1 (so its linear kernel
/// is centred with trace n). Returns the feature matrices and the true labels.
pub fn blob_views(
    k: usize,
    n_per: usize,
    dim: usize,
    signal: &[f64],
    seed: u64,
) -> (Vec<Mat<f64>>, Vec<usize>) {
    let mut rng = crate::seed::rng(seed);
    let n = k * n_per;
    let labels: Vec<usize> = (0..n).map(|i| i / n_per).collect();
    let mut views = Vec::new();
    for &s in signal {
        let centres: Vec<Vec<f64>> = (0..k)
            .map(|_| (0..dim).map(|_| rng.random_range(-1.0..1.0) * s).collect())
            .collect();
        let mut x = Mat::<f64>::zeros(n, dim);
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
        views.push(x * faer::Scale(scale));
    }
    (views, labels)
}

/// The kernel k-means benchmark case (mkc-kmeans' bench, `cargo xtask compare kkm`): the
/// Gaussian kernel `exp(−‖x_i − x_j‖² / d)` of `n` points uniform in `[0, 1]^d` (no
/// cluster structure, so every iteration runs) and `n` initial labels uniform in `0..k`,
/// drawn from one seeded stream (points first).
pub fn uniform_kernel_and_labels(
    n: usize,
    d: usize,
    k: usize,
    seed: u64,
) -> (Mat<f64>, Vec<usize>) {
    let mut rng = crate::seed::rng(seed);
    let x: Vec<f64> = (0..n * d).map(|_| rng.random::<f64>()).collect();
    let kernel = Mat::from_fn(n, n, |i, j| {
        let s: f64 = (0..d).map(|t| (x[i * d + t] - x[j * d + t]).powi(2)).sum();
        (-s / d as f64).exp()
    });
    let labels = (0..n).map(|_| rng.random_range(0..k)).collect();
    (kernel, labels)
}

/// Whether `a` and `b` are the same partition up to a relabelling.
pub fn same_partition(a: &[usize], b: &[usize]) -> bool {
    let mut map = std::collections::HashMap::new();
    let mut back = std::collections::HashMap::new();
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| *map.entry(*x).or_insert(*y) == *y && *back.entry(*y).or_insert(*x) == *x)
}

/// `f` run in a rayon pool of `threads` threads (results must not depend on it).
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon pool")
        .install(f)
}

/// Copies of a valid kernel `k` (at least 2 x 2) that [`crate::KernelSet`] must reject,
/// each with the [`crate::Error`] variant it must give: a NaN at (1, 0) and (0, 1)
/// (`"NonFinite"`), and (0, 1) moved by 0.5 (`"NotSymmetric"`).
pub fn spoiled_kernels(k: &Mat<f64>) -> [(Mat<f64>, &'static str); 2] {
    let mut nan = k.clone();
    nan[(1, 0)] = f64::NAN;
    nan[(0, 1)] = f64::NAN;
    let mut asym = k.clone();
    asym[(0, 1)] += 0.5;
    [(nan, "NonFinite"), (asym, "NotSymmetric")]
}

/// The name of an error's variant (`"InvalidParam"`, `"Shape"`, …: its `Debug` form up
/// to the first brace), to compare with the one a test expects.
pub fn variant(e: &crate::Error) -> String {
    let text = format!("{e:?}");
    text.split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixtures() {
        let (v, labels) = blob_views(2, 5, 3, &[1.0, 2.0], 7);
        assert_eq!((v.len(), labels.len(), labels[5]), (2, 10, 1));
        let k = linear_kernel(&v[0]);
        let tr: f64 = (0..10).map(|i| k[(i, i)]).sum();
        assert!((tr - 10.0).abs() < 1e-9);
        let g = gaussian_kernel(&v[1], 1.0);
        assert!((g[(0, 3)] - (-d2(&v[1], 0, 3) / 2.0).exp()).abs() < 1e-15);
        assert!(same_partition(&[0, 0, 1], &[2, 2, 0]));
        assert!(!same_partition(&[0, 0, 1], &[0, 1, 1]));
        assert_eq!(with_threads(1, rayon::current_num_threads), 1);
        for (bad, want) in spoiled_kernels(&k) {
            let e = crate::KernelSet::new(std::slice::from_ref(&bad)).unwrap_err();
            assert_eq!(variant(&e), want, "{e}");
        }
    }
}
