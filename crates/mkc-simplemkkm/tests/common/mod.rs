//! Small synthetic multi-kernel problems for the tests.

use faer::Mat;

/// Deterministic pseudo-random numbers in [−0.5, 0.5) (no dependency on rand).
pub fn noise(i: usize, j: usize, salt: usize) -> f64 {
    let mut z = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (j as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9)
        ^ (salt as u64).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    z = z.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z ^= z >> 32;
    (z % 1_000_003) as f64 / 1_000_003.0 - 0.5
}

/// `n` points in `k` clusters in 2-D; view `v` adds noise of size `spread[v]`.
/// Returns Gaussian kernels (width 1.5) of the views and the true labels.
pub fn gaussian_views(n: usize, k: usize, spread: &[f64]) -> (Vec<Mat<f64>>, Vec<usize>) {
    let labels: Vec<usize> = (0..n).map(|i| i % k).collect();
    let kernels = spread
        .iter()
        .enumerate()
        .map(|(v, &s)| {
            let pts: Vec<(f64, f64)> = (0..n)
                .map(|i| {
                    let a = labels[i] as f64 * std::f64::consts::TAU / k as f64;
                    (
                        3.0 * a.cos() + s * noise(i, 0, v),
                        3.0 * a.sin() + s * noise(i, 1, v),
                    )
                })
                .collect();
            Mat::from_fn(n, n, |i, j| {
                let d2 = (pts[i].0 - pts[j].0).powi(2) + (pts[i].1 - pts[j].1).powi(2);
                (-d2 / (2.0 * 1.5 * 1.5)).exp()
            })
        })
        .collect();
    (kernels, labels)
}
