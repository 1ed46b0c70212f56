//! Shared synthetic data for the tests.
#![allow(dead_code)]

use faer::Mat;
use rand::Rng as _;

/// Two 2-D Gaussian blobs (n/2 each, centres ±(sep, 0)), deterministic from `seed`.
pub fn blobs(n: usize, sep: f64, seed: u64) -> Vec<[f64; 2]> {
    let mut rng = mkc_core::seed::rng(seed);
    (0..n)
        .map(|i| {
            let c = if i < n / 2 { -sep } else { sep };
            // Box–Muller
            let (u1, u2): (f64, f64) = (rng.random::<f64>().max(1e-12), rng.random());
            let r = (-2.0 * u1.ln()).sqrt();
            let (u3, u4): (f64, f64) = (rng.random::<f64>().max(1e-12), rng.random());
            let r2 = (-2.0 * u3.ln()).sqrt();
            [
                c + r * (std::f64::consts::TAU * u2).cos(),
                r2 * (std::f64::consts::TAU * u4).sin(),
            ]
        })
        .collect()
}

/// Gaussian kernels exp(−‖x − x'‖²/(2σ²)) for each σ.
pub fn gaussians(x: &[[f64; 2]], sigmas: &[f64]) -> Vec<Mat<f64>> {
    let n = x.len();
    sigmas
        .iter()
        .map(|&s| {
            Mat::from_fn(n, n, |i, j| {
                let d = (x[i][0] - x[j][0]).powi(2) + (x[i][1] - x[j][1]).powi(2);
                (-d / (2.0 * s * s)).exp()
            })
        })
        .collect()
}

/// Labels: the true blob split with a few points flipped (a balanced, imperfect y).
pub fn noisy_labels(n: usize, flips: &[usize]) -> Vec<f64> {
    let mut y: Vec<f64> = (0..n).map(|i| if i < n / 2 { -1.0 } else { 1.0 }).collect();
    for &i in flips {
        y[i] = -y[i];
    }
    y
}

/// Cluster indices of ±1 labels (−1 → 0, +1 → 1), as the method API reports them.
pub fn clusters(y: &[f64]) -> Vec<usize> {
    y.iter().map(|&t| usize::from(t > 0.0)).collect()
}

/// ±1 labels of cluster indices (1 → +1, 0 → −1).
pub fn signs(labels: &[usize]) -> Vec<f64> {
    labels
        .iter()
        .map(|&l| if l == 1 { 1.0 } else { -1.0 })
        .collect()
}

/// Σ y_i of cluster indices (the quantity the balance bound ℓ limits).
pub fn balance(labels: &[usize]) -> f64 {
    signs(labels).iter().sum()
}

/// Each `(params, name)` is rejected with `InvalidParam` naming `name`: before any data
/// is seen (`validate_params`) and by `fit` on `data`, with the same error.
pub fn assert_rejected<P: mkc_core::Clusterer>(
    cases: Vec<(P, &str)>,
    data: &mkc_core::KernelSet<'_>,
) {
    for (p, name) in cases {
        for e in [
            p.validate_params().unwrap_err(),
            p.fit(data, 2, 0).unwrap_err(),
        ] {
            assert!(
                matches!(&e, mkc_core::Error::InvalidParam { name: got, .. } if got == name),
                "expected InvalidParam {name}, got {e:?}"
            );
        }
    }
}

/// `IterSvr::fit_from` on `data` accepts the two-cluster labels `y` and rejects one label
/// too few (`Shape`), a single cluster and a label outside {0, 1} (`InvalidInput`).
pub fn assert_fit_from_checks_labels(
    it: &mkc_rmkc::IterSvr,
    data: &mkc_core::KernelSet<'_>,
    y: &[usize],
) {
    use mkc_core::Error;
    let n = y.len();
    assert!(it.fit_from(data, y).is_ok());
    assert!(matches!(
        it.fit_from(data, &y[..n - 1]),
        Err(Error::Shape { .. })
    ));
    let mut out_of_range = y.to_vec();
    out_of_range[3] = 2;
    for bad in [vec![1; n], out_of_range] {
        assert!(matches!(
            it.fit_from(data, &bad),
            Err(Error::InvalidInput { .. })
        ));
    }
}
