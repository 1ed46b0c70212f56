//! The gradient of J with respect to θ, eq. (12) (Danskin: α* held fixed):
//!
//! ```text
//! ∂J/∂θ_v = q/(2E²) · E_v − q_v/(2E),   q_v = βᵀK⁽ᵛ⁾β,  q = Σ_v θ_v q_v,  β = α* ∘ y,
//! ```
//!
//! with ∂K̃_ij/∂θ_v = K⁽ᵛ⁾_ij and ∂E/∂θ_v = E_v (see [`crate::variance`]). Note
//! θᵀ∇J = 0 (Euler's identity for the degree-0 homogeneous J, Proposition 1).

use crate::objective::{quad_support, Evaluation};
use crate::variance::Variance;
use faer::MatRef;

/// ∇_θ J at the evaluation `ev` (which must belong to θ, `var.labels()`), O(V·|SV|²).
pub fn gradient(
    kernels: &[MatRef<'_, f64>],
    theta: &[f64],
    var: &Variance,
    ev: &Evaluation,
) -> Vec<f64> {
    let y = var.labels();
    let beta: Vec<f64> = ev.model.alpha.iter().zip(y).map(|(a, t)| a * t).collect();
    let qv: Vec<f64> = kernels
        .iter()
        .map(|k| quad_support(*k, &beta, &ev.model.support))
        .collect();
    let q: f64 = theta.iter().zip(&qv).map(|(t, x)| t * x).sum();
    let e = ev.e;
    (0..kernels.len())
        .map(|v| q / (2.0 * e * e) * var.term(v) - qv[v] / (2.0 * e))
        .collect()
}
