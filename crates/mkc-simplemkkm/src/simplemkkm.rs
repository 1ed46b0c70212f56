//! SimpleMKKM, Algorithm 1: `min_{γ ∈ Δ} J(γ)`, eq. (5), by reduced gradient descent.
//!
//! Sign conventions: eq. (4) is a *min* over γ of a *max* over H. The inner max is the
//! top-k eigenproblem of `K_γ` (eq. (6)); the outer problem *minimises* J, so J never
//! increases across iterations (the paper's Figure 3). J is convex in γ (a max of the
//! convex functions `γ ↦ Σ_p γ_p² tr(Hᵀ K_p H)`), so the stationary point is the global
//! minimum; at it the gradient `2 γ_p tr(Hᵀ K_p H)` is the same for every kernel with
//! `γ_p > 0`, i.e. `γ_p ∝ 1 / tr(Hᵀ K_p H)` — which is why the weights are not sparse.

use std::time::{Duration, Instant};

use faer::{Mat, MatRef};
use mkc_core::{Fit, Result};

use crate::gradient;
use crate::labels;
use crate::line_search::{GoldenSection, Termination};
use crate::objective::Evaluation;
use crate::oracle::Oracle;
use crate::params::{LineSearch, SimpleMkkmParams};
use crate::preprocess::Prepared;
use crate::reduced_gradient::kkt_residual;
use crate::update::{update, Iterate};

/// Smallest relative golden-section width used when refining a stalled line search
/// (the authors' `goldensearchmax`).
pub const MIN_DELTA_MAX: f64 = 1e-8;

/// Checked SimpleMKKM parameters (from [`SimpleMkkmParams::check`](mkc_core::ParamGuard::check)).
#[derive(Clone, Debug, PartialEq)]
pub struct SimpleMkkm {
    pub(crate) params: SimpleMkkmParams,
}

/// Diagnostics of a SimpleMKKM run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimpleMkkmInfo {
    /// Number of γ updates made (Algorithm 1's loop count).
    pub iterations: usize,
    /// Whether `max |Δγ| < tol` was reached before `max_iter`.
    pub converged: bool,
    /// Number of exact top-k eigensolves: with the eigensolver, one per J evaluation
    /// (including the first); with the subspace solver, the first (cold) solve plus one
    /// certified Rayleigh–Ritz solve per accepted point (and any fallbacks).
    pub eigensolves: usize,
    /// Of which warm-started from an earlier H.
    pub warm_eigensolves: usize,
    /// Total time of the exact eigensolves (subspace solver: including the subspace
    /// expansions they needed).
    pub eigen_time: Duration,
    /// Subspace solver: line-search trial points evaluated on the subspace.
    pub projected_evaluations: usize,
    /// Subspace solver: time spent on trial points (including subspace expansions).
    pub trial_time: Duration,
    /// Subspace solver: products of single base kernels with single vectors.
    pub kernel_matvecs: usize,
    /// Subspace solver: expansions of the subspace (each reads every base kernel once).
    pub subspace_expansions: usize,
    /// Subspace solver: of the kernel matvecs, those spent certifying accepted points.
    pub certify_matvecs: usize,
    /// Subspace solver: trial points answered by the small trial cache.
    pub trial_cache_hits: usize,
    /// Subspace solver: restarts of the subspace.
    pub subspace_restarts: usize,
    /// Subspace solver: updates repeated because the exact J at the chosen step did not
    /// confirm the decrease promised by the approximate trial values.
    pub retries: usize,
    /// Mean time per eigensolve.
    pub time_per_eigensolve: Duration,
    /// Total time spent forming `K_γ`.
    pub combine_time: Duration,
    /// Products of `K_γ` with single vectors inside the eigensolver.
    pub matvecs: usize,
    /// Eigensolves done by the dense solver (small n or block-Lanczos fallback).
    pub dense_solves: usize,
    /// Wall time of the whole optimisation (preprocessing excluded).
    pub optimisation_time: Duration,
    /// Wall time of preprocessing and validation.
    pub preprocessing_time: Duration,
    /// J(γ) at γ = 1/m and after every update (non-increasing).
    pub objective_trace: Vec<f64>,
    /// γ at the start and after every update.
    pub gamma_trace: Vec<Vec<f64>>,
    /// J evaluations spent by each line search.
    pub line_search_evaluations: Vec<usize>,
    /// How each line search stopped.
    pub line_search_terminations: Vec<Termination>,
    /// Number of stalled line searches retried with a finer golden-section width.
    pub refinements: usize,
    /// Gradient (Theorem 1) at the returned γ.
    pub gradient: Vec<f64>,
    /// First-order optimality residual at the returned γ
    /// ([`kkt_residual`](crate::reduced_gradient::kkt_residual)).
    pub kkt_residual: f64,
}

/// Result of SimpleMKKM.
#[derive(Clone, Debug)]
pub struct SimpleMkkmFit {
    /// Learned kernel weights γ on the simplex (`K_γ = Σ_p γ_p² K_p`).
    pub gamma: Vec<f64>,
    /// Top-k eigenvectors of `K_γ` at the returned γ (n x k).
    pub h: Mat<f64>,
    /// J(γ) = tr(Hᵀ K_γ H) at the returned γ.
    pub objective: f64,
    /// The k largest eigenvalues of `K_γ`, descending.
    pub eigenvalues: Vec<f64>,
    /// Diagnostics.
    pub info: SimpleMkkmInfo,
    pub(crate) n_clusters: usize,
    pub(crate) label_opts: labels::LabelOptions,
}

impl SimpleMkkmFit {
    /// Labels from H with `seed` (row-normalised H, then k-means with the configured
    /// restarts). Call with different seeds for the 20/50-run protocol.
    pub fn labels(&self, seed: u64) -> Result<Vec<usize>> {
        labels::labels_from_h_with(self.h.as_ref(), self.n_clusters, &self.label_opts, seed)
    }
}

impl SimpleMkkm {
    /// The parameters.
    pub fn params(&self) -> &SimpleMkkmParams {
        &self.params
    }

    /// Run Algorithm 1 on the base kernels (each n x n, symmetric, finite, same size).
    pub fn fit(&self, kernels: &[MatRef<'_, f64>]) -> Result<SimpleMkkmFit> {
        let p = &self.params;
        let t_prep = Instant::now();
        let prepared = Prepared::new(kernels, &p.preprocessing)?;
        let views = prepared.views();
        let preprocessing_time = t_prep.elapsed();
        let t0 = Instant::now();
        let mut obj = Oracle::new(
            &views,
            p.n_clusters,
            p.eigen.clone(),
            p.warm_start,
            p.solver,
        )?;
        let m = views.len();
        let grad_of = |gamma: &[f64], eval: &Evaluation| -> Result<Vec<f64>> {
            Ok(match &eval.alignments {
                Some(a) => gradient::gradient(gamma, a),
                None => gradient::gradient(gamma, &gradient::alignments(&views, eval.h.as_ref())?),
            })
        };

        // Algorithm 1, line 2: γ = 1/m; line 4: H for K_γ; line 5: gradient.
        let gamma = vec![1.0 / m as f64; m];
        let eval = obj.start(&gamma)?;
        let grad = grad_of(&gamma, &eval)?;
        let mut it = Iterate { gamma, eval, grad };
        let mut info = SimpleMkkmInfo {
            objective_trace: vec![it.eval.value],
            gamma_trace: vec![it.gamma.clone()],
            ..Default::default()
        };

        let mut ls = p.line_search;
        let mut failures = 0usize;
        while info.iterations < p.max_iter {
            let up = update(&mut obj, &it, &ls, p.step_cap)?;
            obj.set_exact_trials(false);
            if up.retry {
                // The subspace now holds the eigenvectors at the rejected step: search
                // again; after two failures with exact (certified) trial values.
                info.retries += 1;
                failures += 1;
                if failures >= 2 {
                    obj.set_exact_trials(true);
                }
                if failures <= 2 {
                    continue;
                }
            }
            failures = 0;
            info.line_search_evaluations.push(up.evaluations);
            info.line_search_terminations.push(up.termination);
            let delta = match up.next {
                Some((gamma, eval)) => {
                    let delta = gamma
                        .iter()
                        .zip(&it.gamma)
                        .map(|(a, b)| (a - b).abs())
                        .fold(0.0, f64::max);
                    let grad = grad_of(&gamma, &eval)?;
                    it = Iterate { gamma, eval, grad };
                    delta
                }
                None => 0.0,
            };
            info.iterations += 1;
            info.objective_trace.push(it.eval.value);
            info.gamma_trace.push(it.gamma.clone());
            // Algorithm 1, line 7.
            if delta < p.tol {
                if let (true, true, LineSearch::GoldenSection(gs)) = (
                    delta == 0.0 && p.refine_on_stall,
                    kkt_residual(&it.gamma, &it.grad) > p.kkt_tol,
                    &mut ls,
                ) {
                    if gs.delta_max > MIN_DELTA_MAX {
                        *gs = GoldenSection {
                            delta_max: (gs.delta_max / 10.0).max(MIN_DELTA_MAX),
                            ..*gs
                        };
                        info.refinements += 1;
                        continue;
                    }
                }
                info.converged = true;
                break;
            }
        }

        let os = obj.stats();
        let stats = os.eval.clone();
        info.eigensolves = stats.eigensolves + os.certified;
        info.projected_evaluations = os.projected_evaluations;
        info.trial_time = os.trial_time;
        info.kernel_matvecs = os.kernel_matvecs;
        info.subspace_restarts = os.subspace_restarts;
        info.subspace_expansions = os.expansions;
        info.certify_matvecs = os.certify_matvecs;
        info.trial_cache_hits = os.cache_hits;
        info.warm_eigensolves = stats.warm_eigensolves;
        info.eigen_time = stats.eigen_time + os.certify_time;
        info.time_per_eigensolve = if info.eigensolves == 0 {
            Duration::ZERO
        } else {
            info.eigen_time / info.eigensolves as u32
        };
        info.combine_time = stats.combine_time;
        info.matvecs = stats.matvecs;
        info.dense_solves = stats.dense_solves;
        info.kkt_residual = kkt_residual(&it.gamma, &it.grad);
        info.gradient = it.grad.clone();
        info.optimisation_time = t0.elapsed();
        info.preprocessing_time = preprocessing_time;
        Ok(SimpleMkkmFit {
            gamma: it.gamma,
            h: it.eval.h,
            objective: it.eval.value,
            eigenvalues: it.eval.eigenvalues,
            info,
            n_clusters: p.n_clusters,
            label_opts: p.labels,
        })
    }
}

impl<'a> Fit<[MatRef<'a, f64>]> for SimpleMkkm {
    type Output = SimpleMkkmFit;
    fn fit(&self, kernels: &[MatRef<'a, f64>]) -> Result<SimpleMkkmFit> {
        SimpleMkkm::fit(self, kernels)
    }
}
