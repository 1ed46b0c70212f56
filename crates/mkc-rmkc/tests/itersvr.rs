//! iterSVR: the relabelling rule (threshold structure, balance), fixed points, blob
//! recovery, determinism, and typed errors.

mod common;

use common::{
    assert_fit_from_checks_labels, assert_rejected, balance, blobs, clusters, gaussians,
    noisy_labels,
};
use faer::Mat;
use mkc_core::{Clusterer, DynClusterer, Error, KernelSet, ParamGuard};
use mkc_rmkc::itersvr::relabel;
use mkc_rmkc::IterSvrParams;
use rand::Rng as _;

#[test]
fn relabel_is_a_balanced_threshold_of_f() {
    let mut rng = mkc_core::seed::rng(3);
    for trial in 0..200 {
        let n = 5 + trial % 20;
        let shift: f64 = rng.random_range(-1.5..1.5);
        let f: Vec<f64> = (0..n)
            .map(|_| rng.random::<f64>() * 2.0 - 1.0 + shift)
            .collect();
        for (lo, hi) in [
            (1, n - 1),
            (n / 2, n / 2 + n % 2),
            (2.min(n - 1), 3.min(n - 1)),
        ] {
            let y = relabel(&f, lo, hi).unwrap();
            let n_plus = y.iter().filter(|&&t| t > 0.0).count();
            assert!(
                (lo..=hi).contains(&n_plus),
                "n₊ = {n_plus} not in [{lo}, {hi}]"
            );
            // Threshold structure: every +1 has f at least every −1's f.
            let min_pos = (0..n)
                .filter(|&i| y[i] > 0.0)
                .map(|i| f[i])
                .fold(f64::INFINITY, f64::min);
            let max_neg = (0..n)
                .filter(|&i| y[i] < 0.0)
                .map(|i| f[i])
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(min_pos >= max_neg);
            // sign(f) is kept whenever it is admissible; otherwise n₊ is the nearest bound.
            let sign_plus = f.iter().filter(|&&v| v >= 0.0).count();
            if (lo..=hi).contains(&sign_plus) {
                assert!(y.iter().zip(&f).all(|(t, v)| (*t > 0.0) == (*v >= 0.0)));
            } else {
                assert_eq!(n_plus, sign_plus.clamp(lo, hi));
            }
        }
    }
}

#[test]
fn recovers_blobs_and_stops_at_a_fixed_point() {
    let n = 40;
    let x = blobs(n, 2.5, 21);
    let k = gaussians(&x, &[1.5]);
    let data = KernelSet::new(&k).unwrap();
    let it = IterSvrParams::new().balance(0.1).check().unwrap();
    // From a corrupted truth: the flips are undone.
    let start = clusters(&noisy_labels(n, &[0, 1, 25, 30]));
    let fit = it.fit_from(&data, &start).unwrap();
    let truth = clusters(&noisy_labels(n, &[]));
    assert_eq!(
        fit.labels, truth,
        "changes per iteration {:?}",
        fit.diagnostics.changes
    );
    assert!(fit.converged);
    assert_eq!(fit.diagnostics.initial_labels, start);
    assert_eq!(fit.diagnostics.relabelled(), 4);
    assert_eq!(fit.objective.len(), fit.iterations);
    assert!(fit.kernel_weights.is_none());
    // A fixed point: one more SVR on the final labels relabels nothing.
    let again = it.fit_from(&data, &fit.labels).unwrap();
    assert_eq!(again.labels, fit.labels);
    assert_eq!(again.diagnostics.changes, vec![0]);
    // From kernel k-means, deterministic for a seed, restarts equal to single fits.
    let a = it.fit(&data, 2, 5).unwrap();
    let b = IterSvrParams::new().balance(0.1).fit(&data, 2, 5).unwrap();
    assert_eq!(a.labels, b.labels);
    let agree = a.labels.iter().zip(&truth).filter(|(p, q)| p == q).count();
    assert!(agree == n || agree == 0, "agreement {agree}/{n}");
    let runs = it.fit_restarts(&data, 2, &[9, 5]);
    assert_eq!(runs[1].as_ref().unwrap().labels, a.labels);
    assert_eq!(runs[1].as_ref().unwrap().objective, a.objective);
    let phases: Vec<&str> = a.timings.phases().iter().map(|p| p.0).collect();
    assert_eq!(phases, ["kmeans", "svm"]);
}

/// The contract's fit is the engine from the kernel k-means start: `fit_from` with
/// those labels gives the same run; given several kernels, iterSVR runs on their mean.
#[test]
fn contract_fit_equals_the_engine_from_kernel_kmeans() {
    let n = 36;
    let x = blobs(n, 1.0, 8);
    let ks = gaussians(&x, &[0.5, 2.0]);
    let it = IterSvrParams::new().balance(0.3).check().unwrap();
    let mean = vec![Mat::from_fn(n, n, |i, j| {
        0.5 * (ks[0][(i, j)] + ks[1][(i, j)])
    })];
    let (both, one) = (KernelSet::new(&ks).unwrap(), KernelSet::new(&mean).unwrap());
    for seed in [0, 3] {
        let fit = it.fit(&both, 2, seed).unwrap();
        let km = mkc_kmeans::KernelKMeansParams::new()
            .check()
            .unwrap()
            .fit_kernel(mean[0].as_ref(), 2, seed)
            .unwrap();
        assert_eq!(fit.diagnostics.initial_labels, km.labels);
        let from = it.fit_from(&one, &km.labels).unwrap();
        assert_eq!(from.labels, fit.labels, "seed {seed}");
        assert_eq!(from.objective, fit.objective);
        assert_eq!(from.diagnostics.changes, fit.diagnostics.changes);
        assert_eq!(
            (from.iterations, from.converged),
            (fit.iterations, fit.converged)
        );
        // Through the object-safe form, as the registries hold it.
        let dynm: &dyn DynClusterer = &it;
        let erased = dynm.fit_dyn(&both, 2, seed).unwrap();
        assert_eq!(erased.labels, fit.labels);
        assert_eq!(
            erased.diagnostics,
            vec![(
                "relabelled".to_string(),
                fit.diagnostics.relabelled() as f64
            )]
        );
    }
}

#[test]
fn balance_bound_holds_after_every_run() {
    let n = 31;
    let x = blobs(n, 0.3, 4);
    for sigma in [0.3, 1.0, 5.0] {
        let k = gaussians(&x, &[sigma]);
        let data = KernelSet::new(&k).unwrap();
        for frac in [0.03, 0.1, 0.3] {
            let it = IterSvrParams::new().c(10.0).balance(frac).check().unwrap();
            // A very unbalanced start: 25 vs 6.
            let mut y0 = vec![1; n];
            y0[..6].iter_mut().for_each(|t| *t = 0);
            let fit = it.fit_from(&data, &y0).unwrap();
            let s = balance(&fit.labels);
            // n odd: ℓ = frac·N, rounded up to the nearest admissible |Σy| (an odd number).
            let ell = (frac * n as f64).max(1.0);
            assert!(s.abs() <= ell + 1e-9, "σ = {sigma}, ℓ = {ell}: Σy = {s}");
        }
    }
}

#[test]
fn every_bad_parameter_is_named() {
    let x = blobs(10, 1.0, 1);
    let k = gaussians(&x, &[1.0]);
    let data = KernelSet::new(&k).unwrap();
    let cases: Vec<(IterSvrParams, &str)> = vec![
        (IterSvrParams::new().c(0.0), "C"),
        (IterSvrParams::new().c(f64::NAN), "C"),
        (IterSvrParams::new().epsilon(-0.1), "epsilon"),
        (IterSvrParams::new().balance(-1.0), "balance"),
        (IterSvrParams::new().balance(f64::INFINITY), "balance"),
        (IterSvrParams::new().max_iter(0), "max_iter"),
    ];
    assert_rejected(cases, &data);
    assert_eq!(IterSvrParams::default(), IterSvrParams::new());
}

#[test]
fn bad_inputs_are_typed_errors() {
    assert!(matches!(
        relabel(&[0.5, -0.5], 2, 1),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        relabel(&[0.5, -0.5], 1, 3),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        relabel(&[0.5, f64::NAN], 1, 1),
        Err(Error::NonFinite { .. })
    ));

    let it = IterSvrParams::new().check().unwrap();
    let x = blobs(10, 1.0, 1);
    let k = gaussians(&x, &[1.0]);
    let data = KernelSet::new(&k).unwrap();
    assert_fit_from_checks_labels(&it, &data, &clusters(&noisy_labels(10, &[])));
    for n_clusters in [0, 1, 3, 11] {
        assert!(matches!(
            it.fit(&data, n_clusters, 0),
            Err(Error::InvalidParam { name, .. }) if name == "n_clusters"
        ));
    }
    let xf = Mat::from_fn(10, 2, |i, j| (i + j) as f64);
    let features = KernelSet::from_features(xf.as_ref()).unwrap();
    // Features only: the kernel path has no kernel (the default runs the linear path,
    // tests/itersvr_linear.rs).
    let kernel_path = IterSvrParams::new()
        .path(mkc_rmkc::itersvr::IterSvrPath::Kernel)
        .check()
        .unwrap();
    assert!(matches!(
        kernel_path.fit(&features, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    let one = vec![Mat::from_fn(1, 1, |_, _| 1.0)];
    assert!(it.fit(&KernelSet::new(&one).unwrap(), 2, 0).is_err());
    // ℓ = 0 with N odd is raised to 1: the clusters differ by one point.
    let odd = gaussians(&blobs(9, 1.0, 2), &[1.0]);
    let odd = KernelSet::new(&odd).unwrap();
    let tight = IterSvrParams::new().balance(0.0).check().unwrap();
    let fit = tight.fit(&odd, 2, 0).unwrap();
    assert_eq!(balance(&fit.labels).abs(), 1.0);
    // Two points: ℓ = 0 leaves one point per cluster.
    let two = gaussians(&blobs(2, 1.0, 2), &[1.0]);
    let two = KernelSet::new(&two).unwrap();
    assert_eq!(balance(&tight.fit_from(&two, &[1, 0]).unwrap().labels), 0.0);
}
