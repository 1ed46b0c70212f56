//! Acceptance tests of the issue: KKT of (11), monotone objective (7)/(18), eq. (22)
//! against a numeric minimiser of (19), Theorem 2's block form, typed errors.

use faer::{Mat, MatRef};
use mkc_core::{Error, ParamGuard};
use mkc_qp::CappedSimplexQp;
use mkc_scmk::{
    objective, optimal_weights, reconstruction_costs, solve_z, solve_z_apg, weight_objective,
    ScmkParams, ScskParams, ZSolver,
};

const SOLVERS: [ZSolver; 3] = [ZSolver::Auto, ZSolver::Apg, ZSolver::Smo];

/// Deterministic pseudo-random numbers in [0, 1).
fn lcg(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `groups` clusters of `m` points in 3-d around well separated centres, plus noise.
fn points(groups: usize, m: usize, spread: f64, seed: u64) -> Mat<f64> {
    let mut r = lcg(seed);
    Mat::from_fn(groups * m, 3, |i, j| {
        let g = (i / m) as f64;
        let centre = if j == 0 {
            4.0 * g
        } else {
            (g * (j as f64 + 1.0)).sin()
        };
        centre + spread * (r() - 0.5)
    })
}

fn gaussian(x: MatRef<'_, f64>, s: f64) -> Mat<f64> {
    let n = x.nrows();
    Mat::from_fn(n, n, |i, j| {
        let d: f64 = (0..x.ncols())
            .map(|t| (x[(i, t)] - x[(j, t)]).powi(2))
            .sum();
        (-d / s).exp()
    })
}

fn linear_scaled(x: MatRef<'_, f64>) -> Mat<f64> {
    let n = x.nrows();
    let k = Mat::from_fn(n, n, |i, j| {
        (0..x.ncols()).map(|t| x[(i, t)] * x[(j, t)]).sum::<f64>()
    });
    let mx = (0..n)
        .flat_map(|j| (0..n).map(move |i| (i, j)))
        .fold(0.0f64, |m, (i, j)| m.max(k[(i, j)]));
    Mat::from_fn(n, n, |i, j| k[(i, j)] / mx)
}

/// max over columns of the KKT violation of (11), recomputed from scratch, and the
/// largest feasibility error.
fn kkt_of_11(
    k: MatRef<'_, f64>,
    p: MatRef<'_, f64>,
    z: MatRef<'_, f64>,
    alpha: f64,
    beta: f64,
) -> (f64, f64) {
    let n = k.nrows();
    let (mut viol, mut feas) = (f64::NEG_INFINITY, 0.0f64);
    for i in 0..n {
        let g: Vec<f64> = (0..n)
            .map(|j| {
                let kz: f64 = (0..n).map(|a| k[(j, a)] * z[(a, i)]).sum();
                let d: f64 = (0..p.ncols())
                    .map(|t| (p[(i, t)] - p[(j, t)]).powi(2))
                    .sum();
                2.0 * (alpha * z[(j, i)] + kz) + 0.5 * beta * d - 2.0 * k[(j, i)]
            })
            .collect();
        let hi = (0..n)
            .filter(|&j| z[(j, i)] > 0.0)
            .map(|j| g[j])
            .fold(f64::NEG_INFINITY, f64::max);
        let lo = (0..n)
            .filter(|&j| z[(j, i)] < 1.0)
            .map(|j| g[j])
            .fold(f64::INFINITY, f64::min);
        viol = viol.max(hi - lo);
        let sum: f64 = (0..n).map(|j| z[(j, i)]).sum();
        feas = feas.max((sum - 1.0).abs());
        for j in 0..n {
            feas = feas.max((-z[(j, i)]).max(z[(j, i)] - 1.0));
        }
    }
    (viol, feas)
}

fn combine(w: &[f64], ks: &[Mat<f64>]) -> Mat<f64> {
    let n = ks[0].nrows();
    Mat::from_fn(n, n, |i, j| {
        w.iter().zip(ks).map(|(a, k)| a * k[(i, j)]).sum()
    })
}

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
        let f = ScskParams::new(3, alpha, beta)
            .qp_tol(1e-11)
            .qp_max_iter(Some(200_000))
            .z_solver(solver)
            .check()
            .unwrap()
            .fit(ks[0].as_ref())
            .unwrap();
        let (v, e) = kkt_of_11(ks[0].as_ref(), f.p.as_ref(), f.z.as_ref(), alpha, beta);
        assert!(
            v <= 1e-8 && e <= 1e-12,
            "SCSK {solver:?} α={alpha} β={beta}: violation {v:e}, feasibility {e:e}"
        );
        // SCMK: with the weights of the last Z step.
        let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
        let f = ScmkParams::new(3, alpha, beta)
            .qp_tol(1e-11)
            .qp_max_iter(Some(200_000))
            .z_solver(solver)
            .max_iter(15)
            .check()
            .unwrap()
            .fit(&refs)
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
    let cold = solve_z(k.as_ref(), p.as_ref(), 0.05, 0.3, None, &solver).unwrap();
    let (v, e) = kkt_of_11(k.as_ref(), p.as_ref(), cold.z.as_ref(), 0.05, 0.3);
    assert!(v <= 1e-8 && e <= 1e-12, "{v:e} {e:e}");
    let ident = Mat::<f64>::identity(n, n);
    let warm = solve_z(
        k.as_ref(),
        p.as_ref(),
        0.05,
        0.3,
        Some(ident.as_ref()),
        &solver,
    )
    .unwrap();
    // (11) is strictly convex (α > 0): one minimiser.
    for j in 0..n {
        for i in 0..n {
            assert!((warm.z[(i, j)] - cold.z[(i, j)]).abs() < 1e-6);
        }
    }
    assert!((warm.objective - cold.objective).abs() < 1e-9);
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
        let f = ScmkParams::new(3, alpha, beta)
            .z_solver(solver)
            .min_iter(30)
            .max_iter(30)
            .check()
            .unwrap()
            .fit(&refs)
            .unwrap();
        let j = &f.info.objective;
        assert_eq!(j.len(), 30);
        // From the second iteration on (w_0 = 1/r violates Σ√w = 1; see the objective docs).
        for t in 1..j.len() - 1 {
            assert!(
                j[t + 1] <= j[t] + 1e-9 * j[t].abs().max(1.0),
                "SCMK {solver:?} α={alpha} β={beta} t={t}: {} > {}",
                j[t + 1],
                j[t]
            );
        }
        let again = objective(&refs, &f.weights, f.z.as_ref(), f.p.as_ref(), alpha, beta).unwrap();
        assert!((again.total - j[j.len() - 1]).abs() <= 1e-10 * again.total.abs().max(1.0));

        let s = ScskParams::new(3, alpha, beta)
            .z_solver(solver)
            .min_iter(20)
            .max_iter(20)
            .check()
            .unwrap()
            .fit(refs[0])
            .unwrap();
        let j = &s.info.objective;
        for t in 0..j.len() - 1 {
            assert!(
                j[t + 1] <= j[t] + 1e-9 * j[t].abs().max(1.0),
                "SCSK {solver:?} α={alpha} β={beta} t={t}: {} > {}",
                j[t + 1],
                j[t]
            );
        }
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
                solve_z(k.as_ref(), p.as_ref(), alpha, 100.0 * alpha, None, &solver)
                    .unwrap()
                    .z
                    .as_ref(),
            )
        })
        .collect();
    assert!(devs.windows(2).all(|d| d[1] < d[0]), "{devs:?}");
    assert!(devs[3] < 1e-3, "{devs:?}");

    // The full algorithm from Z = I.
    let f = ScskParams::new(groups, 1.0, 1.0)
        .check()
        .unwrap()
        .fit(k.as_ref())
        .unwrap();
    assert!(dev_of(f.z.as_ref()) < 0.05, "{}", dev_of(f.z.as_ref()));
    for i in 0..n {
        assert_eq!(f.labels[i], f.labels[start[cluster(i)]]);
    }
    assert_ne!(f.labels[0], f.labels[4]);
    assert_ne!(f.labels[4], f.labels[10]);
    assert_ne!(f.labels[0], f.labels[10]);
}

#[test]
fn same_seed_same_result() {
    let x = points(3, 5, 2.0, 6);
    let ks = [gaussian(x.as_ref(), 1.0), gaussian(x.as_ref(), 8.0)];
    let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let p = ScmkParams::new(3, 0.1, 1e-3).seed(5).check().unwrap();
    let (a, b) = (p.fit(&refs).unwrap(), p.fit(&refs).unwrap());
    assert_eq!(a.labels, b.labels);
    assert_eq!(a.weights, b.weights);
    assert_eq!(a.info.objective, b.info.objective);
    assert!(a.info.iterations >= 10 && a.info.weights_trace.len() == a.info.iterations + 1);
}

#[test]
fn bad_parameters_are_typed_errors() {
    let bad = [
        ScmkParams::new(0, 1.0, 1.0).check().err(),
        ScmkParams::new(2, 0.0, 1.0).check().err(),
        ScmkParams::new(2, f64::NAN, 1.0).check().err(),
        ScmkParams::new(2, 1.0, -1.0).check().err(),
        ScmkParams::new(2, 1.0, f64::INFINITY).check().err(),
        ScmkParams::new(2, 1.0, 1.0).max_iter(0).check().err(),
        ScmkParams::new(2, 1.0, 1.0)
            .min_iter(20)
            .max_iter(10)
            .check()
            .err(),
        ScmkParams::new(2, 1.0, 1.0).tol(-1.0).check().err(),
        ScmkParams::new(2, 1.0, 1.0).qp_tol(0.0).check().err(),
        ScmkParams::new(2, 1.0, 1.0)
            .qp_max_iter(Some(0))
            .check()
            .err(),
        ScmkParams::new(2, 1.0, 1.0).n_init(0).check().err(),
        ScmkParams::new(2, 1.0, 1.0)
            .kmeans_max_iter(0)
            .check()
            .err(),
        ScmkParams::new(2, 1.0, 1.0)
            .eigen(mkc_linalg::EigenOptions::default().tol(0.0))
            .check()
            .err(),
        ScskParams::new(2, -1.0, 1.0).check().err(),
    ];
    for (i, e) in bad.into_iter().enumerate() {
        assert!(
            matches!(e, Some(Error::InvalidParam { .. })),
            "case {i}: {e:?}"
        );
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    let x = points(2, 3, 1.0, 7);
    let k = gaussian(x.as_ref(), 1.0);
    let scmk = ScmkParams::new(2, 1.0, 1.0).check().unwrap();
    let scsk = ScskParams::new(2, 1.0, 1.0).check().unwrap();
    assert!(matches!(scmk.fit(&[]), Err(Error::InvalidInput { .. })));
    let small = Mat::<f64>::identity(4, 4);
    assert!(matches!(
        scmk.fit(&[k.as_ref(), small.as_ref()]),
        Err(Error::Shape { .. })
    ));
    let mut nan = k.clone();
    nan[(1, 2)] = f64::NAN;
    assert!(matches!(
        scmk.fit(&[k.as_ref(), nan.as_ref()]),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        scsk.fit(nan.as_ref()),
        Err(Error::NonFinite { .. })
    ));
    let mut asym = k.clone();
    asym[(0, 1)] += 0.5;
    assert!(matches!(
        scsk.fit(asym.as_ref()),
        Err(Error::NotSymmetric { .. })
    ));
    assert!(matches!(
        scsk.fit(Mat::<f64>::zeros(3, 4).as_ref()),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        scsk.fit(Mat::<f64>::zeros(0, 0).as_ref()),
        Err(Error::InvalidInput { .. })
    ));
    let too_many = ScskParams::new(7, 1.0, 1.0).check().unwrap();
    assert!(matches!(
        too_many.fit(k.as_ref()),
        Err(Error::InvalidParam { .. })
    ));

    // eq. (22)
    assert!(matches!(
        optimal_weights(&[]),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        optimal_weights(&[1.0, f64::NAN]),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        optimal_weights(&[1.0, -0.5]),
        Err(Error::InvalidInput { .. })
    ));

    // building blocks
    let n = k.nrows();
    let solver = CappedSimplexQp::new(1.0).check().unwrap();
    let p = Mat::<f64>::zeros(n, 2);
    assert!(matches!(
        solve_z(
            k.as_ref(),
            Mat::<f64>::zeros(n + 1, 2).as_ref(),
            1.0,
            1.0,
            None,
            &solver
        ),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        solve_z(k.as_ref(), p.as_ref(), 0.0, 1.0, None, &solver),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        solve_z(
            k.as_ref(),
            p.as_ref(),
            1.0,
            1.0,
            Some(small.as_ref()),
            &solver
        ),
        Err(Error::Shape { .. })
    ));
    let z = Mat::<f64>::identity(n, n);
    assert!(matches!(
        objective(&[k.as_ref()], &[1.0, 2.0], z.as_ref(), p.as_ref(), 1.0, 1.0),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        objective(&[k.as_ref()], &[1.0], small.as_ref(), p.as_ref(), 1.0, 1.0),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        reconstruction_costs(&[k.as_ref()], small.as_ref()),
        Err(Error::Shape { .. })
    ));
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
            let exact = solve_z(kern.as_ref(), p.as_ref(), alpha, beta, None, &smo).unwrap();
            let warm = Mat::from_fn(n, n, |i, j| if i == (j + 1) % n { 1.0 } else { 0.0 });
            for start in [None, Some(warm.as_ref())] {
                let apg = solve_z_apg(kern.as_ref(), p.as_ref(), alpha, beta, start, 1e-9, 100_000)
                    .unwrap();
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
        solve_z_apg(k.as_ref(), p.as_ref(), 1.0, 1.0, None, 0.0, 10),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        solve_z_apg(k.as_ref(), p.as_ref(), 1.0, 1.0, None, 1e-8, 0),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        solve_z_apg(k.as_ref(), p.as_ref(), -1.0, 1.0, None, 1e-8, 10),
        Err(Error::InvalidParam { .. })
    ));
}

/// The three Z solvers give the same SCMK run (to the QP tolerance).
#[test]
fn z_solvers_agree_on_a_whole_run() {
    let x = points(3, 6, 2.0, 8);
    let ks = [gaussian(x.as_ref(), 1.0), linear_scaled(x.as_ref())];
    let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let fits: Vec<_> = SOLVERS
        .iter()
        .map(|&s| {
            ScmkParams::new(3, 0.05, 1e-2)
                .z_solver(s)
                .qp_tol(1e-11)
                .qp_max_iter(Some(100_000))
                .min_iter(12)
                .max_iter(12)
                .check()
                .unwrap()
                .fit(&refs)
                .unwrap()
        })
        .collect();
    for f in &fits[1..] {
        assert_eq!(f.labels, fits[0].labels);
        for (a, b) in f.info.objective.iter().zip(&fits[0].info.objective) {
            assert!((a - b).abs() <= 1e-7 * b.abs().max(1.0), "{a} vs {b}");
        }
    }
}
