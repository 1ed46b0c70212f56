//! Acceptance tests of SimpleMKKM (Algorithm 1, eqs. (4)–(9)).

#[path = "../../mkc-mkkm/tests/common/mod.rs"]
mod common;

use common::gaussian_views;
use faer::{Mat, MatRef};
use mkc_core::{Error, ParamGuard};
use mkc_simplemkkm::prelude::*;
use mkc_simplemkkm::{
    default_eigen_options, gradient, objective::Objective, reduced_gradient, Armijo, GoldenSection,
    LineSearch, Preprocessing, Solver,
};

fn refs(ks: &[Mat<f64>]) -> Vec<MatRef<'_, f64>> {
    ks.iter().map(|m| m.as_ref()).collect()
}

fn on_simplex(g: &[f64]) -> bool {
    WeightConstraint::Simplex.violation(g) < 1e-12 && g.iter().all(|v| (0.0..=1.0).contains(v))
}

#[test]
fn objective_never_increases_and_gamma_stays_on_the_simplex() {
    let (ks, _) = gaussian_views(60, 3, &[0.5, 2.0, 5.0]);
    let data = KernelSet::new(&ks).unwrap();
    for ls in [
        LineSearch::GoldenSection(GoldenSection::default()),
        LineSearch::Armijo(Armijo::default()),
    ] {
        for cap in [Some(0.1), None] {
            let fit = SimpleMkkmParams::new()
                .line_search(ls)
                .step_cap(cap)
                .fit(&data, 3, 0)
                .unwrap();
            let tr = &fit.objective;
            assert_eq!(tr.len(), fit.iterations + 1);
            for w in tr.windows(2) {
                assert!(w[1] <= w[0], "J increased: {tr:?}");
            }
            assert!(tr.last().unwrap() < &tr[0], "no decrease at all: {tr:?}");
            for g in &fit.diagnostics.weight_trace {
                assert!(on_simplex(g), "{g:?}");
            }
            let w = fit.kernel_weights.as_ref().unwrap();
            assert_eq!(w.constraint, WeightConstraint::Simplex);
            assert!(w.violation() < 1e-9 && on_simplex(&w.values));
            assert_eq!(w.values, *fit.diagnostics.weight_trace.last().unwrap());
            assert!(fit.converged && fit.diagnostics.converged);
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

/// The engine (γ and H, no k-means) with the given parameters.
fn engine(p: SimpleMkkmParams, ks: &[Mat<f64>], k: usize) -> mkc_simplemkkm::SimpleMkkmFit {
    p.fit_kernels(&refs(ks), k).unwrap()
}

/// The two solvers' weights agree to 1e-4.
fn same_weights(a: &[f64], b: &[f64]) {
    let gap = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    assert!(gap < 1e-4, "{a:?} vs {b:?}");
}

#[test]
fn returned_gamma_satisfies_first_order_optimality() {
    let (ks, _) = gaussian_views(80, 4, &[0.3, 1.5, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    let fit = SimpleMkkmParams::new().tol(1e-7).fit(&data, 4, 0).unwrap();
    let gamma = fit.weights().unwrap();
    let d = &fit.diagnostics;
    // KKT of min over the simplex: equal gradients on the support, larger off it.
    let g = &d.method.gradient;
    assert!(
        d.method.kkt_residual < 1e-4,
        "residual {} γ {gamma:?} g {g:?}",
        d.method.kkt_residual
    );
    assert_eq!(
        d.method.kkt_residual,
        reduced_gradient::kkt_residual(gamma, g)
    );
    assert!(
        mkc_mkkm::simplex_qp::support_spread(g, gamma) < 1e-3,
        "{g:?}"
    );
    // Non-sparse weights (the paper's Figure 1): γ_p ∝ 1/tr(HᵀK_pH) is interior here.
    assert!(gamma.iter().all(|&w| w > 0.05), "{gamma:?}");
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
    let fit = SimpleMkkmParams::new()
        .preprocessing(Preprocessing::None)
        .tol(1e-8)
        .fit(&KernelSet::new(&scaled).unwrap(), 2, 0)
        .unwrap();
    let gamma = fit.weights().unwrap();
    let s: f64 = c.iter().map(|v| 1.0 / v).sum();
    for (g, cp) in gamma.iter().zip(&c) {
        assert!((g - 1.0 / cp / s).abs() < 1e-4, "{gamma:?}");
    }
    // identical kernels: γ = 1/m is already optimal and is returned unchanged
    let same = vec![ks[0].clone(), ks[0].clone()];
    let fit = SimpleMkkmParams::new()
        .fit(&KernelSet::new(&same).unwrap(), 2, 0)
        .unwrap();
    assert!((fit.weights().unwrap()[0] - 0.5).abs() < 1e-12, "{fit:?}");
}

#[test]
fn warm_and_cold_eigensolves_agree_and_are_counted() {
    let (ks, _) = gaussian_views(70, 3, &[0.5, 2.0, 4.0]);
    let data = KernelSet::new(&ks).unwrap();
    let run = |warm| {
        SimpleMkkmParams::new()
            .solver(Solver::Eigensolver)
            .warm_start(warm)
            .fit(&data, 3, 0)
            .unwrap()
    };
    let (warm, cold) = (run(true), run(false));
    for (a, b) in warm.weights().unwrap().iter().zip(cold.weights().unwrap()) {
        assert!((a - b).abs() < 1e-6, "{warm:?} vs {cold:?}");
    }
    let d = &warm.diagnostics;
    assert_eq!(
        d.eigensolves,
        1 + d.method.line_search_evaluations.iter().sum::<usize>()
    );
    assert_eq!(d.method.warm_eigensolves, d.eigensolves - 1);
    assert_eq!(cold.diagnostics.method.warm_eigensolves, 0);
}

#[test]
fn contract_fit_is_the_engine_then_seeded_kmeans() {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 1.0]);
    let data = KernelSet::new(&ks).unwrap();
    let params = SimpleMkkmParams::new();
    let a = params.fit(&data, 3, 7).unwrap();
    let b = params.fit(&data, 3, 7).unwrap();
    assert_eq!((&a.labels, a.weights()), (&b.labels, b.weights()));
    let acc = mkc_metrics::accuracy(&truth, &a.labels).unwrap();
    assert!(acc > 0.95, "{acc}");
    // the engine gives the same γ, trace and H; the labels are k-means on H with the seed
    let e = engine(params.clone(), &ks, 3);
    assert_eq!(a.weights().unwrap(), e.gamma.as_slice());
    assert_eq!(a.objective, e.objective_trace);
    assert_eq!(a.iterations, e.iterations);
    let labels = mkc_simplemkkm::labels_from_h_with(e.h.as_ref(), 3, &params.labels, 7).unwrap();
    assert_eq!(a.labels, labels);
    // timings by phase, and the diagnostics the run records hold
    for phase in ["preprocess", "weights", "kmeans"] {
        assert!(
            a.timings.phases().iter().any(|(p, _)| *p == phase),
            "{phase}"
        );
    }
    let names: Vec<String> = a
        .diagnostics
        .entries()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        names,
        [
            "eigensolves",
            "seconds_per_eigensolve",
            "optimisation_seconds",
            "kkt_residual",
            "kernel_matvecs",
            "subspace_expansions",
            "converged"
        ]
    );
}

#[test]
fn bad_inputs_are_typed_errors() {
    let (ks, _) = gaussian_views(10, 2, &[0.5, 1.0]);
    let params = SimpleMkkmParams::new();
    let model = params.check().unwrap();
    // The engine validates the kernels: shape, NaN, symmetry, emptiness.
    let small = Mat::<f64>::identity(9, 9);
    let mut nan = ks[1].clone();
    nan[(3, 4)] = f64::NAN;
    nan[(4, 3)] = f64::NAN;
    let mut asym = ks[1].clone();
    asym[(0, 1)] += 0.5;
    let empty = Mat::<f64>::zeros(0, 0);
    let cases: Vec<(Vec<MatRef<'_, f64>>, &str)> = vec![
        (vec![ks[0].as_ref(), small.as_ref()], "Shape"),
        (vec![ks[0].as_ref(), nan.as_ref()], "NonFinite"),
        (vec![ks[0].as_ref(), asym.as_ref()], "NotSymmetric"),
        (vec![], "InvalidInput"),
        (vec![empty.as_ref()], "InvalidInput"),
    ];
    for (kernels, want) in cases {
        let e = model.fit_kernels(&kernels, 2).unwrap_err();
        assert!(format!("{e:?}").starts_with(want), "{want}: {e:?}");
    }
    // The contract: a zero kernel (with or without preprocessing), too many clusters,
    // a set holding features only.
    let zero = Mat::<f64>::zeros(10, 10);
    let with_zero = vec![ks[0].clone(), zero];
    let set = KernelSet::new(&with_zero).unwrap();
    for p in [
        params.clone(),
        params.clone().preprocessing(Preprocessing::None),
    ] {
        match p.fit(&set, 2, 0) {
            Err(Error::InvalidInput { what, .. }) => assert_eq!(what, "kernels[1]"),
            other => panic!("{other:?}"),
        }
    }
    let data = KernelSet::new(&ks).unwrap();
    for k in [0, 11] {
        match params.fit(&data, k, 0) {
            Err(Error::InvalidParam { name, .. }) => assert_eq!(name, "n_clusters"),
            other => panic!("{k}: {other:?}"),
        }
    }
    let x = Mat::from_fn(10, 2, |i, j| (i * j) as f64);
    let features = KernelSet::from_features(x.as_ref()).unwrap();
    assert!(matches!(
        params.fit(&features, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    // every restart gets the error of the shared part
    let runs = params.fit_restarts(&data, 11, &[1, 2, 3]);
    assert_eq!(runs.len(), 3);
    assert!(runs
        .iter()
        .all(|r| matches!(r, Err(Error::InvalidParam { name, .. }) if name == "n_clusters")));
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
    let fit = |solver| engine(SimpleMkkmParams::new().solver(solver), &ks, k);
    let exact = fit(Solver::Eigensolver);
    let fast = fit(Solver::default());
    same_weights(&fast.gamma, &exact.gamma);
    assert!(
        (fast.objective() - exact.objective()).abs() <= 1e-9 * exact.objective(),
        "{} vs {}",
        fast.objective(),
        exact.objective()
    );
    for f in [&fast, &exact] {
        assert!(f.diagnostics.converged);
        assert!(f.objective_trace.windows(2).all(|w| w[1] <= w[0]));
        assert!(on_simplex(&f.gamma));
        assert!(
            f.diagnostics.method.kkt_residual < 1e-4,
            "{:?}",
            f.diagnostics
        );
    }
    // the returned J, H and gradient are exact: compare with a fresh dense solve
    let kg = mkc_linalg::weighted_sum(
        &fast.gamma.iter().map(|g| g * g).collect::<Vec<_>>(),
        &Preprocessing::default()
            .apply(&refs(&ks))
            .unwrap()
            .iter()
            .map(|m| m.as_ref())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let dense = mkc_linalg::eigen::dense_sym(kg.as_ref()).unwrap();
    let top: f64 = dense.values.iter().rev().take(k).sum();
    assert!(
        (top - fast.objective()).abs() <= 1e-9 * top,
        "{top} vs {}",
        fast.objective()
    );
    let i = &fast.diagnostics;
    assert_eq!(
        i.method.projected_evaluations,
        i.method.line_search_evaluations.iter().sum::<usize>()
    );
    assert!(i.method.kernel_matvecs > 0 && i.method.subspace_expansions > 0);
    // one cold solve, one certified solve at γ = 1/m and one per accepted point (plus
    // rejected steps); far fewer exact solves than the reference path
    let accepted = fast
        .objective_trace
        .windows(2)
        .filter(|w| w[1] < w[0])
        .count();
    assert!(i.eigensolves >= 2 + accepted, "{i:?}");
    assert!(
        i.eigensolves <= 2 + fast.iterations + i.method.retries,
        "{i:?}"
    );
    assert!(i.eigensolves < exact.diagnostics.eigensolves);
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
        match SimpleMkkmParams::new()
            .solver(Solver::Subspace { trial_tol: t })
            .validate_params()
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
    let run = |solver| engine(SimpleMkkmParams::new().solver(solver), &ks, 4);
    let crude = run(Solver::Subspace { trial_tol: 0.5 });
    let exact = run(Solver::Eigensolver);
    let tr = &crude.objective_trace;
    assert!(tr.windows(2).all(|w| w[1] <= w[0]), "{tr:?}");
    assert!(crude.diagnostics.converged);
    same_weights(&crude.gamma, &exact.gamma);
}
