//! Acceptance tests of SimpleMKKM (Algorithm 1, eqs. (4)–(9)).

mod common;

use common::gaussian_views;
use faer::{Mat, MatRef};
use mkc_core::{Error, ParamGuard};
use mkc_simplemkkm::{
    default_eigen_options, gradient, objective::Objective, reduced_gradient, Armijo, GoldenSection,
    LineSearch, Preprocessing, SimpleMkkmParams, Solver,
};

fn refs(ks: &[Mat<f64>]) -> Vec<MatRef<'_, f64>> {
    ks.iter().map(|m| m.as_ref()).collect()
}

fn on_simplex(g: &[f64]) -> bool {
    g.iter().all(|v| (0.0..=1.0).contains(v)) && (g.iter().sum::<f64>() - 1.0).abs() < 1e-12
}

#[test]
fn objective_never_increases_and_gamma_stays_on_the_simplex() {
    let (ks, _) = gaussian_views(60, 3, &[0.5, 2.0, 5.0]);
    let views = refs(&ks);
    for ls in [
        LineSearch::GoldenSection(GoldenSection::default()),
        LineSearch::Armijo(Armijo::default()),
    ] {
        for cap in [Some(0.1), None] {
            let fit = SimpleMkkmParams::new(3)
                .line_search(ls)
                .step_cap(cap)
                .check()
                .unwrap()
                .fit(&views)
                .unwrap();
            let tr = &fit.info.objective_trace;
            assert_eq!(tr.len(), fit.info.iterations + 1);
            for w in tr.windows(2) {
                assert!(w[1] <= w[0], "J increased: {tr:?}");
            }
            assert!(tr.last().unwrap() < &tr[0], "no decrease at all: {tr:?}");
            for g in &fit.info.gamma_trace {
                assert!(on_simplex(g), "{g:?}");
            }
            assert!(on_simplex(&fit.gamma));
            assert!(fit.info.converged);
            assert_eq!(fit.objective, *tr.last().unwrap());
        }
    }
}

#[test]
fn gradient_matches_central_finite_differences() {
    let (ks, _) = gaussian_views(60, 3, &[0.5, 2.0, 4.0]);
    let views = refs(&ks);
    let eig = default_eigen_options().tol(1e-13);
    let mut obj = Objective::new(&views, 3, eig, false).unwrap();
    let gamma = [0.5, 0.3, 0.2];
    let e = obj.evaluate(&gamma, None).unwrap();
    // an eigengap makes J differentiable (Theorem 1)
    let top = mkc_linalg::eigen::top_k(obj.combined(), 4, &default_eigen_options()).unwrap();
    assert!(
        top.values[2] - top.values[3] > 1e-3 * top.values[0],
        "{:?}",
        top.values
    );
    let g = gradient::gradient(&gamma, &gradient::alignments(&views, e.h.as_ref()).unwrap());
    let h = 1e-5;
    for p in 0..3 {
        let (mut up, mut dn) = (gamma, gamma);
        up[p] += h;
        dn[p] -= h;
        let fd = (obj.evaluate(&up, None).unwrap().value - obj.evaluate(&dn, None).unwrap().value)
            / (2.0 * h);
        assert!(
            (fd - g[p]).abs() <= 1e-6 * g[p].abs().max(1.0),
            "p = {p}: analytic {} vs FD {fd}",
            g[p]
        );
    }
}

#[test]
fn returned_gamma_satisfies_first_order_optimality() {
    let (ks, _) = gaussian_views(80, 4, &[0.3, 1.5, 3.0]);
    let views = refs(&ks);
    let fit = SimpleMkkmParams::new(4)
        .tol(1e-7)
        .check()
        .unwrap()
        .fit(&views)
        .unwrap();
    // KKT of min over the simplex: equal gradients on the support, larger off it.
    let g = &fit.info.gradient;
    assert!(
        fit.info.kkt_residual < 1e-4,
        "residual {} γ {:?} g {:?}",
        fit.info.kkt_residual,
        fit.gamma,
        g
    );
    assert_eq!(
        fit.info.kkt_residual,
        reduced_gradient::kkt_residual(&fit.gamma, g)
    );
    let active: Vec<f64> = g
        .iter()
        .zip(&fit.gamma)
        .filter(|(_, &w)| w > 0.0)
        .map(|(&v, _)| v)
        .collect();
    let (lo, hi) = active
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    assert!((hi - lo) / hi < 1e-3, "{g:?}");
    // Non-sparse weights (the paper's Figure 1): γ_p ∝ 1/tr(HᵀK_pH) is interior here.
    assert!(fit.gamma.iter().all(|&w| w > 0.05), "{:?}", fit.gamma);
}

#[test]
fn closed_form_for_scaled_copies_of_one_kernel() {
    // K_p = c_p K ⇒ J(γ) = (Σ_p γ_p² c_p) · J_K, minimised at γ_p ∝ 1/c_p.
    let (ks, _) = gaussian_views(50, 2, &[1.0]);
    let c = [1.0, 2.0, 4.0];
    let scaled: Vec<Mat<f64>> = c
        .iter()
        .map(|&s| Mat::from_fn(50, 50, |i, j| s * ks[0][(i, j)]))
        .collect();
    let fit = SimpleMkkmParams::new(2)
        .preprocessing(Preprocessing::None)
        .tol(1e-8)
        .check()
        .unwrap()
        .fit(&refs(&scaled))
        .unwrap();
    let s: f64 = c.iter().map(|v| 1.0 / v).sum();
    for (g, cp) in fit.gamma.iter().zip(&c) {
        assert!((g - 1.0 / cp / s).abs() < 1e-4, "{:?}", fit.gamma);
    }
    // identical kernels: γ = 1/m is already optimal and is returned unchanged
    let same = vec![ks[0].clone(), ks[0].clone()];
    let fit = SimpleMkkmParams::new(2)
        .check()
        .unwrap()
        .fit(&refs(&same))
        .unwrap();
    assert!((fit.gamma[0] - 0.5).abs() < 1e-12, "{:?}", fit.gamma);
}

#[test]
fn warm_and_cold_eigensolves_agree_and_are_counted() {
    let (ks, _) = gaussian_views(70, 3, &[0.5, 2.0, 4.0]);
    let views = refs(&ks);
    let warm = SimpleMkkmParams::new(3)
        .solver(Solver::Eigensolver)
        .check()
        .unwrap()
        .fit(&views)
        .unwrap();
    let cold = SimpleMkkmParams::new(3)
        .solver(Solver::Eigensolver)
        .warm_start(false)
        .check()
        .unwrap()
        .fit(&views)
        .unwrap();
    for (a, b) in warm.gamma.iter().zip(&cold.gamma) {
        assert!((a - b).abs() < 1e-6, "{:?} vs {:?}", warm.gamma, cold.gamma);
    }
    let i = &warm.info;
    assert_eq!(
        i.eigensolves,
        1 + i.line_search_evaluations.iter().sum::<usize>()
    );
    assert_eq!(i.warm_eigensolves, i.eigensolves - 1);
    assert_eq!(cold.info.warm_eigensolves, 0);
}

#[test]
fn deterministic_fit_and_labels() {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 1.0]);
    let views = refs(&ks);
    let model = SimpleMkkmParams::new(3).check().unwrap();
    let a = model.fit(&views).unwrap();
    let b = model.fit(&views).unwrap();
    assert_eq!(a.gamma, b.gamma);
    assert_eq!(a.labels(7).unwrap(), b.labels(7).unwrap());
    let acc = mkc_metrics::accuracy(&truth, &a.labels(7).unwrap()).unwrap();
    assert!(acc > 0.95, "{acc}");
}

#[test]
fn bad_inputs_are_typed_errors() {
    let model = SimpleMkkmParams::new(2).check().unwrap();
    let (ks, _) = gaussian_views(10, 2, &[0.5, 1.0]);
    let small = Mat::<f64>::identity(9, 9);
    assert!(matches!(
        model.fit(&[ks[0].as_ref(), small.as_ref()]),
        Err(Error::Shape { .. })
    ));
    let mut nan = ks[1].clone();
    nan[(3, 4)] = f64::NAN;
    nan[(4, 3)] = f64::NAN;
    assert!(matches!(
        model.fit(&[ks[0].as_ref(), nan.as_ref()]),
        Err(Error::NonFinite { .. })
    ));
    let mut asym = ks[1].clone();
    asym[(0, 1)] += 0.5;
    assert!(matches!(
        model.fit(&[ks[0].as_ref(), asym.as_ref()]),
        Err(Error::NotSymmetric { .. })
    ));
    let zero = Mat::<f64>::zeros(10, 10);
    assert!(matches!(
        model.fit(&[ks[0].as_ref(), zero.as_ref()]),
        Err(Error::InvalidInput { .. })
    ));
    let raw = SimpleMkkmParams::new(2)
        .preprocessing(Preprocessing::None)
        .check()
        .unwrap();
    assert!(matches!(
        raw.fit(&[ks[0].as_ref(), zero.as_ref()]),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(model.fit(&[]), Err(Error::InvalidInput { .. })));
    let too_many = SimpleMkkmParams::new(11).check().unwrap();
    assert!(matches!(
        too_many.fit(&refs(&ks)),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        SimpleMkkmParams::new(0).check(),
        Err(Error::InvalidParam { .. })
    ));
    let empty = Mat::<f64>::zeros(0, 0);
    assert!(model.fit(&[empty.as_ref()]).is_err());
    assert!(matches!(
        mkc_simplemkkm::labels_from_h(ks[0].as_ref(), 0, 1),
        Err(Error::InvalidParam { .. })
    ));
    let mut hn = Mat::<f64>::identity(4, 2);
    hn[(0, 0)] = f64::INFINITY;
    assert!(matches!(
        mkc_simplemkkm::labels_from_h(hn.as_ref(), 2, 1),
        Err(Error::NonFinite { .. })
    ));
}

/// The subspace solver (default) against the reference path (an eigensolve per J
/// evaluation): same γ, same J, J never increases on either, same work accounting.
fn compare_solvers(n: usize, k: usize, spread: &[f64]) {
    let (ks, _) = gaussian_views(n, k, spread);
    let views = refs(&ks);
    let fit = |solver| {
        SimpleMkkmParams::new(k)
            .solver(solver)
            .check()
            .unwrap()
            .fit(&views)
            .unwrap()
    };
    let exact = fit(Solver::Eigensolver);
    let fast = fit(Solver::default());
    for (a, b) in fast.gamma.iter().zip(&exact.gamma) {
        assert!(
            (a - b).abs() < 1e-4,
            "{:?} vs {:?}",
            fast.gamma,
            exact.gamma
        );
    }
    assert!(
        (fast.objective - exact.objective).abs() <= 1e-9 * exact.objective,
        "{} vs {}",
        fast.objective,
        exact.objective
    );
    for f in [&fast, &exact] {
        assert!(f.info.converged);
        assert!(f.info.objective_trace.windows(2).all(|w| w[1] <= w[0]));
        assert!(on_simplex(&f.gamma));
        assert!(f.info.kkt_residual < 1e-4, "{}", f.info.kkt_residual);
    }
    // the returned J, H and gradient are exact: compare with a fresh dense solve
    let kg = mkc_linalg::weighted_sum(
        &fast.gamma.iter().map(|g| g * g).collect::<Vec<_>>(),
        &Preprocessing::default()
            .apply(&views)
            .unwrap()
            .iter()
            .map(|m| m.as_ref())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let dense = mkc_linalg::eigen::dense_sym(kg.as_ref()).unwrap();
    let top: f64 = dense.values.iter().rev().take(k).sum();
    assert!(
        (top - fast.objective).abs() <= 1e-9 * top,
        "{top} vs {}",
        fast.objective
    );
    let i = &fast.info;
    assert_eq!(
        i.projected_evaluations,
        i.line_search_evaluations.iter().sum::<usize>()
    );
    assert!(i.kernel_matvecs > 0 && i.subspace_expansions > 0);
    // one cold solve, one certified solve at γ = 1/m and one per accepted point (plus
    // rejected steps); far fewer exact solves than the reference path
    let accepted = i.objective_trace.windows(2).filter(|w| w[1] < w[0]).count();
    assert!(i.eigensolves >= 2 + accepted, "{i:?}");
    assert!(i.eigensolves <= 2 + i.iterations + i.retries, "{i:?}");
    assert!(i.eigensolves < exact.info.eigensolves);
}

#[test]
fn subspace_solver_matches_the_eigensolver_path_small() {
    compare_solvers(90, 3, &[0.5, 2.0, 4.0]);
}

#[test]
fn subspace_solver_matches_the_eigensolver_path_block_lanczos() {
    // n > 256: the reference path uses block Lanczos, the subspace its cold start only
    compare_solvers(320, 4, &[0.8, 2.5, 5.0]);
}

#[test]
fn bad_solver_tolerance_is_named() {
    for t in [0.0, -1.0, f64::NAN, 0.9] {
        match SimpleMkkmParams::new(3)
            .solver(Solver::Subspace { trial_tol: t })
            .check()
        {
            Err(Error::InvalidParam { name, .. }) => assert_eq!(name, "solver.trial_tol"),
            other => panic!("{t}: {other:?}"),
        }
    }
}

#[test]
fn crude_trial_values_never_let_j_increase() {
    // trial_tol 0.5: trial values are poor lower bounds of J; the certified J at the
    // chosen step decides, rejected steps are retried, and the optimum is unchanged.
    let (ks, _) = gaussian_views(300, 4, &[0.8, 2.5, 5.0]);
    let views = refs(&ks);
    let run = |solver| {
        SimpleMkkmParams::new(4)
            .solver(solver)
            .check()
            .unwrap()
            .fit(&views)
            .unwrap()
    };
    let crude = run(Solver::Subspace { trial_tol: 0.5 });
    let exact = run(Solver::Eigensolver);
    let tr = &crude.info.objective_trace;
    assert!(tr.windows(2).all(|w| w[1] <= w[0]), "{tr:?}");
    assert!(crude.info.converged);
    for (a, b) in crude.gamma.iter().zip(&exact.gamma) {
        assert!(
            (a - b).abs() < 1e-4,
            "{:?} vs {:?}",
            crude.gamma,
            exact.gamma
        );
    }
}
