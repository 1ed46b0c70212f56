//! The α-step of eq. (7) at fixed μ, behind one trait so that Algorithm 1 and the
//! reduced-gradient μ-step run unchanged on a precomputed kernel ([`crate::kernel_path`])
//! or in feature space ([`crate::linear_path`]).

use faer::MatRef;
use mkc_core::Result;

/// One solution of `max_{α ∈ A} −½ αᵀ(Σ_t μ_t K∘y_t y_tᵀ + I/C)α` (eq. 3 with the
/// label kernels of eq. 7).
#[derive(Clone, Debug)]
pub(crate) struct AlphaStep {
    /// α on the simplex.
    pub alpha: Vec<f64>,
    /// The value `J(μ) = −½ αᵀQα` (≤ 0).
    pub objective: f64,
    /// The margin `ρ = αᵀQα` of eq. (1).
    pub rho: f64,
    /// `L_t = ½ αᵀ(K∘y_t y_tᵀ)α` for every label vector t; `∂J/∂μ_t = −L_t`.
    pub terms: Vec<f64>,
    /// Iterations of the inner solver (SMO steps or coordinate-descent epochs).
    pub iterations: usize,
    /// Whether the inner solver met its tolerance.
    pub converged: bool,
}

/// One α-step to take: the label vectors ŷ_t, their weights μ and an optional warm start.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AlphaProblem<'a> {
    /// The working set's label vectors.
    pub labels: &'a [Vec<f64>],
    /// μ, one weight per label vector.
    pub mu: &'a [f64],
    /// The previous step, to start from.
    pub warm: Option<&'a AlphaStep>,
}

impl<'a> AlphaProblem<'a> {
    /// Without a warm start.
    pub(crate) fn cold(labels: &'a [Vec<f64>], mu: &'a [f64]) -> Self {
        Self {
            labels,
            mu,
            warm: None,
        }
    }

    /// Warm-started from `step`.
    pub(crate) fn from(self, step: &'a AlphaStep) -> Self {
        Self {
            warm: Some(step),
            ..self
        }
    }
}

/// An inner solver of eq. (7) for a fixed kernel.
pub(crate) trait AlphaSolver {
    /// Number of samples.
    fn n(&self) -> usize;
    /// Solve `problem` (eq. 3 at its weights μ over its label vectors).
    fn solve(&mut self, problem: AlphaProblem<'_>) -> Result<AlphaStep>;
    /// `½ (α∘y)ᵀ K (α∘y)`: the right-hand side of the constraint of eq. (6) for label
    /// vector `y`, without the `αᵀα/C` part (eq. 11, halved).
    fn violation(&self, alpha: &[f64], y: &[f64]) -> Result<f64>;
    /// `K·coef` (the kernel with its bias): decision values `f = K(α∘v)`.
    fn kernel_times(&self, coef: &[f64]) -> Vec<f64>;
    /// Explicit features for the search of eq. (13) (n x d).
    fn features(&self) -> MatRef<'_, f64>;
}
