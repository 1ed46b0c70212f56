#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use faer::Mat;
use mkc_core::{Error, ParamGuard};
use mkc_kmeans::KernelKMeansParams;

/// Plain Lloyd on the features from given labels (keep the current cluster on ties).
fn lloyd_features(x: &Mat<f64>, mut labels: Vec<usize>, k: usize, max_iter: usize) -> Vec<usize> {
    let (n, d) = (x.nrows(), x.ncols());
    for _ in 0..max_iter {
        let mut c = vec![0.0; k * d];
        let mut cnt = vec![0.0; k];
        for i in 0..n {
            cnt[labels[i]] += 1.0;
            for j in 0..d {
                c[labels[i] * d + j] += x[(i, j)];
            }
        }
        let mut changed = false;
        for i in 0..n {
            let dist = |q: usize| {
                (0..d)
                    .map(|j| (x[(i, j)] - c[q * d + j] / cnt[q]).powi(2))
                    .sum::<f64>()
            };
            let mut best = (dist(labels[i]), labels[i]);
            for q in 0..k {
                if cnt[q] > 0.0 && dist(q) < best.0 {
                    best = (dist(q), q);
                }
            }
            changed |= best.1 != labels[i];
            labels[i] = best.1;
        }
        if !changed {
            break;
        }
    }
    labels
}

fn random_labels(n: usize, k: usize, seed: u64) -> Vec<usize> {
    use rand::Rng;
    let mut rng = mkc_core::seed::rng(seed);
    (0..n)
        .map(|i| if i < k { i } else { rng.random_range(0..k) })
        .collect()
}

#[test]
fn linear_kernel_equals_feature_kmeans() {
    for seed in 0..5 {
        let x = blobs(120, 3, 4, 3.0, seed);
        let k = linear_kernel(&x);
        let init = random_labels(120, 4, seed + 100);
        let fit = kkm(
            KernelKMeansParams::new()
                .initial_labels(init.clone())
                .max_iter(200),
            &k,
            4,
            0,
        );
        let reference = lloyd_features(&x, init, 4, 200);
        assert_eq!(fit.labels, reference, "seed {seed}");
        assert!(fit.converged);
        let w = wcss(&x, &fit.labels, 4);
        assert!(
            (fit.objective - w).abs() <= 1e-8 * w.max(1.0),
            "objective {} vs wcss {w}",
            fit.objective
        );
    }
}

#[test]
fn objective_never_increases() {
    for seed in 0..6 {
        let x = blobs(200, 4, 5, 6.0, seed);
        let k = gaussian_kernel(&x, 2.0);
        let weights: Vec<f64> = (0..200).map(|i| 0.5 + (i % 7) as f64 * 0.3).collect();
        for w in [None, Some(weights)] {
            let mut p = KernelKMeansParams::new().n_init(3).max_iter(300);
            if let Some(w) = w {
                p = p.sample_weights(w);
            }
            let fit = p.check().unwrap().fit_kernel(k.as_ref(), 6, seed).unwrap();
            assert!(fit.objective_trace.len() >= 2);
            assert!(
                non_increasing(&fit.objective_trace),
                "{:?}",
                fit.objective_trace
            );
            assert_eq!(fit.objective, *fit.objective_trace.last().unwrap());
            assert!(fit.converged);
            assert_eq!(distinct(&fit.labels), 6);
        }
    }
}

/// Weight 2 on a point = the point twice (same kernel rows), with the same labels.
#[test]
fn integer_weights_equal_duplicated_points() {
    let x = blobs(60, 2, 3, 4.0, 9);
    let k = gaussian_kernel(&x, 1.5);
    let w: Vec<f64> = (0..60)
        .map(|i| if i % 3 == 0 { 2.0 } else { 1.0 })
        .collect();
    let idx: Vec<usize> = (0..60)
        .flat_map(|i| std::iter::repeat_n(i, w[i] as usize))
        .collect();
    let kd = Mat::from_fn(idx.len(), idx.len(), |a, b| k[(idx[a], idx[b])]);
    let init = random_labels(60, 3, 4);
    let init_d: Vec<usize> = idx.iter().map(|&i| init[i]).collect();
    let a = kkm(
        KernelKMeansParams::new()
            .initial_labels(init)
            .sample_weights(w),
        &k,
        3,
        0,
    );
    let b = kkm(KernelKMeansParams::new().initial_labels(init_d), &kd, 3, 0);
    let a_d: Vec<usize> = idx.iter().map(|&i| a.labels[i]).collect();
    assert_eq!(a_d, b.labels);
    assert!((a.objective - b.objective).abs() < 1e-9 * b.objective.abs().max(1.0));
    assert_eq!(a.objective_trace.len(), b.objective_trace.len());
}

#[test]
fn empty_initial_clusters_are_filled() {
    let x = blobs(50, 2, 3, 2.0, 1);
    let k = gaussian_kernel(&x, 3.0);
    let fit = kkm(
        KernelKMeansParams::new().initial_labels(vec![0; 50]),
        &k,
        3,
        0,
    );
    for c in 0..3 {
        assert!(fit.labels.contains(&c));
    }
    assert!(non_increasing(&fit.objective_trace));
    // Identical points: k-means++ cannot find k distinct seeds; still k non-empty clusters.
    let same = Mat::from_fn(6, 6, |_, _| 1.0);
    let fit = kkm(KernelKMeansParams::new(), &same, 3, 0);
    for c in 0..3 {
        assert!(fit.labels.contains(&c));
    }
    assert!(fit.objective.abs() < 1e-12);
}

#[test]
fn tiny_and_odd_sizes() {
    // n = 1, k = 1; and sizes around the 16-column panels of the product.
    let one = Mat::from_fn(1, 1, |_, _| 2.0);
    let fit = kkm(KernelKMeansParams::new(), &one, 1, 0);
    assert_eq!((fit.labels.clone(), fit.objective), (vec![0], 0.0));
    for n in [15, 16, 17, 33] {
        let x = blobs(n, 2, 2, 3.0, n as u64);
        let init = random_labels(n, 2, 1);
        let fit = KernelKMeansParams::new()
            .initial_labels(init.clone())
            .check()
            .unwrap()
            .fit_kernel(linear_kernel(&x).as_ref(), 2, 0)
            .unwrap();
        assert_eq!(fit.labels, lloyd_features(&x, init, 2, 100));
        assert!((fit.objective - wcss(&x, &fit.labels, 2)).abs() < 1e-9 * fit.objective.max(1.0));
    }
}

#[test]
fn deterministic_across_thread_counts_and_layouts() {
    let x = blobs(300, 3, 5, 8.0, 3);
    let k = gaussian_kernel(&x, 2.0);
    let params = KernelKMeansParams::new().n_init(4).check().unwrap();
    let run =
        |threads: usize| with_threads(threads, || params.fit_kernel(k.as_ref(), 5, 11).unwrap());
    let (a, b) = (run(1), run(2));
    assert_eq!(a, b);
    assert_eq!(a, run(2));
    // Row-major view of the same (symmetric) kernel.
    let kt = k.transpose().to_owned();
    assert_eq!(
        params.fit_kernel(kt.as_ref().transpose(), 5, 11).unwrap(),
        a
    );
    // A different seed is a different run (different restarts win or different labels).
    let c = kkm(KernelKMeansParams::new().n_init(4), &k, 5, 12);
    assert!(
        c.objective_trace != a.objective_trace
            || c.best_restart != a.best_restart
            || c.labels != a.labels
    );
}

#[test]
fn restarts_pick_the_lowest_objective() {
    let x = blobs(150, 2, 6, 10.0, 5);
    let k = gaussian_kernel(&x, 1.0);
    let best = kkm(KernelKMeansParams::new().n_init(6), &k, 6, 2);
    let single = kkm(KernelKMeansParams::new().n_init(1), &k, 6, 2);
    // Restart 0 of both runs is the same run.
    assert!(best.objective <= single.objective);
}

#[test]
fn bad_inputs() {
    let good = Mat::<f64>::identity(4, 4);
    // Parameters alone.
    for bad in [
        KernelKMeansParams::new().n_init(0),
        KernelKMeansParams::new().max_iter(0),
        KernelKMeansParams::new().tol(f64::NAN),
    ] {
        assert!(matches!(bad.check(), Err(Error::InvalidParam { .. })));
    }
    for bad in [
        KernelKMeansParams::new().sample_weights(vec![1.0, -1.0]),
        KernelKMeansParams::new().sample_weights(vec![1.0, f64::NAN]),
    ] {
        assert!(matches!(bad.check(), Err(Error::InvalidInput { .. })));
    }
    // Parameters against the data: (params, kernel, clusters, expected error).
    let p = KernelKMeansParams::new();
    let mut nan = good.clone();
    nan[(1, 2)] = f64::NAN;
    let mut asym = good.clone();
    asym[(0, 1)] = 0.5;
    let rect = Mat::<f64>::zeros(3, 4);
    let empty = Mat::<f64>::zeros(0, 0);
    let cases: Vec<(KernelKMeansParams, &Mat<f64>, usize, &str)> = vec![
        (p.clone(), &good, 0, "InvalidParam"),
        (p.clone(), &good, 5, "InvalidParam"),
        (p.clone(), &nan, 2, "NonFinite"),
        (p.clone(), &asym, 2, "NotSymmetric"),
        (p.clone(), &rect, 2, "Shape"),
        (p.clone(), &empty, 2, "InvalidInput"),
        (p.clone().sample_weights(vec![1.0; 3]), &good, 2, "Shape"),
        (p.clone().initial_labels(vec![0, 1, 1]), &good, 2, "Shape"),
        (
            p.clone().initial_labels(vec![0, 2, 1, 1]),
            &good,
            2,
            "InvalidInput",
        ),
    ];
    for (params, k, c, want) in cases {
        let r = params.check().unwrap().fit_kernel(k.as_ref(), c, 0);
        assert_eq!(err_kind(r), want);
    }
}

#[test]
fn method_api_runs_on_a_kernel_set() {
    use mkc_core::{Clusterer, KernelSet};
    let x = blobs(90, 3, 3, 8.0, 2);
    let k = gaussian_kernel(&x, 2.0);
    let direct = kkm(KernelKMeansParams::new().n_init(3), &k, 3, 5);
    let kernels = vec![k.clone()];
    let set = KernelSet::new(&kernels).unwrap();
    let fit = KernelKMeansParams::new().n_init(3).fit(&set, 3, 5).unwrap();
    assert_eq!(fit.labels, direct.labels);
    assert_eq!(fit.objective, direct.objective_trace);
    assert_eq!(fit.iterations, direct.n_iter);
    assert_eq!(fit.diagnostics.objective, direct.objective);
    // Two copies of the kernel: their mean is the kernel itself.
    let twice = vec![k.clone(), k];
    let set2 = KernelSet::new(&twice).unwrap();
    let fit2 = KernelKMeansParams::new()
        .n_init(3)
        .fit(&set2, 3, 5)
        .unwrap();
    assert_eq!(fit2.labels, direct.labels);
    // Unchecked parameters are checked by fit.
    let e = KernelKMeansParams::new()
        .n_init(0)
        .fit(&set, 3, 5)
        .unwrap_err();
    assert!(matches!(e, Error::InvalidParam { .. }));
}

/// Several seeds at once (lockstep across seeds, `fit_kernel_seeds` and the method API's
/// `fit_restarts`) give each seed's own fit, bit for bit: labels, objective trace,
/// iterations and the winning restart; with sample weights, several restarts per seed,
/// and (through the method API) the mean of two kernels.
#[test]
fn seeds_in_lockstep_are_the_fits_of_each_seed() {
    use mkc_core::{Clusterer, KernelSet};
    let x = blobs(120, 3, 4, 3.0, 11);
    let k1 = gaussian_kernel(&x, 1.0);
    let k2 = gaussian_kernel(&x, 4.0);
    let seeds = [3u64, 0, 17, 3, 99];
    let weights: Vec<f64> = (0..120).map(|i| 1.0 + (i % 5) as f64 * 0.25).collect();
    for params in [
        KernelKMeansParams::new(),
        KernelKMeansParams::new().n_init(3),
        KernelKMeansParams::new()
            .n_init(2)
            .sample_weights(weights.clone()),
    ] {
        let m = params.check().unwrap();
        let many = m.fit_kernel_seeds(k1.as_ref(), 4, &seeds).unwrap();
        assert_eq!(many.len(), seeds.len());
        for (&s, got) in seeds.iter().zip(&many) {
            let own = m.fit_kernel(k1.as_ref(), 4, s).unwrap();
            assert_eq!(got.labels, own.labels, "seed {s}");
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&got.objective_trace),
                bits(&own.objective_trace),
                "seed {s}"
            );
            assert_eq!(
                (got.n_iter, got.best_restart),
                (own.n_iter, own.best_restart)
            );
        }
        let ks = [k1.clone(), k2.clone()];
        let set = KernelSet::new(&ks).unwrap();
        let fits = m.fit_restarts(&set, 4, &seeds);
        for (&s, got) in seeds.iter().zip(fits) {
            let got = got.unwrap();
            let own = m.fit(&set, 4, s).unwrap();
            assert_eq!(got.labels, own.labels, "seed {s}");
            assert_eq!(got.objective, own.objective, "seed {s}");
            assert_eq!(got.iterations, own.iterations, "seed {s}");
            assert!(got.timings.wall() > 0.0);
        }
    }
    // A bad number of clusters is every seed's error.
    let m = KernelKMeansParams::new().check().unwrap();
    assert!(m.fit_kernel_seeds(k1.as_ref(), 500, &seeds).is_err());
    let one = [k1.clone()];
    let set = KernelSet::new(&one).unwrap();
    assert!(m.fit_restarts(&set, 500, &seeds).iter().all(|r| r.is_err()));
}
