//! LMKKM: the gating operator against the dense QP matrix, the gradient against finite
//! differences, the simplex projection against a grid, the QP's KKT conditions, the
//! objective against a direct evaluation, monotone descent, the contract and errors.

mod common;

use common::{gaussian_views, noise, refs};
use faer::{Mat, MatRef};
use mkc_mkkm::lmkkm::gated_kernel_into;
use mkc_mkkm::lmkkm::gating::{inner_product, project_simplex, GatingOperator, GatingSolver};
use mkc_mkkm::params::rejected_param;
use mkc_mkkm::prelude::*;
use mkc_mkkm::Preprocessing;

/// A small problem: preprocessed kernels, an orthonormal H (top-k of the mean kernel)
/// and a feasible Θ with distinct rows.
fn problem(n: usize) -> (Vec<Mat<f64>>, Mat<f64>, Mat<f64>) {
    let (ks, _) = gaussian_views(n, 3, &[0.5, 2.0, 6.0]);
    let pre = Preprocessing::default().apply(&refs(&ks)).unwrap();
    let mean = Mat::from_fn(n, n, |i, j| {
        pre.iter().map(|k| k[(i, j)]).sum::<f64>() / 3.0
    });
    let h = mkc_linalg::eigen::top_k(mean.as_ref(), 3, &Default::default())
        .unwrap()
        .vectors;
    let mut theta = Mat::from_fn(n, 3, |i, m| 0.5 + noise(i, m, 9));
    for i in 0..n {
        let s: f64 = (0..3).map(|m| theta[(i, m)]).sum();
        for m in 0..3 {
            theta[(i, m)] /= s;
        }
    }
    (pre, h, theta)
}

/// `f(Θ) = Σ_m θ_mᵀ ((I − HHᵀ) ∘ K_m) θ_m` with the dense matrices.
fn dense_f(ks: &[MatRef<'_, f64>], h: MatRef<'_, f64>, theta: MatRef<'_, f64>) -> f64 {
    let n = h.nrows();
    let hh = h * h.transpose();
    let mut f = 0.0;
    for (m, k) in ks.iter().enumerate() {
        for i in 0..n {
            for j in 0..n {
                let a = (if i == j { 1.0 } else { 0.0 } - hh[(i, j)]) * k[(i, j)];
                f += theta[(i, m)] * a * theta[(j, m)];
            }
        }
    }
    f
}

#[test]
fn the_operator_is_the_dense_qp_matrix_and_the_gradient_matches_finite_differences() {
    let (pre, h, theta) = problem(300);
    let ks = refs(&pre);
    let op = GatingOperator::new(&ks, h.as_ref());
    let a = op.applied(theta.as_ref());
    let hh = &h * h.transpose();
    for (m, k) in ks.iter().enumerate() {
        for i in (0..300).step_by(37) {
            let dense: f64 = (0..300)
                .map(|j| (f64::from(u8::from(i == j)) - hh[(i, j)]) * k[(i, j)] * theta[(j, m)])
                .sum();
            assert!(
                (dense - a[(i, m)]).abs() < 1e-10,
                "{dense} vs {}",
                a[(i, m)]
            );
        }
    }
    let f = inner_product(theta.as_ref(), a.as_ref());
    assert!((f - dense_f(&ks, h.as_ref(), theta.as_ref())).abs() < 1e-9 * f.abs());
    // ∂f/∂Θ_im = 2 (AΘ)_im, by central differences
    let eps = 1e-5;
    for (i, m) in [(0, 0), (17, 1), (123, 2), (299, 0)] {
        let mut plus = theta.clone();
        plus[(i, m)] += eps;
        let mut minus = theta.clone();
        minus[(i, m)] -= eps;
        let fd = (dense_f(&ks, h.as_ref(), plus.as_ref())
            - dense_f(&ks, h.as_ref(), minus.as_ref()))
            / (2.0 * eps);
        assert!(
            (fd - 2.0 * a[(i, m)]).abs() < 1e-6,
            "({i}, {m}): {fd} vs {}",
            2.0 * a[(i, m)]
        );
    }
}

#[test]
fn the_simplex_projection_is_the_nearest_point_of_a_grid() {
    for v in [
        [0.2, 0.5, 0.9],
        [-1.0, 3.0, 0.1],
        [0.3, 0.3, 0.4],
        [5.0, 5.0, -2.0],
    ] {
        let mut x = v;
        project_simplex(&mut x);
        assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-15 && x.iter().all(|&t| t >= 0.0));
        let d = |p: &[f64]| {
            p.iter()
                .zip(&v)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
        };
        let steps = 400;
        let mut best = f64::MAX;
        for a in 0..=steps {
            for b in 0..=steps - a {
                let p = [
                    a as f64 / steps as f64,
                    b as f64 / steps as f64,
                    (steps - a - b) as f64 / steps as f64,
                ];
                best = best.min(d(&p));
            }
        }
        assert!(d(&x) <= best + 1e-12, "{v:?}: {} > {best}", d(&x));
        assert!(best - d(&x) < 1e-4, "{v:?}");
    }
}

#[test]
fn the_gating_qp_meets_its_kkt_conditions() {
    let (pre, h, theta) = problem(120);
    let ks = refs(&pre);
    let op = GatingOperator::new(&ks, h.as_ref());
    let tight = GatingSolver {
        tol: 1e-10,
        max_iter: 20_000,
        ..GatingSolver::default()
    };
    let sol = tight.solve(&op, theta.as_ref(), None).unwrap();
    assert!(sol.converged, "{}", sol.residual);
    let start = inner_product(theta.as_ref(), op.applied(theta.as_ref()).as_ref());
    assert!(sol.value <= start);
    // per row: the gradient is equal on the support and not smaller off it
    let g = op.applied(sol.theta.as_ref());
    let scale = (0..120).map(|i| g[(i, 0)].abs()).fold(0.0, f64::max);
    for i in 0..120 {
        let row: Vec<f64> = (0..3).map(|m| sol.theta[(i, m)]).collect();
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12 && row.iter().all(|&t| t >= 0.0));
        let lo = (0..3).map(|m| g[(i, m)]).fold(f64::MAX, f64::min);
        for m in 0..3 {
            if row[m] > 1e-6 {
                assert!(g[(i, m)] - lo < 1e-6 * scale, "row {i}: {row:?} {g:?}");
            }
        }
    }
    // the default tolerance reaches the same value to 1e-6 relative
    let default = GatingSolver::default()
        .solve(&op, theta.as_ref(), Some(sol.lipschitz))
        .unwrap();
    assert!((default.value - sol.value).abs() < 1e-6 * sol.value.abs().max(1.0));
}

#[test]
fn objective_is_the_direct_trace_and_never_increases() {
    let (ks, truth) = gaussian_views(90, 3, &[0.5, 2.0, 6.0]);
    let fit = LmkkmParams::new().fit_kernels(&refs(&ks), 3).unwrap();
    let tr = &fit.objective_trace;
    assert_eq!(tr.len(), 10);
    assert!(fit.largest_rise() <= 1e-9, "{tr:?}");
    // tr(K_Θ (I − HHᵀ)) from the formed K_Θ at the final Θ and H
    let pre = Preprocessing::default().apply(&refs(&ks)).unwrap();
    let mut k_theta = Mat::<f64>::zeros(90, 90);
    gated_kernel_into(k_theta.as_mut(), &refs(&pre), fit.extra.as_ref()).unwrap();
    assert_eq!(k_theta, k_theta.transpose().to_owned());
    let hh = &fit.h * fit.h.transpose();
    let direct: f64 = (0..90)
        .map(|i| k_theta[(i, i)] - (0..90).map(|j| k_theta[(i, j)] * hh[(j, i)]).sum::<f64>())
        .sum();
    let last = *tr.last().unwrap();
    assert!(
        (direct - last).abs() < 1e-9 * last.abs(),
        "{direct} vs {last}"
    );
    // entries of K_Θ
    let (i, j) = (71, 4);
    let e: f64 = (0..3)
        .map(|m| fit.extra[(i, m)] * fit.extra[(j, m)] * pre[m][(i, j)])
        .sum();
    assert_eq!(k_theta[(i, j)], e);
    let g: f64 = fit.gamma.iter().sum();
    assert!((g - 1.0).abs() < 1e-12);
    let labels = mkc_mkkm::labels_from_h(fit.h.as_ref(), 3, 1).unwrap();
    assert!(mkc_metrics::accuracy(&truth, &labels).unwrap() > 0.9);
}

#[test]
fn one_kernel_is_spectral_kernel_k_means() {
    let (ks, _) = gaussian_views(60, 3, &[1.0]);
    let fit = LmkkmParams::new()
        .iterations(2)
        .fit_kernels(&refs(&ks), 3)
        .unwrap();
    assert!(fit.extra.col(0).iter().all(|&t| t == 1.0));
    let pre = Preprocessing::default().apply(&refs(&ks)).unwrap();
    let e = mkc_linalg::eigen::top_k(pre[0].as_ref(), 3, &Default::default()).unwrap();
    let p1 = &fit.h * fit.h.transpose();
    let p0 = &e.vectors * e.vectors.transpose();
    assert!((&p1 - &p0).norm_max() < 1e-7);
}

common::contract_test!(0.9; "lmkkm" => LmkkmParams::new());

#[test]
fn every_bad_parameter_is_named() {
    for (r, name) in [
        (
            LmkkmParams::new().iterations(0).validate_params(),
            "iterations",
        ),
        (
            LmkkmParams::new().qp_max_iter(0).validate_params(),
            "qp_max_iter",
        ),
        (LmkkmParams::new().qp_tol(-1.0).validate_params(), "qp_tol"),
        (
            LmkkmParams::new().qp_tol(f64::NAN).validate_params(),
            "qp_tol",
        ),
    ] {
        assert_eq!(rejected_param(&r), Some(name), "{r:?}");
    }
    let mut out = Mat::<f64>::zeros(3, 3);
    let k = Mat::<f64>::identity(4, 4);
    assert!(gated_kernel_into(
        out.as_mut(),
        &[k.as_ref()],
        Mat::<f64>::zeros(4, 1).as_ref()
    )
    .is_err());
}
