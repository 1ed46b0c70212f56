//! MKKM-MM: the closed-form weights against a grid on the sphere, the objective against
//! a direct evaluation, the fixed point, the contract and typed errors.

mod common;

use common::{gaussian_views, refs};
use faer::MatRef;
use mkc_mkkm::params::rejected_param;
use mkc_mkkm::prelude::*;
use mkc_mkkm::{l2_weights, Preprocessing};

/// `tr(W_θ (I − HHᵀ))` computed entry by entry.
fn direct_objective(ks: &[MatRef<'_, f64>], theta: &[f64], h: MatRef<'_, f64>) -> f64 {
    let (n, k) = (h.nrows(), h.ncols());
    let mut s = 0.0;
    for (kp, t) in ks.iter().zip(theta) {
        for i in 0..n {
            for j in 0..n {
                let hh: f64 = (0..k).map(|c| h[(i, c)] * h[(j, c)]).sum();
                let id = if i == j { 1.0 } else { 0.0 };
                s += t * kp[(i, j)] * (id - hh);
            }
        }
    }
    s
}

#[test]
fn closed_form_weights_beat_a_grid_on_the_sphere() {
    for a in [[3.0, 1.0, 2.0], [0.5, 0.0, 4.0], [1.0, 1.0, 1.0]] {
        let theta = l2_weights(&a).unwrap();
        let value: f64 = theta.iter().zip(&a).map(|(t, v)| t * v).sum();
        assert!((theta.iter().map(|t| t * t).sum::<f64>() - 1.0).abs() < 1e-14);
        // every point of the positive orthant of the unit sphere on a 200 x 200 grid
        let mut best = f64::MIN;
        for i in 0..=200 {
            for j in 0..=200 {
                let (u, v) = (
                    i as f64 / 200.0 * std::f64::consts::FRAC_PI_2,
                    j as f64 / 200.0 * std::f64::consts::FRAC_PI_2,
                );
                let g = [u.sin() * v.cos(), u.sin() * v.sin(), u.cos()];
                best = best.max(g.iter().zip(&a).map(|(t, x)| t * x).sum());
            }
        }
        assert!(value >= best - 1e-12, "{a:?}: {value} < {best}");
        assert!(
            value - best < 1e-3 * value,
            "{a:?}: grid {best} far from {value}"
        );
    }
    assert_eq!(l2_weights(&[0.0, 0.0]), None);
    assert_eq!(l2_weights(&[-1e-18, 2.0]), Some(vec![0.0, 1.0]));
}

#[test]
fn objective_is_the_min_max_value_and_the_end_is_a_fixed_point() {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 2.0, 6.0]);
    let fit = MkkmMmParams::new()
        .max_iter(50)
        .tol(1e-10)
        .fit_kernels(&refs(&ks), 3)
        .unwrap();
    let pre = Preprocessing::default().apply(&refs(&ks)).unwrap();
    let pre = refs(&pre);
    let direct = direct_objective(&pre, &fit.gamma, fit.h.as_ref());
    let last = *fit.objective_trace.last().unwrap();
    assert!((direct - last).abs() < 1e-9 * last, "{direct} vs {last}");
    assert!(
        fit.diagnostics.converged,
        "{:?}",
        fit.diagnostics.method.steps
    );
    // θ = a(H)/‖a(H)‖ at the returned H (to the stopping tolerance) …
    let a: Vec<f64> = mkc_linalg::trace_quadratic_many(&pre, fit.h.as_ref())
        .unwrap()
        .iter()
        .map(|v| 60.0 - v)
        .collect();
    let best = l2_weights(&a).unwrap();
    for (x, y) in best.iter().zip(&fit.gamma) {
        assert!((x - y).abs() < 1e-8, "{best:?} vs {:?}", fit.gamma);
    }
    // … and H minimises tr(W_θ (I − HHᵀ)): no orthonormal H from other kernels does better.
    for other in &pre {
        let e = mkc_linalg::eigen::top_k(*other, 3, &Default::default()).unwrap();
        assert!(direct_objective(&pre, &fit.gamma, e.vectors.as_ref()) >= direct - 1e-9);
    }
    let w = MkkmMmParams::new()
        .fit(&KernelSet::new(&ks).unwrap(), 3, 0)
        .unwrap();
    assert!(w.kernel_weights.as_ref().unwrap().violation() < 1e-12);
    assert!(mkc_metrics::accuracy(&truth, &w.labels).unwrap() > 0.9);
}

#[test]
fn the_cap_counts_h_steps_and_the_first_weights_are_uniform() {
    let (ks, _) = gaussian_views(40, 2, &[0.5, 3.0]);
    let one = MkkmMmParams::new()
        .max_iter(1)
        .fit_kernels(&refs(&ks), 2)
        .unwrap();
    assert_eq!((one.iterations, one.diagnostics.eigensolves), (1, 1));
    let s = 0.5f64.sqrt();
    assert!(
        one.gamma.iter().all(|g| (g - s).abs() < 1e-15),
        "{:?}",
        one.gamma
    );
    let capped = MkkmMmParams::new()
        .tol(1e-300)
        .fit_kernels(&refs(&ks), 2)
        .unwrap();
    assert!(capped.iterations <= 10);
}

common::contract_test!(0.9; "mkkm-mm" => MkkmMmParams::new());

#[test]
fn every_bad_parameter_is_named() {
    for (r, name) in [
        (MkkmMmParams::new().tol(f64::NAN).validate_params(), "tol"),
        (
            MkkmMmParams::new().max_iter(0).validate_params(),
            "max_iter",
        ),
    ] {
        assert_eq!(rejected_param(&r), Some(name), "{r:?}");
    }
}
