//! The capped-simplex QP solver: KKT to 1e-8, exhaustive active sets for n ≤ 8, warm
//! starts, batched = per-column, and typed errors.

mod common;

use common::{exhaustive, objective};
use faer::Mat;
use mkc_core::{Error, ParamGuard};
use mkc_qp::*;
use proptest::prelude::*;
use rand::Rng;

/// Q = AᵀA/m + ridge·I (positive definite when ridge > 0), c uniform in [−2, 2].
fn problem(n: usize, ridge: f64, seed: u64) -> (Mat<f64>, Vec<f64>) {
    let mut r = mkc_core::seed::rng(seed);
    let m = n.max(3);
    let a = Mat::from_fn(m, n, |_, _| r.random::<f64>() * 2.0 - 1.0);
    let q = Mat::from_fn(n, n, |i, j| {
        (0..m).map(|k| a[(k, i)] * a[(k, j)]).sum::<f64>() / m as f64
            + if i == j { ridge } else { 0.0 }
    });
    let c = (0..n).map(|_| r.random::<f64>() * 4.0 - 2.0).collect();
    (q, c)
}

/// SCMK's column problems on a Gaussian kernel of random points: Q = 2(αI + K),
/// C = −2K (β = 0).
fn scmk(n: usize, alpha: f64, seed: u64) -> (Mat<f64>, Mat<f64>) {
    let mut r = mkc_core::seed::rng(seed);
    let x: Vec<[f64; 2]> = (0..n)
        .map(|_| [r.random::<f64>(), r.random::<f64>()])
        .collect();
    let k = Mat::from_fn(n, n, |i, j| {
        let d2 = (x[i][0] - x[j][0]).powi(2) + (x[i][1] - x[j][1]).powi(2);
        (-d2 / 0.02).exp()
    });
    let q = Mat::from_fn(n, n, |i, j| {
        2.0 * (k[(i, j)] + if i == j { alpha } else { 0.0 })
    });
    let c = Mat::from_fn(n, n, |i, j| -2.0 * k[(i, j)]);
    (q, c)
}

/// Independent KKT check: there is μ with g_i ≥ μ at 0, g_i ≤ μ at u, g_i = μ between.
fn kkt_residual(q: &Mat<f64>, c: &[f64], z: &[f64], u: f64) -> f64 {
    let n = c.len();
    let g: Vec<f64> = (0..n)
        .map(|i| c[i] + (0..n).map(|j| q[(i, j)] * z[j]).sum::<f64>())
        .collect();
    let hi = (0..n)
        .filter(|&i| z[i] > 0.0)
        .map(|i| g[i])
        .fold(f64::NEG_INFINITY, f64::max);
    let lo = (0..n)
        .filter(|&i| z[i] < u)
        .map(|i| g[i])
        .fold(f64::INFINITY, f64::min);
    hi - lo
}

fn feasible(z: &[f64], u: f64) -> bool {
    z.iter().all(|&x| (0.0..=u).contains(&x)) && (z.iter().sum::<f64>() - 1.0).abs() < 1e-12
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn equals_exhaustive_active_set_for_small_n(n in 1usize..=8, seed in 0u64..1000, frac in 0.0f64..1.0) {
        let (q, c) = problem(n, 0.05, seed);
        let u = (1.0 / n as f64) * (1.0 + 3.0 * frac);
        let solver = CappedSimplexQp::new(u).tol(1e-12).check().unwrap();
        let qm = QpMatrix::new(q.as_ref()).unwrap();
        let sol = solver.solve(&qm, &c, None).unwrap();
        prop_assert!(sol.converged);
        prop_assert!(feasible(&sol.z, u));
        prop_assert!(kkt_residual(&q, &c, &sol.z, u) <= 1e-8);
        let e = exhaustive(&q, &c, u, 1.0);
        let diff = sol.z.iter().zip(&e).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        prop_assert!(diff < 1e-7, "solver {:?} vs exhaustive {:?}", sol.z, e);
        prop_assert!((sol.objective - objective(&q, &c, &sol.z)).abs() < 1e-10);
        prop_assert!(sol.objective <= objective(&q, &c, &e) + 1e-12);
    }

    #[test]
    fn kkt_on_random_psd_problems_with_warm_starts(n in 2usize..40, seed in 0u64..1000, ridge in 0.0f64..0.1) {
        // ridge = 0 with n > m gives a singular PSD Q: still a KKT point.
        let (q, c) = problem(n, ridge, seed);
        let qm = QpMatrix::new(q.as_ref()).unwrap();
        let solver = CappedSimplexQp::new(1.0).tol(1e-10).check().unwrap();
        let sol = solver.solve(&qm, &c, None).unwrap();
        prop_assert!(sol.converged && feasible(&sol.z, 1.0));
        prop_assert!(kkt_residual(&q, &c, &sol.z, 1.0) <= 1e-8);
        // warm start from the optimum: no pair update at all
        let again = solver.solve(&qm, &c, Some(&sol.z)).unwrap();
        prop_assert_eq!(again.n_iter, 0);
        prop_assert_eq!(&again.z, &sol.z);
        // warm start from an arbitrary (even infeasible) point: same optimum value
        let start: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
        let w = solver.solve(&qm, &c, Some(&start)).unwrap();
        prop_assert!(w.converged && (w.objective - sol.objective).abs() < 1e-8);
    }
}

#[test]
fn batched_equals_per_column() {
    let n = 120;
    let (q, c) = scmk(n, 0.01, 5);
    let qm = QpMatrix::new(q.as_ref()).unwrap();
    let solver = CappedSimplexQp::new(1.0).tol(1e-10).check().unwrap();
    let batch = solver.solve_batch(&qm, c.as_ref(), None).unwrap();
    assert!(
        batch.all_converged(),
        "max violation {}",
        batch.max_kkt_violation()
    );
    for k in 0..n {
        let ck: Vec<f64> = (0..n).map(|i| c[(i, k)]).collect();
        let one = solver.solve(&qm, &ck, None).unwrap();
        assert_eq!(one.z.as_slice(), batch.z.col_as_slice(k), "column {k}");
        assert_eq!(one.n_iter, batch.n_iter[k]);
        assert!(kkt_residual(&q, &ck, &one.z, 1.0) <= 1e-8);
    }
    // warm start from the batch optimum (sparse path): immediate
    let again = solver
        .solve_batch(&qm, c.as_ref(), Some(batch.z.as_ref()))
        .unwrap();
    assert!(again.n_iter.iter().all(|&t| t == 0));
    // warm start from a dense point (matmul path) after a change of α: same as cold
    let (q2, _) = scmk(n, 0.5, 5);
    let qm2 = QpMatrix::new(q2.as_ref()).unwrap();
    let dense = Mat::from_fn(n, n, |_, _| 1.0 / n as f64);
    let warm = solver
        .solve_batch(&qm2, c.as_ref(), Some(dense.as_ref()))
        .unwrap();
    let cold = solver.solve_batch(&qm2, c.as_ref(), None).unwrap();
    assert!(warm.all_converged() && cold.all_converged());
    for k in 0..n {
        assert!((warm.objective[k] - cold.objective[k]).abs() < 1e-9);
        let ck: Vec<f64> = (0..n).map(|i| c[(i, k)]).collect();
        assert!(kkt_residual(&q2, &ck, warm.z.col_as_slice(k), 1.0) <= 1e-8);
    }
}

#[test]
fn iteration_cap_is_reported_not_an_error() {
    let (q, c) = problem(30, 0.01, 3);
    let qm = QpMatrix::new(q.as_ref()).unwrap();
    let solver = CappedSimplexQp::new(1.0)
        .tol(1e-14)
        .max_iter(1)
        .check()
        .unwrap();
    let s = solver.solve(&qm, &c, Some(&vec![1.0 / 30.0; 30])).unwrap();
    assert!(!s.converged && s.n_iter == 1 && s.kkt_violation > 1e-14);
}

#[test]
fn bad_inputs_are_typed_errors() {
    let (q, c) = problem(4, 0.1, 1);
    let qm = QpMatrix::new(q.as_ref()).unwrap();
    let ok = CappedSimplexQp::new(1.0).check().unwrap();
    // Q: not square, NaN, asymmetric, empty
    let rect = Mat::<f64>::zeros(3, 4);
    assert!(matches!(
        QpMatrix::new(rect.as_ref()),
        Err(Error::Shape { .. })
    ));
    let mut nan = q.clone();
    nan[(1, 2)] = f64::NAN;
    assert!(matches!(
        QpMatrix::new(nan.as_ref()),
        Err(Error::NonFinite { .. })
    ));
    let mut asym = q.clone();
    asym[(0, 3)] += 1.0;
    assert!(matches!(
        QpMatrix::new(asym.as_ref()),
        Err(Error::NotSymmetric { .. })
    ));
    assert!(QpMatrix::new(Mat::<f64>::zeros(0, 0).as_ref()).is_err());
    // c: wrong length, NaN
    assert!(matches!(
        ok.solve(&qm, &c[..3], None),
        Err(Error::Shape { .. })
    ));
    let mut cn = c.clone();
    cn[2] = f64::NAN;
    assert!(matches!(
        ok.solve(&qm, &cn, None),
        Err(Error::NonFinite { row: 2, .. })
    ));
    // warm start: wrong length, inf
    assert!(matches!(
        ok.solve(&qm, &c, Some(&[0.5, 0.5])),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        ok.solve(&qm, &c, Some(&[f64::INFINITY, 0.0, 0.0, 0.0])),
        Err(Error::NonFinite { .. })
    ));
    // parameters
    for u in [0.0, -1.0, f64::NAN] {
        assert!(matches!(
            CappedSimplexQp::new(u).check(),
            Err(Error::InvalidParam { .. })
        ));
    }
    assert!(matches!(
        CappedSimplexQp::new(1.0).tol(0.0).check(),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        CappedSimplexQp::new(1.0).max_iter(0).check(),
        Err(Error::InvalidParam { .. })
    ));
    // u·n < 1: infeasible
    let small = CappedSimplexQp::new(0.2).check().unwrap();
    assert!(matches!(
        small.solve(&qm, &c, None),
        Err(Error::InvalidParam { .. })
    ));
    let cm = Mat::from_fn(4, 2, |i, _| c[i]);
    assert!(matches!(
        small.solve_batch(&qm, cm.as_ref(), None),
        Err(Error::InvalidParam { .. })
    ));
    // batch shapes
    assert!(matches!(
        ok.solve_batch(&qm, Mat::<f64>::zeros(3, 2).as_ref(), None),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        ok.solve_batch(&qm, cm.as_ref(), Some(Mat::<f64>::zeros(4, 3).as_ref())),
        Err(Error::Shape { .. })
    ));
    let mut cmn = cm.clone();
    cmn[(3, 1)] = f64::NAN;
    assert!(matches!(
        ok.solve_batch(&qm, cmn.as_ref(), None),
        Err(Error::NonFinite { row: 3, col: 1, .. })
    ));
}
