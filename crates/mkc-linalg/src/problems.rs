//! The benchmark matrices of the criterion benches and of `cargo xtask compare eigen`,
//! public so that anyone can rerun the comparison with another eigensolver on the same
//! matrices.

use faer::Mat;
use mkc_core::{Error, Result};
use rand::Rng;

/// The Gaussian kernel `exp(−‖x_i − x_j‖²/(0.1·d))` of n points drawn uniformly in
/// `[0, 1]^d`, seeded with `mkc_core::seed::rng` (ChaCha8, portable): dense, symmetric,
/// unit diagonal, with a fast-decaying spectrum.
///
/// # Errors
/// `n = 0` or `d = 0` (the width 0.1·d would be zero).
///
/// ```
/// let k = mkc_linalg::problems::uniform_gaussian_kernel(50, 3, 7).unwrap();
/// assert_eq!((k.nrows(), k.ncols()), (50, 50));
/// assert!((k[(4, 4)] - 1.0).abs() < 1e-15 && k[(2, 9)] == k[(9, 2)]);
/// assert!(mkc_linalg::problems::uniform_gaussian_kernel(50, 0, 7).is_err());
/// ```
pub fn uniform_gaussian_kernel(n: usize, d: usize, seed: u64) -> Result<Mat<f64>> {
    if n == 0 || d == 0 {
        return Err(Error::input(
            "uniform_gaussian_kernel",
            format!("needs n ≥ 1 points in d ≥ 1 dimensions, got n = {n}, d = {d}"),
        ));
    }
    let mut rng = mkc_core::seed::rng(seed);
    let x: Vec<f64> = (0..n * d).map(|_| rng.random::<f64>()).collect();
    let scale = 1.0 / (0.1 * d as f64);
    Ok(Mat::from_fn(n, n, |i, j| {
        let s: f64 = (0..d).map(|t| (x[i * d + t] - x[j * d + t]).powi(2)).sum();
        (-s * scale).exp()
    }))
}
