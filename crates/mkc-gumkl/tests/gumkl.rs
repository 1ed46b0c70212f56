//! Acceptance tests of GUMKL (Algorithm 1) and its two baselines.

mod common;

use common::{checks, d2, fit, views};
use mkc_core::prelude::*;
use mkc_gumkl::{composite, weights, GumklParams};
use mkc_kmeans::{KernelKMeansParams, KernelKMedoidsParams, MedoidInit};
use rand::Rng as _;

/// Eq. (2): Σ_i D(i, medoid of its cluster) on kernel `k`.
fn medoid_cost(k: faer::MatRef<'_, f64>, labels: &[usize], medoids: &[usize]) -> f64 {
    composite::medoid_view_objectives(&[k], labels, medoids).unwrap()[0]
}

checks::shared_checks!(GumklParams, 1);

#[test]
fn the_weight_update_never_increases_eq6() {
    for (seed, p) in [(2, 1.0), (3, 1.5), (4, 2.0), (5, 3.5), (6, 10.0)] {
        let (_, ks, _) = views(4, 12, 3, &[2.0, 1.0, 0.5, 3.0], seed);
        let fit = fit(GumklParams::new().p(p), &ks, 4).unwrap();
        let d = &fit.diagnostics;
        assert_eq!(d.weights_trace.len(), fit.iterations + 1);
        assert_eq!(d.weights_trace.last().map(Vec::as_slice), fit.weights());
        for w in &d.weights_trace {
            assert!(
                WeightConstraint::Simplex.violation(w) < 1e-12,
                "p = {p}: {w:?}"
            );
        }
        for (before, after) in fit.objective.iter().zip(&d.updated_objective) {
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
        let fit = fit(GumklParams::new().p(p).refine(false), &ks, 3).unwrap();
        let e = &fit.diagnostics.view_objectives;
        let w = fit.weights().unwrap();
        let best = weights::weighted_objective(w, e, p);
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
    // All views share the noise level, so the view with the strongest signal has the least
    // within-cluster variance once its clusters are found.
    let (x, ks, truth) = views(3, 20, 4, &[1.0, 6.0, 0.5], 11);
    let fit = fit(GumklParams::best_single_view().refine(false), &ks, 3).unwrap();
    let w = fit.weights().unwrap();
    assert_eq!(w.iter().filter(|&&w| w == 1.0).count(), 1);
    let chosen = w.iter().position(|&w| w == 1.0).unwrap();
    // Brute force: the within-cluster variance of the final partition in every view, from the
    // features themselves.
    let d = &fit.diagnostics;
    let e: Vec<f64> = x
        .iter()
        .map(|xv| {
            (0..truth.len())
                .map(|i| d2(xv, i, d.medoids[d.medoid_labels[i]]))
                .sum()
        })
        .collect();
    let argmin = (0..3).fold(0, |b, v| if e[v] < e[b] { v } else { b });
    assert_eq!(chosen, argmin, "E = {e:?}");
    assert_eq!(chosen, 1);
    for (a, b) in e.iter().zip(&d.view_objectives) {
        assert!((a - b).abs() <= 1e-9 * a.abs().max(1.0));
    }
}

#[test]
fn uniform_baseline_is_greedy_kmedoids_then_kernel_kmeans_on_the_plain_sum() {
    // The contract's fit against the building blocks it is made of: for p = ∞ GUMKL is one
    // k-medoids run (greedy start) on Σ_v K_v, refined by kernel k-means from its partition.
    let (_, ks, _) = views(3, 10, 3, &[2.0, 1.0], 12);
    let raw = fit(GumklParams::uniform().refine(false), &ks, 3).unwrap();
    assert_eq!(raw.iterations, 1);
    assert_eq!(raw.weights(), Some(&[0.5, 0.5][..]));
    assert_eq!(raw.diagnostics.weights_trace.len(), 1);
    assert!(raw.diagnostics.updated_objective.is_empty());
    assert!(raw.diagnostics.refinement.is_none());
    let sum = &ks[0] + &ks[1];
    let sum_set = [sum.clone()];
    let kmed = KernelKMedoidsParams::new()
        .init(MedoidInit::Greedy)
        .max_iter(300);
    let kmed = fit(kmed, &sum_set, 3).unwrap();
    assert_eq!(raw.labels, kmed.labels);
    assert_eq!(raw.diagnostics.medoids, kmed.diagnostics.medoids);
    // Eq. (6) for p = ∞ is the objective of Σ_v K_v.
    let direct = medoid_cost(sum.as_ref(), &raw.labels, &raw.diagnostics.medoids);
    assert!((raw.final_objective().unwrap() - direct).abs() <= 1e-9 * direct);

    let refined = fit(GumklParams::uniform(), &ks, 3).unwrap();
    let kkm = KernelKMeansParams::new()
        .initial_labels(kmed.labels.clone())
        .max_iter(300);
    let kkm = fit(kkm, &sum_set, 3).unwrap();
    assert_eq!(refined.labels, kkm.labels);
    assert_eq!(refined.diagnostics.medoid_labels, kmed.labels);
    let r = refined.diagnostics.refinement.as_ref().unwrap();
    let objective = kkm.diagnostics.objective;
    assert_eq!(r.iterations, kkm.iterations);
    assert!((r.objective - objective).abs() <= 1e-9 * objective);
}

#[test]
fn kmedoids_never_increases_the_greedy_objective() {
    // Through our use: on the composite kernel, the k-medoids result is no worse than the
    // greedy initial medoids with nearest-medoid assignment.
    let (_, ks, _) = views(4, 15, 3, &[1.0, 0.7, 0.4], 13);
    let r: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let mut comp = composite::Composite::new(60, 3);
    for w in [[1.0 / 3.0; 3], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8]] {
        comp.update(&r, &w, 2.0).unwrap();
        let k = comp.kernel();
        let init = mkc_kmeans::greedy_medoids(k, 4).unwrap();
        let dist = |i: usize, m: usize| k[(i, i)] - 2.0 * k[(i, m)] + k[(m, m)];
        let nearest: Vec<usize> = (0..60)
            .map(|i| {
                (0..4)
                    .min_by(|&a, &b| dist(i, init[a]).total_cmp(&dist(i, init[b])))
                    .unwrap()
            })
            .collect();
        let before = medoid_cost(k, &nearest, &init);
        let fit = KernelKMedoidsParams::new()
            .init(MedoidInit::Given(init))
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
    let fit = fit(GumklParams::new().p(2.5), &ks, 3).unwrap();
    let d = &fit.diagnostics;
    let r = d.refinement.as_ref().unwrap();
    // The mean-based objective of GUMKL's own partition, with the final weights.
    let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let w = fit.weights().unwrap();
    let start = composite::mean_view_objectives(&refs, &d.medoid_labels, 3).unwrap();
    let start = weights::weighted_objective(w, &start, 2.5);
    let end = composite::mean_view_objectives(&refs, &fit.labels, 3).unwrap();
    assert!((weights::weighted_objective(w, &end, 2.5) - r.objective).abs() <= 1e-9 * r.objective);
    assert!(r.objective <= start * (1.0 + 1e-12));
    let names: Vec<String> = d.entries().into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        ["converged", "refine_iterations", "refined_objective"]
    );
}
