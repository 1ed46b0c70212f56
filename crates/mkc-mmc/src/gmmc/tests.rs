//! Unit tests of the GMMC relaxation and its solver: optimality certificates (KKT) on
//! small problems, the bound on the integer MMC objective against brute force over all
//! labellings, invariances, warm starts.

use super::newton::cholesky;
use super::*;
use faer::Mat;

/// Deterministic pseudo-random numbers in [−½, ½).
fn noise(i: usize, j: usize, salt: usize) -> f64 {
    ((i * 7919 + j * 104_729 + salt * 15_485_863) % 997) as f64 / 997.0 - 0.5
}

/// Two groups along the first axis (n/2 each), d dimensions, spread `s`.
fn blobs(n: usize, d: usize, gap: f64, s: f64, salt: usize) -> Mat<f64> {
    Mat::from_fn(n, d, |i, j| {
        let side = if i < n / 2 { -1.0 } else { 1.0 };
        let centre = if j == 0 { side * gap } else { 0.0 };
        centre + s * noise(i, j, salt)
    })
}

/// Smallest eigenvalue of a symmetric matrix.
fn min_eig(m: &Mat<f64>) -> f64 {
    let (v, _) = mkc_linalg::eigen::sym_evd(m.as_ref()).unwrap();
    v[0]
}

/// `P(y)` of the crate docs: the soft-margin SVM with bias |b| ≤ β at labels y, as
/// `min_b g(b)` (g convex) by golden-section search, each `g(b)` by coordinate ascent
/// on its box-constrained dual `max_{0≤α≤C} Σα_i(1 − y_i b) − ½‖Φᵀ(y∘α)‖²` (a lower
/// bound on g(b) at any α, equal at the optimum). Φ is the relaxation's centred Φ.
fn svm_objective(rel: &Relaxation, y: &[f64]) -> f64 {
    let (n, m) = (rel.n(), rel.m());
    let a = rel.design();
    let r = m - 1;
    let g = |b: f64| {
        let mut alpha = vec![0.0; n];
        let mut w = vec![0.0; r];
        for _ in 0..200 {
            for i in 0..n {
                let qii: f64 = (0..r).map(|j| a[(i, j)].powi(2)).sum();
                let fi: f64 = (0..r).map(|j| a[(i, j)] * w[j]).sum();
                let grad = 1.0 - y[i] * b - y[i] * fi;
                let new = if qii > 0.0 {
                    (alpha[i] + grad / qii).clamp(0.0, rel.c)
                } else if grad > 0.0 {
                    rel.c
                } else {
                    0.0
                };
                let delta = new - alpha[i];
                alpha[i] = new;
                for (j, wj) in w.iter_mut().enumerate() {
                    *wj += delta * y[i] * a[(i, j)];
                }
            }
        }
        let lin: f64 = (0..n).map(|i| alpha[i] * (1.0 - y[i] * b)).sum();
        lin - 0.5 * w.iter().map(|x| x * x).sum::<f64>()
    };
    let (mut lo, mut hi) = (-rel.beta, rel.beta);
    let phi = 0.5 * (5f64.sqrt() - 1.0);
    let (mut x1, mut x2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
    let (mut g1, mut g2) = (g(x1), g(x2));
    for _ in 0..30 {
        if g1 <= g2 {
            (hi, x2, g2) = (x2, x1, g1);
            x1 = hi - phi * (hi - lo);
            g1 = g(x1);
        } else {
            (lo, x1, g1) = (x1, x2, g2);
            x2 = lo + phi * (hi - lo);
            g2 = g(x2);
        }
    }
    g1.min(g2)
}

/// Checks the optimality certificate of a solution: dual feasibility (γ > 0, S ≻ 0),
/// primal feasibility (Z ⪰ 0, `Z_bb ≤ β²`), complementarity and the duality gap.
fn check_certificate(rel: &Relaxation, sol: &RelaxationSolution, tol: f64) {
    let p = &sol.dual_point;
    assert!(p.gamma.iter().all(|&g| g > 0.0) && p.nu > 0.0);
    let s = rel.slack(&p.gamma, p.nu);
    assert!(cholesky(&s).is_some(), "S(γ, ν) must be positive definite");
    assert!(min_eig(&sol.z) >= -1e-10, "Z must be PSD");
    let m = rel.m();
    assert!(sol.z[(m - 1, m - 1)] <= rel.beta * rel.beta * (1.0 + 1e-12));
    let scale = sol.dual.abs().max(1.0);
    assert!(
        sol.gap() >= -1e-9 * scale,
        "weak duality: gap {}",
        sol.gap()
    );
    assert!(
        sol.gap() <= tol * scale,
        "gap {} vs {}",
        sol.gap(),
        tol * scale
    );
    // ⟨S, Z⟩ is part of the gap: complementarity.
    let sz: f64 = (0..m)
        .flat_map(|i| (0..m).map(move |j| (i, j)))
        .map(|(i, j)| s[(i, j)] * sol.z[(i, j)])
        .sum();
    assert!(sz >= -1e-9 && sz <= tol * scale, "<S, Z> = {sz}");
    let (primal, violation) = rel.primal_objective(sol.z.as_ref());
    assert!((primal - sol.primal).abs() <= 1e-9 * scale);
    assert!(
        violation <= 1e-12 * rel.beta * rel.beta,
        "balance violated by {violation}"
    );
    assert!((rel.dual_objective(&p.gamma, p.nu) - sol.dual).abs() <= 1e-12 * scale);
}

#[test]
fn certified_optimal_on_small_problems() {
    for (n, d, c, ell) in [
        (10, 2, 1.0, 1.0),
        (12, 3, 0.1, 2.0),
        (9, 1, 10.0, 3.0),
        (20, 5, 100.0, 0.6),
    ] {
        let x = blobs(n, d, 1.0, 0.8, n + d);
        let rel = Relaxation::new(x.as_ref(), c, ell).unwrap();
        let sol = BarrierSolver::default().solve(&rel, None).unwrap();
        assert_eq!(sol.stop, StopReason::Gap, "n = {n}, C = {c}");
        check_certificate(&rel, &sol, 1e-4);
        // The dual objective is a lower bound after every round, so the best is the last.
        assert!(sol
            .trace
            .iter()
            .all(|&v| v <= sol.dual + 1e-9 * sol.dual.abs().max(1.0)));
    }
}

#[test]
fn relaxation_bounds_mmc_over_all_labellings() {
    for (n, c, ell, salt) in [(8, 1.0, 2.0, 1), (9, 5.0, 1.0, 2), (10, 0.5, 2.0, 3)] {
        let x = blobs(n, 2, 0.6, 1.0, salt);
        let rel = Relaxation::new(x.as_ref(), c, ell).unwrap();
        let sol = BarrierSolver::default().solve(&rel, None).unwrap();
        let mut best = f64::INFINITY;
        for mask in 0u32..(1 << n) {
            let y: Vec<f64> = (0..n)
                .map(|i| if mask >> i & 1 == 1 { 1.0 } else { -1.0 })
                .collect();
            best = best.min(svm_objective(&rel, &y));
        }
        assert!(
            sol.dual <= best + 1e-7,
            "n = {n}: relaxation {} > MMC {best}",
            sol.dual
        );
        // The rounded labels give an upper bound on MMC, hence on the relaxation.
        let (labels, _) = fit::labels_of(&rel, &sol, 0, n).unwrap();
        let y: Vec<f64> = labels
            .iter()
            .map(|&l| if l == 1 { 1.0 } else { -1.0 })
            .collect();
        let rounded = svm_objective(&rel, &y);
        assert!(sol.dual <= rounded + 1e-7);
        // On these sets the rounded labels solve MMC (found by the brute force too).
        assert!(
            rounded <= best + 1e-6,
            "n = {n}: rounded {rounded} vs MMC {best}"
        );
    }
}

#[test]
fn balanced_rounding_moves_the_threshold_only_when_needed() {
    let v = [0.9, 0.8, 0.7, 0.6, 0.5, -0.1];
    // Inside the set: the signs.
    assert_eq!(balanced_labels(&v, 1, 5), vec![1, 1, 1, 1, 1, 0]);
    // Five positives but at most 4 allowed: the 4 largest.
    assert_eq!(balanced_labels(&v, 2, 4), vec![1, 1, 1, 1, 0, 0]);
    // All negative, at least 2 positives: the 2 largest (ties by index).
    assert_eq!(
        balanced_labels(&[-1.0, -0.5, -0.5, -2.0], 2, 2),
        vec![0, 1, 1, 0]
    );
}
