//! Numerical checks of the paper's identities: Proposition 1, strong duality (eq. 11 =
//! eq. 5), eq. (12) against central differences, eq. (7) and its O(V·N) flip update.

mod common;

use common::{blobs, gaussians, noisy_labels};
use faer::{Mat, MatRef};
use mkc_core::ParamGuard;
use mkc_rmkc::objective::{composite_into, evaluate, primal_value};
use mkc_rmkc::{gradient::gradient, RmkcParams, Variance};
use mkc_svm::CheckedKernel;

fn setup(n: usize, seed: u64) -> (Vec<Mat<f64>>, Vec<f64>) {
    let x = blobs(n, 1.2, seed);
    (
        gaussians(&x, &[0.5, 1.0, 3.0]),
        noisy_labels(n, &[0, 3, n - 1]),
    )
}

fn j_at(
    c: f64,
    ks: &[MatRef<'_, f64>],
    theta: &[f64],
    y: &[f64],
) -> (f64, f64, mkc_svm::SvcModel, Mat<f64>) {
    let rmkc = RmkcParams::new(c).svm_tol(1e-10).check().unwrap();
    let n = y.len();
    let mut kt = Mat::zeros(n, n);
    composite_into(&mut kt, theta, ks).unwrap();
    let var = Variance::new(ks, y).unwrap();
    let ev = evaluate(
        rmkc.svc(),
        &CheckedKernel::new(kt.as_ref()).unwrap(),
        &var,
        theta,
        None,
    )
    .unwrap();
    assert!(ev.model.converged);
    (ev.j, ev.e, ev.model, kt)
}

/// Eq. (6) straight from the definition, via feature-space distances to the means.
fn variance_brute(k: MatRef<'_, f64>, y: &[f64]) -> f64 {
    let n = y.len();
    let mut total = 0.0;
    for s in [-1.0, 1.0] {
        let idx: Vec<usize> = (0..n).filter(|&i| y[i] == s).collect();
        let m = idx.len() as f64;
        if idx.is_empty() {
            continue;
        }
        let mut kk = 0.0;
        for &j in &idx {
            for &l in &idx {
                kk += k[(j, l)];
            }
        }
        for &i in &idx {
            let ki: f64 = idx.iter().map(|&j| k[(i, j)]).sum();
            total += k[(i, i)] - 2.0 * ki / m + kk / (m * m);
        }
    }
    total / n as f64
}

#[test]
fn proposition_1_scale_invariance() {
    let (ks, y) = setup(30, 1);
    let ks: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let theta = [0.2, 0.5, 0.3];
    for c in [0.1, 1.0, 10.0] {
        let (j0, _, _, _) = j_at(c, &ks, &theta, &y);
        for a in [0.01, 0.5, 3.0, 100.0] {
            let t: Vec<f64> = theta.iter().map(|x| a * x).collect();
            let (ja, _, _, _) = j_at(c, &ks, &t, &y);
            assert!(
                (ja - j0).abs() <= 1e-6 * j0.abs(),
                "C = {c}, a = {a}: {ja} vs {j0}"
            );
        }
    }
}

#[test]
fn dual_value_equals_primal_value() {
    let (ks, y) = setup(30, 2);
    let ks: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    for (c, theta) in [
        (0.1, [0.2, 0.5, 0.3]),
        (1.0, [1.0, 0.0, 0.0]),
        (10.0, [0.1, 0.1, 2.0]),
    ] {
        let (j, e, model, kt) = j_at(c, &ks, &theta, &y);
        let p = primal_value(kt.as_ref(), &y, e, c, &model);
        assert!(
            (p - j).abs() <= 1e-6 * j.abs().max(1.0),
            "C = {c}: primal {p} vs dual {j}"
        );
    }
}

#[test]
fn gradient_matches_central_differences() {
    let (ks, y) = setup(24, 3);
    let ks: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    for c in [0.5, 5.0] {
        let theta = [0.3, 0.4, 0.3];
        let (_, e, model, _) = j_at(c, &ks, &theta, &y);
        let var = Variance::new(&ks, &y).unwrap();
        let ev = mkc_rmkc::Evaluation {
            j: model.objective,
            e,
            model,
        };
        let g = gradient(&ks, &theta, &var, &ev);
        let gnorm = g.iter().map(|x| x * x).sum::<f64>().sqrt();
        // Euler: θᵀ∇J = 0 (J homogeneous of degree 0).
        let euler: f64 = g.iter().zip(&theta).map(|(a, b)| a * b).sum();
        assert!(euler.abs() <= 1e-8 * gnorm.max(1.0), "θᵀ∇J = {euler}");
        let h = 1e-5;
        for v in 0..3 {
            let mut tp = theta;
            let mut tm = theta;
            tp[v] += h;
            tm[v] -= h;
            let fd = (j_at(c, &ks, &tp, &y).0 - j_at(c, &ks, &tm, &y).0) / (2.0 * h);
            assert!(
                (fd - g[v]).abs() <= 1e-4 * gnorm.max(1e-3),
                "C = {c}, v = {v}: fd {fd} vs eq. (12) {}",
                g[v]
            );
        }
    }
}

#[test]
fn variance_matches_eq7_and_incremental_update_matches_recomputation() {
    let (ks, y) = setup(26, 4);
    let ks: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let mut var = Variance::new(&ks, &y).unwrap();
    for (v, k) in ks.iter().enumerate() {
        let b = variance_brute(*k, &y);
        assert!((var.term(v) - b).abs() <= 1e-12 * b.abs().max(1.0));
    }
    // A sequence of flips in both directions, including emptying almost a cluster.
    let flips = [0usize, 5, 13, 20, 5, 25, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12];
    for &i in &flips {
        var.flip(&ks, i).unwrap();
        let fresh = Variance::new(&ks, var.labels()).unwrap();
        for (v, &k) in ks.iter().enumerate() {
            let (a, b) = (var.term(v), fresh.term(v));
            assert!(
                (a - b).abs() <= 1e-10 * b.abs().max(1.0),
                "after flip {i}, kernel {v}: {a} vs {b}"
            );
            let brute = variance_brute(k, var.labels());
            assert!((a - brute).abs() <= 1e-10 * brute.abs().max(1.0));
        }
    }
    // E(θ, y) is linear in θ (eq. 7).
    let theta = [0.2, 1.5, 0.7];
    let mut kt = Mat::zeros(26, 26);
    composite_into(&mut kt, &theta, &ks).unwrap();
    let direct = variance_brute(kt.as_ref(), var.labels());
    assert!((var.total(&theta) - direct).abs() <= 1e-10 * direct);
    assert!(var.flip(&ks, 26).is_err());
}
