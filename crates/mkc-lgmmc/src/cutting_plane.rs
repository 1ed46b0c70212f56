//! Algorithm 1: the cutting plane over label vectors, and the fit entry points.

use crate::ascent::refine;
use crate::features::{kernel_features, kernel_sqrt_features};
use crate::kernel_path::KernelSolver;
use crate::labels::{labels_from_mu, top_eigenvector};
use crate::linear_path::LinearSolver;
use crate::mlkl::{kkt_residual, minimise_mu};
use crate::params::{FeatureMap, LabelRule, Lgmmc};
use crate::solver::AlphaSolver;
use crate::violated::most_violated;
use faer::{Mat, MatRef};
use mkc_core::{validate, Result};
use mkc_svm::CheckedKernel;

/// Why Algorithm 1 stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The objective of eq. (7) decreased by less than `tol · |J|` in the last round.
    Tolerance,
    /// The label vector found by eq. (13) violates no constraint of eq. (6) (its term
    /// is not larger than the largest term in the working set).
    NoViolation,
    /// The label vector found is already in the working set.
    Duplicate,
    /// `max_iter` rounds were run.
    MaxIter,
}

/// The result of LG-MMC.
#[derive(Clone, Debug)]
pub struct LgmmcFit {
    /// Cluster labels in {0, 1} by the [`LabelRule`](crate::LabelRule) (default: signs of
    /// the decision values `K(α∘v)`, v the top eigenvector of `M = Σ_t μ_t ŷ_t ŷ_tᵀ`;
    /// values ≤ 0 go to cluster 0).
    pub labels: Vec<usize>,
    /// The working set C of label vectors ŷ_t ∈ B, in order of generation (one of each
    /// pair ±ŷ: both give the same label kernel `K∘ŷŷᵀ`, so Algorithm 1's start
    /// `C = {ŷ, −ŷ}` is stored as `{ŷ}`).
    pub label_vectors: Vec<Vec<f64>>,
    /// μ on the simplex, one weight per label vector.
    pub mu: Vec<f64>,
    /// α of the last α-step.
    pub alpha: Vec<f64>,
    /// `J = −½ αᵀ(Σ_t μ_t K∘ŷ_t ŷ_tᵀ + I/C)α` (eq. 7) after each round; non-increasing.
    pub objective_trace: Vec<f64>,
    /// Cutting-plane rounds.
    pub rounds: usize,
    /// Why the loop stopped.
    pub stop: StopReason,
    /// α-solves in all (SVM solves / coordinate-descent runs).
    pub alpha_solves: usize,
    /// Iterations of the inner solvers in all (SMO steps on the kernel path,
    /// coordinate-descent epochs on the linear path).
    pub inner_iterations: usize,
    /// Whether every α-solve met its tolerance.
    pub solvers_converged: bool,
    /// Relative KKT residual of μ after the last round (see `mkl_tol`).
    pub mkl_residual: f64,
    /// Number of explicit features used by eq. (13) (the eigen-rank r on the kernel path).
    pub feature_dim: usize,
}

impl Lgmmc {
    /// LG-MMC on a precomputed kernel `k` (n x n, symmetric, finite; validated here).
    /// The bias b is added to every entry for the α-steps; eq. (13) runs on the
    /// eigen-features of the centred K (see [`crate::kernel_features`]).
    pub fn fit_kernel(&self, k: MatRef<'_, f64>) -> Result<LgmmcFit> {
        let owned;
        let kb = if self.p.bias != 0.0 {
            owned = Mat::from_fn(k.nrows(), k.ncols(), |i, j| k[(i, j)] + self.p.bias);
            owned.as_ref()
        } else {
            k
        };
        let checked = CheckedKernel::new(kb)?;
        let n = checked.size();
        let beta = self.beta(n)?;
        let f = match self.p.feature_map {
            FeatureMap::Pca => kernel_features(k, self.p.energy_tol, self.p.max_rank, self.p.seed)?,
            FeatureMap::Sqrt => {
                kernel_sqrt_features(kb, self.p.energy_tol, self.p.max_rank, self.p.seed)?
            }
        };
        let mut solver = KernelSolver::new(checked, self.p.c, self.p.solver_tol, f);
        self.cutting_plane(&mut solver, beta)
    }

    /// LG-MMC with the linear kernel `K = XXᵀ + b` on the samples `x` (rows, n x d), in
    /// feature space (no n x n matrix; see [`crate::linear_path`]); eq. (13) runs on the
    /// columns of X (and the bias column √b).
    pub fn fit_linear(&self, x: MatRef<'_, f64>) -> Result<LgmmcFit> {
        validate::non_empty("x", x)?;
        validate::finite("x", x)?;
        let beta = self.beta(x.nrows())?;
        let mut solver = LinearSolver::new(
            x,
            self.p.center,
            self.p.bias,
            self.p.c,
            self.p.solver_tol,
            self.p.seed,
        )?;
        self.cutting_plane(&mut solver, beta)
    }

    /// A precomputed kernel, with the features of eq. (13) given by the caller (tests:
    /// the linear kernel with its own features, to compare both paths).
    #[cfg(test)]
    pub(crate) fn fit_kernel_with_features(
        &self,
        k: MatRef<'_, f64>,
        f: Mat<f64>,
    ) -> Result<LgmmcFit> {
        let checked = CheckedKernel::new(k)?;
        let beta = self.beta(checked.size())?;
        let mut solver = KernelSolver::new(checked, self.p.c, self.p.solver_tol, f);
        self.cutting_plane(&mut solver, beta)
    }

    /// Algorithm 1.
    pub(crate) fn cutting_plane<S: AlphaSolver>(
        &self,
        solver: &mut S,
        beta: f64,
    ) -> Result<LgmmcFit> {
        let p = &self.p;
        let n = solver.n();
        // Step 1: α = 1/n, the most violated ŷ, C = {ŷ} (≡ {ŷ, −ŷ}); or the caller's start.
        let first = match self.initial_labels(n, beta)? {
            Some(y) => y,
            None => {
                let start = vec![1.0 / n as f64; n];
                let first = most_violated(solver.features(), &start, beta)?.labels;
                refine(solver, &start, first, beta, p.refine_steps)?.0
            }
        };
        let mut labels = vec![first];
        let mut mu = vec![1.0];
        let mut step = solver.solve(&labels, &mu, None)?;
        let mut solves = 1usize;
        let mut inner = step.iterations;
        let mut frac = 0.25;
        let mut all_converged = step.converged;
        let mut trace: Vec<f64> = Vec::new();
        let mut stop = StopReason::MaxIter;
        let mut rounds = 0;
        for round in 1..=p.max_iter {
            rounds = round;
            // Step 2: the multiple label-kernel problem over C.
            let before = solves;
            let (m, s) = minimise_mu(
                solver,
                &labels,
                mu,
                step,
                p,
                &mut solves,
                &mut inner,
                &mut frac,
            )?;
            mu = m;
            step = s;
            all_converged &= step.converged || solves == before;
            let j = step.objective;
            let prev = trace.last().copied();
            trace.push(j);
            if let Some(prev) = prev {
                if prev - j <= p.tol * prev.abs() {
                    stop = StopReason::Tolerance;
                    break;
                }
            }
            if round == p.max_iter {
                break;
            }
            // Step 3: the most violated ŷ, added to C.
            let mut cand = most_violated(solver.features(), &step.alpha, beta)?;
            let found = std::mem::take(&mut cand.labels);
            cand.labels = refine(solver, &step.alpha, found, beta, p.refine_steps)?.0;
            let dup = labels.iter().any(|y| {
                y.iter().zip(&cand.labels).all(|(a, b)| a == b)
                    || y.iter().zip(&cand.labels).all(|(a, b)| a == &-b)
            });
            if dup {
                stop = StopReason::Duplicate;
                break;
            }
            let v = solver.violation(&step.alpha, &cand.labels);
            let theta = step.terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if v <= theta * (1.0 + 1e-9) {
                stop = StopReason::NoViolation;
                break;
            }
            labels.push(cand.labels);
            mu.push(0.0);
            step.terms.push(v);
        }
        let out = match p.label_rule {
            LabelRule::Eigenvector => labels_from_mu(&labels, &mu)?,
            LabelRule::Decision => {
                let (_, v) = top_eigenvector(&labels, &mu)?;
                let coef: Vec<f64> = step.alpha.iter().zip(&v).map(|(a, b)| a * b).collect();
                solver
                    .kernel_times(&coef)
                    .iter()
                    .map(|&f| usize::from(f > 0.0))
                    .collect()
            }
        };
        Ok(LgmmcFit {
            labels: out,
            mkl_residual: kkt_residual(&step.terms, &mu),
            feature_dim: solver.features().ncols(),
            label_vectors: labels,
            mu,
            alpha: step.alpha,
            objective_trace: trace,
            rounds,
            stop,
            alpha_solves: solves,
            inner_iterations: inner,
            solvers_converged: all_converged,
        })
    }
}
