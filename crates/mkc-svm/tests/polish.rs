//! The active-set polish (`SmoParams::polish`) and the n-variable form of ε = 0 SVR: same
//! optimum as plain SMO and as brute force, feasible, and, where the polish settles, the
//! KKT conditions hold to rounding. (General problems with the polish: `reference.rs`.)
mod common;
use common::*;
use mkc_core::ParamGuard;
use mkc_svm::{DenseSigned, EpsSvrParams};
use rand::Rng;

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
    assert!(plain.converged && polished.converged);
    assert!(
        polished.max_violation < 1e-8,
        "violation {}",
        polished.max_violation
    );
    assert!(
        polished.n_iter * 2 < plain.n_iter,
        "SMO iterations: polished {} vs plain {}",
        polished.n_iter,
        plain.n_iter
    );
    // Objectives (maximisation form): the polished one is the better, by less than the
    // plain solve's distance to the optimum allows (tol · Σ|β| is a crude bound).
    let slack = tol * plain.coef.iter().map(|b| b.abs()).sum::<f64>();
    assert!(polished.objective >= plain.objective - 1e-9 * plain.objective.abs());
    assert!(polished.objective - plain.objective <= slack);
    // Independent check on the n-variable form: G = Kβ − z, y = 1, box [−C, C].
    let q = dense_q(&DenseSigned::new(k.as_ref(), 1.0, None).unwrap());
    let p: Vec<f64> = z.iter().map(|v| -v).collect();
    let (viol, bx, eq) = kkt(
        &q,
        &p,
        &vec![1.0; n],
        &vec![-100.0; n],
        &vec![100.0; n],
        0.0,
        &polished.coef,
    );
    assert!(viol < 1e-7 && bx <= 0.0 && eq < 1e-9, "{viol} {bx} {eq}");
    // f = Kβ + b on every point.
    for i in (0..n).step_by(17) {
        let f: f64 = (0..n).map(|j| k[(i, j)] * polished.coef[j]).sum::<f64>() + polished.b;
        assert!((f - polished.prediction[i]).abs() < 1e-9);
    }
}

/// ε = 0 is solved in the n-variable form: same optimum as the 2n-variable brute force.
#[test]
fn laplacian_svr_matches_two_n_brute_force() {
    for seed in 60..63u64 {
        let mut r = rng(seed);
        let n = 4 + seed as usize % 2;
        let k = random_gram(&mut r, n, 2, 0.05);
        let z: Vec<f64> = (0..n).map(|_| r.random_range(-1.0..1.0)).collect();
        let c = 1.5;
        for polish in [false, true] {
            let model = EpsSvrParams::new(c, 0.0)
                .tol(1e-11)
                .polish(polish)
                .check()
                .unwrap()
                .fit(k.as_ref(), &z)
                .unwrap();
            let m = 2 * n;
            let qd = faer::Mat::from_fn(m, m, |i, j| {
                let (a, sa) = if i < n { (i, 1.0) } else { (i - n, -1.0) };
                let (b, sb) = if j < n { (j, 1.0) } else { (j - n, -1.0) };
                sa * sb * k[(a, b)] + if i == j { 1e-10 } else { 0.0 }
            });
            let p: Vec<f64> = z.iter().map(|zi| -zi).chain(z.iter().copied()).collect();
            let y: Vec<f64> = (0..m).map(|i| if i < n { 1.0 } else { -1.0 }).collect();
            let (best, _) = brute_force(&qd, &p, &y, &vec![0.0; m], &vec![c; m], 0.0);
            assert!(
                (-model.objective - best).abs() <= 1e-8 * (1.0 + best.abs()),
                "polish {polish}: {} vs {best}",
                -model.objective
            );
            assert!(model.coef.iter().all(|b| b.abs() <= c));
            assert!(model.coef.iter().sum::<f64>().abs() < 1e-12);
        }
    }
}
