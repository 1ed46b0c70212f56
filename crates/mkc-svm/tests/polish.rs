//! The active-set polish (`SmoParams::polish`) on the case it is for: where it settles,
//! the KKT conditions hold to rounding. (Brute-force references with the polish, general
//! problems and ε = 0 SVR: `reference.rs`.)
mod common;
use common::*;
use mkc_core::ParamGuard;
use mkc_svm::{DenseSigned, EpsSvrParams};

/// The Laplacian-loss SVR (ε = 0, iterSVR's) at large C on a smooth RBF kernel, the
/// case the polish is for: with it the solve ends at a KKT violation near rounding
/// after far fewer SMO iterations, with the objective of plain SMO (both within the
/// tolerance of the optimum) and an independently checked KKT violation.
#[test]
fn laplacian_svr_at_large_c_settles() {
    let mut r = rng(7);
    let n = 300;
    let (k, y) = random_rbf(&mut r, n, 5, 0.3);
    let z: Vec<f64> = y
        .iter()
        .enumerate()
        .map(|(i, &v)| if i % 9 == 0 { -v } else { v })
        .collect();
    let tol = 1e-3;
    let fit = |polish: bool| {
        EpsSvrParams::new(100.0, 0.0)
            .tol(tol)
            .polish(polish)
            .check()
            .unwrap()
            .fit(k.as_ref(), &z)
            .unwrap()
    };
    let (plain, polished) = (fit(false), fit(true));
    assert!(plain.status.converged && polished.status.converged);
    assert!(
        polished.status.max_violation < 1e-8,
        "violation {}",
        polished.status.max_violation
    );
    assert!(
        polished.status.iterations * 2 < plain.status.iterations,
        "SMO iterations: polished {} vs plain {}",
        polished.status.iterations,
        plain.status.iterations
    );
    // Objectives (maximisation form): the polished one is the better, by less than the
    // plain solve's distance to the optimum allows (tol · Σ|β| is a crude bound).
    let slack = tol * plain.coef.iter().map(|b| b.abs()).sum::<f64>();
    assert!(polished.objective >= plain.objective - 1e-9 * plain.objective.abs());
    assert!(polished.objective - plain.objective <= slack);
    // Independent check on the n-variable form: G = Kβ − z, y = 1, box [−C, C].
    let q = dense_q(&DenseSigned::new(k.as_ref(), 1.0, None).unwrap());
    let parts = Parts {
        p: z.iter().map(|v| -v).collect(),
        y: vec![1.0; n],
        delta: 0.0,
        lo: vec![-100.0; n],
        up: vec![100.0; n],
    };
    let (viol, bx, eq) = kkt(&q, &parts, &polished.coef);
    assert!(viol < 1e-7 && bx <= 0.0 && eq < 1e-9, "{viol} {bx} {eq}");
    // f = Kβ + b on every point.
    for i in (0..n).step_by(17) {
        let f: f64 = (0..n).map(|j| k[(i, j)] * polished.coef[j]).sum::<f64>() + polished.b;
        assert!((f - polished.prediction[i]).abs() < 1e-9);
    }
}
