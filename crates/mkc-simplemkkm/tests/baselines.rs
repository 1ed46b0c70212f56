//! MKKM, MKKM-MiR and Avg-KKM, and the contract shared by the four methods.

mod common;

use common::gaussian_views;
use faer::{Mat, MatRef};
use mkc_core::{Error, ParamGuard};
use mkc_simplemkkm::prelude::*;

fn refs(ks: &[Mat<f64>]) -> Vec<MatRef<'_, f64>> {
    ks.iter().map(|m| m.as_ref()).collect()
}

/// The four methods with default parameters, as the registry holds them.
fn methods() -> Vec<Box<dyn DynClusterer>> {
    vec![
        Box::new(SimpleMkkmParams::new()),
        Box::new(MkkmParams::new()),
        Box::new(MkkmMirParams::new()),
        Box::new(AvgParams::new()),
    ]
}

#[test]
fn every_method_keeps_the_contract_and_restarts_share_the_optimisation() {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 1.0, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    let seeds = [3, 1, 4];
    for m in methods() {
        let name = m.name();
        let runs: Vec<_> = m
            .fit_restarts_dyn(&data, 3, &seeds)
            .into_iter()
            .map(|r| r.unwrap())
            .collect();
        for (fit, &seed) in runs.iter().zip(&seeds) {
            let single = m.fit_dyn(&data, 3, seed).unwrap();
            assert_eq!(fit.labels, single.labels, "{name}: restart = single fit");
            assert_eq!(fit.weights(), single.weights(), "{name}");
            assert_eq!(fit.objective, single.objective, "{name}");
            assert!(fit.labels.iter().all(|&l| l < 3), "{name}");
            let w = fit.kernel_weights.as_ref().unwrap();
            assert_eq!(w.constraint, WeightConstraint::Simplex, "{name}");
            assert!(w.violation() < 1e-9, "{name}: {w:?}");
            assert!(fit.objective.iter().all(|v| v.is_finite()), "{name}");
            assert!(fit.timings.wall() > 0.0, "{name}");
            assert!(fit.timings.get("kmeans") > 0.0, "{name}");
            let acc = mkc_metrics::accuracy(&truth, &fit.labels).unwrap();
            assert!(acc > 0.9, "{name}: {acc}");
        }
        // the weights and the objective do not depend on the seed
        assert!(runs.windows(2).all(|w| w[0].weights() == w[1].weights()));
    }
}

#[test]
fn every_method_rejects_bad_data_with_typed_errors() {
    let (ks, _) = gaussian_views(10, 2, &[0.5, 1.0]);
    let data = KernelSet::new(&ks).unwrap();
    let x = Mat::from_fn(10, 2, |i, j| (i + j) as f64);
    let features = KernelSet::from_features(x.as_ref()).unwrap();
    let zero = vec![Mat::<f64>::zeros(10, 10)];
    let zero = KernelSet::new(&zero).unwrap();
    for m in methods() {
        let name = m.name();
        for k in [0, 11] {
            match m.fit_dyn(&data, k, 0) {
                Err(Error::InvalidParam { name: p, .. }) => assert_eq!(p, "n_clusters"),
                other => panic!("{name}, k = {k}: {other:?}"),
            }
        }
        assert!(
            matches!(m.fit_dyn(&features, 2, 0), Err(Error::InvalidInput { .. })),
            "{name}"
        );
        assert!(
            matches!(m.fit_dyn(&zero, 2, 0), Err(Error::InvalidInput { .. })),
            "{name}"
        );
    }
}

#[test]
fn engines_validate_their_kernels() {
    let (ks, _) = gaussian_views(20, 2, &[0.5, 1.0]);
    let small = Mat::<f64>::identity(5, 5);
    let mut nan = ks[1].clone();
    nan[(1, 2)] = f64::NAN;
    nan[(2, 1)] = f64::NAN;
    let shape = [ks[0].as_ref(), small.as_ref()];
    let non_finite = [ks[0].as_ref(), nan.as_ref()];
    type Engine<'a> = Box<dyn Fn(&[MatRef<'_, f64>], usize) -> mkc_core::Result<()> + 'a>;
    let (mkkm, mir, avg) = (
        MkkmParams::new().check().unwrap(),
        MkkmMirParams::new().check().unwrap(),
        AvgParams::new().check().unwrap(),
    );
    let engines: Vec<(&str, Engine<'_>)> = vec![
        (
            "mkkm",
            Box::new(|ks, k| mkkm.fit_kernels(ks, k).map(|_| ())),
        ),
        (
            "mkkm-mir",
            Box::new(|ks, k| mir.fit_kernels(ks, k).map(|_| ())),
        ),
        ("avg", Box::new(|ks, k| avg.fit_kernels(ks, k).map(|_| ()))),
    ];
    for (name, fit) in &engines {
        assert!(matches!(fit(&shape, 2), Err(Error::Shape { .. })), "{name}");
        assert!(
            matches!(fit(&non_finite, 2), Err(Error::NonFinite { .. })),
            "{name}"
        );
        assert!(
            matches!(fit(&[], 2), Err(Error::InvalidInput { .. })),
            "{name}"
        );
        assert!(
            matches!(fit(&refs(&ks), 30), Err(Error::InvalidParam { .. })),
            "{name}"
        );
    }
}

#[test]
fn mkkm_objective_never_increases_and_weights_are_closed_form() {
    let (ks, _) = gaussian_views(80, 3, &[0.5, 2.0, 5.0]);
    let views = refs(&ks);
    let fit = MkkmParams::new()
        .check()
        .unwrap()
        .fit_kernels(&views, 3)
        .unwrap();
    let tr = &fit.objective_trace;
    for w in tr.windows(2) {
        assert!(w[1] <= w[0] * (1.0 + 1e-12), "{tr:?}");
    }
    assert!(fit.iterations <= 50 && fit.diagnostics.converged);
    assert_eq!(fit.objective, *tr.last().unwrap());
    // γ_p ∝ 1/(tr K_p − tr HᵀK_pH) at the returned H (after preprocessing, tr K_p = n).
    let pre = mkc_simplemkkm::Preprocessing::default()
        .apply(&views)
        .unwrap();
    let a = mkc_simplemkkm::gradient::alignments(&refs(&pre), fit.h.as_ref()).unwrap();
    let b: Vec<f64> = a.iter().map(|v| 80.0 - v).collect();
    let expect = mkc_simplemkkm::closed_form_weights(&b, &[80.0; 3]);
    for p in 0..3 {
        assert!(
            (expect[p] - fit.gamma[p]).abs() < 1e-9,
            "{expect:?} vs {:?}",
            fit.gamma
        );
    }
    // the contract reports the same weights and trace
    let c = MkkmParams::new()
        .fit(&KernelSet::new(&ks).unwrap(), 3, 0)
        .unwrap();
    assert_eq!(c.weights().unwrap(), fit.gamma.as_slice());
    assert_eq!(c.objective, fit.objective_trace);
    assert_eq!((c.iterations, c.converged), (fit.iterations, true));
}

#[test]
fn avg_kkm_is_simplemkkm_first_iterate_and_single_kernels() {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 1.0, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    let avg = AvgParams::new().fit(&data, 3, 5).unwrap();
    assert_eq!(avg.weights().unwrap(), [1.0 / 3.0; 3]);
    assert_eq!((avg.iterations, avg.objective.len()), (0, 1));
    let s = SimpleMkkmParams::new()
        .max_iter(1)
        .fit(&data, 3, 5)
        .unwrap();
    // K at γ = 1/m is the average kernel / m: same eigenvalues up to the factor 1/m.
    assert!((s.objective[0] * 3.0 - avg.objective[0]).abs() < 1e-9 * avg.objective[0]);
    // the engine's H gives the contract's labels
    let e = AvgParams::new()
        .check()
        .unwrap()
        .fit_kernels(&refs(&ks), 3)
        .unwrap();
    let labels =
        mkc_simplemkkm::labels_from_h_with(e.h.as_ref(), 3, &Default::default(), 5).unwrap();
    assert_eq!(avg.labels, labels);
    assert_eq!(avg.objective, [e.objective]);
    // one kernel alone: single-kernel (spectral) kernel k-means, weight 1
    let one = AvgParams::new()
        .fit(&data.select(&[0]).unwrap(), 3, 3)
        .unwrap();
    assert_eq!(one.weights().unwrap(), [1.0]);
    let acc = mkc_metrics::accuracy(&truth, &one.labels).unwrap();
    assert!(acc > 0.95, "{acc}");
}

#[test]
fn mkkm_mir_objective_never_increases_and_lambda_zero_is_mkkm() {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 2.0, 6.0]);
    let views = refs(&ks);
    let data = KernelSet::new(&ks).unwrap();
    let engine = |p: MkkmMirParams| p.check().unwrap().fit_kernels(&views, 3).unwrap();
    for lambda in [0.0, 1e-3, 1.0, 100.0] {
        let fit = MkkmMirParams::new()
            .lambda(lambda)
            .fit(&data, 3, 3)
            .unwrap();
        let tr = &fit.objective;
        // F(H_t, γ_{t−1}): H maximises, the QP minimises; the 1e-6 thresholding of the
        // weights may add a little
        for w in tr.windows(2) {
            assert!(w[1] <= w[0] * (1.0 + 1e-6), "λ = {lambda}: {tr:?}");
        }
        assert!(fit.kernel_weights.as_ref().unwrap().violation() < 1e-12);
        assert!(fit.converged && fit.diagnostics.converged);
        let acc = mkc_metrics::accuracy(&truth, &fit.labels).unwrap();
        assert!(acc > 0.8, "λ = {lambda}: {acc}");
    }
    // λ = 0: the QP is MKKM's eq. (2), γ_p ∝ 1/(tr K_p − tr HᵀK_pH)
    let mir = engine(MkkmMirParams::new().lambda(0.0).tol(1e-12).max_iter(60));
    let mkkm = MkkmParams::new()
        .tol(1e-12)
        .max_iter(60)
        .check()
        .unwrap()
        .fit_kernels(&views, 3)
        .unwrap();
    for (a, b) in mir.gamma.iter().zip(&mkkm.gamma) {
        assert!((a - b).abs() < 1e-5, "{:?} vs {:?}", mir.gamma, mkkm.gamma);
    }
    // a large λ spreads the weight over the least correlated kernels: the gradient of
    // γᵀMγ is equal on the support (KKT of the λ-dominated QP)
    let big = engine(MkkmMirParams::new().lambda(1e8));
    let mg: Vec<f64> = (0..3)
        .map(|p| (0..3).map(|q| big.m[(p, q)] * big.gamma[q]).sum())
        .collect();
    let support: Vec<f64> = mg
        .iter()
        .zip(&big.gamma)
        .filter(|(_, &g)| g > 0.0)
        .map(|(&v, _)| v)
        .collect();
    let (lo, hi) = support
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    assert!((hi - lo) / hi < 1e-4, "{mg:?} {:?}", big.gamma);
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    // n > 256 so that the subspace residuals run in several row blocks
    let (ks, _) = gaussian_views(300, 3, &[0.8, 2.5, 5.0]);
    let data = KernelSet::new(&ks).unwrap();
    let in_pool = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            methods()
                .iter()
                .map(|m| {
                    let runs = m.fit_restarts_dyn(&data, 3, &[5, 6]);
                    runs.into_iter()
                        .map(|r| {
                            let mut r = r.unwrap();
                            r.diagnostics.retain(|(n, _)| !n.contains("seconds"));
                            (r.labels, r.kernel_weights, r.objective, r.diagnostics)
                        })
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        })
    };
    assert_eq!(in_pool(1), in_pool(2));
}
