//! iterSVR's linear feature-space path: it runs the kernel path's algorithm on the linear
//! kernel without forming it (same labels, same outputs to the solvers' tolerance), the
//! path choice (a kernel goes to feature space only when it is the features' `XXᵀ`),
//! determinism, restarts, the balance bound, and typed errors.

mod common;

use common::{assert_fit_from_checks_labels, balance, blobs, clusters, noisy_labels};
use faer::{Mat, MatRef};
use mkc_core::{Clusterer, Diagnostics, Error, KernelSet, ParamGuard};
use mkc_rmkc::itersvr::IterSvrPath;
use mkc_rmkc::IterSvrParams;

/// n x 3 samples: two blobs in the first two coordinates, a third correlated one, all
/// shifted away from the origin (the linear path centres; the kernel path must not care).
fn features(n: usize, sep: f64, seed: u64) -> Mat<f64> {
    let x = blobs(n, sep, seed);
    Mat::from_fn(n, 3, |i, j| match j {
        0 => x[i][0] + 3.0,
        1 => x[i][1] - 1.0,
        _ => 0.5 * x[i][0] - 0.3 * x[i][1] + 2.0,
    })
}

fn linear_kernel(x: MatRef<'_, f64>) -> Vec<Mat<f64>> {
    let k = x * x.transpose();
    vec![Mat::from_fn(x.nrows(), x.nrows(), |i, j| {
        0.5 * (k[(i, j)] + k[(j, i)])
    })]
}

fn tight(c: f64) -> IterSvrParams {
    IterSvrParams::new()
        .c(c)
        .balance(0.1)
        .svm_tol(1e-9)
        .max_epochs(200_000)
}

/// From the same labels, the feature path and the kernel path on `K = XXᵀ` solve the
/// same SVRs: the same relabellings at every iteration, the same outputs and objectives
/// to the solvers' tolerance.
#[test]
fn feature_path_equals_kernel_path_on_the_linear_kernel() {
    for (seed, c, sep) in [(1u64, 1.0, 1.0), (2, 10.0, 0.6), (3, 0.1, 1.5)] {
        let n = 40;
        let x = features(n, sep, seed);
        let ks = linear_kernel(x.as_ref());
        let by_kernel = KernelSet::new(&ks).unwrap();
        let by_features = KernelSet::from_features(x.as_ref()).unwrap();
        let it = tight(c).check().unwrap();
        let start = clusters(&noisy_labels(n, &[0, 3, 21, 22, 30, 35]));
        let kf = it.fit_from(&by_kernel, &start).unwrap();
        let lf = it.fit_from(&by_features, &start).unwrap();
        assert!(!kf.diagnostics.linear_path && lf.diagnostics.linear_path);
        assert!(lf.diagnostics.svr_converged);
        assert_eq!(lf.labels, kf.labels, "seed {seed} C {c}");
        assert_eq!(lf.diagnostics.changes, kf.diagnostics.changes);
        assert_eq!((lf.iterations, lf.converged), (kf.iterations, kf.converged));
        for (a, b) in lf.objective.iter().zip(&kf.objective) {
            assert!(
                (a - b).abs() <= 1e-6 * (1.0 + b.abs()),
                "objective {a} vs {b}"
            );
        }
        for (a, b) in lf.diagnostics.outputs.iter().zip(&kf.diagnostics.outputs) {
            assert!((a - b).abs() <= 1e-5, "output {a} vs {b}");
        }
    }
}

/// Through `fit`: k-means on the features starts where kernel k-means on `XXᵀ` does
/// (the same seeding draws and Lloyd steps on separated blobs), and the runs agree.
#[test]
fn fit_starts_from_kmeans_as_the_kernel_path_does() {
    let n = 60;
    let x = features(n, 2.0, 7);
    let ks = linear_kernel(x.as_ref());
    let by_kernel = KernelSet::new(&ks).unwrap();
    let by_features = KernelSet::from_features(x.as_ref()).unwrap();
    let it = tight(1.0).check().unwrap();
    for seed in [0u64, 4, 9] {
        let kf = it.fit(&by_kernel, 2, seed).unwrap();
        let lf = it.fit(&by_features, 2, seed).unwrap();
        assert_eq!(
            lf.diagnostics.initial_labels, kf.diagnostics.initial_labels,
            "seed {seed}"
        );
        assert_eq!(lf.labels, kf.labels, "seed {seed}");
        let phases: Vec<&str> = lf.timings.phases().iter().map(|p| p.0).collect();
        assert_eq!(phases, ["features", "kmeans", "svm"]);
    }
}

/// `Auto` reads a kernel that is not named as the features' linear kernel (features or
/// not); `Linear` needs features, `Kernel` needs a kernel.
#[test]
fn the_path_choice() {
    let n = 30;
    let x = features(n, 1.0, 3);
    let ks = linear_kernel(x.as_ref());
    let both = KernelSet::new(&ks)
        .unwrap()
        .with_features(x.as_ref())
        .unwrap();
    let kernel_only = KernelSet::new(&ks).unwrap();
    let features_only = KernelSet::from_features(x.as_ref()).unwrap();
    let auto = IterSvrParams::new().check().unwrap();
    let a = auto.fit(&both, 2, 1).unwrap();
    let k = IterSvrParams::new()
        .path(IterSvrPath::Kernel)
        .fit(&kernel_only, 2, 1)
        .unwrap();
    assert!(!a.diagnostics.linear_path);
    assert_eq!(a.labels, k.labels);
    assert_eq!(a.objective, k.objective);
    assert_eq!(a.diagnostics.entries(), k.diagnostics.entries());
    assert_eq!(k.diagnostics.entries().len(), 1);
    let forced = IterSvrParams::new()
        .path(IterSvrPath::Linear)
        .fit(&both, 2, 1)
        .unwrap();
    let l = auto.fit(&features_only, 2, 1).unwrap();
    assert!(forced.diagnostics.linear_path && l.diagnostics.linear_path);
    assert_eq!(forced.labels, l.labels);
    let names: Vec<String> = l.diagnostics.entries().into_iter().map(|e| e.0).collect();
    assert_eq!(
        names,
        ["relabelled", "linear_path", "svr_converged", "svr_epochs"]
    );
    assert!(l.diagnostics.svr_epochs > 0);
    for e in [
        IterSvrParams::new()
            .path(IterSvrPath::Linear)
            .fit(&kernel_only, 2, 1)
            .unwrap_err(),
        IterSvrParams::new()
            .path(IterSvrPath::Kernel)
            .fit(&features_only, 2, 1)
            .unwrap_err(),
    ] {
        assert!(matches!(e, Error::InvalidInput { .. }), "{e:?}");
    }
}

/// `Auto` with the features and their linear kernel named `linear`: kernel k-means on the
/// kernel starts the run (the kernel path's start for the seed), the SVRs run in feature
/// space (the same run as the feature path from those labels). The same kernel scaled
/// by 2, or named otherwise, stays on the kernel path, as does every kernel under
/// `KernelFirst`.
#[test]
fn auto_runs_the_features_linear_kernel_in_feature_space() {
    let n = 40;
    let x = features(n, 0.8, 5);
    let ks = linear_kernel(x.as_ref());
    fn named<'a>(ks: &'a [Mat<f64>], x: &'a Mat<f64>, name: &str) -> KernelSet<'a> {
        KernelSet::new(ks)
            .unwrap()
            .with_names(vec![name.to_string()])
            .unwrap()
            .with_features(x.as_ref())
            .unwrap()
    }
    let both = named(&ks, &x, "linear");
    let features_only = KernelSet::from_features(x.as_ref()).unwrap();
    let auto = tight(1.0).check().unwrap();
    let forced_kernel = tight(1.0).path(IterSvrPath::Kernel).check().unwrap();
    for seed in [0u64, 6] {
        let a = auto.fit(&both, 2, seed).unwrap();
        let k = forced_kernel.fit(&both, 2, seed).unwrap();
        assert!(a.diagnostics.linear_path && !k.diagnostics.linear_path);
        assert_eq!(a.diagnostics.initial_labels, k.diagnostics.initial_labels);
        let l = auto
            .fit_from(&features_only, &a.diagnostics.initial_labels)
            .unwrap();
        assert_eq!((&a.labels, &a.objective), (&l.labels, &l.objective));
        let phases: Vec<&str> = a.timings.phases().iter().map(|p| p.0).collect();
        assert_eq!(phases, ["kmeans", "features", "svm"]);
    }
    // `KernelFirst` (Auto's former rule) keeps the kernel on the kernel path.
    let first = tight(1.0).path(IterSvrPath::KernelFirst).check().unwrap();
    let (f, k) = (
        first.fit(&both, 2, 6).unwrap(),
        forced_kernel.fit(&both, 2, 6).unwrap(),
    );
    assert!(!f.diagnostics.linear_path);
    assert_eq!((&f.labels, &f.objective), (&k.labels, &k.objective));
    assert!(
        first
            .fit(&features_only, 2, 6)
            .unwrap()
            .diagnostics
            .linear_path
    );
    let doubled = vec![Mat::from_fn(n, n, |i, j| 2.0 * ks[0][(i, j)])];
    for set in [named(&doubled, &x, "linear"), named(&ks, &x, "gaussian")] {
        assert!(!auto.fit(&set, 2, 0).unwrap().diagnostics.linear_path);
    }
}

#[test]
fn deterministic_restarts_and_the_balance_bound() {
    let n = 51;
    let x = features(n, 0.4, 11);
    let data = KernelSet::from_features(x.as_ref()).unwrap();
    for frac in [0.03, 0.3] {
        let it = IterSvrParams::new().c(5.0).balance(frac).check().unwrap();
        let a = it.fit(&data, 2, 3).unwrap();
        let b = it.fit(&data, 2, 3).unwrap();
        assert_eq!(a.labels, b.labels);
        assert_eq!(a.objective, b.objective);
        assert_eq!(a.diagnostics.outputs, b.diagnostics.outputs);
        let runs = it.fit_restarts(&data, 2, &[8, 3]);
        let r = runs[1].as_ref().unwrap();
        assert_eq!((&r.labels, &r.objective), (&a.labels, &a.objective));
        let ell = (frac * n as f64).max(1.0);
        assert!(balance(&a.labels).abs() <= ell + 1e-9);
        // Unbalanced start: the first relabelling already meets the bound.
        let mut y0 = vec![1; n];
        y0[..5].iter_mut().for_each(|t| *t = 0);
        let f = it.fit_from(&data, &y0).unwrap();
        assert!(balance(&f.labels).abs() <= ell + 1e-9);
    }
}

#[test]
fn bad_input_gives_typed_errors() {
    let e = IterSvrParams::new().max_epochs(0).check().unwrap_err();
    assert!(
        matches!(&e, Error::InvalidParam { name, .. } if name == "max_epochs"),
        "{e:?}"
    );
    let e = IterSvrParams::new().svm_tol(0.0).check().unwrap_err();
    assert!(matches!(e, Error::InvalidParam { .. }), "{e:?}");
    let x = features(20, 1.0, 2);
    let data = KernelSet::from_features(x.as_ref()).unwrap();
    let it = IterSvrParams::new().check().unwrap();
    assert!(matches!(
        it.fit(&data, 3, 0),
        Err(Error::InvalidParam { .. })
    ));
    assert_fit_from_checks_labels(&it, &data, &clusters(&noisy_labels(20, &[])));
    // Every sample equal: the features carry nothing, k-means finds one cluster.
    let flat = Mat::from_fn(20, 3, |_, _| 1.0);
    let flat_set = KernelSet::from_features(flat.as_ref()).unwrap();
    assert!(it.fit(&flat_set, 2, 0).is_err());
}

/// The start computed once (`IterSvr::start`, what the experiments runner shares across a
/// C grid) gives every C the fit that computes its own, on all three inputs: a Gaussian
/// kernel (kernel path), the features' linear kernel (feature-space SVRs from kernel
/// k-means) and the features alone (k-means start); bad starts are typed errors.
#[test]
fn a_shared_start_gives_each_c_its_own_fit() {
    let x = features(60, 1.5, 21);
    let lin = linear_kernel(x.as_ref());
    let gauss = vec![Mat::from_fn(60, 60, |i, j| {
        let d2: f64 = (0..3).map(|t| (x[(i, t)] - x[(j, t)]).powi(2)).sum();
        (-d2 / 4.0).exp()
    })];
    let sets = [
        ("gaussian", KernelSet::new(&gauss).unwrap()),
        (
            "linear kernel",
            KernelSet::new(&lin)
                .unwrap()
                .with_names(vec!["linear".into()])
                .unwrap()
                .with_features(x.as_ref())
                .unwrap(),
        ),
        ("features", KernelSet::from_features(x.as_ref()).unwrap()),
    ];
    for (what, data) in &sets {
        for seed in [3, 4] {
            let start = IterSvrParams::new()
                .check()
                .unwrap()
                .start(data, 2, seed)
                .unwrap();
            for c in [0.1, 10.0] {
                let p = IterSvrParams::new().c(c).balance(0.3).check().unwrap();
                let own = p.fit(data, 2, seed).unwrap();
                let shared = p.fit_with_start(data, 2, seed, &start).unwrap();
                let at = format!("{what}, seed {seed}, C = {c}");
                assert_eq!(own.diagnostics.initial_labels, start, "{at}");
                assert_eq!(own.diagnostics.linear_path, *what != "gaussian", "{at}");
                assert_eq!(own.labels, shared.labels, "{at}");
                assert_eq!(own.objective, shared.objective, "{at}");
                assert_eq!(own.iterations, shared.iterations, "{at}");
                assert_eq!(own.diagnostics.outputs, shared.diagnostics.outputs, "{at}");
                assert_eq!(
                    own.diagnostics.entries(),
                    shared.diagnostics.entries(),
                    "{at}"
                );
            }
        }
    }
    let p = IterSvrParams::new().check().unwrap();
    let data = &sets[0].1;
    assert!(matches!(
        p.fit_with_start(data, 2, 0, &[0, 1]),
        Err(Error::Shape { .. })
    ));
    let mut bad = vec![0; 60];
    bad[7] = 2;
    assert!(matches!(
        p.fit_with_start(data, 2, 0, &bad),
        Err(Error::InvalidInput { .. })
    ));
    // A one-cluster start fails as the fit's own would.
    assert!(p.fit_with_start(data, 2, 0, &[1; 60]).is_err());
    assert!(p.start(data, 3, 0).is_err());
}

/// `fit_with_starts` gives every seed the fit `fit_with_start` gives it, bit for bit, on
/// the kernel path (where equal starts share one fit: the copies' wall times are equal
/// shares, so they add up to about one fit) and on the linear path (every seed fits);
/// invalid starts get their own errors, and a starts list of the wrong length is a shape
/// error for every seed.
#[test]
fn fits_from_several_starts_equal_the_fits_one_by_one() {
    let x = features(60, 1.2, 23);
    let gauss = vec![Mat::from_fn(60, 60, |i, j| {
        let d2: f64 = (0..3).map(|t| (x[(i, t)] - x[(j, t)]).powi(2)).sum();
        (-d2 / 4.0).exp()
    })];
    let kernel = KernelSet::new(&gauss).unwrap();
    let feats = KernelSet::from_features(x.as_ref()).unwrap();
    let p = IterSvrParams::new().c(10.0).balance(0.3).check().unwrap();
    let seeds = [5u64, 6, 7, 8, 9];
    for (what, data) in [("gaussian", &kernel), ("features", &feats)] {
        let own_start = |s: u64| p.start(data, 2, s).unwrap();
        // Seeds 6 and 8 repeat the start of seed 5, seed 7 starts from it with ten labels
        // flipped, seed 9 from an invalid start.
        let mut other = own_start(5);
        other[..10].iter_mut().for_each(|l| *l = 1 - *l);
        let mut bad = own_start(9);
        bad[3] = 2;
        let starts = vec![own_start(5), own_start(5), other, own_start(5), bad];
        let all = p.fit_with_starts(data, 2, &seeds, &starts);
        assert_eq!(all.len(), seeds.len());
        let mut wall = 0.0;
        for (r, (&seed, start)) in seeds.iter().zip(&starts).enumerate() {
            let at = format!("{what}, seed {seed}");
            let one = p.fit_with_start(data, 2, seed, start);
            match (&all[r], one) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.labels, b.labels, "{at}");
                    assert_eq!(a.objective, b.objective, "{at}");
                    assert_eq!(a.iterations, b.iterations, "{at}");
                    assert_eq!(a.diagnostics.outputs, b.diagnostics.outputs, "{at}");
                    assert_eq!(a.diagnostics.entries(), b.diagnostics.entries(), "{at}");
                    if [5, 6, 8].contains(&seed) {
                        wall += a.timings.wall();
                    }
                }
                (Err(Error::InvalidInput { .. }), Err(Error::InvalidInput { .. })) => {
                    assert_eq!(seed, 9, "{at}")
                }
                (a, b) => panic!("{at}: {:?} against {:?}", a.is_ok(), b.is_ok()),
            }
        }
        if what == "gaussian" {
            // One fit shared three ways: each copy carries a third of its wall time.
            let copies: Vec<f64> = [0, 1, 3]
                .iter()
                .map(|&r| all[r].as_ref().unwrap().timings.wall())
                .collect();
            assert!(copies.iter().all(|&w| w == copies[0]), "{copies:?}");
            assert!(wall > 0.0);
        }
    }
    let short = p.fit_with_starts(&kernel, 2, &seeds, &[vec![0; 60]]);
    assert!(short.iter().all(|r| matches!(r, Err(Error::Shape { .. }))));
}
