//! The reweighting (IRLS) iterations of robust kernel k-means (Du et al. 2015, eq. (4),
//! solved by eq. (11)–(13) and (15) with one kernel): alternate
//!
//! 1. assignment (eq. (15)): every sample to its nearest centre in feature space;
//! 2. reweighting (eq. (13)): `D_ii = 1 / (2‖φ(x_i) − v_{ℓ_i}‖)`, the distance to the centre
//!    the sample was just assigned to;
//! 3. centres (eq. (11)–(12)): `v_c = Σ_{i ∈ c} D_ii φ(x_i) / Σ_{i ∈ c} D_ii`,
//!
//! until the labels stop changing or `max_iter` passes ran. Steps 2–3 are one Weiszfeld
//! step per cluster, which never increases that cluster's sum of distances, and step 1
//! never increases the total, so the ℓ2,1 loss `J = Σ_i ‖φ(x_i) − v_{ℓ_i}‖` recorded after
//! every assignment is non-increasing, except on passes that refill an empty cluster.
//!
//! Choices of the authors' code (`L21KKM.m`) kept here: the 'sample' start (k distinct
//! random samples as singleton centres); squared distances clamped at machine epsilon
//! before the square root; a sample within `1e-10` (squared) of its centre gets the mean
//! weight of the others instead of an unbounded one. Changed: an empty cluster receives
//! the sample farthest from its centre among the clusters that keep a member (the code
//! may empty another cluster, and it counts `K_ii` twice in that pass's weights).

use crate::centres::Centres;
use mkc_core::seed;
use mkc_kmeans::KernelCols;
use rand::seq::index;
use rayon::prelude::*;

/// Squared distances below this get the mean weight (the authors' code).
const AT_CENTRE: f64 = 1e-10;

/// One run of the IRLS iterations.
#[derive(Debug, Clone)]
pub(crate) struct L21Run {
    /// Final labels.
    pub(crate) labels: Vec<usize>,
    /// Final centres (after the last reweighting).
    pub(crate) centres: Centres,
    /// J after every assignment, then J of the final labels and centres.
    pub(crate) trace: Vec<f64>,
    /// Assignment passes.
    pub(crate) iterations: usize,
    /// Whether the labels stopped changing before `max_iter`.
    pub(crate) converged: bool,
    /// Passes on which an empty cluster was refilled.
    pub(crate) empty_fills: usize,
}

impl L21Run {
    /// The ℓ2,1 loss of the final labels and centres.
    pub(crate) fn objective(&self) -> f64 {
        self.trace.last().copied().unwrap_or(f64::NAN)
    }
}

/// The ℓ2,1 loss `Σ_i sqrt(max(d_i, 0))` of squared distances `d`.
pub(crate) fn l21_loss(d: &[f64]) -> f64 {
    d.iter().map(|&x| x.max(0.0).sqrt()).sum()
}

/// Labels and squared distances of every sample to its nearest centre (ties to the
/// lowest cluster index).
fn assign(kc: &KernelCols<'_>, centres: &Centres) -> (Vec<usize>, Vec<f64>, Vec<f64>) {
    let p = centres.products(kc);
    let k = centres.k;
    let n = kc.n();
    let mut labels = vec![0; n];
    let mut dist = vec![0.0; n];
    let mut rel = vec![0.0; n * k];
    for r in 0..n {
        let mut best = (f64::INFINITY, 0);
        for c in 0..k {
            let d = p.rel(r, c);
            rel[r * k + c] = d;
            if d < best.0 {
                best = (d, c);
            }
        }
        labels[r] = best.1;
        dist[r] = kc.diag(r) + best.0;
    }
    (labels, dist, rel)
}

/// Give every empty cluster the sample farthest from its centre (descending distance,
/// ties to the lowest index) among clusters that keep a member (`mkc_kmeans::fill_empty`,
/// scikit-learn's rule); a moved sample's distance becomes the one to its new centre.
/// Returns whether anything moved.
fn fill_empty(
    labels: &mut [usize],
    dist: &mut [f64],
    rel: &[f64],
    diag: impl Fn(usize) -> f64,
    k: usize,
) -> bool {
    let before = labels.to_vec();
    let mut counts = vec![0usize; k];
    if !mkc_kmeans::fill_empty(labels, &mut counts, k, |i| dist[i]) {
        return false;
    }
    for (i, (&c, &was)) in labels.iter().zip(&before).enumerate() {
        if c != was {
            dist[i] = diag(i) + rel[i * k + c];
        }
    }
    true
}

/// The reweighting of eq. (13): `s_i = 1 / (2 sqrt(max(d_i, eps)))`, and samples within
/// `1e-10` of their centre get the mean weight of the others.
pub(crate) fn irls_weights(dist: &[f64]) -> Vec<f64> {
    let mut s: Vec<f64> = dist
        .iter()
        .map(|&d| 0.5 / d.max(f64::EPSILON).sqrt())
        .collect();
    let far: Vec<f64> = dist
        .iter()
        .zip(&s)
        .filter(|(&d, _)| d.max(f64::EPSILON) >= AT_CENTRE)
        .map(|(_, &w)| w)
        .collect();
    if !far.is_empty() && far.len() < s.len() {
        let mean = far.iter().sum::<f64>() / far.len() as f64;
        for (w, &d) in s.iter_mut().zip(dist) {
            if d.max(f64::EPSILON) < AT_CENTRE {
                *w = mean;
            }
        }
    }
    s
}

/// The IRLS iterations from `start` (at most `max_iter ≥ 1` assignment passes).
pub(crate) fn run(kc: &KernelCols<'_>, start: Centres, max_iter: usize) -> L21Run {
    let k = start.k;
    let mut centres = start;
    let mut last: Option<Vec<usize>> = None;
    let mut trace = Vec::new();
    let (mut iterations, mut converged, mut empty_fills) = (0, false, 0);
    while iterations < max_iter {
        let (mut labels, mut dist, rel) = assign(kc, &centres);
        if fill_empty(&mut labels, &mut dist, &rel, |i| kc.diag(i), k) {
            empty_fills += 1;
        }
        trace.push(l21_loss(&dist));
        let s = irls_weights(&dist);
        iterations += 1;
        let same = last.as_ref() == Some(&labels);
        centres = Centres::weighted(labels.clone(), &s, k);
        last = Some(labels);
        if same {
            converged = true;
            break;
        }
    }
    let labels = last.unwrap_or_else(|| centres.labels.clone());
    trace.push(l21_loss(&centres.own_distances(kc)));
    L21Run {
        labels,
        centres,
        trace,
        iterations,
        converged,
        empty_fills,
    }
}

/// `k` distinct samples drawn uniformly (the authors' `randsample(n, k)`).
pub(crate) fn sample_seeds(n: usize, k: usize, seed: u64) -> Vec<usize> {
    let mut rng = seed::rng(seed);
    index::sample(&mut rng, n, k).into_vec()
}

/// `restarts` runs from the 'sample' start, restart r drawing from `derive(seed, r)`, in
/// parallel; the lowest final J wins (ties to the lowest restart). Returns the winner
/// and its restart index (`None` only when `restarts` is 0).
pub(crate) fn best_of(
    kc: &KernelCols<'_>,
    k: usize,
    restarts: usize,
    max_iter: usize,
    seed: u64,
) -> Option<(L21Run, usize)> {
    let n = kc.n();
    let runs: Vec<L21Run> = (0..restarts)
        .into_par_iter()
        .map(|r| {
            let seeds = sample_seeds(n, k, seed::derive(seed, r as u64));
            run(kc, Centres::singletons(n, &seeds), max_iter)
        })
        .collect();
    let mut best: Option<(L21Run, usize)> = None;
    for (r, run) in runs.into_iter().enumerate() {
        if best
            .as_ref()
            .is_none_or(|(b, _)| run.objective() < b.objective())
        {
            best = Some((run, r));
        }
    }
    best
}
