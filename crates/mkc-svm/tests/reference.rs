//! The SMO optimum equals a brute-force active-set reference on small problems.
mod common;
use common::*;
use mkc_core::ParamGuard;
use mkc_svm::{
    CSvcParams, DenseSigned, EpsSvrParams, SimplexSquaredHingeParams, SmoParams, WithDiagonal,
};

fn tiny() -> mkc_svm::Smo {
    SmoParams::new().tol(1e-11).check().unwrap()
}

#[test]
fn csvc_matches_brute_force() {
    for (seed, n) in [(1u64, 4usize), (2, 6), (3, 8), (4, 9), (5, 10), (6, 12)] {
        let mut r = rng(seed);
        let k = random_gram(&mut r, n, 3, 0.05);
        let y = random_labels(&mut r, n);
        let cs: &[f64] = if n >= 12 { &[2.0] } else { &[0.3, 5.0] };
        for &c in cs {
            let model = CSvcParams::new(c)
                .tol(1e-11)
                .check()
                .unwrap()
                .fit(k.as_ref(), &y)
                .unwrap();
            assert!(model.status.converged);
            let q = dense_q(&DenseSigned::new(k.as_ref(), 1.0, Some(&y)).unwrap());
            let parts = Parts::csvc(&y, c);
            let (best, _) = brute_force(&q, &parts);
            let ours = -model.objective;
            assert!(
                (ours - best).abs() <= 1e-8 * (1.0 + best.abs()),
                "n={n} C={c}: smo {ours} vs brute force {best}"
            );
            // Objective recomputed from α agrees with the reported one.
            assert!((objective(&q, &parts.p, &model.alpha) - ours).abs() < 1e-10);
        }
    }
}

/// Per-variable boxes, Δ ≠ 0, signs ±1; plain SMO and SMO with the active-set polish
/// (which must settle at least once over the set, so its path is exercised).
#[test]
fn general_box_and_delta_match_brute_force() {
    let mut settled = 0;
    for seed in 10..22u64 {
        let mut r = rng(seed);
        let n = 3 + (seed as usize % 10);
        let k = random_gram(&mut r, n, 2, 0.1);
        let y = random_labels(&mut r, n);
        let q = DenseSigned::new(k.as_ref(), 1.5, Some(&y)).unwrap();
        let p: Vec<f64> = (0..n).map(|_| r.random_range(-1.0..1.0)).collect();
        let lo: Vec<f64> = (0..n).map(|_| r.random_range(-1.0..0.0)).collect();
        let up: Vec<f64> = lo.iter().map(|l| l + r.random_range(0.2..2.0)).collect();
        let a0: Vec<f64> = lo
            .iter()
            .zip(&up)
            .map(|(l, u)| l + (u - l) * r.random::<f64>())
            .collect();
        let delta: f64 = y.iter().zip(&a0).map(|(y, a)| y * a).sum();
        let parts = Parts {
            p,
            y: y.clone(),
            delta,
            lo,
            up,
        };
        for (shrinking, polish) in [(true, false), (false, false), (true, true), (false, true)] {
            let smo = SmoParams::new()
                .tol(1e-11)
                .shrinking(shrinking)
                .polish(polish)
                .check()
                .unwrap();
            let sol = parts.solve(&smo, &q, None).unwrap();
            let qd = dense_q(&q);
            let (best, _) = brute_force(&qd, &parts);
            assert!(sol.status.converged);
            assert!(
                (sol.objective - best).abs() <= 1e-8 * (1.0 + best.abs()),
                "seed {seed}: {} vs {best}",
                sol.objective
            );
            let (viol, bx, eq) = kkt(&qd, &parts, &sol.alpha);
            assert!(viol < 1e-9 && bx <= 0.0 && eq < 1e-11, "{viol} {bx} {eq}");
            settled += sol.polish.settled;
        }
    }
    assert!(settled > 0, "the polish never settled on these problems");
}

#[test]
fn simplex_dual_matches_brute_force() {
    for seed in 20..25u64 {
        let mut r = rng(seed);
        let n = 4 + (seed as usize % 7);
        let k = random_gram(&mut r, n, 3, 0.0);
        let y1 = random_labels(&mut r, n);
        let y2 = random_labels(&mut r, n);
        let mu = [0.3, 0.7];
        let c = 2.0;
        let model = SimplexSquaredHingeParams::new(c)
            .tol(1e-11)
            .check()
            .unwrap()
            .fit(k.as_ref(), &[&y1, &y2], &mu)
            .unwrap();
        let qd = faer::Mat::from_fn(n, n, |i, j| {
            k[(i, j)] * (mu[0] * y1[i] * y1[j] + mu[1] * y2[i] * y2[j])
                + if i == j { 1.0 / c } else { 0.0 }
        });
        let (best, _) = brute_force(&qd, &Parts::simplex(n));
        assert!(
            (-model.objective - best).abs() <= 1e-8 * (1.0 + best.abs()),
            "{} vs {best}",
            -model.objective
        );
        assert!(
            (model.rho + 2.0 * model.objective).abs() < 1e-8,
            "rho = αᵀQα"
        );
        let s: f64 = model.alpha.iter().sum();
        assert!((s - 1.0).abs() < 1e-12 && model.alpha.iter().all(|&a| a >= 0.0));
        // label terms: ½(α∘y_t)ᵀK(α∘y_t); μ-weighted sum + ‖α‖²/(2C) = −objective
        let lt: f64 = model.label_terms[0] * mu[0] + model.label_terms[1] * mu[1];
        let a2: f64 = model.alpha.iter().map(|a| a * a).sum();
        assert!((lt + a2 / (2.0 * c) + model.objective).abs() < 1e-10);
        // label_term: the same term for any label vector, against a dense double sum.
        let y3 = random_labels(&mut r, n);
        for (t, y) in [&y1, &y2, &y3].into_iter().enumerate() {
            let dense: f64 = (0..n)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .map(|(i, j)| model.alpha[i] * y[i] * k[(i, j)] * model.alpha[j] * y[j])
                .sum::<f64>()
                / 2.0;
            let checked = mkc_svm::CheckedKernel::new(k.as_ref()).unwrap();
            let term = mkc_svm::label_term(&checked, y, &model.alpha).unwrap();
            assert!(
                (term - dense).abs() <= 1e-12 * (1.0 + dense.abs()),
                "{term} vs {dense}"
            );
            if t < 2 {
                assert_eq!(term, model.label_terms[t]);
            }
        }
    }
}

/// ε-SVR against brute force on the 2n-variable dual; ε = 0 is solved in the n-variable
/// form (with and without the active-set polish) and must reach the same optimum.
#[test]
fn svr_matches_brute_force() {
    for seed in 30..33u64 {
        let mut r = rng(seed);
        let n = 4 + seed as usize % 2;
        let k = random_gram(&mut r, n, 2, 0.05);
        let z: Vec<f64> = (0..n).map(|_| r.random_range(-1.0..1.0)).collect();
        let c = 1.0;
        for (eps, polish) in [(0.1, false), (0.0, false), (0.0, true)] {
            let model = EpsSvrParams::new(c, eps)
                .tol(1e-11)
                .polish(polish)
                .check()
                .unwrap()
                .fit(k.as_ref(), &z)
                .unwrap();
            // Brute force on the 2n-variable dual with a tiny ridge to make Q PD (the
            // ridge changes the optimum by O(1e-9) here, checked against a looser bound).
            let m = 2 * n;
            let ridge = 1e-10;
            let qd = faer::Mat::from_fn(m, m, |i, j| {
                let (a, sa) = if i < n { (i, 1.0) } else { (i - n, -1.0) };
                let (b, sb) = if j < n { (j, 1.0) } else { (j - n, -1.0) };
                sa * sb * k[(a, b)] + if i == j { ridge } else { 0.0 }
            });
            let y: Vec<f64> = (0..m).map(|i| if i < n { 1.0 } else { -1.0 }).collect();
            let parts = Parts {
                p: z.iter()
                    .map(|zi| eps - zi)
                    .chain(z.iter().map(|zi| eps + zi))
                    .collect(),
                ..Parts::csvc(&y, c)
            };
            let (best, _) = brute_force(&qd, &parts);
            assert!(
                (-model.objective - best).abs() <= 1e-8 * (1.0 + best.abs()),
                "ε = {eps}, polish {polish}: {} vs {best}",
                -model.objective
            );
            assert!(model.coef.iter().all(|b| b.abs() <= c));
            assert!(model.coef.iter().sum::<f64>().abs() < 1e-12);
            // prediction = Kβ + b
            for i in 0..n {
                let f: f64 = (0..n).map(|j| k[(i, j)] * model.coef[j]).sum::<f64>() + model.b;
                assert!((f - model.prediction[i]).abs() < 1e-10);
            }
        }
    }
}

#[test]
fn with_diagonal_general_solver_matches_brute_force() {
    let mut r = rng(40);
    let n = 7;
    let k = random_gram(&mut r, n, 2, 0.0);
    let q = WithDiagonal::new(
        DenseSigned::new(k.as_ref(), 1.0, None).unwrap(),
        (0..n).map(|i| 0.1 + i as f64 * 0.05).collect(),
    )
    .unwrap();
    let p: Vec<f64> = (0..n).map(|_| r.random_range(-1.0..1.0)).collect();
    let y = random_labels(&mut r, n);
    let parts = Parts {
        p,
        delta: 0.5,
        ..Parts::csvc(&y, 1.0)
    };
    let sol = parts.solve(&tiny(), &q, None).unwrap();
    let (best, _) = brute_force(&dense_q(&q), &parts);
    assert!((sol.objective - best).abs() < 1e-8 * (1.0 + best.abs()));
}

use rand::Rng;
