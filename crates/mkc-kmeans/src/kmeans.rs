//! k-means (Lloyd) on the rows of a feature matrix, k-means++ seeding, parallel restarts.
//! Meant for the rows of eigenvector matrices (n up to ~15000, d = k small).

use crate::expansion::{assign_gemm, Expansion};
use crate::kernel_kmeans::fill_empty;
use crate::seeding::{kmeans_plus_plus, kmeans_plus_plus_cols};
use faer::{Mat, MatRef};
use mkc_core::{seed, validate, Clustering, Error, Result};
use rayon::prelude::*;

mkc_core::params! {
    /// Hyperparameters of k-means (unchecked builder).
    pub struct KMeansParams {
        /// Number of k-means++ restarts (in parallel; lowest inertia wins, ties to the lowest
        /// restart index). Restart r uses `mkc_core::seed::derive(seed, r)`.
        n_init: usize = 10,
        /// Maximum number of Lloyd iterations per restart.
        max_iter: usize = 300,
        /// Relative tolerance as scikit-learn: stop when Σ_c ‖Δcentre_c‖² ≤ tol · (mean
        /// per-feature variance of x). Labels that stop changing also stop the run.
        tol: f64 = 1e-4,
    }
    /// Defaults as scikit-learn's `KMeans`: `n_init = 10`, `max_iter = 300`, `tol = 1e-4`.
    /// The number of clusters and the seed are given when fitting.
    new;
}

mkc_core::checked! {
    /// Checked k-means parameters; [`KMeans::fit_features`] runs the algorithm on a feature
    /// matrix, [`Clusterer::fit`](mkc_core::Clusterer::fit) on the features of a
    /// [`KernelSet`](mkc_core::KernelSet).
    pub struct KMeans(KMeansParams);
    |p| crate::check_loop(Some(p.n_init), p.max_iter, Some(p.tol))
}

/// Result of k-means.
#[derive(Debug, Clone, PartialEq)]
pub struct KMeansFit {
    /// Cluster of every row, in `0..k`.
    pub labels: Vec<usize>,
    /// k x d centres (from the last update step, as scikit-learn).
    pub centroids: Mat<f64>,
    /// Σ_i ‖x_i − centroid_{label_i}‖² of the returned labels and centroids.
    pub inertia: f64,
    /// Centre updates performed by the winning restart.
    pub n_iter: usize,
    /// Inertia after every assignment step of the winning restart (non-increasing).
    pub inertia_trace: Vec<f64>,
    /// Index of the winning restart.
    pub best_restart: usize,
}

impl KMeans {
    /// Cluster the rows of `x` (n x d) into `n_clusters` clusters; restart r draws its
    /// k-means++ seeds from `derive(seed, r)`.
    ///
    /// # Errors
    /// Empty or non-finite `x`, `n_clusters` 0 or > n.
    pub fn fit_features(
        &self,
        x: MatRef<'_, f64>,
        n_clusters: usize,
        seed: u64,
    ) -> Result<KMeansFit> {
        validate::non_empty("x", x)?;
        validate::finite("x", x)?;
        self.fit_valid(x, n_clusters, seed)
    }

    fn fit_valid(&self, x: MatRef<'_, f64>, n_clusters: usize, seed: u64) -> Result<KMeansFit> {
        let (n, d) = (x.nrows(), x.ncols());
        validate::n_clusters(n_clusters, n, 1)?;
        // Row-major copy: every distance reads one contiguous row.
        let rows: Vec<f64> = (0..n)
            .flat_map(|i| (0..d).map(move |j| x[(i, j)]))
            .collect();
        let tol_abs = self.p.tol * mean_variance(&rows, n, d);
        let exp = (n_clusters >= GEMM_MIN_K).then(|| Expansion::new(&rows, n, d));
        let engine = match &exp {
            Some(e) => Engine::Expansion(e),
            None => Engine::Exact,
        };
        let runs: Vec<KMeansFit> = (0..self.p.n_init)
            .into_par_iter()
            .map(|r| {
                let mut fit = lloyd(
                    &rows,
                    n,
                    d,
                    n_clusters,
                    self.p.max_iter,
                    tol_abs,
                    seed::derive(seed, r as u64),
                    &engine,
                );
                fit.best_restart = r;
                fit
            })
            .collect();
        let mut best: Option<KMeansFit> = None;
        for f in runs {
            if best.as_ref().is_none_or(|b| f.inertia < b.inertia) {
                best = Some(f);
            }
        }
        best.ok_or_else(|| Error::numerical("k-means", "no restart produced a result"))
    }
}

mkc_core::diagnostics! {
    /// Diagnostics of k-means ([`Clustering::diagnostics`]).
    pub struct KMeansDiagnostics {
        /// Final inertia Σ_i ‖x_i − centroid_{label_i}‖².
        inertia: f64,
        /// Index of the winning restart.
        best_restart: usize,
    }
}

mkc_core::clusterer! {
    KMeans, "kmeans", KMeansDiagnostics;
    /// k-means on the set's features ([`KernelSet::features`](mkc_core::KernelSet::features); an error when the set has
    /// none: k-means does not use kernels). The objective trace is the inertia after every
    /// assignment step (minimised).
    fn fit(&self, data, n_clusters, seed) {
        let x = data.require_features("k-means")?;
        let fit = self.fit_valid(x, n_clusters, seed)?;
        let converged = fit.n_iter < self.p.max_iter;
        let diag = KMeansDiagnostics {
            inertia: fit.inertia,
            best_restart: fit.best_restart,
        };
        Ok(Clustering::new(fit.labels, n_clusters, diag)
            .with_objective(fit.inertia_trace)
            .with_iterations(fit.n_iter, converged))
    }
}

mkc_core::clusterer_via_check!(KMeansParams, "kmeans");

fn mean_variance(rows: &[f64], n: usize, d: usize) -> f64 {
    let mut total = 0.0;
    for j in 0..d {
        let mean = (0..n).map(|i| rows[i * d + j]).sum::<f64>() / n as f64;
        total += (0..n)
            .map(|i| (rows[i * d + j] - mean).powi(2))
            .sum::<f64>()
            / n as f64;
    }
    total / d as f64
}

/// Coordinates summed between two checks of the partial sum against the bound.
const PRUNE_CHUNK: usize = 8;

/// ‖a − b‖², summed left to right. Stops early with the partial sum once it exceeds
/// `bound`, or reaches it when `stop_at_equal` (the terms are non-negative, so the full
/// sum would be at least as large). The summation order is the same either way, so a
/// sum that completes is bit-identical to the plain one.
#[inline]
fn sq_dist_bounded(a: &[f64], b: &[f64], bound: f64, stop_at_equal: bool) -> f64 {
    let mut acc = 0.0;
    for (ca, cb) in a.chunks(PRUNE_CHUNK).zip(b.chunks(PRUNE_CHUNK)) {
        for (x, y) in ca.iter().zip(cb) {
            acc += (x - y) * (x - y);
        }
        if acc > bound || (stop_at_equal && acc == bound) {
            return acc;
        }
    }
    acc
}

/// Nearest centre of every row (ties to the lowest index); returns the inertia and
/// writes each row's squared distance into `dist`. `prev` (the labels of the previous
/// assignment, if any) gives the first candidate, whose distance bounds the others: a
/// partial sum already above the best so far (or equal to it, for a higher index)
/// cannot win. The result is the same as an exhaustive scan.
fn assign(
    rows: &[f64],
    d: usize,
    centres: &[f64],
    prev: Option<&[usize]>,
    labels: &mut [usize],
    dist: &mut [f64],
) -> f64 {
    labels
        .par_iter_mut()
        .zip(dist.par_iter_mut())
        .enumerate()
        .with_min_len(256)
        .for_each(|(i, (l, di))| {
            let x = &rows[i * d..(i + 1) * d];
            let mut best = (f64::INFINITY, usize::MAX);
            if let Some(p) = prev {
                let c = p[i];
                best = (
                    sq_dist_bounded(x, &centres[c * d..(c + 1) * d], f64::INFINITY, false),
                    c,
                );
            }
            for (c, ctr) in centres.chunks_exact(d).enumerate() {
                if c == best.1 {
                    continue;
                }
                let v = sq_dist_bounded(x, ctr, best.0, c > best.1);
                if v < best.0 || (v == best.0 && c < best.1) {
                    best = (v, c);
                }
            }
            *l = best.1;
            *di = best.0;
        });
    dist.iter().sum()
}

/// From this many clusters on, distances are taken by the expansion
/// ‖x‖² + ‖c‖² − 2xᵀc, with one matrix product per assignment ([`assign_gemm`], as
/// scikit-learn does) and k-means++ distances in SIMD lanes, pruned by the triangle
/// inequality ([`Expansion::seed_dists`]); below it, by exact differences ([`assign`]).
/// Many clusters in as many dimensions is the rows of an eigenvector matrix P with
/// c = 120 columns (SCMK on AR), where the exact scan cost 90% of a run. Results below
/// the threshold are unchanged.
pub(crate) const GEMM_MIN_K: usize = 32;

/// Means of the clusters (all non-empty when called).
fn update(rows: &[f64], d: usize, labels: &[usize], k: usize, centres: &mut [f64]) {
    let mut counts = vec![0usize; k];
    centres.iter_mut().for_each(|v| *v = 0.0);
    for (i, &l) in labels.iter().enumerate() {
        counts[l] += 1;
        for (c, x) in centres[l * d..(l + 1) * d]
            .iter_mut()
            .zip(&rows[i * d..(i + 1) * d])
        {
            *c += x;
        }
    }
    for (c, ctr) in centres.chunks_exact_mut(d).enumerate() {
        let m = counts[c].max(1) as f64;
        ctr.iter_mut().for_each(|v| *v /= m);
    }
}

/// How a run takes distances: exact differences ([`assign`]) or the expansion
/// ([`crate::expansion`]).
enum Engine<'e, 'a> {
    Exact,
    Expansion(&'e Expansion<'a>),
}

#[allow(clippy::too_many_arguments)]
fn lloyd(
    rows: &[f64],
    n: usize,
    d: usize,
    k: usize,
    max_iter: usize,
    tol_abs: f64,
    seed_r: u64,
    engine: &Engine<'_, '_>,
) -> KMeansFit {
    let mut rng = seed::rng(seed_r);
    let w = vec![1.0; n];
    let row = |i: usize| &rows[i * d..(i + 1) * d];
    let seeds = match engine {
        Engine::Expansion(e) => kmeans_plus_plus_cols(n, k, &w, &mut rng, |c, known, out| {
            e.seed_dists(c, known, out)
        }),
        Engine::Exact => kmeans_plus_plus(n, k, &w, &mut rng, |i, j, bound| {
            sq_dist_bounded(row(i), row(j), bound, true)
        }),
    };
    let mut gram = match engine {
        Engine::Expansion(_) => Mat::zeros(n, k),
        Engine::Exact => Mat::new(),
    };
    let mut assign_any =
        |centres: &[f64], prev: Option<&[usize]>, labels: &mut [usize], dist: &mut [f64]| {
            match engine {
                Engine::Expansion(e) => assign_gemm(e, centres, &mut gram, labels, dist),
                Engine::Exact => assign(rows, d, centres, prev, labels, dist),
            }
        };
    let mut centres: Vec<f64> = seeds
        .iter()
        .flat_map(|&s| rows[s * d..(s + 1) * d].iter().copied())
        .collect();
    let mut labels = vec![0usize; n];
    let mut dist = vec![0.0; n];
    let mut trace = vec![assign_any(&centres, None, &mut labels, &mut dist)];
    let mut new_centres = vec![0.0; k * d];
    let mut new_labels = vec![0usize; n];
    let mut counts = vec![0usize; k];
    let mut n_iter = 0;
    while n_iter < max_iter {
        n_iter += 1;
        // Empty clusters (scikit-learn's rule): relocate the points farthest from their
        // centre into them, then take the means.
        fill_empty(&mut labels, &mut counts, k, |i| dist[i]);
        update(rows, d, &labels, k, &mut new_centres);
        let shift: f64 = centres
            .iter()
            .zip(&new_centres)
            .map(|(a, b)| (a - b) * (a - b))
            .sum();
        centres.copy_from_slice(&new_centres);
        let inertia = assign_any(&centres, Some(&labels), &mut new_labels, &mut dist);
        trace.push(inertia);
        let changed = new_labels != labels;
        labels.copy_from_slice(&new_labels);
        if !changed || shift <= tol_abs {
            break;
        }
    }
    let inertia = trace.last().copied().unwrap_or(f64::NAN);
    let centroids = Mat::from_fn(k, d, |c, j| centres[c * d + j]);
    KMeansFit {
        labels,
        centroids,
        inertia,
        n_iter,
        inertia_trace: trace,
        best_restart: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mkc_core::ParamGuard;

    /// The pruned assignment returns exactly (bit for bit) what an exhaustive scan with
    /// plain left-to-right sums returns, ties to the lowest index included, from any
    /// previous labelling.
    #[test]
    fn pruned_assignment_equals_the_exhaustive_scan() {
        let (n, d, k) = (300, 19, 12);
        let mut lcg = crate::lcg(11);
        let mut next = || (lcg() >> 33) as usize;
        // Small integers: many exactly equal distances.
        let rows: Vec<f64> = (0..n * d).map(|_| (next() % 3) as f64).collect();
        let centres: Vec<f64> = (0..k * d).map(|_| (next() % 3) as f64).collect();
        let mut want_l = vec![0; n];
        let mut want_d = vec![0.0; n];
        for i in 0..n {
            let x = &rows[i * d..(i + 1) * d];
            let mut best = (f64::INFINITY, 0);
            for (c, ctr) in centres.chunks_exact(d).enumerate() {
                let v: f64 = x.iter().zip(ctr).map(|(a, b)| (a - b) * (a - b)).sum();
                if v < best.0 {
                    best = (v, c);
                }
            }
            want_l[i] = best.1;
            want_d[i] = best.0;
        }
        let prev: Vec<usize> = (0..n).map(|_| next() % k).collect();
        for p in [None, Some(&prev[..]), Some(&want_l[..])] {
            let mut l = vec![0; n];
            let mut dist = vec![0.0; n];
            let total = assign(&rows, d, &centres, p, &mut l, &mut dist);
            assert_eq!(l, want_l);
            assert_eq!(dist, want_d);
            assert_eq!(total, want_d.iter().sum::<f64>());
        }
    }

    /// The expansion path (many clusters) finds the same nearest centres as the exact
    /// scan on data without near-ties, with distances equal to rounding.
    #[test]
    fn gemm_assignment_matches_the_exact_one() {
        let (n, d, k) = (257, 37, GEMM_MIN_K + 3);
        let mut lcg = crate::lcg(5);
        let mut next = || (lcg() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
        let rows: Vec<f64> = (0..n * d).map(|_| next()).collect();
        let centres: Vec<f64> = (0..k * d).map(|_| next()).collect();
        let (mut l1, mut d1) = (vec![0; n], vec![0.0; n]);
        let t1 = assign(&rows, d, &centres, None, &mut l1, &mut d1);
        let e = Expansion::new(&rows, n, d);
        let mut gram = Mat::zeros(n, k);
        let (mut l2, mut d2) = (vec![0; n], vec![0.0; n]);
        let t2 = assign_gemm(&e, &centres, &mut gram, &mut l2, &mut d2);
        assert_eq!(l1, l2);
        for (a, b) in d1.iter().zip(&d2) {
            assert!((a - b).abs() <= 1e-12 * a.max(1.0), "{a} vs {b}");
        }
        assert!((t1 - t2).abs() <= 1e-10 * t1);
        // Whole fits: 40 separated groups are recovered by both paths.
        let groups = GEMM_MIN_K + 8;
        let m = 6;
        let x = Mat::from_fn(groups * m, 3, |i, j| {
            let g = (i / m) as f64;
            let base = [g * 10.0, (g * 7.0) % 13.0 * 10.0, (g * 3.0) % 11.0 * 10.0][j];
            base + 0.01 * ((i * 31 + j * 7) % 17) as f64
        });
        let fit = KMeansParams::new()
            .n_init(4)
            .check()
            .unwrap()
            .fit_features(x.as_ref(), groups, 0)
            .unwrap();
        for g in 0..groups {
            let l = fit.labels[g * m];
            assert!((0..m).all(|t| fit.labels[g * m + t] == l));
        }
        let mut distinct = fit.labels.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), groups);
    }
}
