//! Numerical checks of the paper's identities: Proposition 1, strong duality (eq. 11 =
//! eq. 5), eq. (12) against central differences, eq. (7) and its O(V·N) flip update.

mod common;

use common::{blobs, clusters, gaussians, noisy_labels};
use faer::{Mat, MatRef};
use mkc_core::{Clusterer, KernelSet, ParamGuard};
use mkc_rmkc::objective::{composite_into, evaluate, primal_value};
use mkc_rmkc::{gradient::gradient, Norm, RmkcParams, Variance};
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
    let rmkc = RmkcParams::new().c(c).svm_tol(1e-10).check().unwrap();
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
    assert!(ev.model.status.converged);
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

/// Proposition 1 through the method API: scaling every kernel by a (the same as scaling
/// θ by a) leaves the whole run unchanged, for every norm. With a a power of 4 every
/// floating-point step scales exactly (√a too), so the runs are identical to the bit;
/// with a = 10 the labels are the same and J and θ agree to the accuracy of the SVM
/// solves (the solver stops at a slightly different point; tolerance 1e-9 here).
#[test]
fn proposition_1_scaling_the_kernels_leaves_the_fit_unchanged() {
    let ks = gaussians(&blobs(40, 1.0, 6), &[0.3, 1.0, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    for norm in [Norm::None, Norm::L1, Norm::L2] {
        let rmkc = RmkcParams::new().c(1.0).l(8).norm(norm).svm_tol(1e-9);
        let base = rmkc.fit(&data, 2, 3).unwrap();
        for a in [0.25, 4.0, 10.0] {
            let scaled: Vec<Mat<f64>> = ks.iter().map(|k| k * faer::Scale(a)).collect();
            let fit = rmkc.fit(&KernelSet::new(&scaled).unwrap(), 2, 3).unwrap();
            assert_eq!(fit.labels, base.labels, "{norm:?}, a = {a}");
            assert_eq!(fit.objective.len(), base.objective.len());
            let close = |x: f64, y: f64| {
                if a == 10.0 {
                    (x - y).abs() <= 1e-6 * y.abs().max(1e-2)
                } else {
                    x == y
                }
            };
            assert!(
                fit.objective
                    .iter()
                    .zip(&base.objective)
                    .all(|(x, y)| close(*x, *y)),
                "{norm:?}, a = {a}: {:?} vs {:?}",
                fit.objective,
                base.objective
            );
            let (w, w0) = (fit.weights().unwrap(), base.weights().unwrap());
            assert!(
                w.iter().zip(w0).all(|(x, y)| close(*x, *y)),
                "{w:?} vs {w0:?}"
            );
        }
    }
}

/// Proposition 1 along a run: with no norm constraint, starting from aθ⁽⁰⁾ instead of
/// θ⁽⁰⁾ gives the same labels and J trace, and θ scaled by a at every step (the gradient
/// of the degree-0 homogeneous J scales by 1/a, the Armijo start η₀ by a²).
#[test]
fn proposition_1_a_scaled_start_gives_a_scaled_run() {
    let ks = gaussians(&blobs(40, 1.0, 7), &[0.3, 1.0, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    let rmkc = RmkcParams::new().l(8).norm(Norm::None).check().unwrap();
    let theta0 = [0.5, 0.3, 0.2];
    let y0 = clusters(&noisy_labels(40, &[0, 5, 33]));
    let base = rmkc.fit_from(&data, &theta0, &y0).unwrap();
    assert!(base.iterations >= 1);
    for a in [0.25, 4.0] {
        let start: Vec<f64> = theta0.iter().map(|t| a * t).collect();
        let fit = rmkc.fit_from(&data, &start, &y0).unwrap();
        assert_eq!(fit.labels, base.labels, "a = {a}");
        assert_eq!(fit.objective, base.objective, "a = {a}");
        let expect: Vec<f64> = base.weights().unwrap().iter().map(|t| a * t).collect();
        assert_eq!(fit.weights().unwrap(), &expect[..], "a = {a}");
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
