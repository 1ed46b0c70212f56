//! The benchmark matrices of the criterion benches and of `cargo xtask compare eigen`,
//! public so that anyone can rerun the comparison with another eigensolver on the same
//! matrices.

use faer::Mat;
use rand::Rng;

/// The Gaussian kernel `exp(−‖x_i − x_j‖²/(0.1·d))` of n points drawn uniformly in
/// `[0, 1]^d`, seeded with `mkc_core::seed::rng` (ChaCha8, portable): dense, symmetric,
/// unit diagonal, with a fast-decaying spectrum.
///
/// ```
/// let k = mkc_linalg::problems::uniform_gaussian_kernel(50, 3, 7);
/// assert_eq!((k.nrows(), k.ncols()), (50, 50));
/// assert!((k[(4, 4)] - 1.0).abs() < 1e-15 && k[(2, 9)] == k[(9, 2)]);
/// ```
pub fn uniform_gaussian_kernel(n: usize, d: usize, seed: u64) -> Mat<f64> {
    let mut rng = mkc_core::seed::rng(seed);
    let x: Vec<f64> = (0..n * d).map(|_| rng.random::<f64>()).collect();
    let scale = 1.0 / (0.1 * d as f64);
    Mat::from_fn(n, n, |i, j| {
        let s: f64 = (0..d).map(|t| (x[i * d + t] - x[j * d + t]).powi(2)).sum();
        (-s * scale).exp()
    })
}
