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
//!
//! The starts of one fit ([`best_of`]: RKKM's `n_init`, RMKKM's fresh starts per pass) run
//! in lockstep ([`run_many`]) so that every pass of all of them reads K once
//! (`centres::products_many`); each start is exactly the run it would be alone.

use crate::centres::{products_many, Centres, Panels, Products};
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

/// Give every empty cluster the sample farthest from its centre (descending distance,
/// ties to the lowest index) among clusters that keep a member (`mkc_kmeans::fill_empty`,
/// scikit-learn's rule); a moved sample's distance becomes the one to its new centre,
/// `dist_to(i, c)`. Returns whether anything moved.
fn fill_empty(
    labels: &mut [usize],
    dist: &mut [f64],
    dist_to: impl Fn(usize, usize) -> f64,
    k: usize,
) -> bool {
    let before = labels.to_vec();
    let mut counts = vec![0usize; k];
    if !mkc_kmeans::fill_empty(labels, &mut counts, k, |i| dist[i]) {
        return false;
    }
    for (i, (&c, &was)) in labels.iter().zip(&before).enumerate() {
        if c != was {
            dist[i] = dist_to(i, c);
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
    let mut live = Live::new(start);
    for _ in 0..max_iter {
        let p = live.centres.products(kc);
        if live.pass(kc, &p) {
            break;
        }
    }
    live.finish(kc)
}

/// One IRLS run in progress ([`run`], [`run_many`]).
struct Live {
    centres: Centres,
    last: Option<Vec<usize>>,
    trace: Vec<f64>,
    iterations: usize,
    converged: bool,
    empty_fills: usize,
}

impl Live {
    fn new(centres: Centres) -> Self {
        Live {
            centres,
            last: None,
            trace: Vec::new(),
            iterations: 0,
            converged: false,
            empty_fills: 0,
        }
    }

    /// One pass from the products of the current centres: assignment, refill, loss,
    /// reweighting, new centres; returns whether the labels repeated (the run ends).
    fn pass(&mut self, kc: &KernelCols<'_>, p: &Products<'_>) -> bool {
        let k = self.centres.k;
        let (mut labels, mut dist) = p.assign(kc);
        if fill_empty(&mut labels, &mut dist, |i, c| kc.diag(i) + p.rel(i, c), k) {
            self.empty_fills += 1;
        }
        self.trace.push(l21_loss(&dist));
        let s = irls_weights(&dist);
        self.iterations += 1;
        let same = self.last.as_ref() == Some(&labels);
        self.centres = Centres::weighted(labels.clone(), &s, k);
        self.last = Some(labels);
        if same {
            self.converged = true;
        }
        same
    }

    fn finish(mut self, kc: &KernelCols<'_>) -> L21Run {
        let labels = self.last.unwrap_or_else(|| self.centres.labels.clone());
        self.trace.push(l21_loss(&self.centres.own_distances(kc)));
        L21Run {
            labels,
            centres: self.centres,
            trace: self.trace,
            iterations: self.iterations,
            converged: self.converged,
            empty_fills: self.empty_fills,
        }
    }
}

/// The IRLS iterations from every start (at most `max_iter ≥ 1` assignment passes each),
/// in lockstep: each pass takes the products of all unfinished runs with K in one pass
/// over K ([`products_many`], the same sums as one run alone), then every run's own
/// step. Each run is exactly what it would be alone.
pub(crate) fn run_many(kc: &KernelCols<'_>, starts: Vec<Centres>, max_iter: usize) -> Vec<L21Run> {
    let mut live: Vec<Live> = starts.into_iter().map(Live::new).collect();
    let mut active: Vec<usize> = (0..live.len()).collect();
    let panels = Panels::new(kc);
    let mut buf = Vec::new();
    for _ in 0..max_iter {
        if active.is_empty() {
            break;
        }
        let products = {
            let sets: Vec<&Centres> = active.iter().map(|&r| &live[r].centres).collect();
            products_many(kc, panels.as_ref(), &sets, &mut buf)
        };
        let mut stepping: Vec<(&mut Live, &Products<'_>)> = live
            .iter_mut()
            .enumerate()
            .filter_map(|(r, l)| active.binary_search(&r).ok().map(|t| (l, &products[t])))
            .collect();
        let done: Vec<bool> = stepping
            .par_iter_mut()
            .map(|(l, p)| l.pass(kc, p))
            .collect();
        active = active
            .into_iter()
            .zip(done)
            .filter(|(_, d)| !d)
            .map(|(r, _)| r)
            .collect();
    }
    live.into_par_iter().map(|l| l.finish(kc)).collect()
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
    let starts: Vec<Centres> = (0..restarts)
        .map(|r| {
            let seeds = sample_seeds(n, k, seed::derive(seed, r as u64));
            Centres::singletons(n, &seeds)
        })
        .collect();
    let runs = run_many(kc, starts, max_iter);
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
