//! The gradient of J (Theorem 1): `∂J/∂γ_p = 2 γ_p tr(Hᵀ K_p H)` at the maximiser H.
//!
//! `tr(Hᵀ K_p H)` is computed by `mkc_linalg::trace_quadratic_many`, blocked over rows
//! of `K_p`, so no n x k product `K_p H` is stored.

use faer::MatRef;
use mkc_core::Result;

/// `a_p = tr(Hᵀ K_p H)` for every base kernel (the kernel alignments with `HHᵀ`).
pub fn alignments(kernels: &[MatRef<'_, f64>], h: MatRef<'_, f64>) -> Result<Vec<f64>> {
    mkc_linalg::trace_quadratic_many(kernels, h)
}

/// Theorem 1: `g_p = 2 γ_p a_p` from the alignments `a_p = tr(Hᵀ K_p H)`.
pub fn gradient(gamma: &[f64], alignments: &[f64]) -> Vec<f64> {
    gamma
        .iter()
        .zip(alignments)
        .map(|(g, a)| 2.0 * g * a)
        .collect()
}

/// Directional derivative `gᵀd`.
pub fn slope(g: &[f64], d: &[f64]) -> f64 {
    g.iter().zip(d).map(|(a, b)| a * b).sum()
}
