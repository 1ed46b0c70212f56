//! RMKKM: robust multiple kernel k-means (Du et al. 2015, eq. (7), Algorithm 1).
//!
//! Every pass: combine the kernels `K_w = Σ_t w_t K_t` (eq. (6)); update the partition and
//! the centres by the reweighting iterations on `K_w` (eq. (11)–(15), module `l21`); then
//! the kernel weights by the closed form of eq. (19)–(20) (module [`crate::weights`]).
//! The weights start at `1/m` (Algorithm 1).
//!
//! Two ways to run the partition step, both of the authors:
//! - `warm_start = false` (default, the authors' code `RMKKM.m` as their experiments ran
//!   it): every pass restarts the reweighting iterations from `inner_restarts` fresh
//!   'sample' starts (`inner_max_iter` passes each, lowest loss kept), and the loop runs
//!   all `max_iter` passes (its stopping test compares against a variable never updated).
//!   The labels can jump between passes and the objective is not monotone.
//! - `warm_start = true` (the paper's Algorithm 1 as written): every pass continues from
//!   the previous centres, so each step is a block-coordinate descent step and the
//!   objective of eq. (7) recorded after each pass is non-increasing (up to passes that
//!   refill an empty cluster).
//!
//! The fit returns the labels and weights of the last pass (the authors' code).

use crate::centres::Centres;
use crate::l21::{self, L21Run};
use crate::weights::{self, check_gamma, DIST_FLOOR};
use faer::{Mat, MatRef};
use mkc_core::{
    check_n_clusters, seed, Clustering, Error, KernelWeights, Result, Timings, WeightConstraint,
};
use mkc_kmeans::KernelCols;
use rayon::prelude::*;

mkc_core::params! {
    /// Parameters of RMKKM (unchecked builder). The number of clusters and the seed are
    /// given when fitting.
    ///
    /// ```
    /// use mkc_robust::prelude::*;
    /// let p = RmkkmParams::new().gamma(0.4).max_iter(20);
    /// assert!(p.validate_params().is_ok());
    /// assert!(RmkkmParams::new().gamma(1.0).validate_params().is_err());
    /// ```
    pub struct RmkkmParams {
        /// Exponent of the weight constraint `Σ_t w_t^γ = 1`, in (0, 1) (eq. (7)); the
        /// authors' grid is {0.1, …, 0.9}. Towards 1 the weight concentrates on one kernel,
        /// towards 0 it becomes uniform.
        gamma: f64 = 0.3,
        /// Passes (partition step + weight step), at least 1. The authors ran 50.
        max_iter: usize = 50,
        /// Stop when the objective changed by at most `tol · |J|` between two passes
        /// (≥ 0). With 0 (default) the fit runs all `max_iter` passes unless J repeats
        /// exactly, as the authors' code, which never stops early.
        tol: f64 = 0.0,
        /// Continue each partition step from the previous centres (the paper's monotone
        /// Algorithm 1) instead of fresh starts (the authors' code, default).
        warm_start: bool = false,
        /// Fresh 'sample' starts of the partition step per pass when not warm-starting
        /// (≥ 1; the authors' code: 10); the lowest ℓ2,1 loss on `K_w` is kept.
        inner_restarts: usize = 10,
        /// Cap on the reweighting passes of each partition step (≥ 1; authors: 30).
        inner_max_iter: usize = 30,
        /// Starts of the whole algorithm (≥ 1, the authors' `replicates`; their
        /// experiments: 1); the lowest final objective wins, ties to the lowest start.
        n_init: usize = 1,
    }
    /// Defaults of the authors' experiments: γ = 0.3 (the paper's stated value), 50
    /// passes, no early stop, no warm start, 10 inner starts of at most 30 passes, one
    /// start of the whole algorithm.
    new;
}

mkc_core::checked! {
    /// Checked RMKKM parameters (see [`RmkkmParams`]).
    pub struct Rmkkm(RmkkmParams);
    |p| {
        crate::check_counts(&[
            ("max_iter", p.max_iter),
            ("inner_restarts", p.inner_restarts),
            ("inner_max_iter", p.inner_max_iter),
            ("n_init", p.n_init),
        ])?;
        check_gamma(p.gamma)?;
        mkc_core::validate::non_negative("tol", p.tol)
    }
}

mkc_core::diagnostics! {
    /// Diagnostics of RMKKM ([`Clustering::diagnostics`]).
    pub struct RmkkmDiagnostics {
        /// Final objective of eq. (7) (the last objective entry).
        objective: f64,
        /// Index of the winning start of the whole algorithm.
        best_restart: usize,
        /// Reweighting passes over all partition steps of the winning start.
        inner_iterations: usize,
        /// Partition passes of the winning start that refilled an empty cluster.
        empty_fills: usize,
    }
}

/// One start of the whole algorithm.
struct Run {
    labels: Vec<usize>,
    weights: Vec<f64>,
    trace: Vec<f64>,
    passes: usize,
    converged: bool,
    inner_iterations: usize,
    empty_fills: usize,
    timings: Timings,
}

/// `Σ_t w_t K_t` (eq. (6)), column by column in parallel.
fn combine(ks: &[KernelCols<'_>], w: &[f64]) -> Mat<f64> {
    let n = ks[0].n();
    let mut out = Mat::<f64>::zeros(n, n);
    // Each column starts at 0 and adds w_t K_t[:, j] in kernel order, in place, the loop
    // compiled for the CPU's vector instructions (`pulp`; no multiply–add fused).
    out.par_col_chunks_mut(1).enumerate().for_each(|(j, col)| {
        let Some(c) = col.col_mut(0).try_as_col_major_mut() else {
            return;
        };
        let c = c.as_slice_mut();
        faer::traits::pulp::Arch::new().dispatch(
            #[inline(always)]
            || {
                for (kt, &wt) in ks.iter().zip(w) {
                    for (o, &x) in c.iter_mut().zip(kt.col(j)) {
                        *o += wt * x;
                    }
                }
            },
        );
    });
    out
}

impl Rmkkm {
    /// The partition step on `K_w`: warm from `prev`, or the best of fresh starts.
    fn partition(
        &self,
        kw: MatRef<'_, f64>,
        k: usize,
        prev: Option<Centres>,
        seed: u64,
    ) -> Result<L21Run> {
        let kc = KernelCols::new(kw);
        match prev {
            Some(c) if self.p.warm_start => Ok(l21::run(&kc, c, self.p.inner_max_iter)),
            _ => l21::best_of(&kc, k, self.p.inner_restarts, self.p.inner_max_iter, seed)
                .map(|(r, _)| r)
                .ok_or_else(|| Error::numerical("rmkkm", "no start produced a result")),
        }
    }

    /// One start of Algorithm 1, drawing its partition starts from `seed`.
    fn run(&self, ks: &[KernelCols<'_>], k: usize, seed: u64) -> Result<Run> {
        let m = ks.len();
        let mut timings = Timings::default();
        let mut w = vec![1.0 / m as f64; m];
        let mut centres: Option<Centres> = None;
        let mut labels = Vec::new();
        let mut trace: Vec<f64> = Vec::new();
        let (mut passes, mut converged, mut inner_iterations, mut empty_fills) = (0, false, 0, 0);
        while passes < self.p.max_iter {
            let kw = timings.time("combine", || combine(ks, &w));
            let pass_seed = seed::derive(seed, passes as u64);
            let run = timings.time("l21", || {
                self.partition(kw.as_ref(), k, centres.take(), pass_seed)
            })?;
            inner_iterations += run.iterations;
            empty_fills += run.empty_fills;
            let (new_w, obj) = timings.time("weights", || {
                weight_step(ks, &run.centres, &w, self.p.gamma)
            })?;
            w = new_w;
            passes += 1;
            labels = run.labels;
            centres = Some(run.centres);
            if let Some(&prev) = trace.last() {
                if (prev - obj).abs() <= self.p.tol * obj.abs() {
                    trace.push(obj);
                    converged = true;
                    break;
                }
            }
            trace.push(obj);
        }
        Ok(Run {
            labels,
            weights: w,
            trace,
            passes,
            converged,
            inner_iterations,
            empty_fills,
            timings,
        })
    }
}

/// The weight step (eq. (16), (19), (20)) for the partition and centres `c`, from the
/// weights `w`; returns the new weights and the objective of eq. (7) under them.
fn weight_step(
    ks: &[KernelCols<'_>],
    c: &Centres,
    w: &[f64],
    gamma: f64,
) -> Result<(Vec<f64>, f64)> {
    let e: Vec<Vec<f64>> = ks
        .iter()
        .map(|kt| {
            c.own_distances(kt)
                .into_iter()
                .map(|x| x.max(DIST_FLOOR))
                .collect()
        })
        .collect();
    let h = weights::proxy_coefficients(&e, w)?;
    let new_w = weights::kernel_weights(&h, gamma)?;
    let obj = weights::l21_objective(&e, &new_w);
    Ok((new_w, obj))
}

mkc_core::clusterer! {
    Rmkkm, "rmkkm", RmkkmDiagnostics;
    /// RMKKM on every kernel of the set. The objective trace is eq. (7) (minimised)
    /// after every pass, under the weights of that pass; the weights satisfy
    /// `Σ_t w_t^γ = 1` ([`WeightConstraint::PNorm`]`(γ)`).
    fn fit(&self, data, n_clusters, seed) {
        check_n_clusters(data, n_clusters, 1)?;
        let ks: Vec<KernelCols<'_>> = data
            .require_kernels("rmkkm")?
            .iter()
            .map(|&k| KernelCols::new(k))
            .collect();
        let runs: Vec<Result<Run>> = (0..self.p.n_init)
            .into_par_iter()
            .map(|r| self.run(&ks, n_clusters, seed::derive(seed, r as u64)))
            .collect();
        let mut best: Option<(Run, usize)> = None;
        for (r, run) in runs.into_iter().enumerate() {
            let run = run?;
            let obj = run.trace.last().copied().unwrap_or(f64::NAN);
            if best
                .as_ref()
                .is_none_or(|(b, _)| obj < b.trace.last().copied().unwrap_or(f64::NAN))
            {
                best = Some((run, r));
            }
        }
        let (run, best_restart) =
            best.ok_or_else(|| Error::numerical("rmkkm", "no start produced a result"))?;
        let diag = RmkkmDiagnostics {
            objective: run.trace.last().copied().unwrap_or(f64::NAN),
            best_restart,
            inner_iterations: run.inner_iterations,
            empty_fills: run.empty_fills,
        };
        Ok(Clustering::new(run.labels, n_clusters, diag)
            .with_weights(KernelWeights::new(
                run.weights,
                WeightConstraint::PNorm(self.p.gamma),
            ))
            .with_objective(run.trace)
            .with_iterations(run.passes, run.converged)
            .with_timings(run.timings))
    }
}

mkc_core::clusterer_via_check!(RmkkmParams, "rmkkm");
