#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use faer::Mat;
use mkc_core::{Error, ParamGuard};
use mkc_kmeans::{greedy_medoids, KernelKMedoidsParams, MedoidInit};
use proptest::prelude::*;

fn dist_matrix(k: &Mat<f64>) -> Mat<f64> {
    let n = k.nrows();
    Mat::from_fn(n, n, |i, j| {
        (k[(i, i)] - 2.0 * k[(i, j)] + k[(j, j)]).max(0.0)
    })
}

/// Objective (2) of medoid set `m`, every point at its nearest medoid.
fn objective(d: &Mat<f64>, m: &[usize]) -> f64 {
    (0..d.nrows())
        .map(|i| m.iter().map(|&j| d[(i, j)]).fold(f64::INFINITY, f64::min))
        .sum()
}

/// Eq. (3) by brute force: the reduction of objective (2) when x_j joins the medoids and
/// takes exactly the points strictly closer to it than to their medoid.
fn brute_force_greedy(k: &Mat<f64>, m: usize) -> Vec<usize> {
    let d = dist_matrix(k);
    let n = k.nrows();
    let mut medoids = vec![(0..n)
        .min_by(|&a, &b| {
            objective(&d, &[a])
                .total_cmp(&objective(&d, &[b]))
                .then(a.cmp(&b))
        })
        .unwrap()];
    while medoids.len() < m {
        let old = objective(&d, &medoids);
        let mut best: Option<(f64, usize)> = None;
        for j in (0..n).filter(|j| !medoids.contains(j)) {
            let mut with = medoids.clone();
            with.push(j);
            let reduction = old - objective(&d, &with);
            if best.is_none_or(|(b, _)| reduction > b + 1e-9) {
                best = Some((reduction, j));
            }
        }
        medoids.push(best.unwrap().1);
    }
    medoids
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn greedy_matches_brute_force(n in 2usize..14, m in 1usize..5, d in 1usize..4, seed in any::<u64>(), gauss in any::<bool>()) {
        let m = m.min(n);
        let x = blobs(n, d, 3, 2.0, seed);
        let k = if gauss { gaussian_kernel(&x, 2.0) } else { linear_kernel(&x) };
        let g = greedy_medoids(k.as_ref(), m).unwrap();
        let bf = brute_force_greedy(&k, m);
        // Same objective at every prefix (identical indices unless reductions tie).
        let dm = dist_matrix(&k);
        for t in 1..=m {
            let (a, b) = (objective(&dm, &g[..t]), objective(&dm, &bf[..t]));
            prop_assert!((a - b).abs() <= 1e-9 * a.abs().max(1.0), "prefix {t}: {a} vs {b}");
        }
        prop_assert_eq!(distinct(&g), m);
    }
}

#[test]
fn greedy_equals_brute_force_indices_on_generic_data() {
    for seed in 0..10 {
        let x = blobs(25, 2, 4, 3.0, seed);
        let k = gaussian_kernel(&x, 3.0);
        assert_eq!(
            greedy_medoids(k.as_ref(), 5).unwrap(),
            brute_force_greedy(&k, 5)
        );
    }
}

#[test]
fn kmedoids_objective_never_increases_and_is_a_fixed_point() {
    for seed in 0..6 {
        let x = blobs(120, 2, 5, 5.0, seed);
        let k = gaussian_kernel(&x, 2.0);
        let d = dist_matrix(&k);
        for init in [MedoidInit::Greedy, MedoidInit::Random] {
            let fit = kmedoids(KernelKMedoidsParams::new().init(init), &k, 5, seed);
            assert!(
                non_increasing(&fit.objective_trace),
                "{:?}",
                fit.objective_trace
            );
            assert!(fit.converged);
            let direct: f64 = (0..120).map(|i| d[(i, fit.medoids[fit.labels[i]])]).sum();
            assert!((direct - fit.objective).abs() < 1e-9 * direct.max(1.0));
            assert!((objective(&d, &fit.medoids) - fit.objective).abs() < 1e-9 * direct.max(1.0));
            for (c, &m) in fit.medoids.iter().enumerate() {
                assert_eq!(fit.labels[m], c);
                // The medoid minimises the within-cluster sum.
                let members: Vec<usize> = (0..120).filter(|&i| fit.labels[i] == c).collect();
                let cost = |j: usize| members.iter().map(|&i| d[(i, j)]).sum::<f64>();
                assert!(members.iter().all(|&j| cost(m) <= cost(j) + 1e-12));
            }
        }
    }
}

#[test]
fn kmedoids_deterministic() {
    let x = blobs(200, 3, 4, 4.0, 8);
    let k = gaussian_kernel(&x, 2.0);
    let p = KernelKMedoidsParams::new()
        .init(MedoidInit::Random)
        .check()
        .unwrap();
    let run = |t: usize| with_threads(t, || p.fit_kernel(k.as_ref(), 4, 5).unwrap());
    assert_eq!(run(1), run(2));
    let g = |t: usize| with_threads(t, || greedy_medoids(k.as_ref(), 4).unwrap());
    assert_eq!(g(1), g(2));
}

#[test]
fn bad_inputs() {
    let k = Mat::<f64>::identity(3, 3);
    assert!(matches!(
        greedy_medoids(k.as_ref(), 0),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        greedy_medoids(k.as_ref(), 4),
        Err(Error::InvalidParam { .. })
    ));
    let mut nan = k.clone();
    nan[(0, 0)] = f64::NAN;
    assert!(matches!(
        greedy_medoids(nan.as_ref(), 1),
        Err(Error::NonFinite { .. })
    ));
    let mut asym = k.clone();
    asym[(2, 0)] = 1.0;
    assert!(matches!(
        greedy_medoids(asym.as_ref(), 1),
        Err(Error::NotSymmetric { .. })
    ));
    assert!(matches!(
        greedy_medoids(Mat::<f64>::zeros(2, 3).as_ref(), 1),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        KernelKMedoidsParams::new().max_iter(0).check(),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        KernelKMedoidsParams::new()
            .init(MedoidInit::Given(vec![1, 1]))
            .check(),
        Err(Error::InvalidInput { .. })
    ));
    let one = KernelKMedoidsParams::new()
        .init(MedoidInit::Given(vec![1]))
        .check()
        .unwrap();
    assert!(matches!(
        one.fit_kernel(k.as_ref(), 2, 0),
        Err(Error::Shape { .. })
    ));
    let p = KernelKMedoidsParams::new()
        .init(MedoidInit::Given(vec![0, 5]))
        .check()
        .unwrap();
    assert!(matches!(
        p.fit_kernel(k.as_ref(), 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    let p = KernelKMedoidsParams::new().check().unwrap();
    for c in [0, 4] {
        assert!(matches!(
            p.fit_kernel(k.as_ref(), c, 0),
            Err(Error::InvalidParam { .. })
        ));
    }
    assert!(matches!(
        p.fit_kernel(nan.as_ref(), 2, 0),
        Err(Error::NonFinite { .. })
    ));
}
