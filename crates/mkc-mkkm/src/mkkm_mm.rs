//! MKKM-MM (Bang, Yu & Wu, *Robust multiple kernel k-means clustering using min-max
//! optimization*, arXiv 2018; SimpleMKKM's eq. (3)), a baseline of SimpleMKKM's Table 2:
//!
//! `min_{HᵀH = I_k} max_{θ ≥ 0, ‖θ‖₂ ≤ 1} tr(W_θ (I − HHᵀ))`, `W_θ = Σ_p θ_p K_p`
//! (weights enter linearly, not squared).
//!
//! The inner maximum is a closed form: with `a_p(H) = tr K_p − tr(Hᵀ K_p H) ≥ 0`,
//! `θ = a / ‖a‖₂` ([`l2_weights`]), and the min-max value at H is `‖a(H)‖₂`. The outer
//! step, H = the top-k eigenvectors of `W_θ`, minimises `tr(W_θ (I − HHᵀ))` for fixed θ.
//!
//! As the authors' R package `MKKC` (`mkkcEst`): θ starts at 1/P; H is computed for it;
//! then each iteration sets θ from the current H and recomputes H, and the run stops when
//! `‖θ_new − θ_old‖₂ < tol` (1e-4) or after `max_iter` (10) H steps in total (the
//! authors' `iter.max` counts their first pass, which only recomputes the initial H; we
//! do not repeat that solve). The returned H is the one of the final θ. Alternating a
//! max step with a min step is not monotone (the paper gives no guarantee), so the cap
//! decides where an oscillating run ends, as in the authors' code.
//!
//! Choices written down here:
//! - The weights reported are θ scaled to unit ℓ2 norm ([`WeightConstraint::PNorm`]`(2)`);
//!   H depends only on θ's direction, so the initial 1/P is reported as `1/√P`.
//! - Objective trace (one value per H step): `F(θ_t, H_t) = Σ_p θ_tp a_p(H_t)` with θ_t
//!   of unit norm — the min-max objective at the pair, `tr(W_θ (I − HHᵀ))`.
//! - If every `a_p` is ≤ 1e-12 tr K_p (all kernels inside span H), θ is kept.
//! - Kernels centred and scaled to unit diagonal first, as the SimpleMKKM experiments do
//!   (the package's own `StandardizeKernel` divides by the trace instead); labels by
//!   k-means on the row-normalised H ([`crate::labels`]), as every method of the table.

use faer::MatRef;
use mkc_core::{Result, WeightConstraint};

use crate::alternation::traces;
use crate::fit::{FamilyDiagnostics, KernelFit, MethodDiagnostics};
use crate::objective::Objective;
use crate::params::check_stopping;

crate::family_params! {
    /// Parameters of MKKM-MM, unchecked (defaults of the authors' package).
    ///
    /// ```
    /// use mkc_mkkm::prelude::*;
    /// assert!(MkkmMmParams::new().max_iter(20).validate_params().is_ok());
    /// assert!(MkkmMmParams::new().tol(0.0).validate_params().is_err());
    /// ```
    pub struct MkkmMmParams => MkkmMm, "mkkm-mm" {
        /// Stop when `‖θ_new − θ_old‖₂ < tol`. Default 1e-4 (authors' `epsilon`).
        tol: f64 = 1e-4,
        /// Cap on the H steps, the first included (authors' `iter.max`). Default 10.
        max_iter: usize = 10,
    }
    check(&self) { check_stopping(self.tol, self.max_iter) }
}

/// MKKM-MM's own diagnostics: `‖θ_new − θ_old‖₂` of every update.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct MkkmMmSteps {
    /// `‖θ_new − θ_old‖₂` of every update.
    pub steps: Vec<f64>,
}

impl MethodDiagnostics for MkkmMmSteps {}

/// Diagnostics of an MKKM-MM run: `converged` (`‖Δθ‖₂ < tol` before `max_iter`), the
/// eigensolves (= H steps), θ (unit norm) at the start and after every update
/// (`weight_trace`), the steps and the times. Entries: `converged` (0 or 1).
pub type MkkmMmDiagnostics = FamilyDiagnostics<MkkmMmSteps>;

/// Result of the MKKM-MM alternation ([`MkkmMm::fit_kernels`]), before the k-means:
/// θ of unit ℓ2 norm (`W_θ = Σ_p θ_p K_p`) in `gamma`, H (top-k eigenvectors of `W_θ`
/// for the returned θ) and `tr(W_θ (I − HHᵀ))` after each H step.
pub type MkkmMmFit = KernelFit<MkkmMmSteps>;

/// The inner maximiser `argmax_{θ ≥ 0, ‖θ‖₂ ≤ 1} Σ_p θ_p a_p = a / ‖a‖₂` for `a ≥ 0`
/// (Cauchy–Schwarz); `None` when `a` is (numerically) zero, where every feasible θ is
/// optimal. Negative entries (rounding of `a_p ≈ 0`) are clipped to 0 first.
pub fn l2_weights(a: &[f64]) -> Option<Vec<f64>> {
    let clipped: Vec<f64> = a.iter().map(|v| v.max(0.0)).collect();
    let norm = clipped.iter().map(|v| v * v).sum::<f64>().sqrt();
    (norm > 0.0 && norm.is_finite()).then(|| clipped.iter().map(|v| v / norm).collect())
}

crate::engine_entry! {
    /// Checked MKKM-MM parameters; fits through [`mkc_core::Clusterer`] (registry name
    /// `"mkkm-mm"`): the alternation on every kernel of the set (preprocessed first), then
    /// k-means with the seed on the row-normalised H. Weights: θ of unit ℓ2 norm (kernel
    /// `Σ_p θ_p K_p`). Objective: `tr(W_θ (I − HHᵀ))` per H step (module docs; not
    /// monotone). Restarts compute θ and H once.
    pub struct MkkmMm(MkkmMmParams) => MkkmMmFit
}

impl MkkmMm {
    fn optimise(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<MkkmMmFit> {
        let p = &self.params;
        let tr = traces(views);
        let m = views.len();
        let mut obj = Objective::new(views, n_clusters, p.eigen.clone(), true)?;
        let mut theta = vec![1.0 / (m as f64).sqrt(); m];
        let mut eval = obj.evaluate_linear(&theta, None)?;
        let cost = |h: MatRef<'_, f64>| -> Result<Vec<f64>> {
            let a = mkc_linalg::trace_quadratic_many(views, h)?;
            Ok(tr.iter().zip(&a).map(|(t, a)| t - a).collect())
        };
        let mut a = cost(eval.h.as_ref())?;
        let mut trace = vec![dot(&theta, &a)];
        let mut diag = MkkmMmDiagnostics {
            weight_trace: vec![theta.clone()],
            ..Default::default()
        };
        while trace.len() < p.max_iter {
            let degenerate = a.iter().zip(&tr).all(|(v, t)| *v <= 1e-12 * t.abs());
            let Some(next) = l2_weights(&a).filter(|_| !degenerate) else {
                diag.converged = true;
                break;
            };
            let step = next
                .iter()
                .zip(&theta)
                .map(|(x, y)| (x - y) * (x - y))
                .sum::<f64>()
                .sqrt();
            theta = next;
            eval = obj.evaluate_linear(&theta, Some(eval.h.as_ref()))?;
            a = cost(eval.h.as_ref())?;
            trace.push(dot(&theta, &a));
            diag.weight_trace.push(theta.clone());
            diag.method.steps.push(step);
            if step < p.tol {
                diag.converged = true;
                break;
            }
        }
        diag.count(obj.stats());
        Ok(MkkmMmFit::per_value(theta, eval.h, trace, diag, ()))
    }
}

fn dot(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

crate::clusterer_by_relaxation!(
    MkkmMm,
    MkkmMmDiagnostics,
    "mkkm-mm",
    "MKKM-MM",
    WeightConstraint::PNorm(2.0)
);
