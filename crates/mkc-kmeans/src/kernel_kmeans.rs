//! (Weighted) kernel k-means on a precomputed kernel (Dhillon, Guan & Kulis 2004).
//!
//! Objective, for labels ℓ and positive sample weights w:
//!
//! J(ℓ) = Σ_i w_i ‖φ(x_i) − m_{ℓ_i}‖²,  m_c = Σ_{j∈c} w_j φ(x_j) / s_c,  s_c = Σ_{j∈c} w_j
//!      = Σ_i w_i K_ii − Σ_c T_c / s_c,   T_c = Σ_{i,j∈c} w_i w_j K_ij.
//!
//! The squared distance of point j to centre c is
//! K_jj − 2 S_jc / s_c + T_c / s_c², with S_jc = Σ_{i∈c} w_i K_ji, and T_c = Σ_{j∈c} w_j S_jc.
//! One iteration = one product S = K·W·E (see `cluster_sums`), then an assignment.

use crate::cluster_sums::{ClusterSums, RunSums};
use crate::kernel_view::{self, KernelCols};
use crate::seeding::kmeans_plus_plus;
use faer::MatRef;
use mkc_core::{seed, validate, Error, Result};
use rayon::prelude::*;

/// How kernel k-means starts.
#[derive(Debug, Clone, PartialEq)]
pub enum KernelInit {
    /// k-means++ in feature space (greedy variant, distances from eq. (1) of GUMKL:
    /// K_ii − 2K_ij + K_jj, draws ∝ w_i D(i)²), then every point to its nearest seed.
    PlusPlus,
    /// Start from these labels (length n, values < k). Every restart would be the same
    /// run, so a single run is made whatever `n_init` says.
    Labels(Vec<usize>),
}

/// Hyperparameters of kernel k-means (unchecked builder).
#[derive(Debug, Clone, PartialEq)]
pub struct KernelKMeansParams {
    n_init: usize,
    max_iter: usize,
    tol: f64,
    init: KernelInit,
    weights: Option<Vec<f64>>,
}

impl Default for KernelKMeansParams {
    fn default() -> Self {
        Self::new()
    }
}

impl mkc_core::params::Reflect for KernelKMeansParams {
    fn param_info() -> Vec<mkc_core::params::ParamInfo> {
        Self::new().reflect_fields()
    }
}

impl KernelKMeansParams {
    /// Defaults: `n_init = 1`, `max_iter = 100`, `tol = 0` (stop only when the labels no
    /// longer change), k-means++ initialisation, unit weights. The number of clusters and
    /// the seed are given when fitting.
    pub fn new() -> Self {
        Self {
            n_init: 1,
            max_iter: 100,
            tol: 0.0,
            init: KernelInit::PlusPlus,
            weights: None,
        }
    }
    mkc_core::setters! {
        reflect reflect_fields;
        /// Number of restarts (seeded in parallel, then iterated in lockstep, one pass over
        /// the kernel per iteration for all of them; the lowest objective wins, ties to the
        /// lowest restart index). Restart r is seeded with `mkc_core::seed::derive(seed, r)`.
        n_init: usize,
        /// Maximum number of assignment steps per run (≥ 1).
        max_iter: usize,
        /// Also stop when the objective decreased by at most `tol · |J|` in one iteration.
        tol: f64,
        /// Initialisation (default [`KernelInit::PlusPlus`]).
        init: KernelInit,
    }
    /// Start from these labels (shorthand for `init(KernelInit::Labels(..))`).
    pub fn initial_labels(self, labels: Vec<usize>) -> Self {
        self.init(KernelInit::Labels(labels))
    }
    /// Positive sample weights (weighted kernel k-means, as MVKKM needs).
    pub fn sample_weights(mut self, w: Vec<f64>) -> Self {
        self.weights = Some(w);
        self
    }
}

mkc_core::checked! {
    /// Checked kernel k-means parameters; [`KernelKMeans::fit_kernel`] runs the algorithm on
    /// one kernel, [`Clusterer::fit`](mkc_core::Clusterer::fit) on a
    /// [`KernelSet`](mkc_core::KernelSet) (its kernel, or the mean of its kernels: kernel
    /// k-means on several kernels is Avg-KKM).
    pub struct KernelKMeans(KernelKMeansParams);
    |p| {
        crate::check_loop(Some(p.n_init), p.max_iter, Some(p.tol))?;
        if let Some(w) = &p.weights {
            kernel_view::weights(Some(w), w.len())?;
        }
        Ok(())
    }
}

/// Result of kernel k-means.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelKMeansFit {
    /// Cluster of every sample, in `0..k`.
    pub labels: Vec<usize>,
    /// Final objective J (weighted within-cluster sum of squared feature-space distances).
    pub objective: f64,
    /// Assignment steps of the winning run.
    pub n_iter: usize,
    /// J of the labels at the start of every iteration of the winning run, ending with the
    /// final J (non-increasing).
    pub objective_trace: Vec<f64>,
    /// Whether the winning run stopped because labels stopped changing (or by `tol`)
    /// rather than at `max_iter`.
    pub converged: bool,
    /// Index of the winning restart.
    pub best_restart: usize,
}

impl KernelKMeans {
    /// [`KernelKMeans::fit_kernel`] on a kernel already validated.
    fn fit_valid(
        &self,
        k: MatRef<'_, f64>,
        n_clusters: usize,
        seed: u64,
    ) -> Result<KernelKMeansFit> {
        let n = k.nrows();
        validate::n_clusters(n_clusters, n, 1)?;
        let w = kernel_view::weights(self.p.weights.as_deref(), n)?;
        let kc = KernelCols::new(k);
        if let KernelInit::Labels(l) = &self.p.init {
            kernel_view::initial_labels(l, n, n_clusters)?;
            let mut fit = run(&kc, &w, n_clusters, l.clone(), self.p.max_iter, self.p.tol);
            fit.best_restart = 0;
            return Ok(fit);
        }
        let mut fits = self.seeded_runs(&kc, &w, n_clusters, &[seed]);
        fits.pop()
            .unwrap_or_else(|| Err(Error::numerical("kernel k-means", "no run was made")))
    }

    /// The k-means++ runs of every seed (restart r of seed s from `derive(s, r)`),
    /// iterated together in lockstep (one pass over K per iteration for all of them; each
    /// run the same, bit for bit, as alone), and the best restart of each seed.
    fn seeded_runs(
        &self,
        kc: &KernelCols<'_>,
        w: &[f64],
        n_clusters: usize,
        seeds: &[u64],
    ) -> Vec<Result<KernelKMeansFit>> {
        let (n, m) = (kc.n(), self.p.n_init);
        // Seeds in parallel, then the runs in lockstep.
        let starts: Vec<Vec<usize>> = (0..seeds.len() * m)
            .into_par_iter()
            .map(|t| {
                let mut rng = seed::rng(seed::derive(seeds[t / m], (t % m) as u64));
                let centres = kmeans_plus_plus(n, n_clusters, w, &mut rng, |i, j, _| kc.dist(i, j));
                nearest_seed(kc, &centres)
            })
            .collect();
        let mut runs = run_many(kc, w, n_clusters, starts, self.p.max_iter, self.p.tol);
        let mut fits = Vec::with_capacity(seeds.len());
        while !runs.is_empty() {
            let rest = runs.split_off(m.min(runs.len()));
            let mut own = std::mem::replace(&mut runs, rest);
            for (r, fit) in own.iter_mut().enumerate() {
                fit.best_restart = r;
            }
            fits.push(best_of(own));
        }
        fits
    }

    /// [`KernelKMeans::fit_kernel`] for several seeds on one kernel: every seed's
    /// restarts are iterated together in lockstep, one pass over K per iteration for all
    /// of them (a kernel that does not fit in cache is read once per iteration instead of
    /// once per run and iteration), and each seed's fit is the one
    /// [`KernelKMeans::fit_kernel`] gives, bit for bit. With [`KernelInit::Labels`] every
    /// seed makes the same run, made once per seed.
    ///
    /// # Errors
    /// Those of [`KernelKMeans::fit_kernel`] (for every seed alike).
    pub fn fit_kernel_seeds(
        &self,
        k: MatRef<'_, f64>,
        n_clusters: usize,
        seeds: &[u64],
    ) -> Result<Vec<KernelKMeansFit>> {
        validate::kernel("kernel", k)?;
        self.seeds_valid(k, n_clusters, seeds).into_iter().collect()
    }

    /// [`KernelKMeans::fit_kernel_seeds`] on a kernel already validated, one result per
    /// seed.
    fn seeds_valid(
        &self,
        k: MatRef<'_, f64>,
        n_clusters: usize,
        seeds: &[u64],
    ) -> Vec<Result<KernelKMeansFit>> {
        let lockstep = || -> Result<Vec<Result<KernelKMeansFit>>> {
            validate::n_clusters(n_clusters, k.nrows(), 1)?;
            let w = kernel_view::weights(self.p.weights.as_deref(), k.nrows())?;
            Ok(self.seeded_runs(&KernelCols::new(k), &w, n_clusters, seeds))
        };
        let each = || {
            seeds
                .iter()
                .map(|&s| self.fit_valid(k, n_clusters, s))
                .collect()
        };
        match &self.p.init {
            // An error: every seed gets its own fit's.
            KernelInit::PlusPlus => lockstep().unwrap_or_else(|_| each()),
            KernelInit::Labels(_) => each(),
        }
    }
}

/// [`mkc_core::Clusterer::fit_restarts`] of kernel k-means: the kernel (or the mean of
/// the kernels) is formed once, every seed's runs are iterated in lockstep
/// ([`KernelKMeans::fit_kernel_seeds`]), and each run's wall time is an equal share of
/// the whole (the convention of restarts that share work). The fits are those of
/// `fit`, bit for bit.
fn lockstep_restarts(
    method: &KernelKMeans,
    data: &mkc_core::KernelSet<'_>,
    n_clusters: usize,
    seeds: &[u64],
) -> Vec<Result<mkc_core::Clustering<KernelKMeansDiagnostics>>> {
    use mkc_core::Clusterer;
    let t0 = std::time::Instant::now();
    let kernel = match data.one_kernel("kernel k-means") {
        Ok(k) => k,
        Err(_) => {
            return seeds
                .iter()
                .map(|&s| method.fit(data, n_clusters, s))
                .collect()
        }
    };
    let fits = method.seeds_valid(kernel.as_mat(), n_clusters, seeds);
    let share = t0.elapsed().as_secs_f64() / seeds.len().max(1) as f64;
    fits.into_iter()
        .map(|fit| {
            let mut c = clustering(fit?, n_clusters);
            c.timings.set_wall(share);
            Ok(c)
        })
        .collect()
}

/// The result of `fit` from a fit.
fn clustering(
    fit: KernelKMeansFit,
    n_clusters: usize,
) -> mkc_core::Clustering<KernelKMeansDiagnostics> {
    let diag = KernelKMeansDiagnostics {
        objective: fit.objective,
        best_restart: fit.best_restart,
    };
    mkc_core::Clustering::new(fit.labels, n_clusters, diag)
        .with_objective(fit.objective_trace)
        .with_iterations(fit.n_iter, fit.converged)
}

mkc_core::diagnostics! {
    /// Diagnostics of kernel k-means ([`Clustering::diagnostics`](mkc_core::Clustering::diagnostics)).
    pub struct KernelKMeansDiagnostics {
        /// Final objective J (also the last entry of the objective trace).
        objective: f64,
        /// Index of the winning restart.
        best_restart: usize,
    }
}

kernel_method! {
    KernelKMeans(KernelKMeansParams) -> KernelKMeansFit, "kkm";
    /// Cluster with kernel `k` (n x n, symmetric, finite) into `n_clusters` clusters;
    /// restart r of the k-means++ seeding draws from `derive(seed, r)`. PSD is not
    /// required; with an indefinite kernel the objective can be negative and monotonicity
    /// is not guaranteed.
    ///
    /// # Errors
    /// Invalid kernel ([`validate::kernel`]), `n_clusters` 0 or > n, weights or initial
    /// labels of the wrong length or out of range.
    pub fn fit_kernel("kernel");
    /// Kernel k-means on the set's kernel, or on the equal-weight mean of its kernels.
    /// The objective trace is J (minimised) at the start of every iteration, ending with
    /// the final J.
    fn fit("kernel k-means") -> KernelKMeansDiagnostics { objective, best_restart }, traced;
    /// The kernel (or the mean of the kernels) is formed once and the runs of all seeds
    /// are iterated in lockstep ([`KernelKMeans::fit_kernel_seeds`]); each run's wall time
    /// is an equal share of the whole. The same fits as `fit`, bit for bit.
    fn fit_restarts = lockstep_restarts;
}

/// Lowest objective, ties to the lowest restart index (runs arrive in index order).
fn best_of(runs: Vec<KernelKMeansFit>) -> Result<KernelKMeansFit> {
    let mut best: Option<KernelKMeansFit> = None;
    for f in runs {
        if best.as_ref().is_none_or(|b| f.objective < b.objective) {
            best = Some(f);
        }
    }
    best.ok_or_else(|| Error::numerical("kernel k-means", "no restart produced a result"))
}

fn nearest_seed(kc: &KernelCols<'_>, centres: &[usize]) -> Vec<usize> {
    (0..kc.n())
        .map(|i| {
            let mut best = (f64::INFINITY, 0);
            for (c, &m) in centres.iter().enumerate() {
                let d = kc.dist(i, m);
                if d < best.0 {
                    best = (d, c);
                }
            }
            best.1
        })
        .collect()
}

/// Cluster weights s_c and T_c from the sums S.
fn cluster_stats(s: RunSums<'_>, labels: &[usize], w: &[f64], k: usize) -> (Vec<f64>, Vec<f64>) {
    let mut size = vec![0.0; k];
    let mut t = vec![0.0; k];
    for (j, (&c, &wj)) in labels.iter().zip(w).enumerate() {
        size[c] += wj;
        t[c] += wj * s.get(j, c);
    }
    (size, t)
}

/// One run of Lloyd-style kernel k-means from `labels`.
pub(crate) fn run(
    kc: &KernelCols<'_>,
    w: &[f64],
    k: usize,
    labels: Vec<usize>,
    max_iter: usize,
    tol: f64,
) -> KernelKMeansFit {
    let mut fits = run_many(kc, w, k, vec![labels], max_iter, tol);
    fits.pop()
        .unwrap_or_else(|| Run::new(Vec::new(), 0, 0.0).finish())
}

/// Runs of Lloyd-style kernel k-means from each of `starts`, in lockstep: every
/// iteration computes the sums S of all runs still going in one pass over K
/// ([`ClusterSums`]), then each run takes its step. Each run is the same, bit for bit,
/// as when it is made alone; the fits come in the order of `starts`.
pub(crate) fn run_many(
    kc: &KernelCols<'_>,
    w: &[f64],
    k: usize,
    starts: Vec<Vec<usize>>,
    max_iter: usize,
    tol: f64,
) -> Vec<KernelKMeansFit> {
    let n = kc.n();
    let base: f64 = (0..n).map(|i| w[i] * kc.diag(i)).sum();
    let mut runs: Vec<Run> = starts.into_iter().map(|l| Run::new(l, k, base)).collect();
    let mut sums = ClusterSums::new(n, k, runs.len());
    loop {
        let mut going: Vec<&mut Run> = runs.iter_mut().filter(|r| !r.done).collect();
        if going.is_empty() {
            break;
        }
        let labels: Vec<&[usize]> = going.iter().map(|r| r.labels.as_slice()).collect();
        sums.compute(kc, &labels, w);
        going
            .par_iter_mut()
            .enumerate()
            .for_each(|(r, run)| run.step(kc, sums.run(r), w, max_iter, tol));
    }
    runs.into_iter().map(Run::finish).collect()
}

/// The state of one run of [`run_many`].
struct Run {
    labels: Vec<usize>,
    k: usize,
    /// Σ_i w_i K_ii.
    base: f64,
    trace: Vec<f64>,
    own: Vec<f64>,
    counts: Vec<usize>,
    n_iter: usize,
    converged: bool,
    done: bool,
}

impl Run {
    fn new(labels: Vec<usize>, k: usize, base: f64) -> Self {
        let n = labels.len();
        Self {
            labels,
            k,
            base,
            trace: Vec::new(),
            own: vec![0.0; n],
            counts: vec![0usize; k],
            n_iter: 0,
            converged: false,
            done: false,
        }
    }

    /// One pass of the loop from the sums S of the current labels: the objective, the
    /// stopping tests and the assignment (or, when a cluster is empty, its filling; the
    /// sums are then computed again without counting an iteration). Sets `done` when the
    /// run ends.
    fn step(
        &mut self,
        kc: &KernelCols<'_>,
        sums: RunSums<'_>,
        w: &[f64],
        max_iter: usize,
        tol: f64,
    ) {
        let (n, k) = (self.labels.len(), self.k);
        let (size, t) = cluster_stats(sums, &self.labels, w, k);
        if size.contains(&0.0) {
            // Only user-given initial labels can leave a cluster empty here: fill it
            // with the points farthest from their centres, then redo the product.
            for (j, o) in self.own.iter_mut().enumerate() {
                let c = self.labels[j];
                *o = kc.diag(j) - 2.0 * sums.get(j, c) / size[c] + t[c] / (size[c] * size[c]);
            }
            let own = &self.own;
            fill_empty(&mut self.labels, &mut self.counts, k, |i| own[i]);
            return;
        }
        let obj = self.base
            - (0..k)
                .filter(|&c| size[c] > 0.0)
                .map(|c| t[c] / size[c])
                .sum::<f64>();
        if let Some(&prev) = self.trace.last() {
            if prev - obj <= tol * obj.abs() && tol > 0.0 {
                self.trace.push(obj);
                self.converged = true;
                self.done = true;
                return;
            }
        }
        self.trace.push(obj);
        if self.n_iter == max_iter {
            self.done = true;
            return;
        }
        self.n_iter += 1;
        // Assignment: keep the current cluster unless another is strictly closer (this
        // rules out cycling between equal-objective labelings).
        let mut changed = false;
        for j in 0..n {
            let cur = self.labels[j];
            let d = |c: usize| -2.0 * sums.get(j, c) / size[c] + t[c] / (size[c] * size[c]);
            let mut best = (d(cur), cur);
            for (c, &sc) in size.iter().enumerate() {
                if sc > 0.0 {
                    let dc = d(c);
                    if dc < best.0 {
                        best = (dc, c);
                    }
                }
            }
            self.own[j] = kc.diag(j) + best.0;
            if best.1 != cur {
                self.labels[j] = best.1;
                changed = true;
            }
        }
        let own = &self.own;
        fill_empty(&mut self.labels, &mut self.counts, k, |i| own[i]);
        if !changed {
            self.converged = true;
            self.done = true;
        }
    }

    fn finish(self) -> KernelKMeansFit {
        let objective = self.trace.last().copied().unwrap_or(f64::NAN);
        KernelKMeansFit {
            labels: self.labels,
            objective,
            n_iter: self.n_iter,
            objective_trace: self.trace,
            converged: self.converged,
            best_restart: 0,
        }
    }
}

/// scikit-learn's empty-cluster rule: every empty cluster receives one of the points
/// farthest from their current centre (`far(i)`, descending; ties to the lowest index),
/// taken only from clusters that keep at least one point. Returns whether labels changed.
pub fn fill_empty(
    labels: &mut [usize],
    counts: &mut [usize],
    k: usize,
    far: impl Fn(usize) -> f64,
) -> bool {
    counts.iter_mut().for_each(|c| *c = 0);
    for &l in labels.iter() {
        counts[l] += 1;
    }
    let empty: Vec<usize> = (0..k).filter(|&c| counts[c] == 0).collect();
    if empty.is_empty() {
        return false;
    }
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by(|&a, &b| far(b).total_cmp(&far(a)).then(a.cmp(&b)));
    let mut next = order.into_iter();
    for c in empty {
        for i in next.by_ref() {
            let from = labels[i];
            if counts[from] > 1 {
                counts[from] -= 1;
                counts[c] += 1;
                labels[i] = c;
                break;
            }
        }
    }
    true
}
