//! The benchmark problem of the criterion benches and of `cargo xtask compare svm`, public
//! so that anyone can rerun the comparison with another solver on the same matrices.

use faer::Mat;
use rand::Rng;

/// Two overlapping Gaussian blobs in 10-D (means ±0.3·1, unit covariance, classes
/// alternating +1, −1, …) and their RBF kernel `exp(−0.1‖x − x'‖²)`, exactly symmetric
/// with unit diagonal. Seeded with `mkc_core::seed::rng` (ChaCha8, portable); normal
/// deviates by Box–Muller. Returns `(K, y)`.
pub fn overlapping_blobs_rbf(n: usize, seed: u64) -> (Mat<f64>, Vec<f64>) {
    const D: usize = 10;
    let mut rng = mkc_core::seed::rng(seed);
    let mut normal = move || {
        let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
        let u2: f64 = rng.random();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    };
    let y: Vec<f64> = (0..n)
        .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    let x = Mat::from_fn(n, D, |i, _| 0.3 * y[i] + normal());
    let sq: Vec<f64> = (0..n)
        .map(|i| (0..D).map(|c| x[(i, c)] * x[(i, c)]).sum())
        .collect();
    let g = &x * x.transpose();
    let mut k = Mat::<f64>::zeros(n, n);
    for j in 0..n {
        k[(j, j)] = 1.0;
        for i in 0..j {
            let v = (-0.1 * (sq[i] + sq[j] - 2.0 * g[(i, j)]).max(0.0)).exp();
            k[(i, j)] = v;
            k[(j, i)] = v;
        }
    }
    (k, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_is_symmetric_with_unit_diagonal_and_reproducible() {
        let (k, y) = overlapping_blobs_rbf(50, 3);
        let (k2, _) = overlapping_blobs_rbf(50, 3);
        let (k3, _) = overlapping_blobs_rbf(50, 4);
        assert_eq!(k, k2);
        assert_ne!(k, k3);
        assert_eq!(y.iter().filter(|&&v| v > 0.0).count(), 25);
        for i in 0..50 {
            assert_eq!(k[(i, i)], 1.0);
            for j in 0..50 {
                assert_eq!(k[(i, j)], k[(j, i)]);
                assert!(k[(i, j)] > 0.0 && k[(i, j)] <= 1.0);
            }
        }
    }
}
