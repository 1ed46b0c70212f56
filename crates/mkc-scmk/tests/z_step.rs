//! The Z step (11): KKT conditions of every column for the three solvers, SMO from a
//! cold and a warm start, APG against SMO, and Theorem 2's block form for large α.

use faer::{Mat, MatRef};
use mkc_core::{Error, ParamGuard};
use mkc_qp::CappedSimplexQp;
use mkc_scmk::{solve_z, solve_z_apg, ZProblem};

mod common;

use common::*;

#[test]
fn every_column_of_z_meets_the_kkt_conditions_of_eq_11() {
    let x = points(3, 7, 1.0, 1);
    let ks = vec![
        gaussian(x.as_ref(), 1.0),
        gaussian(x.as_ref(), 10.0),
        linear_scaled(x.as_ref()),
    ];
    for (&(alpha, beta), solver) in [(1e-3, 1e-5), (0.1, 0.1), (1.0, 10.0)]
        .iter()
        .flat_map(|ab| SOLVERS.iter().map(move |s| (ab, *s)))
    {
        // SCSK: the returned Z solves (11) for the returned P.
        let f = scsk(alpha, beta)
            .qp_tol(1e-11)
            .qp_max_iter(Some(200_000))
            .z_solver(solver)
            .check()
            .unwrap()
            .fit_kernel(ks[0].as_ref(), 3, 0)
            .unwrap();
        let (v, e) = kkt_of_11(ks[0].as_ref(), f.p.as_ref(), f.z.as_ref(), alpha, beta);
        assert!(
            v <= 1e-8 && e <= 1e-12,
            "SCSK {solver:?} α={alpha} β={beta}: violation {v:e}, feasibility {e:e}"
        );
        // SCMK: with the weights of the last Z step.
        let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
        let f = scmk(alpha, beta)
            .qp_tol(1e-11)
            .qp_max_iter(Some(200_000))
            .z_solver(solver)
            .max_iter(15)
            .check()
            .unwrap()
            .fit_kernels(&refs, 3, 0)
            .unwrap();
        let w = &f.info.weights_trace[f.info.iterations - 1];
        let kw = combine(w, &ks);
        let (v, e) = kkt_of_11(kw.as_ref(), f.p.as_ref(), f.z.as_ref(), alpha, beta);
        assert!(
            v <= 1e-8 && e <= 1e-12,
            "SCMK {solver:?} α={alpha} β={beta}: violation {v:e}, feasibility {e:e}"
        );
        // SMO meets its tolerance exactly; APG stalls at ≈ 1e-9 on the ill-conditioned
        // columns (a plain projected gradient step no longer decreases f in f64)
        assert!(
            f.info.max_kkt_violation.iter().all(|&m| m <= 1e-8),
            "{solver:?}: {:?}",
            f.info.max_kkt_violation
        );
    }
}

#[test]
fn solve_z_matches_kkt_from_a_cold_and_a_warm_start() {
    let x = points(2, 8, 2.0, 5);
    let k = gaussian(x.as_ref(), 2.0);
    let n = k.nrows();
    let mut r = lcg(9);
    let p = Mat::from_fn(n, 2, |_, _| r() - 0.5);
    let solver = CappedSimplexQp::new(1.0).tol(1e-12).check().unwrap();
    let prob = ZProblem::new(k.as_ref(), p.as_ref(), 0.05, 0.3);
    let cold = solve_z(&prob, &solver).unwrap();
    let (v, e) = kkt_of_11(k.as_ref(), p.as_ref(), cold.z.as_ref(), 0.05, 0.3);
    assert!(v <= 1e-8 && e <= 1e-12, "{v:e} {e:e}");
    let ident = Mat::<f64>::identity(n, n);
    let warm = solve_z(&prob.with_warm(Some(ident.as_ref())), &solver).unwrap();
    // (11) is strictly convex (α > 0): one minimiser.
    for j in 0..n {
        for i in 0..n {
            assert!((warm.z[(i, j)] - cold.z[(i, j)]).abs() < 1e-6);
        }
    }
    assert!((warm.objective - cold.objective).abs() < 1e-9);
}

/// The whole-Z accelerated projected gradient reaches the SMO solution: KKT of (11) to
/// 1e-8 for every column, same Z and objective, from a cold and from a warm start, for
/// sparse (small α) and dense (large α) solutions.
#[test]
fn apg_z_step_matches_smo_and_meets_kkt() {
    let x = points(3, 8, 2.0, 12);
    let k = linear_scaled(x.as_ref());
    let g = gaussian(x.as_ref(), 3.0);
    let n = k.nrows();
    let mut r = lcg(21);
    let p = Mat::from_fn(n, 3, |_, _| r() - 0.5);
    let smo = CappedSimplexQp::new(1.0).tol(1e-12).check().unwrap();
    for kern in [&k, &g] {
        for &(alpha, beta) in &[(1e-4, 1e-3), (1e-2, 0.5), (1.0, 1.0), (100.0, 10.0)] {
            let prob = ZProblem::new(kern.as_ref(), p.as_ref(), alpha, beta);
            let exact = solve_z(&prob, &smo).unwrap();
            let warm = Mat::from_fn(n, n, |i, j| if i == (j + 1) % n { 1.0 } else { 0.0 });
            for start in [None, Some(warm.as_ref())] {
                let apg = solve_z_apg(&prob.with_warm(start), 1e-9, 100_000).unwrap();
                assert!(
                    apg.max_kkt_violation <= 1e-8,
                    "α={alpha}: {}",
                    apg.max_kkt_violation
                );
                let (v, e) = kkt_of_11(kern.as_ref(), p.as_ref(), apg.z.as_ref(), alpha, beta);
                assert!(v <= 1e-8 && e <= 1e-12, "α={alpha} β={beta}: {v:e} {e:e}");
                assert!(
                    (apg.objective - exact.objective).abs()
                        <= 1e-9 * exact.objective.abs().max(1.0),
                    "{} vs {}",
                    apg.objective,
                    exact.objective
                );
                for j in 0..n {
                    for i in 0..n {
                        assert!((apg.z[(i, j)] - exact.z[(i, j)]).abs() < 1e-5);
                    }
                }
            }
        }
    }
    // bad inputs of the APG entry point
    assert!(matches!(
        solve_z_apg(&ZProblem::new(k.as_ref(), p.as_ref(), 1.0, 1.0), 0.0, 10),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        solve_z_apg(&ZProblem::new(k.as_ref(), p.as_ref(), 1.0, 1.0), 1e-8, 0),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        solve_z_apg(&ZProblem::new(k.as_ref(), p.as_ref(), -1.0, 1.0), 1e-8, 10),
        Err(Error::InvalidParam { .. })
    ));
}

/// Theorem 2 / eq. (14): with the rank constraint holding (P spanning the cluster
/// indicators, β large enough to keep Z block diagonal), the Z of (11) tends to the
/// block form z_ij = 1/n_k within cluster k, 0 across, as α grows; and the whole SCSK
/// run on a well separated example already lands near it.
#[test]
fn large_alpha_gives_the_block_form_of_theorem_2() {
    let (groups, sizes) = (3, [4usize, 6, 8]);
    let start: Vec<usize> = vec![0, 4, 10];
    let n: usize = sizes.iter().sum();
    let cluster = |i: usize| (0..groups).rev().find(|&g| i >= start[g]).unwrap();
    let x = Mat::from_fn(n, 3, |i, j| {
        let g = cluster(i) as f64;
        let mut r = lcg((i * 3 + j) as u64);
        (if j == 0 { 4.0 * g } else { 0.0 }) + 0.3 * (r() - 0.5)
    });
    let k = gaussian(x.as_ref(), 2.0);
    let dev_of = |z: MatRef<'_, f64>| {
        let mut dev = 0.0f64;
        for j in 0..n {
            for i in 0..n {
                let target = if cluster(i) == cluster(j) {
                    1.0 / sizes[cluster(j)] as f64
                } else {
                    0.0
                };
                dev = dev.max((z[(i, j)] - target).abs());
            }
        }
        dev
    };
    // The Z step with P = normalised cluster indicators and β = 100 α.
    let p = Mat::from_fn(n, groups, |i, g| {
        if cluster(i) == g {
            1.0 / (sizes[g] as f64).sqrt()
        } else {
            0.0
        }
    });
    let solver = CappedSimplexQp::new(1.0).tol(1e-12).check().unwrap();
    let devs: Vec<f64> = [1.0, 10.0, 100.0, 1000.0]
        .iter()
        .map(|&alpha| {
            dev_of(
                solve_z(
                    &ZProblem::new(k.as_ref(), p.as_ref(), alpha, 100.0 * alpha),
                    &solver,
                )
                .unwrap()
                .z
                .as_ref(),
            )
        })
        .collect();
    assert!(devs.windows(2).all(|d| d[1] < d[0]), "{devs:?}");
    assert!(devs[3] < 1e-3, "{devs:?}");

    // The full algorithm from Z = I.
    let f = scsk(1.0, 1.0)
        .check()
        .unwrap()
        .fit_kernel(k.as_ref(), groups, 0)
        .unwrap();
    assert!(dev_of(f.z.as_ref()) < 0.05, "{}", dev_of(f.z.as_ref()));
    for i in 0..n {
        assert_eq!(f.labels[i], f.labels[start[cluster(i)]]);
    }
    assert_ne!(f.labels[0], f.labels[4]);
    assert_ne!(f.labels[4], f.labels[10]);
    assert_ne!(f.labels[0], f.labels[10]);
}
