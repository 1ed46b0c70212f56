//! Algorithm 1: the cutting plane over label vectors, on either α-solver.

use crate::ascent::refine;
use crate::fit::LgmmcDiagnostics;
use crate::labels::{labels_from_mu, top_eigenvector};
use crate::mlkl::{kkt_residual, minimise_mu, MklCounters};
use crate::params::{LabelRule, Lgmmc};
use crate::solver::{AlphaProblem, AlphaSolver};
use crate::violated::most_violated;
use mkc_core::{Result, Timings};

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

impl StopReason {
    /// The reason as a number for run records (`stop_reason` diagnostic): 0 tolerance,
    /// 1 no violation, 2 duplicate, 3 round cap.
    pub fn code(self) -> u8 {
        match self {
            StopReason::Tolerance => 0,
            StopReason::NoViolation => 1,
            StopReason::Duplicate => 2,
            StopReason::MaxIter => 3,
        }
    }

    /// Whether a stopping rule of Algorithm 1 fired (every reason but the round cap).
    pub fn converged(self) -> bool {
        self != StopReason::MaxIter
    }
}

/// Everything Algorithm 1 produces (the contract's `fit` reads its result from it).
#[derive(Clone, Debug)]
pub(crate) struct LgmmcFit {
    /// Cluster labels in {0, 1} by the [`LabelRule`].
    pub labels: Vec<usize>,
    /// J of eq. (7) after each round; non-increasing.
    pub objective_trace: Vec<f64>,
    /// Cutting-plane rounds.
    pub rounds: usize,
    /// The working set, μ, α, the stopping reason and the solvers' counts
    /// (`linear_path` is set by the caller).
    pub diag: LgmmcDiagnostics,
}

/// The label vectors and their weights μ while Algorithm 1 runs.
struct WorkingSet {
    labels: Vec<Vec<f64>>,
    mu: Vec<f64>,
}

impl WorkingSet {
    /// Whether `y` or `−y` is already in the set (same label kernel).
    fn holds(&self, y: &[f64]) -> bool {
        self.labels
            .iter()
            .any(|v| v.iter().zip(y).all(|(a, b)| a == b) || v.iter().zip(y).all(|(a, b)| a == &-b))
    }
}

impl Lgmmc {
    /// Step 1's label vector: the caller's start, or the most violated ŷ at α = 1/n.
    fn first_label_vector<S: AlphaSolver>(&self, solver: &S, beta: f64) -> Result<Vec<f64>> {
        let n = solver.n();
        match self.initial_labels(n, beta)? {
            Some(y) => Ok(y),
            None => {
                let start = vec![1.0 / n as f64; n];
                let first = most_violated(solver.features(), &start, beta)?.labels;
                Ok(refine(solver, &start, first, beta, self.params().refine_steps)?.0)
            }
        }
    }

    /// Algorithm 1 on `solver` with balance β; phases "mkl" (α- and μ-steps),
    /// "violated" (eqs. 13–15 and the ascent) and "labels" are charged to `timings`.
    pub(crate) fn cutting_plane<S: AlphaSolver>(
        &self,
        solver: &mut S,
        beta: f64,
        timings: &mut Timings,
    ) -> Result<LgmmcFit> {
        let p = self.params();
        // Step 1: C = {ŷ} (≡ {ŷ, −ŷ}).
        let first = timings.time("violated", || self.first_label_vector(solver, beta))?;
        let mut set = WorkingSet {
            labels: vec![first],
            mu: vec![1.0],
        };
        let mut step = timings.time("mkl", || {
            solver.solve(AlphaProblem::cold(&set.labels, &set.mu))
        })?;
        let mut counters = MklCounters::new(&step);
        let mut all_converged = step.converged;
        let mut trace: Vec<f64> = Vec::new();
        let mut stop = StopReason::MaxIter;
        let mut rounds = 0;
        for round in 1..=p.max_iter {
            rounds = round;
            // Step 2: the multiple label-kernel problem over C.
            let before = counters.solves;
            let mu = std::mem::take(&mut set.mu);
            (set.mu, step) = timings.time("mkl", || {
                minimise_mu(solver, &set.labels, mu, step, p, &mut counters)
            })?;
            all_converged &= step.converged || counters.solves == before;
            let j = step.objective;
            let prev = trace.last().copied();
            trace.push(j);
            if prev.is_some_and(|prev| prev - j <= p.tol * prev.abs()) {
                stop = StopReason::Tolerance;
                break;
            }
            if round == p.max_iter {
                break;
            }
            // Step 3: the most violated ŷ, added to C.
            let found = timings.time("violated", || {
                let y = most_violated(solver.features(), &step.alpha, beta)?.labels;
                refine(solver, &step.alpha, y, beta, p.refine_steps).map(|r| r.0)
            })?;
            if set.holds(&found) {
                stop = StopReason::Duplicate;
                break;
            }
            let v = solver.violation(&step.alpha, &found)?;
            let theta = step.terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if v <= theta * (1.0 + 1e-9) {
                stop = StopReason::NoViolation;
                break;
            }
            set.labels.push(found);
            set.mu.push(0.0);
            step.terms.push(v);
        }
        let labels = timings.time("labels", || self.read_labels(solver, &set, &step.alpha))?;
        let diag = LgmmcDiagnostics {
            mkl_residual: kkt_residual(&step.terms, &set.mu),
            feature_dim: solver.features().ncols(),
            label_vectors: set.labels,
            mu: set.mu,
            alpha: step.alpha,
            stop,
            alpha_solves: counters.solves,
            inner_iterations: counters.inner,
            solvers_converged: all_converged,
            linear_path: false,
        };
        Ok(LgmmcFit {
            labels,
            objective_trace: trace,
            rounds,
            diag,
        })
    }

    /// The clustering from `M = Σ_t μ_t ŷ_t ŷ_tᵀ` by the [`LabelRule`] (Section 3.1):
    /// signs of its top eigenvector v, or of the decision values `K(α∘v)`.
    fn read_labels<S: AlphaSolver>(
        &self,
        solver: &S,
        set: &WorkingSet,
        alpha: &[f64],
    ) -> Result<Vec<usize>> {
        match self.params().label_rule {
            LabelRule::Eigenvector => labels_from_mu(&set.labels, &set.mu),
            LabelRule::Decision => {
                let (_, v) = top_eigenvector(&set.labels, &set.mu)?;
                let coef: Vec<f64> = alpha.iter().zip(&v).map(|(a, b)| a * b).collect();
                Ok(solver
                    .kernel_times(&coef)
                    .iter()
                    .map(|&f| usize::from(f > 0.0))
                    .collect())
            }
        }
    }
}
