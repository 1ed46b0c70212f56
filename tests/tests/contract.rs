//! The one method API, checked for every registered method: each method of the workspace
//! (paper method or baseline) is built from its default parameters by its registry adapter
//! and fitted through `mkc_core::DynClusterer` on one small kernel set, and the result must
//! satisfy the invariants the contract promises.

use faer::Mat;
use mkc_core::{DynClusterer, Error, KernelSet};
use mkc_experiments::methods::{self, Method};
use mkc_experiments::params::ParamSet;
use std::collections::BTreeMap;

const N: usize = 40;

/// Two well separated groups of 20 points in 3 dimensions (deterministic noise, every
/// coordinate positive so that every kernel is a valid non-negative affinity too), the true
/// classes, and three kernels on them: linear, Gaussian σ = 1 and σ = 3.
fn data() -> (Mat<f64>, Vec<usize>, Vec<Mat<f64>>) {
    let noise = |i: usize, j: usize| ((i * 7919 + j * 104_729) % 1000) as f64 / 1000.0 - 0.5;
    let truth: Vec<usize> = (0..N).map(|i| usize::from(i % 2 == 1)).collect();
    let x = Mat::from_fn(N, 3, |i, j| 1.0 + 6.0 * truth[i] as f64 + noise(i, j));
    let d2 = |i: usize, j: usize| (0..3).map(|t| (x[(i, t)] - x[(j, t)]).powi(2)).sum::<f64>();
    let linear = Mat::from_fn(N, N, |i, j| {
        (0..3).map(|t| x[(i, t)] * x[(j, t)]).sum::<f64>()
    });
    let gauss = |s: f64| Mat::from_fn(N, N, |i, j| (-d2(i, j) / (2.0 * s * s)).exp());
    (x.clone(), truth, vec![linear, gauss(1.0), gauss(3.0)])
}

/// The kernels with the features.
fn full_set<'a>(x: &'a Mat<f64>, kernels: &'a [Mat<f64>]) -> KernelSet<'a> {
    KernelSet::new(kernels)
        .unwrap()
        .with_features(x.as_ref())
        .unwrap()
}

fn build(m: &dyn Method) -> Box<dyn DynClusterer> {
    let p = ParamSet::from_specs(&m.params(), &BTreeMap::new())
        .unwrap_or_else(|e| panic!("{}: default parameters: {e}", m.name()));
    let c = m
        .build(&p)
        .unwrap_or_else(|e| panic!("{}: build: {e}", m.name()));
    c.validate_params_dyn()
        .unwrap_or_else(|e| panic!("{}: default parameters rejected: {e}", m.name()));
    c
}

fn accuracy(truth: &[usize], pred: &[usize]) -> f64 {
    mkc_metrics::accuracy(truth, pred).unwrap()
}

#[test]
fn every_method_fits_through_the_contract_with_its_invariants() {
    let (x, truth, kernels) = data();
    let set = full_set(&x, &kernels);
    let mut report = Vec::new();
    for m in methods::all() {
        let c = build(m);
        let fit = c
            .fit_dyn(&set, 2, 7)
            .unwrap_or_else(|e| panic!("{}: fit: {e}", m.name()));
        let name = m.name();
        assert_eq!(fit.labels.len(), N, "{name}: one label per sample");
        assert!(fit.labels.iter().all(|&l| l < 2), "{name}: labels in 0..2");
        assert_eq!(fit.n_clusters, 2, "{name}");
        if let Some(w) = &fit.kernel_weights {
            assert_eq!(
                w.values.len(),
                kernels.len(),
                "{name}: one weight per kernel"
            );
            assert!(
                w.violation() < 1e-6,
                "{name}: weights {:?} off their set {:?} by {}",
                w.values,
                w.constraint,
                w.violation()
            );
        }
        assert!(
            fit.objective.iter().all(|v| v.is_finite()),
            "{name}: objective trace {:?}",
            fit.objective
        );
        assert!(
            fit.diagnostics.iter().all(|(_, v)| !v.is_nan()),
            "{name}: diagnostics {:?}",
            fit.diagnostics
        );
        assert!(fit.timings.wall() > 0.0, "{name}: wall time measured");
        // The groups are far apart: every method must find them.
        let acc = accuracy(&truth, &fit.labels);
        assert!(
            acc >= 0.95,
            "{name}: accuracy {acc} on two separated groups"
        );
        // Same seed, same labels.
        let again = c.fit_dyn(&set, 2, 7).unwrap();
        assert_eq!(again.labels, fit.labels, "{name}: not deterministic");
        // Restarts in seed order equal single fits.
        let runs = c.fit_restarts_dyn(&set, 2, &[7, 8]);
        assert_eq!(runs.len(), 2, "{name}");
        assert_eq!(
            runs[0].as_ref().unwrap().labels,
            fit.labels,
            "{name}: restart 0"
        );
        let single8 = c.fit_dyn(&set, 2, 8).unwrap();
        assert_eq!(
            runs[1].as_ref().unwrap().labels,
            single8.labels,
            "{name}: restart 1"
        );
        report.push(format!(
            "{name}: acc {acc:.3}, {} iterations",
            fit.iterations
        ));
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn every_method_rejects_bad_cluster_counts_and_missing_inputs_with_typed_errors() {
    let (x, _, kernels) = data();
    let full = full_set(&x, &kernels);
    let kernels_only = KernelSet::new(&kernels).unwrap();
    let features_only = KernelSet::from_features(x.as_ref()).unwrap();
    for m in methods::all() {
        let c = build(m);
        let name = m.name();
        for k in [0, N + 1] {
            let e = c.fit_dyn(&full, k, 0).unwrap_err();
            assert!(
                matches!(&e, Error::InvalidParam { name, .. } if name == "n_clusters"),
                "{name}: k = {k}: {e:?}"
            );
        }
        // Three clusters: binary methods refuse by name, the others label into 0..3.
        match c.fit_dyn(&full, 3, 0) {
            Ok(fit) => assert!(fit.labels.iter().all(|&l| l < 3), "{name}"),
            Err(e) => assert!(
                matches!(&e, Error::InvalidParam { name, .. } if name == "n_clusters"),
                "{name}: k = 3: {e:?}"
            ),
        }
        // A method either works without features / without kernels or says what it needs.
        for (what, set) in [
            ("no features", &kernels_only),
            ("no kernels", &features_only),
        ] {
            if let Err(e) = c.fit_dyn(set, 2, 0) {
                assert!(
                    matches!(e, Error::InvalidInput { .. }),
                    "{name}: {what}: {e:?}"
                );
            }
        }
    }
}

#[test]
fn the_registry_names_every_method_once() {
    let names = methods::names();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "duplicate names in {names:?}");
    for n in &names {
        assert_eq!(methods::find(n).map(|m| m.name()), Some(*n));
    }
}
