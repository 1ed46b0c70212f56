//! RKKM and RMKKM through the method API: results, monotone objectives, determinism and
//! typed errors.

use faer::Mat;
use mkc_core::testing::{spoiled_kernels, variant, with_threads};
use mkc_core::{seed, Error};
use mkc_robust::prelude::*;
use rand::Rng;

/// Three groups in 2-D (spread 1, 8 apart) with `n` points, and three kernels: linear,
/// a Gaussian of width 3 and a Gaussian of width 0.3 (nearly the identity: a poor one).
fn three_groups(n: usize, s: u64) -> (Vec<usize>, Vec<Mat<f64>>) {
    let mut rng = seed::rng(s);
    let truth: Vec<usize> = (0..n).map(|i| i % 3).collect();
    let x: Vec<[f64; 2]> = truth
        .iter()
        .map(|&c| {
            let (cx, cy) = [(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)][c];
            [
                cx + rng.random_range(-1.0..1.0),
                cy + rng.random_range(-1.0..1.0),
            ]
        })
        .collect();
    let d2 = |i: usize, j: usize| (x[i][0] - x[j][0]).powi(2) + (x[i][1] - x[j][1]).powi(2);
    let kernels = vec![
        Mat::from_fn(n, n, |i, j| x[i][0] * x[j][0] + x[i][1] * x[j][1]),
        Mat::from_fn(n, n, |i, j| (-d2(i, j) / 18.0).exp()),
        Mat::from_fn(n, n, |i, j| (-d2(i, j) / 0.18).exp()),
    ];
    (truth, kernels)
}

fn acc(truth: &[usize], labels: &[usize]) -> f64 {
    mkc_metrics::accuracy(truth, labels).unwrap()
}

/// `e` is an invalid parameter named `want`.
fn named(e: Error, want: &str) {
    assert!(
        matches!(&e, Error::InvalidParam { name, .. } if name == want),
        "{e}"
    );
}

#[test]
fn rkkm_finds_the_groups_on_a_good_kernel() {
    let (truth, ks) = three_groups(60, 1);
    let one = KernelSet::from_refs(vec![ks[1].as_ref()]).unwrap();
    let fit = RkkmParams::new().n_init(5).fit(&one, 3, 0).unwrap();
    assert_eq!(acc(&truth, &fit.labels), 1.0);
    assert!(fit.converged);
    assert_eq!(fit.final_objective(), Some(fit.diagnostics.objective));
    for w in fit.objective.windows(2) {
        assert!(w[1] <= w[0] * (1.0 + 1e-12), "{:?}", fit.objective);
    }
    // More starts never give a larger loss (start 0 is shared).
    let single = RkkmParams::new().n_init(1).fit(&one, 3, 0).unwrap();
    assert!(fit.diagnostics.objective <= single.diagnostics.objective);
}

#[test]
fn rkkm_from_labels_keeps_a_fixed_point() {
    let (truth, ks) = three_groups(45, 2);
    let one = KernelSet::from_refs(vec![ks[1].as_ref()]).unwrap();
    let fit = RkkmParams::new()
        .init(RkkmInit::Labels(truth.clone()))
        .fit(&one, 3, 9)
        .unwrap();
    assert_eq!(fit.labels, truth);
    assert_eq!(fit.diagnostics.best_restart, 0);
}

#[test]
fn rmkkm_weights_lie_on_their_constraint_and_the_groups_are_found() {
    let (truth, ks) = three_groups(60, 3);
    let data = KernelSet::new(&ks).unwrap();
    for gamma in [0.1, 0.3, 0.5, 0.9] {
        let fit = RmkkmParams::new()
            .gamma(gamma)
            .max_iter(8)
            .fit(&data, 3, 1)
            .unwrap();
        let w = fit.kernel_weights.as_ref().unwrap();
        assert_eq!(w.constraint, WeightConstraint::PNorm(gamma));
        assert!(w.violation() < 1e-9, "γ = {gamma}: {:?}", w.values);
        assert_eq!(fit.objective.len(), 8);
        assert_eq!(fit.iterations, 8);
        assert!(acc(&truth, &fit.labels) > 0.95, "γ = {gamma}");
    }
}

#[test]
fn rmkkm_with_warm_start_is_monotone() {
    for s in 0..4 {
        let (_, ks) = three_groups(48, 10 + s);
        let data = KernelSet::new(&ks).unwrap();
        let fit = RmkkmParams::new()
            .gamma(0.4)
            .warm_start(true)
            .max_iter(15)
            .fit(&data, 3, s)
            .unwrap();
        // The first weight step starts from 1/m, which is not on the constraint set.
        if fit.diagnostics.empty_fills == 0 {
            for w in fit.objective[1..].windows(2) {
                assert!(w[1] <= w[0] * (1.0 + 1e-10), "{:?}", fit.objective);
            }
        }
    }
}

#[test]
fn rmkkm_stops_early_with_a_tolerance() {
    let (_, ks) = three_groups(48, 20);
    let data = KernelSet::new(&ks).unwrap();
    let fit = RmkkmParams::new()
        .warm_start(true)
        .tol(1e-6)
        .max_iter(200)
        .fit(&data, 3, 0)
        .unwrap();
    assert!(fit.converged && fit.iterations < 200, "{}", fit.iterations);
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let (_, ks) = three_groups(90, 4);
    let data = KernelSet::new(&ks).unwrap();
    let fit = |threads: usize| {
        with_threads(threads, || {
            let a = RmkkmParams::new()
                .max_iter(5)
                .n_init(2)
                .fit(&data, 3, 7)
                .unwrap();
            let b = RkkmParams::new().n_init(4).fit(&data, 3, 7).unwrap();
            (
                a.labels,
                a.objective,
                a.kernel_weights,
                b.labels,
                b.objective,
            )
        })
    };
    assert_eq!(fit(1), fit(4));
}

#[test]
fn bad_parameters_are_named() {
    named(
        RkkmParams::new().n_init(0).validate_params().unwrap_err(),
        "n_init",
    );
    named(
        RkkmParams::new().max_iter(0).validate_params().unwrap_err(),
        "max_iter",
    );
    for g in [0.0, 1.0, -1.0, f64::NAN] {
        named(
            RmkkmParams::new().gamma(g).validate_params().unwrap_err(),
            "gamma",
        );
    }
    named(
        RmkkmParams::new()
            .max_iter(0)
            .validate_params()
            .unwrap_err(),
        "max_iter",
    );
    named(
        RmkkmParams::new().n_init(0).validate_params().unwrap_err(),
        "n_init",
    );
    named(
        RmkkmParams::new()
            .inner_restarts(0)
            .validate_params()
            .unwrap_err(),
        "inner_restarts",
    );
    named(
        RmkkmParams::new()
            .inner_max_iter(0)
            .validate_params()
            .unwrap_err(),
        "inner_max_iter",
    );
    for t in [-1.0, f64::NAN] {
        named(
            RmkkmParams::new().tol(t).validate_params().unwrap_err(),
            "tol",
        );
    }
}

#[test]
fn bad_data_is_a_typed_error() {
    let (_, ks) = three_groups(12, 5);
    let data = KernelSet::new(&ks).unwrap();
    let x = Mat::from_fn(12, 2, |i, j| (i + j) as f64);
    let features = KernelSet::from_features(x.as_ref()).unwrap();
    let methods: [Box<dyn DynClusterer>; 2] =
        [Box::new(RkkmParams::new()), Box::new(RmkkmParams::new())];
    for m in &methods {
        for k in [0, 13] {
            named(m.fit_dyn(&data, k, 0).unwrap_err(), "n_clusters");
        }
        let e = m.fit_dyn(&features, 2, 0).unwrap_err();
        assert_eq!(variant(&e), "InvalidInput", "{}: {e}", m.name());
    }
    let short = RkkmParams::new().init(RkkmInit::Labels(vec![0; 5]));
    assert!(short.fit(&data, 2, 0).is_err());
    let out = RkkmParams::new().init(RkkmInit::Labels(vec![3; 12]));
    assert!(matches!(
        out.fit(&data, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    for (bad, want) in spoiled_kernels(&ks[0]) {
        let e = KernelSet::from_refs(vec![bad.as_ref()]).unwrap_err();
        assert_eq!(variant(&e), want, "{e}");
    }
}
