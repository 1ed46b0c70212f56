//! Global kernel k-means: the kernel form (Tzortzis & Likas, "The global kernel k-means
//! algorithm for clustering in feature space", IEEE Trans. Neural Networks 20(7), 2009) of
//! the global k-means algorithm of Likas, Vlassis & Verbeek ("The global k-means clustering
//! algorithm", Pattern Recognition 36(2), 2003).
//!
//! Clusters are added one at a time, starting from the whole set as one cluster. To go from
//! m − 1 to m clusters, the **exact** search tries every point j as the seed of the new
//! cluster — the (m − 1)-cluster solution with point j moved into cluster m − 1 — runs kernel
//! k-means from there, and keeps the run of least objective. The **fast** variant tries only
//! the point with the largest guaranteed reduction
//! `b_j = Σ_i max(d_i − ‖φ(x_j) − φ(x_i)‖², 0)` (the bound of the fast global k-means, with
//! `d_i` the squared feature-space distance of x_i to its cluster *mean*), starting from the
//! partition in which every point closer to `φ(x_j)` than to its mean joins the new cluster.
//!
//! Choices the papers leave open, made here:
//! * ties between candidate seeds go to the lowest index j;
//! * a point that is alone in its cluster is not tried (moving it would empty the cluster);
//! * in the fast variant, when the new cluster would swallow a whole old cluster, it starts
//!   from the single point j instead;
//! * every kernel k-means run stops when its labels stop changing or its objective decreases
//!   by at most `tol · |J|` in one step (default `tol = 1e-4`, the tolerance of the authors'
//!   multi-view kernel k-means code, which starts from this algorithm).
//!
//! The method is deterministic: no seed is used, and [`Clusterer::fit_restarts`](mkc_core::Clusterer::fit_restarts) fits once
//! for all seeds. Candidates run in parallel with rayon and are reduced in index order, so the
//! result does not depend on the number of threads.

use crate::kernel_kmeans::{run, KernelKMeansFit};
use crate::kernel_view::KernelCols;
use faer::MatRef;
use mkc_core::{validate, Clustering, Error, Result};
use rayon::prelude::*;

mkc_core::params! {
    /// Hyperparameters of global kernel k-means (unchecked builder).
    pub struct GlobalKernelKMeansParams {
        /// The fast variant: one candidate seed per added cluster (the largest bound `b_j`)
        /// instead of all n. The exact search costs n kernel k-means runs per added cluster.
        fast: bool = false,
        /// Maximum number of assignment steps of each kernel k-means run (≥ 1).
        max_iter: usize = 300,
        /// Each kernel k-means run also stops when its objective decreased by at most
        /// `tol · |J|` in one step (≥ 0; 0 = only when the labels stop changing).
        tol: f64 = 1e-4,
    }
    /// Defaults: the exact search, at most 300 iterations per kernel k-means run, relative
    /// tolerance 1e-4. The number of clusters is given when fitting; there is no seed.
    new;
}

mkc_core::checked! {
    /// Checked global kernel k-means parameters: [`GlobalKernelKMeans::fit_kernel`] runs on
    /// one kernel, [`Clusterer::fit`](mkc_core::Clusterer::fit) on a
    /// [`KernelSet`](mkc_core::KernelSet) (its kernel, or the equal-weight mean of its
    /// kernels).
    pub struct GlobalKernelKMeans(GlobalKernelKMeansParams);
    |p| crate::check_loop(None, p.max_iter, Some(p.tol))
}

/// Result of global kernel k-means.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct GlobalKernelKMeansFit {
    /// Cluster of every sample, in `0..n_clusters`.
    pub labels: Vec<usize>,
    /// Kernel k-means objective J of `labels` (within-cluster sum of squared feature-space
    /// distances to the cluster means).
    pub objective: f64,
    /// J of the solution with m = 1, 2, …, n_clusters clusters (non-increasing up to the
    /// tolerance of the runs: each search starts from a partition no worse than the last).
    pub objective_trace: Vec<f64>,
    /// Kernel k-means runs performed (all candidates of all stages).
    pub kmeans_runs: usize,
    /// Whether the kernel k-means run that produced `labels` met its stopping rule before
    /// its iteration cap.
    pub converged: bool,
}

impl GlobalKernelKMeans {
    /// Whether the fast variant is selected.
    pub fn is_fast(&self) -> bool {
        self.p.fast
    }

    /// Global kernel k-means on kernel `k` (n x n, symmetric, finite) into `n_clusters`
    /// clusters. Public because multi-view methods (MVKKM in `mkc-gumkl`) start from it on a
    /// kernel they form themselves.
    ///
    /// # Errors
    /// Invalid kernel ([`validate::kernel`]), `n_clusters` 0 or > n.
    pub fn fit_kernel(
        &self,
        k: MatRef<'_, f64>,
        n_clusters: usize,
    ) -> Result<GlobalKernelKMeansFit> {
        validate::kernel("global kernel k-means kernel", k)?;
        self.fit_valid(k, n_clusters)
    }

    /// [`GlobalKernelKMeans::fit_kernel`] on a kernel already validated.
    fn fit_valid(&self, k: MatRef<'_, f64>, n_clusters: usize) -> Result<GlobalKernelKMeansFit> {
        let n = k.nrows();
        validate::n_clusters(n_clusters, n, 1)?;
        let kc = KernelCols::new(k);
        let w = vec![1.0; n];
        let mut best = run(&kc, &w, 1, vec![0; n], self.p.max_iter, self.p.tol);
        let mut trace = vec![best.objective];
        let mut kmeans_runs = 1;
        for c in 1..n_clusters {
            let (stage, runs) = if self.p.fast {
                (self.fast_stage(k, &kc, &w, &best.labels, c), 1)
            } else {
                self.exact_stage(&kc, &w, &best.labels, c)
            };
            kmeans_runs += runs;
            best = stage.ok_or_else(|| {
                Error::input(
                    "global kernel k-means",
                    format!("cannot split the data into {} clusters", c + 1),
                )
            })?;
            trace.push(best.objective);
        }
        Ok(GlobalKernelKMeansFit {
            labels: best.labels,
            objective: best.objective,
            objective_trace: trace,
            kmeans_runs,
            converged: best.converged,
        })
    }

    /// From `c` to `c + 1` clusters, every point that is not alone in its cluster as the
    /// seed of the new one; the least objective wins, ties to the lowest index. Returns the
    /// winner and the number of runs.
    fn exact_stage(
        &self,
        kc: &KernelCols<'_>,
        w: &[f64],
        labels: &[usize],
        c: usize,
    ) -> (Option<KernelKMeansFit>, usize) {
        let mut sizes = vec![0usize; c];
        labels.iter().for_each(|&l| sizes[l] += 1);
        let runs: Vec<Option<KernelKMeansFit>> = (0..labels.len())
            .into_par_iter()
            .map(|j| {
                if sizes[labels[j]] < 2 {
                    return None; // moving j would empty its cluster
                }
                let mut init = labels.to_vec();
                init[j] = c;
                Some(run(kc, w, c + 1, init, self.p.max_iter, self.p.tol))
            })
            .collect();
        let count = runs.iter().flatten().count();
        let mut best: Option<KernelKMeansFit> = None;
        for r in runs.into_iter().flatten() {
            if best.as_ref().is_none_or(|b| r.objective < b.objective) {
                best = Some(r);
            }
        }
        (best, count)
    }

    /// From `c` to `c + 1` clusters, one run from the point of largest bound `b_j`.
    fn fast_stage(
        &self,
        k: MatRef<'_, f64>,
        kc: &KernelCols<'_>,
        w: &[f64],
        labels: &[usize],
        c: usize,
    ) -> Option<KernelKMeansFit> {
        let n = labels.len();
        let d = distances_to_own_mean(k, labels, c);
        let dist = |i: usize, j: usize| k[(i, i)] - 2.0 * k[(i, j)] + k[(j, j)];
        let bound = |j: usize| -> f64 { (0..n).map(|i| (d[i] - dist(i, j)).max(0.0)).sum() };
        let b: Vec<f64> = (0..n).into_par_iter().map(bound).collect();
        let j = (0..n).fold(0, |best, j| if b[j] > b[best] { j } else { best });
        let mut init = labels.to_vec();
        for i in 0..n {
            if dist(i, j) < d[i] || i == j {
                init[i] = c;
            }
        }
        if (0..c).any(|cc| !init.contains(&cc)) {
            // The new cluster swallowed a whole old one: seed it with the single point only.
            init = labels.to_vec();
            init[j] = c;
        }
        Some(run(kc, w, c + 1, init, self.p.max_iter, self.p.tol))
    }
}

/// Squared feature-space distance of every point to the mean of its own cluster.
fn distances_to_own_mean(k: MatRef<'_, f64>, labels: &[usize], m: usize) -> Vec<f64> {
    let n = labels.len();
    let mut size = vec![0usize; m];
    for &c in labels {
        size[c] += 1;
    }
    // s[i] = Σ_{j ∈ C(i)} K_ij; within[c] = Σ_{i,j ∈ C} K_ij.
    let s: Vec<f64> = (0..n)
        .into_par_iter()
        .map(|i| {
            (0..n)
                .filter(|&j| labels[j] == labels[i])
                .map(|j| k[(j, i)])
                .sum()
        })
        .collect();
    let mut within = vec![0.0; m];
    for i in 0..n {
        within[labels[i]] += s[i];
    }
    (0..n)
        .map(|i| {
            let c = labels[i];
            let sz = size[c] as f64;
            (k[(i, i)] - 2.0 * s[i] / sz + within[c] / (sz * sz)).max(0.0)
        })
        .collect()
}

mkc_core::diagnostics! {
    /// Diagnostics of global kernel k-means ([`Clustering::diagnostics`]).
    pub struct GlobalKernelKMeansDiagnostics {
        /// Final kernel k-means objective J (also the last entry of the objective trace).
        objective: f64,
        /// Kernel k-means runs performed.
        kmeans_runs: usize,
    }
}

mkc_core::clusterer! {
    GlobalKernelKMeans, "global-kkm", GlobalKernelKMeansDiagnostics;
    /// Global kernel k-means on the set's kernel, or on the equal-weight mean of its
    /// kernels; the seed is ignored. The objective trace is J (minimised) of the solution
    /// with 1, 2, …, `n_clusters` clusters, one entry per stage (`iterations` = the number
    /// of stages); `converged` is that of the final kernel k-means run.
    fn fit(&self, data, n_clusters, _seed) {
        let k = data.one_kernel("global kernel k-means")?;
        let mut timings = mkc_core::Timings::default();
        let fit = timings.time("kmeans", || self.fit_valid(k.as_mat(), n_clusters))?;
        let diag = GlobalKernelKMeansDiagnostics {
            objective: fit.objective,
            kmeans_runs: fit.kmeans_runs,
        };
        let stages = fit.objective_trace.len();
        Ok(Clustering::new(fit.labels, n_clusters, diag)
            .with_objective(fit.objective_trace)
            .with_iterations(stages, fit.converged)
            .with_timings(timings))
    }
    /// Deterministic: one fit, copied for every seed ([`mkc_core::seed_free_restarts`]).
    fn fit_restarts(&self, data, n_clusters, seeds) {
        mkc_core::seed_free_restarts(self, data, n_clusters, seeds)
    }
}

mkc_core::clusterer_via_check!(GlobalKernelKMeansParams, "global-kkm");
