//! Property tests: the returned α is feasible and satisfies the KKT conditions within
//! the tolerance (checked independently from a dense Q), cold and warm.
mod common;
use common::*;
use mkc_core::ParamGuard;
use mkc_svm::{CSvcParams, DenseSigned, EpsSvrParams, SimplexSquaredHingeParams, SmoParams};
use proptest::prelude::*;
use rand::Rng;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn csvc_kkt(seed in 0u64..10_000, n in 5usize..60, c in 0.05f64..50.0, gamma in 0.1f64..5.0, shrinking: bool) {
        let mut r = rng(seed);
        let (k, y) = random_rbf(&mut r, n, 3, gamma);
        prop_assume!(y.iter().any(|&v| v > 0.0) && y.iter().any(|&v| v < 0.0));
        let tol = 1e-3;
        let svc = CSvcParams::new(c).tol(tol).shrinking(shrinking).check().unwrap();
        let m = svc.fit(k.as_ref(), &y).unwrap();
        prop_assert!(m.status.converged);
        let q = dense_q(&DenseSigned::new(k.as_ref(), 1.0, Some(&y)).unwrap());
        let (viol, bx, eq) = kkt(&q, &Parts::csvc(&y, c), &m.alpha);
        prop_assert!(viol < tol + 1e-9, "violation {viol}");
        prop_assert!(bx <= 0.0 && eq < 1e-10);
        prop_assert!((viol - m.status.max_violation).abs() < 1e-8);
        // decision values = Σ α_j y_j K_ij + b
        for i in 0..n {
            let f: f64 = (0..n).map(|j| m.alpha[j] * y[j] * k[(i, j)]).sum::<f64>() + m.b;
            prop_assert!((f - m.decision[i]).abs() < 1e-9);
        }
        // Warm start from a perturbed, infeasible α: repaired, then KKT again.
        let mut start: Vec<f64> = m.alpha.iter().map(|a| a + r.random_range(-0.5..0.5) * c).collect();
        start[0] = 2.0 * c;
        let mut y2 = y.clone();
        y2[n / 2] = -y2[n / 2];
        prop_assume!(y2.iter().any(|&v| v > 0.0) && y2.iter().any(|&v| v < 0.0));
        let w = svc.fit_warm(k.as_ref(), &y2, &start).unwrap();
        let q2 = dense_q(&DenseSigned::new(k.as_ref(), 1.0, Some(&y2)).unwrap());
        let (viol, bx, eq) = kkt(&q2, &Parts::csvc(&y2, c), &w.alpha);
        prop_assert!(viol < tol + 1e-9 && bx <= 0.0 && eq < 1e-10, "{viol} {bx} {eq}");
    }

    #[test]
    fn general_kkt(seed in 0u64..10_000, n in 2usize..40, scale in 0.1f64..10.0, shrinking: bool) {
        let mut r = rng(seed);
        let k = random_gram(&mut r, n, 4, 0.0);
        let y = random_labels(&mut r, n);
        let q = DenseSigned::new(k.as_ref(), scale, Some(&y)).unwrap();
        let p: Vec<f64> = (0..n).map(|_| r.random_range(-2.0..2.0)).collect();
        let lo: Vec<f64> = (0..n).map(|i| if i % 5 == 0 { f64::NEG_INFINITY } else { r.random_range(-1.0..0.5) }).collect();
        let up: Vec<f64> = lo.iter().enumerate().map(|(i, l)| if i % 7 == 3 { f64::INFINITY } else { l.max(-1.0) + r.random_range(0.0..2.0) }).collect();
        let a0: Vec<f64> = lo.iter().zip(&up).map(|(l, u)| l.max(-1.0) + (u.min(3.0) - l.max(-1.0)) * r.random::<f64>()).collect();
        let delta: f64 = y.iter().zip(&a0).map(|(y, a)| y * a).sum();
        let tol = 1e-4;
        let smo = SmoParams::new().tol(tol).shrinking(shrinking).max_iter(200_000).check().unwrap();
        let warm: Vec<f64> = (0..n).map(|_| r.random_range(-3.0..3.0)).collect();
        let parts = Parts { p, y: y.clone(), delta, lo, up };
        for start in [None, Some(warm.as_slice())] {
            let sol = parts.solve(&smo, &q, start).unwrap();
            // unbounded directions can make the problem unbounded below only if Q is
            // singular along them; PSD Gram with ≤ 4 features can be: accept non-convergence
            // only together with an honest flag.
            if sol.status.converged {
                let (viol, bx, eq) = kkt(&dense_q(&q), &parts, &sol.alpha);
                prop_assert!(viol < tol + 1e-7, "violation {viol}");
                prop_assert!(bx <= 0.0 && eq < 1e-9 * (1.0 + delta.abs() + sol.alpha.iter().map(|a| a.abs()).sum::<f64>()), "{bx} {eq}");
            } else {
                prop_assert!(sol.status.max_violation >= tol);
            }
        }
    }

    #[test]
    fn simplex_and_svr_kkt(seed in 0u64..10_000, n in 3usize..40, c in 0.1f64..10.0) {
        let mut r = rng(seed);
        let (k, y) = random_rbf(&mut r, n, 2, 1.0);
        let y2 = random_labels(&mut r, n);
        let tol = 1e-4;
        let s = SimplexSquaredHingeParams::new(c).tol(tol).check().unwrap().fit(k.as_ref(), &[&y, &y2], &[0.5, 0.5]).unwrap();
        prop_assert!(s.status.converged);
        let qd = faer::Mat::from_fn(n, n, |i, j| k[(i, j)] * 0.5 * (y[i] * y[j] + y2[i] * y2[j]) + if i == j { 1.0 / c } else { 0.0 });
        let (viol, bx, eq) = kkt(&qd, &Parts::simplex(n), &s.alpha);
        prop_assert!(viol < tol + 1e-9 && bx <= 0.0 && eq < 1e-12);

        let z: Vec<f64> = y.iter().map(|v| v + r.random_range(-0.3..0.3)).collect();
        let svr = EpsSvrParams::new(c, 0.1).tol(tol).check().unwrap();
        let m = svr.fit(k.as_ref(), &z).unwrap();
        prop_assert!(m.status.converged);
        prop_assert!(m.coef.iter().all(|b| b.abs() <= c + 1e-12));
        prop_assert!(m.coef.iter().sum::<f64>().abs() < 1e-10);
        let w = svr.fit_warm(k.as_ref(), &z, &m.coef).unwrap();
        prop_assert!((w.objective - m.objective).abs() < 1e-3 * (1.0 + m.objective.abs()));
    }
}
