//! The objectives (7) and (18), the weight step (22) against a numeric minimiser of
//! (19), and the reconstruction costs (20) against the dense trace formula.

use faer::Mat;
use mkc_core::ParamGuard;
use mkc_scmk::{objective, optimal_weights, reconstruction_costs, weight_objective};

mod common;

use common::*;

/// `j[t + 1] ≤ j[t]` (up to 1e-9 relative) for every t from `from` on.
fn non_increasing(j: &[f64], from: usize, what: &str) {
    for t in from..j.len() - 1 {
        assert!(
            j[t + 1] <= j[t] + 1e-9 * j[t].abs().max(1.0),
            "{what} t={t}: {} > {}",
            j[t + 1],
            j[t]
        );
    }
}

#[test]
fn objective_7_and_18_never_increase_and_match_the_recomputed_value() {
    let x = points(3, 6, 2.5, 2);
    let ks = [
        gaussian(x.as_ref(), 0.5),
        gaussian(x.as_ref(), 5.0),
        linear_scaled(x.as_ref()),
    ];
    let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    for (&(alpha, beta), solver) in [(1e-4, 1e-5), (0.01, 0.5), (1.0, 5.0), (10.0, 100.0)]
        .iter()
        .flat_map(|ab| SOLVERS.iter().map(move |s| (ab, *s)))
    {
        let f = scmk(alpha, beta)
            .z_solver(solver)
            .min_iter(30)
            .max_iter(30)
            .check()
            .unwrap()
            .fit_kernels(&refs, 3, 0)
            .unwrap();
        let j = &f.info.objective;
        assert_eq!(j.len(), 30);
        // From the second iteration on (w_0 = 1/r violates Σ√w = 1; see the objective docs).
        non_increasing(j, 1, &format!("SCMK {solver:?} α={alpha} β={beta}"));
        let again = objective(&refs, &f.weights, f.z.as_ref(), f.p.as_ref(), alpha, beta).unwrap();
        assert!((again.total - j[j.len() - 1]).abs() <= 1e-10 * again.total.abs().max(1.0));

        let s = scsk(alpha, beta)
            .z_solver(solver)
            .min_iter(20)
            .max_iter(20)
            .check()
            .unwrap()
            .fit_kernel(refs[0], 3, 0)
            .unwrap();
        let j = &s.info.objective;
        non_increasing(j, 0, &format!("SCSK {solver:?} α={alpha} β={beta}"));
    }
}

#[test]
fn eq_22_minimises_eq_19_under_the_sqrt_constraint() {
    let mut r = lcg(3);
    for trial in 0..20 {
        let m = 2 + trial % 7;
        let h: Vec<f64> = (0..m).map(|_| 0.01 + 5.0 * r()).collect();
        let w = optimal_weights(&h).unwrap();
        assert!((w.iter().map(|v| v.sqrt()).sum::<f64>() - 1.0).abs() < 1e-12);
        let best = weight_objective(&w, &h);
        // Numeric minimiser: projected gradient on s = √w over the simplex.
        let mut s = vec![1.0 / m as f64; m];
        let step = 0.5 / h.iter().cloned().fold(0.0, f64::max);
        for _ in 0..20_000 {
            for (si, hi) in s.iter_mut().zip(&h) {
                *si -= step * 2.0 * hi * *si;
            }
            mkc_qp::project_simplex(&mut s, 1.0).unwrap();
        }
        let numeric: f64 = s.iter().zip(&h).map(|(a, b)| a * a * b).sum();
        assert!(
            (numeric - best).abs() <= 1e-10 * best,
            "{numeric} vs {best}"
        );
        // and no random feasible point does better
        for _ in 0..200 {
            let mut t: Vec<f64> = (0..m).map(|_| r()).collect();
            let tot: f64 = t.iter().sum();
            t.iter_mut().for_each(|v| *v /= tot);
            let val: f64 = t.iter().zip(&h).map(|(a, b)| a * a * b).sum();
            assert!(val >= best - 1e-12);
        }
    }
    // h = 0: the kernels that reconstruct perfectly share √w.
    assert_eq!(
        optimal_weights(&[0.0, 1.0, 0.0]).unwrap(),
        vec![0.25, 0.0, 0.25]
    );
}

#[test]
fn reconstruction_costs_match_the_dense_trace_formula() {
    let x = points(2, 5, 1.0, 4);
    let ks = [gaussian(x.as_ref(), 1.0), linear_scaled(x.as_ref())];
    let n = x.nrows();
    let mut r = lcg(11);
    // a dense Z (the ZZᵀ path) and a sparse one (the support path)
    for density in [0.9, 0.1] {
        let z = Mat::from_fn(n, n, |i, j| if i == j || r() < density { r() } else { 0.0 });
        let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
        let h = reconstruction_costs(&refs, z.as_ref()).unwrap();
        for (k, hk) in ks.iter().zip(&h) {
            let kz = k * &z;
            let ztkz = z.transpose() * &kz;
            let dense: f64 = (0..n)
                .map(|i| k[(i, i)] - 2.0 * kz[(i, i)] + ztkz[(i, i)])
                .sum();
            assert!(
                (dense - hk).abs() < 1e-10 * dense.abs().max(1.0),
                "{dense} vs {hk}"
            );
        }
    }
}
