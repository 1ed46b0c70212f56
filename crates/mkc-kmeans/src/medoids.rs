//! Greedy medoid initialisation (GUMKL, Sect. 2.2, eq. 3) and kernel k-medoids
//! (GUMKL, Sect. 2.1, objective eq. 2), with squared feature-space distances
//! D(i, j) = K_ii − 2K_ij + K_jj (eq. 1), clamped at 0 against rounding.

use crate::kernel_view::KernelCols;
use faer::MatRef;
use mkc_core::{seed, validate, Result};
use rand::seq::index::sample;
use rayon::prelude::*;

/// The `m` greedy medoids of GUMKL (deterministic).
///
/// - First medoid: the medoid of the whole data set, argmin_j Σ_i D(i, j).
/// - Medoid k: with d_i the distance of x_i to its nearest chosen medoid, the point
///   maximising the reduction of eq. (3), b_j = Σ_i max(d_i − D(i, j), 0); the chosen
///   medoids stay fixed.
///
/// Choices the paper leaves open: ties go to the lowest index; already chosen medoids
/// are excluded from the search (their b_j is 0, and when every b_j is 0 — fewer than m
/// distinct points — the lowest unchosen index is taken, so the m medoids are always
/// distinct).
///
/// # Errors
/// Invalid kernel, m = 0 or m > n.
pub fn greedy_medoids(k: MatRef<'_, f64>, m: usize) -> Result<Vec<usize>> {
    let n = validate::kernel("kernel", k)?;
    validate::n_clusters(m, n, 1)?;
    Ok(greedy(&KernelCols::new(k), m))
}

pub(crate) fn greedy(kc: &KernelCols<'_>, m: usize) -> Vec<usize> {
    let n = kc.n();
    // Σ_i D(i, j) = Σ_i K_ii + n K_jj − 2 Σ_i K_ij, per j, in parallel (each in order).
    let diag_sum: f64 = (0..n).map(|i| kc.diag(i)).sum();
    let total: Vec<f64> = (0..n)
        .into_par_iter()
        .map(|j| diag_sum + n as f64 * kc.diag(j) - 2.0 * kc.col(j).iter().sum::<f64>())
        .collect();
    let first = argbest(&total, |a, b| a < b, &[]);
    let mut medoids = vec![first];
    let mut d: Vec<f64> = (0..n).map(|i| kc.dist(i, first)).collect();
    while medoids.len() < m {
        let b: Vec<f64> = (0..n)
            .into_par_iter()
            .map(|j| {
                let cj = kc.col(j);
                let kjj = cj[j];
                let mut s = 0.0;
                for i in 0..n {
                    let dij = (kc.diag(i) - 2.0 * cj[i] + kjj).max(0.0);
                    s += (d[i] - dij).max(0.0);
                }
                s
            })
            .collect();
        let j = argbest(&b, |a, b| a > b, &medoids);
        medoids.push(j);
        for (i, di) in d.iter_mut().enumerate() {
            *di = di.min(kc.dist(i, j));
        }
    }
    medoids
}

/// Index of the best value under `better` (strict), skipping `exclude`; ties to the
/// lowest index.
fn argbest(v: &[f64], better: impl Fn(f64, f64) -> bool, exclude: &[usize]) -> usize {
    let mut best: Option<usize> = None;
    for (j, &x) in v.iter().enumerate() {
        if exclude.contains(&j) {
            continue;
        }
        if best.is_none_or(|b| better(x, v[b])) {
            best = Some(j);
        }
    }
    best.unwrap_or(0)
}

/// How k-medoids picks its initial medoids.
#[derive(Debug, Clone, PartialEq)]
pub enum MedoidInit {
    /// [`greedy_medoids`] (GUMKL's choice; deterministic).
    Greedy,
    /// k distinct points drawn uniformly with the seed.
    Random,
    /// These medoid indices (distinct, < n).
    Given(Vec<usize>),
}

mkc_core::params! {
    /// Hyperparameters of kernel k-medoids (unchecked builder).
    pub struct KernelKMedoidsParams {
        /// Maximum number of (assignment, medoid update) rounds.
        max_iter: usize = 100,
        /// Initial medoids.
        init: MedoidInit = MedoidInit::Greedy,
    }
    /// Defaults: greedy initialisation, `max_iter = 100`. The number of clusters and the
    /// seed (used by [`MedoidInit::Random`] only) are given when fitting.
    new;
}

mkc_core::checked! {
    /// Checked k-medoids parameters; [`KernelKMedoids::fit_kernel`] runs the algorithm on one
    /// kernel, [`Clusterer::fit`](mkc_core::Clusterer::fit) on a
    /// [`KernelSet`](mkc_core::KernelSet) (its kernel or the mean of its kernels).
    pub struct KernelKMedoids(KernelKMedoidsParams);
    |p| {
        crate::check_loop(None, p.max_iter, None)?;
        if let MedoidInit::Given(g) = &p.init {
            let mut s = g.clone();
            s.sort_unstable();
            s.dedup();
            mkc_core::mkc_ensure!(s.len() == g.len(), input "initial medoids", "indices must be distinct");
        }
        Ok(())
    }
}

/// Result of kernel k-medoids.
#[derive(Debug, Clone, PartialEq)]
pub struct KMedoidsFit {
    /// Cluster of every sample, in `0..k`; medoid c is in cluster c.
    pub labels: Vec<usize>,
    /// Index of the medoid of every cluster.
    pub medoids: Vec<usize>,
    /// Objective (eq. 2): Σ_i D(i, medoid of its cluster).
    pub objective: f64,
    /// Objective after every assignment step (non-increasing).
    pub objective_trace: Vec<f64>,
    /// Rounds performed.
    pub n_iter: usize,
    /// Whether the medoids stopped changing before `max_iter`.
    pub converged: bool,
}

impl KernelKMedoids {
    /// [`KernelKMedoids::fit_kernel`] on a kernel already validated.
    fn fit_valid(&self, k: MatRef<'_, f64>, n_clusters: usize, seed: u64) -> Result<KMedoidsFit> {
        let n = k.nrows();
        validate::n_clusters(n_clusters, n, 1)?;
        let kc = KernelCols::new(k);
        let medoids = match &self.p.init {
            MedoidInit::Greedy => greedy(&kc, n_clusters),
            MedoidInit::Random => sample(&mut seed::rng(seed), n, n_clusters).into_vec(),
            MedoidInit::Given(g) => {
                mkc_core::validate::len("initial medoids", g.len(), n_clusters)?;
                if let Some(&bad) = g.iter().find(|&&i| i >= n) {
                    mkc_core::mkc_bail!(input "initial medoids", "index {bad} is not below n = {n}");
                }
                g.clone()
            }
        };
        Ok(k_medoids(&kc, medoids, self.p.max_iter))
    }
}

/// Diagnostics of kernel k-medoids ([`Clustering::diagnostics`](mkc_core::Clustering::diagnostics)).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct KMedoidsDiagnostics {
    /// Index of the medoid of every cluster.
    pub medoids: Vec<usize>,
}

impl mkc_core::Diagnostics for KMedoidsDiagnostics {
    fn entries(&self) -> Vec<(String, f64)> {
        self.medoids
            .iter()
            .enumerate()
            .map(|(c, &m)| (format!("medoid_{c}"), m as f64))
            .collect()
    }
}

kernel_method! {
    KernelKMedoids(KernelKMedoidsParams) -> KMedoidsFit, "kkmedoids";
    /// Run k-medoids with kernel `k`: alternately assign every point to its nearest medoid
    /// and move every medoid to the member minimising the within-cluster sum of D.
    /// A point keeps its cluster, and a medoid its place, unless the alternative is
    /// strictly better (so the objective never increases and the loop cannot cycle);
    /// a medoid always belongs to its own cluster, so no cluster is ever empty.
    ///
    /// # Errors
    /// Invalid kernel, `n_clusters` 0 or > n, given medoids out of range or not
    /// `n_clusters` of them.
    pub fn fit_kernel("kernel");
    /// Kernel k-medoids on the set's kernel (or the mean of its kernels); the objective
    /// trace is eq. (2) after every assignment step (minimised).
    fn fit("kernel k-medoids") -> KMedoidsDiagnostics { medoids }, traced;
}

fn k_medoids(kc: &KernelCols<'_>, mut medoids: Vec<usize>, max_iter: usize) -> KMedoidsFit {
    let n = kc.n();
    let k = medoids.len();
    let mut labels = vec![usize::MAX; n];
    let mut trace = Vec::new();
    let mut n_iter = 0;
    let mut converged = false;
    while n_iter < max_iter {
        n_iter += 1;
        // Assignment.
        let mut obj = 0.0;
        for (i, li) in labels.iter_mut().enumerate() {
            let cur = *li;
            let mut best = if cur < k {
                (kc.dist(i, medoids[cur]), cur)
            } else {
                (f64::INFINITY, 0)
            };
            for (c, &m) in medoids.iter().enumerate() {
                let dc = kc.dist(i, m);
                if dc < best.0 {
                    best = (dc, c);
                }
            }
            *li = best.1;
            obj += best.0;
        }
        for (c, &m) in medoids.iter().enumerate() {
            if labels[m] != c {
                obj -= kc.dist(m, medoids[labels[m]]);
                labels[m] = c;
            }
        }
        trace.push(obj);
        // Medoid update: argmin_{j ∈ C} Σ_{i ∈ C} D(i, j), keeping the current one on ties.
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); k];
        for (i, &l) in labels.iter().enumerate() {
            members[l].push(i);
        }
        let new: Vec<usize> = members
            .par_iter()
            .zip(medoids.par_iter())
            .map(|(mem, &cur)| {
                let cost = |j: usize| mem.iter().map(|&i| kc.dist(i, j)).sum::<f64>();
                let mut best = (cost(cur), cur);
                for &j in mem {
                    let c = cost(j);
                    if c < best.0 {
                        best = (c, j);
                    }
                }
                best.1
            })
            .collect();
        if new == medoids {
            converged = true;
            break;
        }
        medoids = new;
    }
    let objective = (0..n).map(|i| kc.dist(i, medoids[labels[i]])).sum();
    KMedoidsFit {
        labels,
        medoids,
        objective,
        objective_trace: trace,
        n_iter,
        converged,
    }
}
