//! Checks of the engine against explicit feature-space computations: with a linear
//! kernel K = XXᵀ every centre is a point `Σ_i a_i x_i` that can be formed directly.

use crate::centres::{products_many, Centres, Panels};
use crate::l21::{self, irls_weights, l21_loss};
use faer::Mat;
use mkc_core::seed;
use mkc_kmeans::KernelCols;
use rand::Rng;

/// `n` points in `d` dimensions around `groups` centres (spread 1, centres 6 apart),
/// plus the linear kernel.
fn blobs(n: usize, d: usize, groups: usize, s: u64) -> (Vec<Vec<f64>>, Mat<f64>) {
    let mut rng = seed::rng(s);
    let x: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..d)
                .map(|j| {
                    let c = (i % groups) as f64 * 6.0 * if j == 0 { 1.0 } else { 0.5 };
                    c + rng.random_range(-1.0..1.0)
                })
                .collect()
        })
        .collect();
    let k = Mat::from_fn(n, n, |i, j| dot(&x[i], &x[j]));
    (x, k)
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p * q).sum()
}

/// The centres as explicit points.
fn centre_points(x: &[Vec<f64>], c: &Centres) -> Vec<Vec<f64>> {
    let d = x[0].len();
    let mut v = vec![vec![0.0; d]; c.k];
    for (i, xi) in x.iter().enumerate() {
        for (vj, xj) in v[c.labels[i]].iter_mut().zip(xi) {
            *vj += c.coef[i] * xj;
        }
    }
    v
}

fn sq_dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| (p - q) * (p - q)).sum()
}

/// The ℓ2,1 loss of labels and centres, evaluated on the points themselves.
fn brute_loss(x: &[Vec<f64>], c: &Centres) -> f64 {
    let v = centre_points(x, c);
    x.iter()
        .enumerate()
        .map(|(i, xi)| sq_dist(xi, &v[c.labels[i]]).sqrt())
        .sum()
}

fn random_labels(n: usize, k: usize, s: u64) -> Vec<usize> {
    let mut rng = seed::rng(s);
    let mut l: Vec<usize> = (0..n).map(|_| rng.random_range(0..k)).collect();
    l[..k].copy_from_slice(&(0..k).collect::<Vec<_>>());
    l
}

#[test]
fn kernel_distances_equal_explicit_distances() {
    let (x, k) = blobs(30, 3, 3, 1);
    let kc = KernelCols::new(k.as_ref());
    let labels = random_labels(30, 3, 2);
    let s: Vec<f64> = (0..30).map(|i| 0.5 + (i % 7) as f64 / 7.0).collect();
    let c = Centres::weighted(labels, &s, 3);
    let v = centre_points(&x, &c);
    let own = c.own_distances(&kc);
    let p = c.products(&kc);
    for (i, xi) in x.iter().enumerate() {
        for (j, vj) in v.iter().enumerate() {
            let want = sq_dist(xi, vj);
            let got = k[(i, i)] + p.rel(i, j);
            assert!(
                (got - want).abs() < 1e-9 * (1.0 + want),
                "{i} {j}: {got} vs {want}"
            );
        }
        let want = sq_dist(xi, &v[c.labels[i]]);
        assert!((own[i] - want).abs() < 1e-9 * (1.0 + want));
    }
    assert!((l21_loss(&own) - brute_loss(&x, &c)).abs() < 1e-9);
}

/// On an exactly symmetric kernel, S by columns (the vectorised path) equals S by rows
/// bit for bit, for weighted and singleton centres, with n not a multiple of the row
/// blocks; a kernel off symmetry by one ulp is detected and takes the row path.
#[test]
fn product_paths_agree_bit_for_bit() {
    let n = 37;
    let (_, k) = blobs(n, 4, 3, 5);
    let kc = KernelCols::new(k.as_ref());
    assert!(kc.exactly_symmetric());
    let s: Vec<f64> = (0..n).map(|i| 0.3 + (i % 5) as f64 / 3.0).collect();
    for c in [
        Centres::weighted(random_labels(n, 4, 6), &s, 4),
        Centres::singletons(n, &[3, 17, 36]),
    ] {
        let (a, b) = (c.products_by(&kc, true), c.products_by(&kc, false));
        for r in 0..n {
            for j in 0..c.k {
                assert_eq!(a.rel(r, j).to_bits(), b.rel(r, j).to_bits(), "{r} {j}");
            }
        }
    }
    let mut off = k.clone();
    off[(20, 3)] = f64::from_bits(off[(20, 3)].to_bits() + 1);
    assert!(!KernelCols::new(off.as_ref()).exactly_symmetric());
}

/// S of several sets of centres from the kernel's panels (the lockstep path of the
/// partition step's starts) equals each set's own S bit for bit: weighted centres,
/// singletons and a set with an empty cluster, n not a multiple of the panels' rows; the
/// same for one set alone; a kernel that is not exactly symmetric has no panels and
/// falls back to each set's own products.
#[test]
fn products_of_many_sets_equal_each_sets_own() {
    for n in [77, 64, 5] {
        let (_, k) = blobs(n, 4, 3, 5);
        let kc = KernelCols::new(k.as_ref());
        let panels = Panels::new(&kc);
        assert!(panels.is_some());
        let s: Vec<f64> = (0..n).map(|i| 0.3 + (i % 5) as f64 / 3.0).collect();
        let mut gap = random_labels(n, 4, 9);
        gap.iter_mut().filter(|l| **l == 2).for_each(|l| *l = 1);
        let sets = [
            Centres::weighted(random_labels(n, 4, 6), &s, 4),
            Centres::singletons(n, &[3, 1, 4, 0]),
            Centres::weighted(gap, &s, 4),
            Centres::weighted(random_labels(n, 4, 7), &vec![1.0; n], 4),
        ];
        let refs: Vec<&Centres> = sets.iter().collect();
        let mut buf = Vec::new();
        for many in [&refs[..], &refs[1..2]] {
            let got = products_many(&kc, panels.as_ref(), many, &mut buf);
            assert_eq!(got.len(), many.len());
            for (c, p) in many.iter().zip(&got) {
                let want = c.products_by(&kc, true);
                for r in 0..n {
                    for j in 0..4 {
                        assert_eq!(
                            p.rel(r, j).to_bits(),
                            want.rel(r, j).to_bits(),
                            "{n}: {r} {j}"
                        );
                    }
                }
                assert_same_assignment(&kc, p, &want);
            }
        }
    }
    let (_, k) = blobs(20, 3, 2, 1);
    let mut off = k.clone();
    off[(7, 3)] = f64::from_bits(off[(7, 3)].to_bits() + 1);
    let kc = KernelCols::new(off.as_ref());
    assert!(Panels::new(&kc).is_none());
    let c = Centres::weighted(random_labels(20, 3, 2), &[1.0; 20], 3);
    let mut buf = Vec::new();
    let got = products_many(&kc, None, &[&c, &c], &mut buf);
    let want = c.products_by(&kc, false);
    for p in &got {
        for r in 0..20 {
            for j in 0..3 {
                assert_eq!(p.rel(r, j).to_bits(), want.rel(r, j).to_bits());
            }
        }
    }
}

/// `p.assign` (rows in SIMD lanes) against a scan of `want.rel` over the centres with a
/// strict `<`: the same labels and distances bit for bit.
fn assert_same_assignment(
    kc: &KernelCols<'_>,
    p: &crate::centres::Products<'_>,
    want: &crate::centres::Products<'_>,
) {
    let (labels, dist) = p.assign(kc);
    for r in 0..kc.n() {
        let mut best = (f64::INFINITY, 0);
        for c in 0..4 {
            let d = want.rel(r, c);
            if d < best.0 {
                best = (d, c);
            }
        }
        assert_eq!(labels[r], best.1, "row {r}");
        assert_eq!(
            dist[r].to_bits(),
            (kc.diag(r) + best.0).to_bits(),
            "row {r}"
        );
    }
}

/// Ties go to the lowest centre on both layouts: four singleton centres on two pairs of
/// identical samples (every sample is equally far from the two centres of a pair).
#[test]
fn assignment_ties_go_to_the_lowest_centre() {
    let (x, _) = blobs(41, 2, 2, 8);
    let mut x = x;
    x[7] = x[3].clone();
    x[30] = x[12].clone();
    let k = Mat::from_fn(41, 41, |i, j| dot(&x[i], &x[j]));
    let kc = KernelCols::new(k.as_ref());
    let c = Centres::singletons(41, &[3, 7, 12, 30]);
    let own = c.products_by(&kc, true);
    let panels = Panels::new(&kc);
    let mut buf = Vec::new();
    let many = products_many(&kc, panels.as_ref(), &[&c, &c], &mut buf);
    for p in std::iter::once(&own).chain(&many) {
        let (labels, _) = p.assign(&kc);
        assert!(labels.iter().all(|&l| l == 0 || l == 2), "{labels:?}");
        assert_same_assignment(&kc, p, &own);
    }
}

/// Starts run in lockstep are each exactly the run it would be alone: labels, centres,
/// the loss trace (bit for bit), passes, convergence and refills; a start that stops
/// early leaves the others running.
#[test]
fn lockstep_runs_equal_runs_alone() {
    for (n, k, cap) in [(90, 5, 30), (47, 3, 2), (24, 5, 50)] {
        let (_, kern) = blobs(n, 3, k, 21);
        let kc = KernelCols::new(kern.as_ref());
        let starts: Vec<Centres> = (0..6)
            .map(|r| Centres::singletons(n, &l21::sample_seeds(n, k, r)))
            .collect();
        let many = l21::run_many(&kc, starts.clone(), cap);
        let mut passes = Vec::new();
        for (start, got) in starts.into_iter().zip(&many) {
            let want = l21::run(&kc, start, cap);
            assert_eq!(got.labels, want.labels);
            assert_eq!(got.centres, want.centres);
            let bits = |t: &[f64]| t.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got.trace), bits(&want.trace));
            assert_eq!(
                (got.iterations, got.converged, got.empty_fills),
                (want.iterations, want.converged, want.empty_fills)
            );
            passes.push(got.iterations);
        }
        if cap == 30 {
            passes.sort_unstable();
            passes.dedup();
            assert!(
                passes.len() > 1,
                "the starts should stop at different passes: {passes:?}"
            );
        }
    }
}

/// One reweighting step is a Weiszfeld step per cluster: the new centre is the
/// `1/‖x_i − v‖`-weighted mean of the cluster, and the cluster's sum of distances does
/// not grow.
#[test]
fn reweighting_is_a_weiszfeld_step() {
    let (x, k) = blobs(40, 2, 2, 3);
    let kc = KernelCols::new(k.as_ref());
    let labels = random_labels(40, 2, 4);
    let c0 = Centres::weighted(labels.clone(), &[1.0; 40], 2);
    let d0 = c0.own_distances(&kc);
    let c1 = Centres::weighted(labels.clone(), &irls_weights(&d0), 2);
    // Explicit Weiszfeld step.
    let v0 = centre_points(&x, &c0);
    let v1 = centre_points(&x, &c1);
    for (c, v1c) in v1.iter().enumerate() {
        let mut num = [0.0; 2];
        let mut den = 0.0;
        for (xi, _) in x.iter().zip(&labels).filter(|(_, &l)| l == c) {
            let w = 1.0 / sq_dist(xi, &v0[c]).sqrt();
            den += w;
            num[0] += w * xi[0];
            num[1] += w * xi[1];
        }
        assert!((v1c[0] - num[0] / den).abs() < 1e-9 && (v1c[1] - num[1] / den).abs() < 1e-9);
    }
    assert!(brute_loss(&x, &c1) <= brute_loss(&x, &c0) + 1e-12);
}

#[test]
fn samples_on_their_centre_get_the_mean_weight() {
    let s = irls_weights(&[4.0, 0.0, 1.0, 1e-12]);
    assert_eq!(s[0], 0.25);
    assert_eq!(s[2], 0.5);
    assert_eq!(s[1], 0.375);
    assert_eq!(s[3], 0.375);
}

#[test]
fn trace_is_non_increasing_and_ends_with_the_brute_force_loss() {
    let mut checked = 0;
    for s in 0..6 {
        let (x, k) = blobs(60, 3, 4, 10 + s);
        let kc = KernelCols::new(k.as_ref());
        let seeds = l21::sample_seeds(60, 4, s);
        let run = l21::run(&kc, Centres::singletons(60, &seeds), 100);
        if run.empty_fills == 0 {
            checked += 1;
            assert!(run.trace.len() >= 3);
            for w in run.trace.windows(2) {
                assert!(w[1] <= w[0] * (1.0 + 1e-12), "seed {s}: {:?}", run.trace);
            }
        }
        assert!(run.converged);
        assert_eq!(run.labels, run.centres.labels);
        let brute = brute_loss(&x, &run.centres);
        assert!((run.objective() - brute).abs() < 1e-9 * brute);
    }
    assert!(checked >= 3, "only {checked} runs without empty clusters");
}

#[test]
fn empty_clusters_are_refilled() {
    // Two identical far points and many near ones: a start with both centres in the
    // near group can leave one cluster empty; every run ends with k non-empty clusters.
    let (_, k) = blobs(24, 2, 1, 5);
    let kc = KernelCols::new(k.as_ref());
    for s in 0..20 {
        let run = l21::best_of(&kc, 5, 1, 50, s).map(|(r, _)| r);
        let labels = run.map(|r| r.labels).unwrap_or_default();
        for c in 0..5 {
            assert!(labels.contains(&c), "seed {s}: cluster {c} empty");
        }
    }
}
