//! Global kernel k-means (Tzortzis & Likas 2009): brute force on small sets, the stage trace,
//! the contract, determinism and typed errors.

mod common;

use common::*;
use faer::Mat;
use mkc_core::prelude::*;
use mkc_kmeans::{GlobalKernelKMeansParams, KernelKMeansParams};

/// The least within-cluster sum of squares over every partition of the rows of `x` into
/// `k` non-empty clusters (k^n label vectors).
fn brute_force_optimum(x: &Mat<f64>, k: usize) -> f64 {
    let n = x.nrows();
    let mut best = f64::INFINITY;
    let mut labels = vec![0usize; n];
    for code in 0..k.pow(n as u32) {
        let mut c = code;
        for l in labels.iter_mut() {
            *l = c % k;
            c /= k;
        }
        if (0..k).all(|q| labels.contains(&q)) {
            best = best.min(wcss(x, &labels, k));
        }
    }
    best
}

#[test]
fn exact_search_finds_the_brute_force_optimum_on_small_sets() {
    for (seed, k) in [(1, 2), (2, 2), (3, 3), (4, 3), (5, 3)] {
        let x = blobs(9, 2, k, 2.0, seed);
        let fit = GlobalKernelKMeansParams::new()
            .tol(0.0)
            .check()
            .unwrap()
            .fit_kernel(linear_kernel(&x).as_ref(), k)
            .unwrap();
        let best = brute_force_optimum(&x, k);
        let got = wcss(&x, &fit.labels, k);
        assert!((fit.objective - got).abs() <= 1e-9 * got.max(1.0));
        assert!(
            got <= best * (1.0 + 1e-9),
            "seed {seed}, k = {k}: global {got} vs optimum {best}"
        );
    }
}

#[test]
fn stage_trace_starts_at_the_total_scatter_and_never_increases() {
    let x = blobs(60, 3, 4, 3.0, 7);
    let k = linear_kernel(&x);
    for fast in [false, true] {
        let fit = GlobalKernelKMeansParams::new()
            .fast(fast)
            .tol(0.0)
            .check()
            .unwrap()
            .fit_kernel(k.as_ref(), 5)
            .unwrap();
        assert_eq!(fit.objective_trace.len(), 5);
        let total = wcss(&x, &[0; 60], 1);
        assert!((fit.objective_trace[0] - total).abs() <= 1e-9 * total);
        assert!(
            non_increasing(&fit.objective_trace),
            "{:?}",
            fit.objective_trace
        );
        assert_eq!(fit.objective, *fit.objective_trace.last().unwrap());
        assert!((0..5).all(|c| fit.labels.contains(&c)));
        if !fast {
            // Stage 1 is one run; every later stage tries all 60 points (none alone).
            assert_eq!(fit.kmeans_runs, 1 + 4 * 60);
        } else {
            assert_eq!(fit.kmeans_runs, 5);
        }
    }
}

#[test]
fn exact_is_no_worse_than_fast_and_both_find_separated_clusters() {
    let x = blobs(48, 2, 3, 1.0, 8);
    let k = linear_kernel(&x);
    let run = |fast: bool| {
        GlobalKernelKMeansParams::new()
            .fast(fast)
            .check()
            .unwrap()
            .fit_kernel(k.as_ref(), 3)
            .unwrap()
    };
    let (exact, fast) = (run(false), run(true));
    assert!(exact.objective <= fast.objective * (1.0 + 1e-12));
    // Blobs are i mod 3: each cluster found is one residue class.
    for fit in [&exact, &fast] {
        for i in 0..48 {
            assert_eq!(fit.labels[i], fit.labels[i % 3], "point {i}");
        }
    }
    // No worse than the best of 20 k-means++ restarts of kernel k-means.
    let kkm = kkm(KernelKMeansParams::new().n_init(20), &k, 3, 1);
    assert!(exact.objective <= kkm.objective * (1.0 + 1e-9));
}

#[test]
fn contract_fit_equals_the_engine_ignores_the_seed_and_copies_restarts() {
    let x = blobs(40, 2, 3, 2.0, 9);
    let kernels = vec![linear_kernel(&x), gaussian_kernel(&x, 3.0)];
    let set = KernelSet::new(&kernels).unwrap();
    let params = GlobalKernelKMeansParams::new();
    let engine = params
        .check()
        .unwrap()
        .fit_kernel(set.mean_kernel("test").unwrap().as_ref(), 3)
        .unwrap();
    let fit = params.fit(&set, 3, 1).unwrap();
    assert_eq!(Clusterer::name(&params), "global-kkm");
    assert_eq!(fit.labels, engine.labels);
    assert_eq!(fit.objective, engine.objective_trace);
    assert_eq!(fit.iterations, 3);
    assert_eq!(fit.diagnostics.kmeans_runs, engine.kmeans_runs);
    assert!(fit.kernel_weights.is_none());
    assert_eq!(params.fit(&set, 3, 99).unwrap().labels, fit.labels);
    let runs = params.fit_restarts(&set, 3, &[4, 5, 6]);
    assert_eq!(runs.len(), 3);
    for r in runs {
        let r = r.unwrap();
        assert_eq!(
            (r.labels, r.objective),
            (fit.labels.clone(), fit.objective.clone())
        );
        assert!(r.timings.wall() > 0.0);
    }
}

#[test]
fn same_result_for_any_number_of_threads() {
    let x = blobs(50, 3, 4, 4.0, 10);
    let k = linear_kernel(&x);
    let fit_with = |threads: usize| {
        with_threads(threads, || {
            GlobalKernelKMeansParams::new()
                .check()
                .unwrap()
                .fit_kernel(k.as_ref(), 4)
                .unwrap()
        })
    };
    assert_eq!(fit_with(1), fit_with(3));
}

#[test]
fn bad_parameters_and_data_are_typed_errors() {
    for (p, name) in [
        (GlobalKernelKMeansParams::new().max_iter(0), "max_iter"),
        (GlobalKernelKMeansParams::new().tol(-1.0), "tol"),
        (GlobalKernelKMeansParams::new().tol(f64::NAN), "tol"),
    ] {
        let e = p.validate_params().unwrap_err();
        assert!(
            matches!(&e, Error::InvalidParam { name: n, .. } if n == name),
            "{e}"
        );
    }
    let x = blobs(10, 2, 2, 1.0, 11);
    let kernels = vec![linear_kernel(&x)];
    let set = KernelSet::new(&kernels).unwrap();
    let params = GlobalKernelKMeansParams::new();
    for k in [0, 11] {
        let e = params.fit(&set, k, 0).unwrap_err();
        assert!(
            matches!(&e, Error::InvalidParam { name, .. } if name == "n_clusters"),
            "{e}"
        );
    }
    let features = KernelSet::from_features(x.as_ref()).unwrap();
    assert!(matches!(
        params.fit(&features, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    let checked = params.check().unwrap();
    let mut nan = kernels[0].clone();
    nan[(2, 3)] = f64::NAN;
    assert!(matches!(
        checked.fit_kernel(nan.as_ref(), 2),
        Err(Error::NonFinite { .. })
    ));
    let asym = Mat::from_fn(10, 10, |i, j| (i * 10 + j) as f64);
    assert!(matches!(
        checked.fit_kernel(asym.as_ref(), 2),
        Err(Error::NotSymmetric { .. })
    ));
}
