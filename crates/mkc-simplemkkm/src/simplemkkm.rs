//! SimpleMKKM, Algorithm 1: `min_{γ ∈ Δ} J(γ)`, eq. (5), by reduced gradient descent.
//!
//! Sign conventions: eq. (4) is a *min* over γ of a *max* over H. The inner max is the
//! top-k eigenproblem of `K_γ` (eq. (6)); the outer problem *minimises* J, so J never
//! increases across iterations (the paper's Figure 3). J is convex in γ (a max of the
//! convex functions `γ ↦ Σ_p γ_p² tr(Hᵀ K_p H)`), so the stationary point is the global
//! minimum; at it the gradient `2 γ_p tr(Hᵀ K_p H)` is the same for every kernel with
//! `γ_p > 0`, i.e. `γ_p ∝ 1 / tr(Hᵀ K_p H)` — which is why the weights are not sparse.

use std::time::Duration;

use faer::MatRef;
use mkc_core::Result;
use mkc_mkkm::fit::{converged_entry, FamilyDiagnostics, KernelFit, MethodDiagnostics};

use crate::gradient;
use crate::line_search::{GoldenSection, Termination};
use crate::objective::Evaluation;
use crate::oracle::{Oracle, OracleStats};
use crate::params::{LineSearch, SimpleMkkmParams};
use crate::reduced_gradient::kkt_residual;

use crate::update::{update, Iterate, Sense};

/// Smallest relative golden-section width used when refining a stalled line search
/// (the authors' `goldensearchmax`).
pub const MIN_DELTA_MAX: f64 = 1e-8;

/// SimpleMKKM's own diagnostics (beside the family's counts and times in
/// [`SimpleMkkmDiagnostics`]): the oracle's work, the line searches and the optimality
/// at the returned γ.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct DescentStats {
    /// Of the eigensolves, those warm-started from an earlier H.
    pub warm_eigensolves: usize,
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

impl MethodDiagnostics for DescentStats {
    fn entries(all: &FamilyDiagnostics<Self>) -> Vec<(String, f64)> {
        let own = &all.method;
        vec![
            ("eigensolves".into(), all.eigensolves as f64),
            (
                "seconds_per_eigensolve".into(),
                own.time_per_eigensolve.as_secs_f64(),
            ),
            (
                "optimisation_seconds".into(),
                all.optimisation_time.as_secs_f64(),
            ),
            ("kkt_residual".into(), own.kkt_residual),
            ("kernel_matvecs".into(), own.kernel_matvecs as f64),
            ("subspace_expansions".into(), own.subspace_expansions as f64),
            converged_entry(all.converged),
        ]
    }
}

/// Diagnostics of a SimpleMKKM run (`Clustering::diagnostics`, [`SimpleMkkmFit`]'s):
/// `converged` (`max |Δγ| < tol` before `max_iter`), `eigensolves` (exact top-k
/// eigensolves: with the eigensolver one per J evaluation, the first included; with the
/// subspace solver the first cold solve plus one certified Rayleigh–Ritz solve per
/// accepted point, and any fallbacks), `eigen_time` (their time; subspace solver:
/// with the expansions they needed), γ at the start and after every update
/// (`weight_trace`), the times, and the rest in `method` ([`DescentStats`]).
///
/// [`Diagnostics::entries`](mkc_core::Diagnostics::entries) lists, in this order,
/// `eigensolves`, `seconds_per_eigensolve`, `optimisation_seconds`, `kkt_residual`,
/// `kernel_matvecs`, `subspace_expansions` and `converged` (0 or 1), the names of the
/// experiments' run records.
pub type SimpleMkkmDiagnostics = FamilyDiagnostics<DescentStats>;

/// Result of the SimpleMKKM optimisation ([`SimpleMkkm::fit_kernels`]), before the
/// seeded k-means: γ on the simplex (`K_γ = Σ_p γ_p² K_p`), the top-k eigenvectors H of
/// `K_γ` at the returned γ, J(γ) (eq. (6)) at γ = 1/m and after every update
/// (non-increasing; the last, J at the returned γ, is [`KernelFit::objective`]), the
/// number of γ updates (Algorithm 1's loop count), and in `extra` the k largest
/// eigenvalues of `K_γ`, descending.
pub type SimpleMkkmFit = KernelFit<DescentStats, Vec<f64>>;

mkc_mkkm::engine_entry! {
    /// Checked SimpleMKKM parameters (from [`SimpleMkkmParams`] through
    /// [`ParamGuard::check`](mkc_core::ParamGuard::check)); fits through
    /// [`mkc_core::Clusterer`] (registry name `"simplemkkm"`): Algorithm 1 on every kernel
    /// of the set (preprocessed first, see [`SimpleMkkmParams::preprocessing`]), then
    /// k-means with the seed on the row-normalised H. Weights: γ on the simplex
    /// ([`mkc_core::WeightConstraint::Simplex`]); the combined kernel is `Σ_p γ_p² K_p`.
    /// Objective: J(γ) of eq. (6), minimised, at γ = 1/m and after every update. Restarts
    /// optimise γ and H once and run only the k-means per seed.
    pub struct SimpleMkkm(SimpleMkkmParams) => SimpleMkkmFit;
    ///
    /// Algorithm 1; labels from it are
    /// [`labels_from_h_with`](crate::labels_from_h_with)`(h, n_clusters, &params.labels, seed)`.
}

impl SimpleMkkm {
    /// Algorithm 1 on prepared kernels.
    fn optimise(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<SimpleMkkmFit> {
        self.run_in(views, n_clusters, Sense::Minimise)
    }

    /// Algorithm 1 on prepared kernels, descending on J (SimpleMKKM) or ascending
    /// (KAMM-R, [`crate::kamm`]).
    pub(crate) fn run_in(
        &self,
        views: &[MatRef<'_, f64>],
        n_clusters: usize,
        sense: Sense,
    ) -> Result<SimpleMkkmFit> {
        let p = &self.params;
        let mut obj = Oracle::new(views, n_clusters, p.eigen.clone(), p.warm_start, p.solver)?;
        // Algorithm 1, line 2: γ = 1/m; line 4: H for K_γ; line 5: gradient.
        let m = views.len();
        let gamma = vec![1.0 / m as f64; m];
        let eval = obj.start(&gamma)?;
        let grad = grad_of(views, &gamma, &eval)?;
        let mut run = Descent {
            it: Iterate { gamma, eval, grad },
            trace: Vec::new(),
            iterations: 0,
            diag: SimpleMkkmDiagnostics::default(),
            sense,
        };
        run.trace.push(run.it.eval.value);
        run.diag.weight_trace.push(run.it.gamma.clone());
        self.descend(&mut obj, views, &mut run)?;

        let Descent {
            it,
            trace,
            iterations,
            mut diag,
            sense,
        } = run;
        record_stats(&mut diag, &obj.stats());
        diag.method.kkt_residual = kkt_residual(&it.gamma, &sense.oriented(&it.grad));
        diag.method.gradient = it.grad;
        Ok(SimpleMkkmFit::new(
            it.gamma,
            it.eval.h,
            trace,
            iterations,
            diag,
            it.eval.eigenvalues,
        ))
    }

    /// Algorithm 1's loop (lines 3–7): γ updates until `max |Δγ| < tol` or `max_iter`.
    fn descend(
        &self,
        obj: &mut Oracle<'_>,
        views: &[MatRef<'_, f64>],
        run: &mut Descent,
    ) -> Result<()> {
        let p = &self.params;
        let mut ls = p.line_search;
        let mut failures = 0usize;
        while run.iterations < p.max_iter {
            let up = update(obj, &run.it, &ls, p.step_cap, run.sense)?;
            obj.set_exact_trials(false);
            if up.retry {
                // The subspace now holds the eigenvectors at the rejected step: search
                // again; after two failures with exact (certified) trial values.
                run.diag.method.retries += 1;
                failures += 1;
                if failures >= 2 {
                    obj.set_exact_trials(true);
                }
                if failures <= 2 {
                    continue;
                }
            }
            failures = 0;
            run.diag.method.line_search_evaluations.push(up.evaluations);
            run.diag
                .method
                .line_search_terminations
                .push(up.termination);
            let delta = match up.next {
                Some((gamma, eval)) => {
                    let delta = gamma
                        .iter()
                        .zip(&run.it.gamma)
                        .map(|(a, b)| (a - b).abs())
                        .fold(0.0, f64::max);
                    let grad = grad_of(views, &gamma, &eval)?;
                    run.it = Iterate { gamma, eval, grad };
                    delta
                }
                None => 0.0,
            };
            run.iterations += 1;
            run.trace.push(run.it.eval.value);
            run.diag.weight_trace.push(run.it.gamma.clone());
            // Algorithm 1, line 7.
            if delta < p.tol {
                if delta == 0.0 && p.refine_on_stall && self.refine(&mut ls, &run.it, run.sense) {
                    run.diag.method.refinements += 1;
                    continue;
                }
                run.diag.converged = true;
                break;
            }
        }
        Ok(())
    }

    /// A stalled golden section although the optimality residual exceeds `kkt_tol`:
    /// narrow the bracket width tenfold (down to [`MIN_DELTA_MAX`]); false when that is
    /// not possible or not needed.
    fn refine(&self, ls: &mut LineSearch, it: &Iterate, sense: Sense) -> bool {
        let LineSearch::GoldenSection(gs) = ls else {
            return false;
        };
        let off_optimum = kkt_residual(&it.gamma, &sense.oriented(&it.grad)) > self.params.kkt_tol;
        if !off_optimum || gs.delta_max <= MIN_DELTA_MAX {
            return false;
        }
        *gs = GoldenSection {
            delta_max: (gs.delta_max / 10.0).max(MIN_DELTA_MAX),
            ..*gs
        };
        true
    }
}

/// The state of Algorithm 1 between updates.
struct Descent {
    it: Iterate,
    trace: Vec<f64>,
    iterations: usize,
    diag: SimpleMkkmDiagnostics,
    /// Descend (SimpleMKKM) or ascend (KAMM-R).
    sense: Sense,
}

/// Theorem 1's gradient at an evaluation (with the alignments the subspace solver
/// computed, else from H).
fn grad_of(views: &[MatRef<'_, f64>], gamma: &[f64], eval: &Evaluation) -> Result<Vec<f64>> {
    Ok(match &eval.alignments {
        Some(a) => gradient::gradient(gamma, a),
        None => gradient::gradient(gamma, &gradient::alignments(views, eval.h.as_ref())?),
    })
}

/// Counts and times of the oracle into the diagnostics.
fn record_stats(diag: &mut SimpleMkkmDiagnostics, os: &OracleStats) {
    let stats = &os.eval;
    diag.eigensolves = stats.eigensolves + os.certified;
    diag.method.projected_evaluations = os.projected_evaluations;
    diag.method.trial_time = os.trial_time;
    diag.method.kernel_matvecs = os.kernel_matvecs;
    diag.method.subspace_restarts = os.subspace_restarts;
    diag.method.subspace_expansions = os.expansions;
    diag.method.certify_matvecs = os.certify_matvecs;
    diag.method.trial_cache_hits = os.cache_hits;
    diag.method.warm_eigensolves = stats.warm_eigensolves;
    diag.eigen_time = stats.eigen_time + os.certify_time;
    diag.method.time_per_eigensolve = if diag.eigensolves == 0 {
        Duration::ZERO
    } else {
        diag.eigen_time / diag.eigensolves as u32
    };
    diag.method.combine_time = stats.combine_time;
    diag.method.matvecs = stats.matvecs;
    diag.method.dense_solves = stats.dense_solves;
}

mkc_mkkm::clusterer_by_relaxation!(
    SimpleMkkm,
    SimpleMkkmDiagnostics,
    "simplemkkm",
    "SimpleMKKM"
);
