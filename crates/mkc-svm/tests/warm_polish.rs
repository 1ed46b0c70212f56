//! The warm-start polish (`SmoParams::warm_polish`): after label flips the
//! warm solve meets the KKT conditions (independently checked) and the cold optimum, the
//! polish does settle where it is meant to, and the result is the same for one and two
//! threads.
mod common;
use common::*;
use mkc_core::ParamGuard;
use mkc_svm::{CSvcParams, CheckedKernel, DenseSigned, SmoParams, SvcModel};

/// The least confident labels of a model (RMKC eq. 13), `count` of them, flipped.
fn flip_least_confident(y: &[f64], model: &SvcModel, count: usize) -> Vec<f64> {
    let mut order: Vec<usize> = (0..y.len()).collect();
    order.sort_by(|&a, &b| {
        (y[a] * model.decision[a])
            .total_cmp(&(y[b] * model.decision[b]))
            .then(a.cmp(&b))
    });
    let mut y2 = y.to_vec();
    for &i in &order[..count] {
        y2[i] = -y2[i];
    }
    y2
}

#[test]
fn warm_solve_after_flips_meets_kkt_and_the_cold_objective() {
    let mut r = rng(21);
    let n = 400;
    let (k, y) = random_rbf(&mut r, n, 6, 0.4);
    let ck = CheckedKernel::new(k.as_ref()).unwrap();
    for (c, tol) in [(1.0, 1e-3), (10.0, 1e-3), (10.0, 1e-6)] {
        let svc = CSvcParams::new(c)
            .tol(tol)
            .warm_polish(true)
            .check()
            .unwrap();
        let plain = CSvcParams::new(c)
            .tol(tol)
            .warm_polish(false)
            .check()
            .unwrap();
        let base = svc.solve(&ck, 1.0, &y, None).unwrap();
        for flips in [1, 3] {
            let y2 = flip_least_confident(&y, &base, flips);
            // The cold reference at a tight tolerance.
            let exact = CSvcParams::new(c).tol(1e-10).check().unwrap();
            let cold = exact.solve(&ck, 1.0, &y2, None).unwrap();
            for (name, s) in [("polish", &svc), ("plain", &plain)] {
                let warm = s.solve_from(&ck, 1.0, &y2, &base, &y, 1.0).unwrap();
                assert!(warm.status.converged, "C {c} flips {flips} {name}");
                let q = dense_q(&DenseSigned::new(k.as_ref(), 1.0, Some(&y2)).unwrap());
                let (viol, bx, eq) = kkt(&q, &Parts::csvc(&y2, c), &warm.alpha);
                assert!(
                    viol < tol && bx <= 0.0 && eq < 1e-9,
                    "{name}: {viol} {bx} {eq}"
                );
                let rel = (warm.objective - cold.objective).abs() / cold.objective.abs();
                // A KKT violation ε bounds the objective gap by about ε · Σα.
                let bound = (tol * warm.alpha.iter().sum::<f64>() / cold.objective.abs()).max(1e-6);
                assert!(
                    rel < bound,
                    "C {c} flips {flips} {name}: rel {rel:e} > {bound:e}"
                );
                assert!(warm.objective <= cold.objective * (1.0 + 1e-12));
            }
        }
    }
}

/// Where the free set is large (C = 10), the polish settles and the warm solve ends at
/// a violation near rounding after few SMO iterations; the objective matches the cold
/// solve to 1e-6 relative.
#[test]
fn warm_polish_settles_after_one_flip() {
    let (k, y) = mkc_svm::problems::overlapping_blobs_rbf(600, 5);
    let ck = CheckedKernel::new(k.as_ref()).unwrap();
    let c = 10.0;
    let svc = CSvcParams::new(c).check().unwrap();
    let base = svc.solve(&ck, 1.0, &y, None).unwrap();
    let y2 = flip_least_confident(&y, &base, 1);
    let q = DenseSigned::new(k.as_ref(), 1.0, Some(&y2)).unwrap();
    let parts = Parts::csvc(&y2, c);
    let solve = |warm_polish: bool| {
        let smo = SmoParams::new().warm_polish(warm_polish).check().unwrap();
        parts.solve(&smo, &q, Some(&base.alpha)).unwrap()
    };
    let (on, off) = (solve(true), solve(false));
    assert_eq!(on.polish.settled, 1);
    assert_eq!(off.polish.settled, 0);
    assert!(
        on.status.converged && on.status.max_violation < 1e-9,
        "{}",
        on.status.max_violation
    );
    assert!(
        on.status.iterations < off.status.iterations,
        "{} vs {}",
        on.status.iterations,
        off.status.iterations
    );
    let (viol, _, eq) = kkt(&dense_q(&q), &parts, &on.alpha);
    assert!(viol < 1e-9 && eq < 1e-9, "{viol} {eq}");
    let cold = parts
        .solve(&SmoParams::new().tol(1e-10).check().unwrap(), &q, None)
        .unwrap();
    assert!((on.objective - cold.objective).abs() < 1e-6 * cold.objective.abs());
}

/// Same α, bit for bit, in a one-thread and a two-thread pool.
#[test]
fn warm_polish_is_thread_count_independent() {
    let (k, y) = mkc_svm::problems::overlapping_blobs_rbf(500, 9);
    let ck = CheckedKernel::new(k.as_ref()).unwrap();
    let svc = CSvcParams::new(10.0).warm_polish(true).check().unwrap();
    let base = svc.solve(&ck, 1.0, &y, None).unwrap();
    let y2 = flip_least_confident(&y, &base, 2);
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| svc.solve_from(&ck, 1.0, &y2, &base, &y, 1.0).unwrap())
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one.alpha, two.alpha);
    assert_eq!(one.decision, two.decision);
    assert_eq!(one.status.iterations, two.status.iterations);
}

/// The carried factorisation (`carry_factor`): a chain of warm solves, each after label
/// flips, started from the previous model's factor, meets the KKT conditions and the
/// cold optimum like the warm solves that factorise afresh; the models hand the factor
/// on, and a factor made at another kernel scale is not used (the solve still right).
#[test]
fn carried_factor_chain_meets_kkt_and_the_cold_objective() {
    let (k, y) = mkc_svm::problems::overlapping_blobs_rbf(600, 9);
    let ck = CheckedKernel::new(k.as_ref()).unwrap();
    for c in [1.0, 10.0] {
        let carry = CSvcParams::new(c)
            .warm_polish(true)
            .carry_factor(true)
            .check()
            .unwrap();
        let fresh = CSvcParams::new(c).warm_polish(true).check().unwrap();
        let mut prev = carry.solve(&ck, 1.0, &y, None).unwrap();
        assert!(prev.factor.as_ref().is_some_and(|f| f.len() >= 2), "C {c}");
        assert!(fresh.solve(&ck, 1.0, &y, None).unwrap().factor.is_none());
        let mut labels = y.clone();
        for (step, flips) in [1, 3, 1, 2].into_iter().enumerate() {
            let y2 = flip_least_confident(&labels, &prev, flips);
            // Step 2 changes the scale as well: its factor does not fit.
            let scale = if step == 2 { 1.5 } else { 1.0 };
            let prev_scale = if step == 3 { 1.5 } else { 1.0 };
            let warm = carry
                .solve_from(&ck, scale, &y2, &prev, &labels, prev_scale)
                .unwrap();
            let again = fresh
                .solve_from(&ck, scale, &y2, &prev, &labels, prev_scale)
                .unwrap();
            let cold = CSvcParams::new(c)
                .tol(1e-10)
                .check()
                .unwrap()
                .solve(&ck, scale, &y2, None)
                .unwrap();
            assert!(warm.status.converged, "C {c} step {step}");
            let q = dense_q(&DenseSigned::new(k.as_ref(), scale, Some(&y2)).unwrap());
            let (viol, bx, eq) = kkt(&q, &Parts::csvc(&y2, c), &warm.alpha);
            assert!(
                viol < 1e-3 && bx <= 0.0 && eq < 1e-9,
                "C {c} step {step}: {viol} {bx} {eq}"
            );
            // The solver's own violation comes from its gradient, which the polish of a
            // carried factor updates without reading the free columns: it must agree
            // with the one recomputed from α.
            assert!(
                (viol - warm.status.max_violation).abs() < 1e-9,
                "C {c} step {step}: {viol} against {}",
                warm.status.max_violation
            );
            let bound = (1e-3 * warm.alpha.iter().sum::<f64>() / cold.objective.abs()).max(1e-6);
            let rel = (warm.objective - cold.objective).abs() / cold.objective.abs();
            assert!(rel < bound, "C {c} step {step}: rel {rel:e} > {bound:e}");
            let rel = (warm.objective - again.objective).abs() / again.objective.abs();
            assert!(
                rel < bound,
                "C {c} step {step}: vs fresh {rel:e} > {bound:e}"
            );
            assert!(warm.factor.is_some(), "C {c} step {step}");
            (prev, labels) = (warm, y2);
        }
    }
}

/// A factor carried into a problem it was not made for is a typed error, not a panic:
/// variables beyond the problem's size, and a gradient of the wrong length.
#[test]
fn carried_factor_of_another_problem_is_a_typed_error() {
    use mkc_svm::Problem;
    let (k, y) = mkc_svm::problems::overlapping_blobs_rbf(300, 4);
    let smo = SmoParams::new().carry_factor(true).check().unwrap();
    let q = DenseSigned::new(k.as_ref(), 1.0, Some(&y)).unwrap();
    let (p, lo, up) = (vec![-1.0; 300], vec![0.0; 300], vec![10.0; 300]);
    let problem = Problem {
        p: &p,
        y: &y,
        delta: 0.0,
        lower: &lo,
        upper: &up,
    };
    let sol = smo.solve(&q, &problem, None).unwrap();
    let factor = sol.factor.clone().expect("carry_factor hands out a factor");
    assert!(factor.len() >= 2);
    // The same factor into a smaller problem (its variables beyond n).
    let (k2, y2) = mkc_svm::problems::overlapping_blobs_rbf(100, 4);
    let q2 = DenseSigned::new(k2.as_ref(), 1.0, Some(&y2)).unwrap();
    let (p2, lo2, up2) = (vec![-1.0; 100], vec![0.0; 100], vec![10.0; 100]);
    let problem2 = Problem {
        p: &p2,
        y: &y2,
        delta: 0.0,
        lower: &lo2,
        upper: &up2,
    };
    let a2 = vec![0.0; 100];
    let r = smo.solve_carried(&q2, &problem2, &a2, &p2, factor.clone());
    // (seed 4: the free set reaches past variable 100)
    assert!(
        matches!(r, Err(mkc_core::Error::InvalidInput { .. })),
        "{r:?}"
    );
    // A gradient of the wrong length.
    let r = smo.solve_carried(&q, &problem, &sol.alpha, &p2, factor);
    assert!(matches!(r, Err(mkc_core::Error::Shape { .. })), "{r:?}");
}
