//! SCMK and SCSK through the method API: the contract's fit is the engine's run, restarts
//! share the loop and equal single fits, the weights lie on Σ √w = 1, every bad
//! parameter is named, and bad data gets a typed error.

use faer::Mat;
use mkc_core::{testing, Clusterer, Error, KernelSet, ParamGuard, WeightConstraint};
use mkc_scmk::{ScmkParams, ScskParams};

mod common;

use common::*;

/// Three groups of 6 points and three kernels on them.
fn kernels() -> Vec<Mat<f64>> {
    let x = points(3, 6, 2.0, 3);
    vec![
        gaussian(x.as_ref(), 1.0),
        gaussian(x.as_ref(), 8.0),
        linear_scaled(x.as_ref()),
    ]
}

#[test]
fn contract_fit_equals_the_engine() {
    let ks = kernels();
    let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let data = KernelSet::new(&ks).unwrap();
    let p = scmk(0.1, 1e-3);
    let fit = p.fit(&data, 3, 4).unwrap();
    let engine = p.check().unwrap().fit_kernels(&refs, 3, 4).unwrap();
    assert_eq!(fit.labels, engine.labels);
    assert_eq!(fit.objective, engine.info.objective);
    assert_eq!(fit.iterations, engine.info.iterations);
    assert_eq!(fit.converged, engine.info.converged);
    assert_eq!(
        fit.diagnostics.z_nnz,
        engine.info.z_nnz[engine.info.iterations - 1]
    );
    let w = fit.kernel_weights.as_ref().unwrap();
    assert_eq!(w.values, engine.weights);
    assert_eq!(w.constraint, WeightConstraint::SqrtSimplex);
    assert!(w.violation() < 1e-9, "{:?}", w.values);
    let phases: Vec<&str> = fit.timings.phases().iter().map(|p| p.0).collect();
    assert_eq!(phases, ["init", "eigensolve", "z", "weights", "kmeans"]);

    // SCSK on several kernels runs on their mean (KernelSet::one_kernel).
    let mean = Mat::from_fn(18, 18, |i, j| {
        ks.iter().map(|k| k[(i, j)]).sum::<f64>() * (1.0 / 3.0)
    });
    let p = scsk(0.1, 1e-3);
    let fit = p.fit(&data, 3, 4).unwrap();
    let engine = p.check().unwrap().fit_kernel(mean.as_ref(), 3, 4).unwrap();
    assert_eq!(fit.labels, engine.labels);
    assert_eq!(fit.objective, engine.info.objective);
    assert!(fit.kernel_weights.is_none());
    assert!(fit.timings.phases().iter().any(|p| p.0 == "objective"));
}

#[test]
fn restarts_share_the_loop_and_equal_single_fits() {
    let ks = kernels();
    let data = KernelSet::new(&ks).unwrap();
    let seeds = [0u64, 1, 2, 3];
    let methods: [&dyn mkc_core::DynClusterer; 2] = [&scmk(0.01, 1e-5), &scsk(0.01, 1e-5)];
    for m in methods {
        let runs = m.fit_restarts_dyn(&data, 3, &seeds);
        assert_eq!(runs.len(), seeds.len());
        for (run, &s) in runs.iter().zip(&seeds) {
            let run = run.as_ref().unwrap();
            let single = m.fit_dyn(&data, 3, s).unwrap();
            assert_eq!(run.labels, single.labels, "{} seed {s}", m.name());
            assert_eq!(run.objective, single.objective);
            assert_eq!(run.kernel_weights, single.kernel_weights);
            assert_eq!(run.diagnostics, single.diagnostics);
        }
    }
}

/// Fits from step sizes computed once (what the experiments share across an (α, β)
/// grid) are the fits of `fit_restarts` bit for bit, for SCMK and SCSK (one kernel and
/// the mean of several), every Z solver and several (α, β). Step sizes of another kernel
/// count, n, eigensolver seed or kind of Z solver are a typed error for every seed.
#[test]
fn fits_from_shared_step_sizes_equal_fits_that_compute_them() {
    let ks = kernels();
    let all = KernelSet::new(&ks).unwrap();
    let one = KernelSet::new(&ks[2..]).unwrap();
    let seeds = [0u64, 7];
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for solver in SOLVERS {
        let grid = [(0.01, 1e-5), (1.0, 1e-3), (10.0, 0.0)];
        let m0 = scmk(grid[0].0, grid[0].1).z_solver(solver).check().unwrap();
        let steps = m0.step_sizes(&all).unwrap();
        assert_eq!(
            steps.values().len(),
            if solver == mkc_scmk::ZSolver::Smo {
                0
            } else {
                3
            }
        );
        assert!(steps.values().iter().all(|&l| l > 0.0));
        for (alpha, beta) in grid {
            let m = scmk(alpha, beta).z_solver(solver).check().unwrap();
            let shared = m.fit_restarts_with(&all, 3, &seeds, &steps);
            let own = m.fit_restarts(&all, 3, &seeds);
            for (a, b) in shared.iter().zip(&own) {
                let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
                assert_eq!(a.labels, b.labels);
                assert_eq!(
                    bits(&a.objective),
                    bits(&b.objective),
                    "SCMK {solver:?} α={alpha}"
                );
                assert_eq!(a.kernel_weights, b.kernel_weights);
                assert_eq!(a.diagnostics, b.diagnostics);
                assert_eq!((a.iterations, a.converged), (b.iterations, b.converged));
            }
        }
        for data in [&all, &one] {
            let s0 = scsk(0.1, 1e-5).z_solver(solver).check().unwrap();
            let steps = s0.step_sizes(data).unwrap();
            for (alpha, beta) in grid {
                let m = scsk(alpha, beta).z_solver(solver).check().unwrap();
                let shared = m.fit_restarts_with(data, 3, &seeds, &steps);
                let own = m.fit_restarts(data, 3, &seeds);
                for (a, b) in shared.iter().zip(&own) {
                    let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
                    assert_eq!(a.labels, b.labels);
                    assert_eq!(
                        bits(&a.objective),
                        bits(&b.objective),
                        "SCSK {solver:?} α={alpha}"
                    );
                    assert_eq!(a.diagnostics, b.diagnostics);
                }
            }
        }
    }
    // Step sizes of something else.
    let m = scmk(0.1, 1e-5).check().unwrap();
    let steps = m.step_sizes(&all).unwrap();
    let two = KernelSet::new(&ks[..2]).unwrap();
    let small: Vec<Mat<f64>> = ks
        .iter()
        .map(|k| k.as_ref().submatrix(0, 0, 12, 12).to_owned())
        .collect();
    let small = KernelSet::new(&small).unwrap();
    let other_seed = scmk(0.1, 1e-5)
        .eigen(
            mkc_linalg::EigenOptions::default()
                .dense_switch(1.0)
                .seed(3),
        )
        .check()
        .unwrap();
    let smo = scmk(0.1, 1e-5)
        .z_solver(mkc_scmk::ZSolver::Smo)
        .check()
        .unwrap();
    for runs in [
        m.fit_restarts_with(&two, 3, &seeds, &steps),
        m.fit_restarts_with(&small, 3, &seeds, &steps),
        other_seed.fit_restarts_with(&all, 3, &seeds, &steps),
        smo.fit_restarts_with(&all, 3, &seeds, &steps),
    ] {
        assert_eq!(runs.len(), seeds.len());
        for r in runs {
            assert!(matches!(r, Err(Error::InvalidInput { .. })), "{r:?}");
        }
    }
    assert!(m.fit_restarts_with(&all, 3, &[], &steps).is_empty());
    assert!(matches!(
        m.fit_restarts_with(&all, 99, &seeds, &steps)[1],
        Err(Error::InvalidParam { .. })
    ));
}

#[test]
fn same_labels_whatever_the_number_of_threads() {
    let ks = kernels();
    let data = KernelSet::new(&ks).unwrap();
    let p = scmk(1.0, 1e-5);
    let a = p.fit(&data, 3, 9).unwrap();
    let b = testing::with_threads(1, || p.fit(&data, 3, 9).unwrap());
    assert_eq!(a.labels, b.labels);
    assert_eq!(a.objective, b.objective);
    assert_eq!(a.kernel_weights, b.kernel_weights);
}

#[test]
fn every_bad_parameter_is_named() {
    let bad: Vec<(ScmkParams, &str)> = vec![
        (scmk(0.0, 1.0), "alpha"),
        (scmk(f64::NAN, 1.0), "alpha"),
        (scmk(1.0, -1.0), "beta"),
        (scmk(1.0, f64::INFINITY), "beta"),
        (scmk(1.0, 1.0).max_iter(0), "max_iter"),
        (scmk(1.0, 1.0).min_iter(20).max_iter(10), "min_iter"),
        (scmk(1.0, 1.0).tol(-1.0), "tol"),
        (scmk(1.0, 1.0).qp_tol(0.0), "qp_tol"),
        (scmk(1.0, 1.0).qp_max_iter(Some(0)), "qp_max_iter"),
        (scmk(1.0, 1.0).n_init(0), "n_init"),
        (scmk(1.0, 1.0).kmeans_max_iter(0), "kmeans_max_iter"),
    ];
    let ks = kernels();
    let data = KernelSet::new(&ks).unwrap();
    for (p, name) in bad {
        for e in [p.validate_params().err(), p.fit(&data, 3, 0).err()] {
            match e {
                Some(Error::InvalidParam { name: got, .. }) => assert_eq!(got, name),
                other => panic!("{name}: {other:?}"),
            }
        }
    }
    let eig = scmk(1.0, 1.0).eigen(mkc_linalg::EigenOptions::default().tol(0.0));
    assert!(matches!(
        eig.validate_params(),
        Err(Error::InvalidParam { .. })
    ));
    let scsk_bad = ScskParams::new().alpha(-1.0);
    assert!(matches!(
        scsk_bad.validate_params(),
        Err(Error::InvalidParam { name, .. }) if name == "alpha"
    ));
    assert!(ScmkParams::new().validate_params().is_ok());
    assert_eq!(ScmkParams::default(), ScmkParams::new());
}

#[test]
fn bad_data_gets_a_typed_error() {
    let ks = kernels();
    let data = KernelSet::new(&ks).unwrap();
    for p in [
        &scmk(1.0, 1e-5) as &dyn mkc_core::DynClusterer,
        &scsk(1.0, 1e-5),
    ] {
        for c in [0, 19] {
            assert!(matches!(
                p.fit_dyn(&data, c, 0),
                Err(Error::InvalidParam { name, .. }) if name == "n_clusters"
            ));
        }
        // Features only: both need kernels.
        let x = points(3, 6, 2.0, 3);
        let features = KernelSet::from_features(x.as_ref()).unwrap();
        assert!(matches!(
            p.fit_dyn(&features, 3, 0),
            Err(Error::InvalidInput { .. })
        ));
    }
    // A non-finite or non-symmetric kernel never reaches the methods.
    for (bad, want) in testing::spoiled_kernels(&ks[0]) {
        let e = KernelSet::from_refs(vec![bad.as_ref()]).unwrap_err();
        assert_eq!(testing::variant(&e), want, "{e}");
    }
    // A kernel that is clearly not PSD: eq. (20) gives a negative cost.
    let neg = [Mat::from_fn(18, 18, |i, j| if i == j { -1.0 } else { 0.0 })];
    let data = KernelSet::new(&neg).unwrap();
    assert!(matches!(
        scmk(1.0, 1e-5).fit(&data, 3, 0),
        Err(Error::InvalidInput { .. })
    ));
}
