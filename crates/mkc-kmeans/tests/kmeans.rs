#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use faer::Mat;
use mkc_core::{Error, ParamGuard};
use mkc_kmeans::KMeansParams;

#[test]
fn finds_separated_blobs() {
    let x = blobs(400, 3, 4, 0.5, 2);
    let fit = km(KMeansParams::new(), &x, 4, 1);
    // Points i and i+4 come from the same blob.
    for i in 0..396 {
        assert_eq!(fit.labels[i], fit.labels[i + 4]);
    }
    assert_eq!(distinct(&fit.labels), 4);
}

#[test]
fn inertia_never_increases_and_matches_centroids() {
    for seed in 0..8 {
        let x = blobs(300, 2, 6, 6.0, seed);
        let fit = km(KMeansParams::new().n_init(3).tol(0.0), &x, 7, seed);
        assert!(
            non_increasing(&fit.inertia_trace),
            "{:?}",
            fit.inertia_trace
        );
        let direct: f64 = (0..300)
            .map(|i| {
                (0..2)
                    .map(|j| (x[(i, j)] - fit.centroids[(fit.labels[i], j)]).powi(2))
                    .sum::<f64>()
            })
            .sum();
        assert!((direct - fit.inertia).abs() < 1e-9 * direct);
        // With tol = 0 the run stops only at a fixed point: centroids are the means.
        assert!((wcss(&x, &fit.labels, 7) - fit.inertia).abs() < 1e-9 * direct);
        // Every point is at its nearest centroid.
        for i in 0..300 {
            let d = |c: usize| {
                (0..2)
                    .map(|j| (x[(i, j)] - fit.centroids[(c, j)]).powi(2))
                    .sum::<f64>()
            };
            assert!((0..7).all(|c| d(fit.labels[i]) <= d(c) + 1e-12));
        }
    }
}

#[test]
fn deterministic_across_thread_counts() {
    let x = blobs(2000, 5, 8, 4.0, 4);
    let params = KMeansParams::new().n_init(5).check().unwrap();
    let run = |t: usize| with_threads(t, || params.fit_features(x.as_ref(), 8, 3).unwrap());
    let a = run(1);
    assert_eq!(a, run(2));
    assert_eq!(a, run(1));
}

#[test]
fn duplicate_points_and_k_equal_n() {
    // Only two distinct points but k = 3: k-means++ must reuse a location; the empty
    // cluster is refilled from another cluster.
    let x = Mat::from_fn(6, 1, |i, _| if i < 3 { 0.0 } else { 1.0 });
    let fit = km(KMeansParams::new().n_init(3), &x, 3, 0);
    assert!(fit.labels.iter().all(|&l| l < 3));
    assert!(fit.inertia.is_finite() && fit.inertia.abs() < 1e-12);
    let x = Mat::from_fn(4, 2, |i, j| (i * 3 + j) as f64);
    let fit = km(KMeansParams::new(), &x, 4, 0);
    assert_eq!(fit.inertia, 0.0);
    let mut l = fit.labels.clone();
    l.sort_unstable();
    assert_eq!(l, vec![0, 1, 2, 3]);
}

#[test]
fn bad_inputs() {
    for bad in [
        KMeansParams::new().n_init(0),
        KMeansParams::new().max_iter(0),
        KMeansParams::new().tol(-1.0),
    ] {
        assert_eq!(err_kind(bad.check()), "InvalidParam");
    }
    let p = KMeansParams::new().check().unwrap();
    let mut inf = Mat::<f64>::zeros(5, 2);
    inf[(3, 1)] = f64::INFINITY;
    // (data, clusters, expected error)
    let cases = [
        (Mat::<f64>::zeros(5, 2), 0, "InvalidParam"),
        (Mat::<f64>::zeros(2, 2), 3, "InvalidParam"),
        (Mat::<f64>::zeros(0, 2), 3, "InvalidInput"),
        (Mat::<f64>::zeros(5, 0), 3, "InvalidInput"),
        (inf.clone(), 3, "NonFinite"),
    ];
    for (x, c, want) in cases {
        assert_eq!(
            err_kind(p.fit_features(x.as_ref(), c, 0)),
            want,
            "{c} clusters"
        );
    }
    assert!(matches!(
        p.fit_features(inf.as_ref(), 3, 0),
        Err(Error::NonFinite { row: 3, col: 1, .. })
    ));
}
