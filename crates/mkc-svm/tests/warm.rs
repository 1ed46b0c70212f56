//! Warm starts: after a label flip, a kernel rescaling or a new μ, the warm solve
//! reaches the cold optimum; the repair is minimal and documented.
mod common;
use common::*;
use mkc_core::ParamGuard;
use mkc_svm::{
    CSvcParams, CheckedKernel, DenseSigned, SimplexSquaredHingeParams, SmoParams, SumOf,
};

#[test]
fn flip_and_rescale_reach_the_cold_optimum() {
    let mut r = rng(7);
    let (k, y) = random_rbf(&mut r, 150, 4, 0.5);
    let svc = CSvcParams::new(2.0).tol(1e-6).check().unwrap();
    let ck = CheckedKernel::new(k.as_ref()).unwrap();
    let base = svc.solve(&ck, 1.0, &y, None).unwrap();
    // flip the least confident point (RMKC eq. 13)
    let i = (0..y.len())
        .min_by(|&a, &b| (y[a] * base.decision[a]).total_cmp(&(y[b] * base.decision[b])))
        .unwrap();
    let mut y2 = y.clone();
    y2[i] = -y2[i];
    for scale in [1.0, 0.37, 3.0] {
        let cold = svc.solve(&ck, scale, &y2, None).unwrap();
        let warm = svc.solve(&ck, scale, &y2, Some(&base.alpha)).unwrap();
        assert!(warm.status.converged && cold.status.converged);
        assert!(
            (warm.objective - cold.objective).abs() < 1e-5 * (1.0 + cold.objective.abs()),
            "scale {scale}"
        );
        eprintln!(
            "scale {scale}: warm {} vs cold {} iterations",
            warm.status.iterations, cold.status.iterations
        );
        if scale == 1.0 {
            assert!(
                warm.status.iterations < cold.status.iterations,
                "warm {} vs cold {} iterations",
                warm.status.iterations,
                cold.status.iterations
            );
        }
        for (a, b) in warm.decision.iter().zip(&cold.decision) {
            assert!((a - b).abs() < 1e-2);
        }
    }
    // scale · K equals solving on the scaled matrix itself
    let ks = faer::Mat::from_fn(150, 150, |a, b| 0.37 * k[(a, b)]);
    let direct = svc.fit(ks.as_ref(), &y2).unwrap();
    let scaled = svc.solve(&ck, 0.37, &y2, None).unwrap();
    assert!((direct.objective - scaled.objective).abs() < 1e-9 * (1.0 + direct.objective.abs()));
}

#[test]
fn repair_moves_few_coordinates_toward_zero() {
    let n = 6;
    let k = faer::Mat::<f64>::identity(n, n);
    let q = DenseSigned::new(k.as_ref(), 1.0, None).unwrap();
    let y = [1.0, 1.0, 1.0, -1.0, -1.0, -1.0];
    let parts = Parts {
        p: vec![0.0; n],
        ..Parts::csvc(&y, 1.0)
    };
    let smo = SmoParams::new().max_iter(1).check().unwrap();
    // yᵀα = 1.5 − 0.5 = 1.0; target 0: reduce α of the positives (toward zero), largest
    // first: only α_0 moves. A start outside the box is clipped first.
    for start in [
        [1.0, 0.5, 0.0, 0.5, 0.0, 0.0],
        [2.0, 0.0, 0.0, 1.0, 0.0, 0.0],
    ] {
        let sol = parts.solve(&smo, &q, Some(&start)).unwrap();
        assert_eq!(sol.repaired, 1, "start {start:?}: {:?}", sol.alpha);
    }
}

#[test]
fn simplex_warm_start_after_new_label_kernel() {
    let mut r = rng(9);
    let (k, y1) = random_rbf(&mut r, 80, 3, 1.0);
    let y2 = random_labels(&mut r, 80);
    let s = SimplexSquaredHingeParams::new(1.0)
        .tol(1e-7)
        .check()
        .unwrap();
    let first = s.fit(k.as_ref(), &[&y1], &[1.0]).unwrap();
    let cold = s.fit(k.as_ref(), &[&y1, &y2], &[0.6, 0.4]).unwrap();
    let warm = s
        .fit_warm(k.as_ref(), &[&y1, &y2], &[0.6, 0.4], &first.alpha)
        .unwrap();
    assert!((cold.objective - warm.objective).abs() < 1e-7);
    // SumOf equals the dense K ∘ M built by hand
    let m = faer::Mat::from_fn(80, 80, |i, j| {
        k[(i, j)] * (0.6 * y1[i] * y1[j] + 0.4 * y2[i] * y2[j])
    });
    let dense = s
        .solve_q(&DenseSigned::new(m.as_ref(), 1.0, None).unwrap(), None)
        .unwrap();
    assert!((dense.objective - cold.objective).abs() < 1e-7);
    let sum = SumOf::new(vec![
        DenseSigned::new(k.as_ref(), 0.6, Some(&y1)).unwrap(),
        DenseSigned::new(k.as_ref(), 0.4, Some(&y2)).unwrap(),
    ])
    .unwrap();
    let via_sum = s.solve_q(&sum, None).unwrap();
    assert!((via_sum.objective - cold.objective).abs() < 1e-7);
}

#[test]
fn solve_from_previous_model_matches_cold_after_flips_and_rescale() {
    let mut r = rng(11);
    let (k, y) = random_rbf(&mut r, 300, 5, 0.3);
    let ck = CheckedKernel::new(k.as_ref()).unwrap();
    let svc = CSvcParams::new(5.0).tol(1e-6).check().unwrap();
    let base = svc.solve(&ck, 1.0, &y, None).unwrap();
    let mut y2 = y.clone();
    for i in [3usize, 77, 150] {
        y2[i] = -y2[i];
    }
    for scale in [1.0, 0.5] {
        let cold = svc.solve(&ck, scale, &y2, None).unwrap();
        let warm = svc.solve_from(&ck, scale, &y2, &base, &y, 1.0).unwrap();
        assert!(warm.status.converged);
        assert!(
            (warm.objective - cold.objective).abs() < 1e-5 * (1.0 + cold.objective.abs()),
            "scale {scale}"
        );
        // the decision values are exact (recomputed from α)
        for i in 0..300 {
            let f: f64 = (0..300)
                .map(|j| warm.alpha[j] * y2[j] * scale * k[(i, j)])
                .sum::<f64>()
                + warm.b;
            assert!((f - warm.decision[i]).abs() < 1e-8);
        }
    }
}

#[test]
fn shrinking_and_cache_do_not_change_the_optimum() {
    let mut r = rng(12);
    let (k, y) = random_rbf(&mut r, 400, 3, 2.0);
    for c in [0.5, 20.0] {
        let fit = |shrinking| {
            CSvcParams::new(c)
                .tol(1e-8)
                .shrinking(shrinking)
                .check()
                .unwrap()
                .fit(k.as_ref(), &y)
                .unwrap()
        };
        let (on, off) = (fit(true), fit(false));
        assert!(on.status.converged && off.status.converged);
        assert!((on.objective - off.objective).abs() < 1e-9 * (1.0 + on.objective.abs()));
        assert!((on.b - off.b).abs() < 1e-5);
    }
}
