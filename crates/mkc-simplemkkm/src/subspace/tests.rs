//! The subspace against dense eigendecompositions.

use super::*;

/// Three symmetric PSD test kernels (Gaussians of 1-D points with different widths).
fn refs(owned: &[Mat<f64>]) -> Vec<MatRef<'_, f64>> {
    owned.iter().map(|m| m.as_ref()).collect()
}

fn kernels(n: usize) -> Vec<Mat<f64>> {
    [0.3, 1.0, 3.0]
        .iter()
        .enumerate()
        .map(|(v, &w)| {
            let x: Vec<f64> = (0..n)
                .map(|i| ((i * 37 + v * 11) % n) as f64 / n as f64 * 6.0 + (i % 4) as f64)
                .collect();
            Mat::from_fn(n, n, |i, j| (-(x[i] - x[j]).powi(2) / (2.0 * w * w)).exp())
        })
        .collect()
}

fn dense_top(ks: &[MatRef<'_, f64>], gamma: &[f64], k: usize) -> Vec<f64> {
    let c: Vec<f64> = gamma.iter().map(|g| g * g).collect();
    let kg = mkc_linalg::weighted_sum(&c, ks).unwrap();
    let e = mkc_linalg::eigen::dense_sym(kg.as_ref()).unwrap();
    e.values.iter().rev().take(k).copied().collect()
}

#[test]
fn ritz_sums_are_lower_bounds_and_certify_is_exact() {
    let (n, k) = (120, 4);
    let owned = kernels(n);
    let ks = refs(&owned);
    let mut sub = Subspace::new(&ks, k);
    let start = Mat::from_fn(n, k, |i, j| ((i * (j + 3)) % 7) as f64 - 3.0);
    let g0 = [0.2, 0.3, 0.5];
    assert_eq!(sub.expand(start.as_ref(), &g0).unwrap(), k);
    for gamma in [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3], [0.0, 0.5, 0.5]] {
        let exact = dense_top(&ks, &gamma, k);
        let j: f64 = exact.iter().sum();
        let lower = sub.ritz(&gamma).unwrap().value();
        assert!(lower <= j * (1.0 + 1e-12), "{lower} > {j}");
        let c = sub.certify(&gamma, 1e-10, 60).unwrap().unwrap();
        for (a, b) in c.ritz.values.iter().zip(&exact) {
            assert!((a - b).abs() <= 1e-9 * exact[0], "{a} vs {b}");
        }
        // alignments tr(Hᵀ K_p H) from the projections equal the direct ones
        let direct = mkc_linalg::trace_quadratic_many(&ks, c.h.as_ref()).unwrap();
        for (a, b) in c.alignments.iter().zip(&direct) {
            assert!((a - b).abs() <= 1e-10 * b.abs().max(1.0), "{a} vs {b}");
        }
        // H has orthonormal columns
        let hth = c.h.transpose() * c.h.as_ref();
        assert!((hth - Mat::<f64>::identity(k, k)).norm_max() < 1e-12);
        // the residual as computed by the subspace is the true one
        let cg: Vec<f64> = gamma.iter().map(|g| g * g).collect();
        let kg = mkc_linalg::weighted_sum(&cg, &ks).unwrap();
        let r = kg.as_ref() * c.h.as_ref()
            - Mat::from_fn(n, k, |i, jj| c.h[(i, jj)] * c.ritz.values[jj]);
        assert!(r.norm_max() <= 1e-9 * exact[0]);
    }
    assert!(sub.kernel_matvecs >= 3 * k);
}

#[test]
fn dependent_columns_are_dropped_and_restart_keeps_the_leading_ritz_values() {
    let (n, k, gamma) = (40, 2, [0.5, 0.25, 0.25]);
    let owned = kernels(n);
    let ks = refs(&owned);
    let mut sub = Subspace::new(&ks, k);
    let x = Mat::from_fn(n, 3, |i, j| {
        if j == 2 {
            2.0 * (i as f64).sin()
        } else {
            ((i + j) as f64).cos() + j as f64 * (i as f64).sin()
        }
    });
    // third column = 2 × (second − first) is dependent on the first two
    let mut x = x;
    for i in 0..n {
        x[(i, 2)] = 2.0 * (x[(i, 1)] - x[(i, 0)]);
    }
    assert_eq!(sub.expand(x.as_ref(), &gamma).unwrap(), 2);
    assert_eq!(sub.expand(x.as_ref(), &gamma).unwrap(), 0);
    // fill the subspace (capacity n = 40): the Ritz values become the eigenvalues
    let c = sub.certify(&gamma, 1e-10, 100).unwrap().unwrap();
    let exact = dense_top(&ks, &gamma, k);
    for (a, b) in c.ritz.values.iter().zip(&exact) {
        assert!((a - b).abs() <= 1e-9 * exact[0]);
    }
    let before = sub.ritz(&gamma).unwrap().values;
    let r = sub.r;
    if r > sub.keep {
        sub.restart(&gamma).unwrap();
        assert_eq!(sub.r, sub.keep);
        let after = sub.ritz(&gamma).unwrap().values;
        for (a, b) in after.iter().zip(&before) {
            assert!((a - b).abs() <= 1e-11 * before[0]);
        }
    }
}
