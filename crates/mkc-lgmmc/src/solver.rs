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

/// An inner solver of eq. (7) for a fixed kernel.
pub(crate) trait AlphaSolver {
    /// Number of samples.
    fn n(&self) -> usize;
    /// Solve at weights `mu` over the label vectors `labels`, warm-started from `warm`.
    fn solve(
        &mut self,
        labels: &[Vec<f64>],
        mu: &[f64],
        warm: Option<&AlphaStep>,
    ) -> Result<AlphaStep>;
    /// `½ (α∘y)ᵀ K (α∘y)`: the right-hand side of the constraint of eq. (6) for label
    /// vector `y`, without the `αᵀα/C` part (eq. 11, halved).
    fn violation(&self, alpha: &[f64], y: &[f64]) -> Result<f64>;
    /// `K·coef` (the kernel with its bias): decision values `f = K(α∘v)`.
    fn kernel_times(&self, coef: &[f64]) -> Vec<f64>;
    /// Explicit features for the search of eq. (13) (n x d).
    fn features(&self) -> MatRef<'_, f64>;
}
