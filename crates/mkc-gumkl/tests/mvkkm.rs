//! MVKKM (Tzortzis & Likas, ICDM 2012).

mod common;

use common::{checks, fit, views};
use mkc_core::prelude::*;
use mkc_gumkl::{composite, weights, MvkkmInit, MvkkmParams};
use mkc_kmeans::{GlobalKernelKMeansParams, KernelKMeansParams};

checks::shared_checks!(MvkkmParams, 26);

#[test]
fn objective_never_increases_and_small_weights_are_floored() {
    for (seed, p) in [(21, 1.0), (22, 1.5), (23, 2.0), (24, 4.0), (25, 10.0)] {
        let (_, ks, _) = views(4, 12, 3, &[1.0, 0.7, 0.4, 0.1], seed);
        let params = MvkkmParams::new()
            .p(p)
            .init(MvkkmInit::FastGlobalKernelKMeans);
        let fit = fit(params, &ks, 4).unwrap();
        for w in fit.objective.windows(2) {
            assert!(w[1] <= w[0] * (1.0 + 1e-9), "p = {p}: {:?}", fit.objective);
        }
        for w in &fit.diagnostics.weights_trace {
            assert!(
                w.iter().all(|&x| x == 0.0 || x >= 1e-5),
                "p = {p}: floor not applied: {w:?}"
            );
            assert!(WeightConstraint::Simplex.violation(w) < 1e-12);
        }
        // The reported objective is Σ w^p D_v of the returned partition and weights.
        let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
        let d = composite::mean_view_objectives(&refs, &fit.labels, 4).unwrap();
        assert_eq!(d, fit.diagnostics.view_objectives);
        let obj = weights::weighted_objective(fit.weights().unwrap(), &d, p);
        assert!((obj - fit.final_objective().unwrap()).abs() <= 1e-9 * obj.abs());
    }
}

#[test]
fn p_one_keeps_the_view_of_least_kernel_kmeans_objective() {
    let (_, ks, _) = views(3, 15, 3, &[0.5, 5.0, 1.0], 27);
    let fit = fit(MvkkmParams::new().p(1.0), &ks, 3).unwrap();
    let e = &fit.diagnostics.view_objectives;
    let argmin = (0..3).fold(0, |b, v| if e[v] < e[b] { v } else { b });
    assert_eq!(fit.weights().unwrap()[argmin], 1.0);
}

#[test]
fn uniform_p_is_global_kernel_kmeans_then_one_kernel_kmeans_run_on_the_sum() {
    // The contract's fit against its building blocks: for p = ∞ MVKKM is global kernel
    // k-means on Σ_v K_v followed by one kernel k-means run from its partition.
    let (_, ks, _) = views(3, 10, 3, &[2.0, 1.0], 28);
    let sum = &ks[0] + &ks[1];
    for (init, fast) in [
        (MvkkmInit::GlobalKernelKMeans, false),
        (MvkkmInit::FastGlobalKernelKMeans, true),
    ] {
        let fit = fit(MvkkmParams::new().p(f64::INFINITY).init(init), &ks, 3).unwrap();
        assert_eq!(fit.iterations, 1);
        assert_eq!(fit.weights(), Some(&[0.5, 0.5][..]));
        let global = GlobalKernelKMeansParams::new()
            .fast(fast)
            .check()
            .unwrap()
            .fit_kernel(sum.as_ref(), 3)
            .unwrap();
        assert_eq!(fit.diagnostics.init_labels, global.labels);
        let kkm = KernelKMeansParams::new()
            .initial_labels(global.labels)
            .max_iter(300)
            .tol(1e-4)
            .check()
            .unwrap()
            .fit_kernel(sum.as_ref(), 3, 0)
            .unwrap();
        assert_eq!(fit.labels, kkm.labels);
        assert!((fit.objective[0] - kkm.objective).abs() <= 1e-9 * kkm.objective);
    }
}

#[test]
fn given_initial_labels_are_used_and_checked_when_fitting() {
    let (_, ks, truth) = views(3, 12, 3, &[3.0, 1.0], 29);
    let fit = fit(
        MvkkmParams::new().init(MvkkmInit::Labels(truth.clone())),
        &ks,
        3,
    )
    .unwrap();
    assert_eq!(fit.diagnostics.init_labels, truth);
    // Too short, and a label not below the number of clusters (known only when fitting).
    let short = MvkkmParams::new().init(MvkkmInit::Labels(vec![0, 1, 0]));
    assert!(short.validate_params().is_ok());
    assert!(matches!(self::fit(short, &ks, 3), Err(Error::Shape { .. })));
    let e = self::fit(MvkkmParams::new().init(MvkkmInit::Labels(truth)), &ks, 2).unwrap_err();
    assert!(matches!(e, Error::InvalidInput { .. }), "{e}");
}

#[test]
fn a_shared_initial_partition_gives_the_fits_of_the_global_start() {
    // What the experiments runner relies on when it computes the start once for a grid
    // over p: the fit from `initial_partition` as given labels is the fit from `init`.
    let (_, ks, _) = views(3, 14, 3, &[1.0, 0.6, 0.3], 31);
    let set = KernelSet::new(&ks).unwrap();
    for init in [
        MvkkmInit::GlobalKernelKMeans,
        MvkkmInit::FastGlobalKernelKMeans,
    ] {
        let start = MvkkmParams::new()
            .init(init.clone())
            .check()
            .unwrap()
            .initial_partition(&set, 3)
            .unwrap();
        for p in [1.0, 1.5, 3.0, f64::INFINITY] {
            let own = fit(MvkkmParams::new().p(p).init(init.clone()), &ks, 3).unwrap();
            let shared = fit(
                MvkkmParams::new()
                    .p(p)
                    .init(MvkkmInit::Labels(start.clone())),
                &ks,
                3,
            )
            .unwrap();
            assert_eq!(own.diagnostics.init_labels, start, "{init:?}, p = {p}");
            assert_eq!(own.labels, shared.labels, "{init:?}, p = {p}");
            assert_eq!(own.weights(), shared.weights(), "{init:?}, p = {p}");
            assert_eq!(own.objective, shared.objective, "{init:?}, p = {p}");
            assert_eq!(own.iterations, shared.iterations, "{init:?}, p = {p}");
            assert_eq!(
                own.diagnostics.weights_trace, shared.diagnostics.weights_trace,
                "{init:?}, p = {p}"
            );
        }
    }
    // Its errors are the fit's (here: more clusters than samples).
    let m = MvkkmParams::new().check().unwrap();
    assert!(matches!(
        m.initial_partition(&set, 100),
        Err(Error::InvalidParam { .. })
    ));
}
