//! Acceptance tests of GUMKL (Algorithm 1) and its two baselines.

mod common;

use common::{d2, medoid_cost, views};
use faer::{Mat, MatRef};
use mkc_core::{Error, ParamGuard};
use mkc_gumkl::{composite, weights, GumklParams};
use mkc_metrics::{nmi, NmiNorm};
use rand::Rng as _;

fn refs(ks: &[Mat<f64>]) -> Vec<MatRef<'_, f64>> {
    ks.iter().map(|k| k.as_ref()).collect()
}

fn on_simplex(w: &[f64]) -> bool {
    w.iter().all(|&x| x >= 0.0) && (w.iter().sum::<f64>() - 1.0).abs() < 1e-12
}

#[test]
fn recovers_clusters_and_ranks_views_by_quality() {
    // View 0 strong, view 1 weaker, view 2 pure noise.
    let (_, ks, truth) = views(3, 25, 5, &[4.0, 1.5, 0.0], 1);
    let fit = GumklParams::new(3)
        .p(2.0)
        .check()
        .unwrap()
        .fit(&refs(&ks))
        .unwrap();
    assert!(nmi(&truth, &fit.labels, NmiNorm::Arithmetic).unwrap() > 0.95);
    assert!(
        fit.weights[0] > fit.weights[1] && fit.weights[1] > fit.weights[2],
        "{:?}",
        fit.weights
    );
    assert!(fit.converged);
    assert_eq!(fit.weights_trace.len(), fit.n_iter + 1);
    assert_eq!(fit.objective_trace.len(), fit.n_iter);
}

#[test]
fn weights_stay_on_the_simplex_and_update_never_increases_eq6() {
    for (seed, p) in [
        (2, 1.0),
        (3, 1.5),
        (4, 2.0),
        (5, 3.5),
        (6, 10.0),
        (7, f64::INFINITY),
    ] {
        let (_, ks, _) = views(4, 12, 3, &[2.0, 1.0, 0.5, 3.0], seed);
        let fit = GumklParams::new(4)
            .p(p)
            .check()
            .unwrap()
            .fit(&refs(&ks))
            .unwrap();
        for w in &fit.weights_trace {
            assert!(on_simplex(w), "p = {p}: {w:?}");
        }
        assert!(on_simplex(&fit.weights));
        for (before, after) in fit.objective_trace.iter().zip(&fit.updated_objective_trace) {
            assert!(
                after <= &(before * (1.0 + 1e-12)),
                "p = {p}: weight update raised eq. 6"
            );
        }
    }
}

#[test]
fn eq7_minimises_eq6_over_the_simplex_for_the_fitted_clusters() {
    let (_, ks, _) = views(3, 15, 4, &[3.0, 1.0, 0.3], 8);
    let mut rng = mkc_core::seed::rng(9);
    for p in [1.5, 2.0, 3.0] {
        let fit = GumklParams::new(3)
            .p(p)
            .refine(false)
            .check()
            .unwrap()
            .fit(&refs(&ks))
            .unwrap();
        let e = &fit.view_objectives;
        let best = weights::weighted_objective(&fit.weights, e, p);
        // Random points of the simplex, and the vertices.
        for _ in 0..20_000 {
            let mut g: Vec<f64> = (0..3)
                .map(|_| -rng.random_range(1e-12f64..1.0).ln())
                .collect();
            let s: f64 = g.iter().sum();
            g.iter_mut().for_each(|x| *x /= s);
            assert!(best <= weights::weighted_objective(&g, e, p) + 1e-12);
        }
        for v in 0..3 {
            let mut g = vec![0.0; 3];
            g[v] = 1.0;
            assert!(best <= weights::weighted_objective(&g, e, p));
        }
    }
}

#[test]
fn p_one_selects_the_view_of_least_within_cluster_variance() {
    // View 1 has the tightest clusters (smallest noise relative to nothing: all views share the
    // noise level, so the view with the strongest signal has the least within-cluster variance
    // once its clusters are found).
    let (x, ks, truth) = views(3, 20, 4, &[1.0, 6.0, 0.5], 11);
    let fit = GumklParams::best_single_view(3)
        .refine(false)
        .check()
        .unwrap()
        .fit(&refs(&ks))
        .unwrap();
    assert_eq!(fit.weights.iter().filter(|&&w| w == 1.0).count(), 1);
    let chosen = fit.weights.iter().position(|&w| w == 1.0).unwrap();
    // Brute force: the within-cluster variance of the final partition in every view, from the
    // features themselves.
    let e: Vec<f64> = x
        .iter()
        .map(|xv| {
            (0..truth.len())
                .map(|i| d2(xv, i, fit.medoids[fit.medoid_labels[i]]))
                .sum()
        })
        .collect();
    let argmin = (0..3).fold(0, |b, v| if e[v] < e[b] { v } else { b });
    assert_eq!(chosen, argmin, "E = {e:?}");
    assert_eq!(chosen, 1);
    for (a, b) in e.iter().zip(&fit.view_objectives) {
        assert!((a - b).abs() <= 1e-9 * a.abs().max(1.0));
    }
}

#[test]
fn uniform_baseline_is_one_iteration_on_the_plain_sum() {
    let (_, ks, _) = views(3, 10, 3, &[2.0, 1.0], 12);
    let fit = GumklParams::uniform(3)
        .refine(false)
        .check()
        .unwrap()
        .fit(&refs(&ks))
        .unwrap();
    assert_eq!(fit.n_iter, 1);
    assert_eq!(fit.weights, vec![0.5, 0.5]);
    assert_eq!(fit.weights_trace.len(), 1);
    assert!(fit.updated_objective_trace.is_empty());
    // Eq. (6) for p = ∞ is the objective of Σ_v K_v.
    let sum = &ks[0] + &ks[1];
    let direct = medoid_cost(sum.as_ref(), &fit.medoid_labels, &fit.medoids);
    assert!((fit.objective() - direct).abs() <= 1e-9 * direct);
}

#[test]
fn kmedoids_never_increases_the_greedy_objective() {
    // Through our use: on the composite kernel, the k-medoids result is no worse than the
    // greedy initial medoids with nearest-medoid assignment.
    let (_, ks, _) = views(4, 15, 3, &[1.0, 0.7, 0.4], 13);
    let r = refs(&ks);
    let mut comp = composite::Composite::new(60, 3);
    for w in [[1.0 / 3.0; 3], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8]] {
        comp.update(&r, &w, 2.0).unwrap();
        let k = comp.kernel();
        let init = mkc_kmeans::greedy_medoids(k, 4).unwrap();
        let nearest: Vec<usize> = (0..60)
            .map(|i| {
                (0..4)
                    .min_by(|&a, &b| {
                        let da = k[(i, i)] - 2.0 * k[(i, init[a])] + k[(init[a], init[a])];
                        let db = k[(i, i)] - 2.0 * k[(i, init[b])] + k[(init[b], init[b])];
                        da.partial_cmp(&db).unwrap()
                    })
                    .unwrap()
            })
            .collect();
        let before = medoid_cost(k, &nearest, &init);
        let fit = mkc_kmeans::KernelKMedoidsParams::new()
            .init(mkc_kmeans::MedoidInit::Given(init))
            .check()
            .unwrap()
            .fit_kernel(k, 4, 0)
            .unwrap();
        let after = medoid_cost(k, &fit.labels, &fit.medoids);
        assert!(after <= before * (1.0 + 1e-12), "{after} > {before}");
    }
}

#[test]
fn refinement_does_not_increase_the_kernel_kmeans_objective() {
    let (_, ks, _) = views(3, 20, 3, &[1.5, 1.0, 0.2], 14);
    let fit = GumklParams::new(3)
        .p(2.5)
        .check()
        .unwrap()
        .fit(&refs(&ks))
        .unwrap();
    let r = fit.refinement.as_ref().unwrap();
    assert_eq!(r.labels, fit.labels);
    // The mean-based objective of GUMKL's own partition, with the final weights.
    let d = composite::mean_view_objectives(&refs(&ks), &fit.medoid_labels, 3).unwrap();
    let start = weights::weighted_objective(&fit.weights, &d, 2.5);
    assert!(r.objective <= start * (1.0 + 1e-12));
}

#[test]
fn deterministic() {
    let (_, ks, _) = views(3, 15, 3, &[1.0, 0.8], 15);
    let a = GumklParams::new(3)
        .check()
        .unwrap()
        .fit(&refs(&ks))
        .unwrap();
    let b = GumklParams::new(3)
        .check()
        .unwrap()
        .fit(&refs(&ks))
        .unwrap();
    assert_eq!(a, b);
}

#[test]
fn bad_inputs_are_typed_errors() {
    let (_, ks, _) = views(2, 5, 2, &[1.0, 1.0], 16);
    let r = refs(&ks);
    let ok = GumklParams::new(2).check().unwrap();
    // p < 1
    assert!(matches!(
        GumklParams::new(2).p(0.9).check(),
        Err(Error::InvalidParam { .. })
    ));
    // views of different sizes
    let small = Mat::<f64>::identity(9, 9);
    assert!(matches!(
        ok.fit(&[r[0], small.as_ref()]),
        Err(Error::Shape { .. })
    ));
    // NaN
    let mut nan = ks[1].clone();
    nan[(3, 4)] = f64::NAN;
    nan[(4, 3)] = f64::NAN;
    assert!(matches!(
        ok.fit(&[r[0], nan.as_ref()]),
        Err(Error::NonFinite { .. })
    ));
    // k > n
    let big = GumklParams::new(11).check().unwrap();
    assert!(matches!(big.fit(&r), Err(Error::InvalidParam { .. })));
    // no kernels, non-symmetric, non-square
    assert!(matches!(ok.fit(&[]), Err(Error::InvalidInput { .. })));
    let asym = Mat::from_fn(10, 10, |i, j| (i * 10 + j) as f64);
    assert!(matches!(
        ok.fit(&[asym.as_ref()]),
        Err(Error::NotSymmetric { .. })
    ));
    let rect = Mat::<f64>::zeros(10, 9);
    assert!(matches!(ok.fit(&[rect.as_ref()]), Err(Error::Shape { .. })));
}
