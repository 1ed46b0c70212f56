//! Small synthetic multi-kernel problems for the tests, and the contract checks every
//! method of the family passes (also used by `mkc-simplemkkm`'s tests).

#![allow(dead_code)]

use faer::{Mat, MatRef};
use mkc_core::prelude::*;
use mkc_core::Error;

/// Deterministic pseudo-random numbers in [−0.5, 0.5) (no dependency on rand).
pub fn noise(i: usize, j: usize, salt: usize) -> f64 {
    let mut z = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (j as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9)
        ^ (salt as u64).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    z = z.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z ^= z >> 32;
    (z % 1_000_003) as f64 / 1_000_003.0 - 0.5
}

/// `n` points in `k` clusters in 2-D; view `v` adds noise of size `spread[v]`.
/// Returns Gaussian kernels (width 1.5) of the views and the true labels.
pub fn gaussian_views(n: usize, k: usize, spread: &[f64]) -> (Vec<Mat<f64>>, Vec<usize>) {
    let labels: Vec<usize> = (0..n).map(|i| i % k).collect();
    let kernels = spread
        .iter()
        .enumerate()
        .map(|(v, &s)| {
            let pts: Vec<(f64, f64)> = (0..n)
                .map(|i| {
                    let a = labels[i] as f64 * std::f64::consts::TAU / k as f64;
                    (
                        3.0 * a.cos() + s * noise(i, 0, v),
                        3.0 * a.sin() + s * noise(i, 1, v),
                    )
                })
                .collect();
            Mat::from_fn(n, n, |i, j| {
                let d2 = (pts[i].0 - pts[j].0).powi(2) + (pts[i].1 - pts[j].1).powi(2);
                (-d2 / (2.0 * 1.5 * 1.5)).exp()
            })
        })
        .collect();
    (kernels, labels)
}

/// Borrowed views of owned kernels.
pub fn refs(ks: &[Mat<f64>]) -> Vec<MatRef<'_, f64>> {
    ks.iter().map(|m| m.as_ref()).collect()
}

/// Restarts equal single fits, labels are in range, the weights satisfy their
/// constraint and do not depend on the seed, the objective is finite, the timings have
/// a k-means phase, and the accuracy on well separated views exceeds `min_acc`.
pub fn check_contract(methods: &[Box<dyn DynClusterer>], min_acc: f64) {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 1.0, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    let seeds = [3, 1, 4];
    for m in methods {
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
            assert!(w.violation() < 1e-9, "{name}: {w:?}");
            assert!(fit.objective.iter().all(|v| v.is_finite()), "{name}");
            assert!(fit.timings.wall() > 0.0, "{name}");
            assert!(fit.timings.get("kmeans") > 0.0, "{name}");
            let acc = mkc_metrics::accuracy(&truth, &fit.labels).unwrap();
            assert!(acc > min_acc, "{name}: {acc}");
        }
        // the weights and the objective do not depend on the seed
        assert!(runs.windows(2).all(|w| w[0].weights() == w[1].weights()));
    }
}

/// Bad numbers of clusters, a set without kernels and a zero kernel are typed errors.
pub fn check_bad_data(methods: &[Box<dyn DynClusterer>]) {
    let (ks, _) = gaussian_views(10, 2, &[0.5, 1.0]);
    let data = KernelSet::new(&ks).unwrap();
    let x = Mat::from_fn(10, 2, |i, j| (i + j) as f64);
    let features = KernelSet::from_features(x.as_ref()).unwrap();
    let zero = vec![Mat::<f64>::zeros(10, 10)];
    let zero = KernelSet::new(&zero).unwrap();
    for m in methods {
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

/// An engine (`fit_kernels`) with its result dropped.
pub type Engine<'a> = dyn Fn(&[MatRef<'_, f64>], usize) -> mkc_core::Result<()> + 'a;

/// The engine's kernel validation: wrong shapes, non-finite entries, no kernels and too
/// many clusters are typed errors.
pub fn check_engine_validation(name: &str, fit: &Engine<'_>) {
    let (ks, _) = gaussian_views(20, 2, &[0.5, 1.0]);
    let small = Mat::<f64>::identity(5, 5);
    let mut nan = ks[1].clone();
    nan[(1, 2)] = f64::NAN;
    nan[(2, 1)] = f64::NAN;
    let shape = [ks[0].as_ref(), small.as_ref()];
    let non_finite = [ks[0].as_ref(), nan.as_ref()];
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

/// Labels, weights, objective and diagnostics (times excluded) of two restarts of every
/// method are the same in a pool of 1 and of 2 threads (n = 300: several row blocks).
pub fn check_thread_independence(methods: &[Box<dyn DynClusterer>]) {
    let (ks, _) = gaussian_views(300, 3, &[0.8, 2.5, 5.0]);
    let data = KernelSet::new(&ks).unwrap();
    let in_pool = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            methods
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

/// One test, `contract_errors_engines_and_threads`, running every check of this module
/// on the methods listed (`"name" => params`, each with its engine `fit_kernels`):
/// [`check_contract`] at accuracy `min_acc`, [`check_bad_data`],
/// [`check_thread_independence`] and [`check_engine_validation`].
#[allow(unused_macros)] // not every test file has one
macro_rules! contract_test {
    ($min_acc:expr; $($name:literal => $params:expr),+ $(,)?) => {
        #[test]
        fn contract_errors_engines_and_threads() {
            let methods: Vec<Box<dyn mkc_core::DynClusterer>> = vec![$(Box::new($params)),+];
            $crate::common::check_contract(&methods, $min_acc);
            $crate::common::check_bad_data(&methods);
            $crate::common::check_thread_independence(&methods);
            $(
                let c = mkc_core::ParamGuard::check(&$params).unwrap();
                $crate::common::check_engine_validation($name, &|ks, k| {
                    c.fit_kernels(ks, k).map(|_| ())
                });
            )+
        }
    };
}
#[allow(unused_imports)]
pub(crate) use contract_test;
