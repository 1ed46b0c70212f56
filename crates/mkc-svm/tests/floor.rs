//! `CSvc::solve_below` / `Smo::solve_with_floor`: a solve stopped at a bound on the dual
//! value returns nothing exactly when the optimum lies above the bound, and otherwise the
//! model of the plain solve.
mod common;
use common::*;
use mkc_core::ParamGuard;
use mkc_svm::{CSvcParams, CheckedKernel, J_MARGIN};

#[test]
fn solve_below_cuts_exactly_the_solves_whose_optimum_exceeds_the_bound() {
    let mut cut = 0;
    for seed in 0..6u64 {
        let mut r = rng(seed);
        let (k, y) = random_rbf(&mut r, 120, 3, 0.7);
        let ck = CheckedKernel::new(k.as_ref()).unwrap();
        for c in [0.1, 1.0, 10.0] {
            let svc = CSvcParams::new(c).check().unwrap();
            let full = svc.solve(&ck, 0.5, &y, None).unwrap();
            let j = full.objective;
            // A bound above the optimum: the same model, bit for bit.
            let kept = svc
                .solve_below(&ck, 0.5, &y, j * 1.01)
                .unwrap()
                .expect("kept");
            assert_eq!(kept.alpha, full.alpha);
            assert_eq!(kept.objective, full.objective);
            assert_eq!(kept.decision, full.decision);
            assert_eq!(kept.status, full.status);
            // Bounds below the optimum (beyond the margin): cut, and before the end.
            for frac in [0.5, 0.9, 0.999] {
                let below = svc.solve_below(&ck, 0.5, &y, j * frac).unwrap();
                assert!(
                    below.is_none(),
                    "seed {seed} C {c}: J {j} bound {}",
                    j * frac
                );
                cut += 1;
            }
            // Within the margin of the optimum: never cut (the optimum is not above it).
            let at = svc
                .solve_below(&ck, 0.5, &y, j * (1.0 - 0.1 * J_MARGIN))
                .unwrap();
            assert!(at.is_some(), "seed {seed} C {c}: cut within the margin");
        }
    }
    assert_eq!(cut, 54);
}

#[test]
fn solve_below_rejects_a_bound_that_is_not_finite() {
    let mut r = rng(9);
    let (k, y) = random_rbf(&mut r, 30, 2, 1.0);
    let ck = CheckedKernel::new(k.as_ref()).unwrap();
    let svc = CSvcParams::new(1.0).check().unwrap();
    for bad in [f64::NAN, f64::INFINITY] {
        let err = svc.solve_below(&ck, 1.0, &y, bad).unwrap_err();
        assert!(err.to_string().contains("j_max"), "{err}");
    }
}
