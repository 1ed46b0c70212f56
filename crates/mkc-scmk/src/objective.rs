//! The objectives (7) (SCSK) and (18) (SCMK):
//!
//! J(Z, P, w) = Σ_i w_i h_i + α‖Z‖²_F + β tr(PᵀLP),
//!
//! with h_i the reconstruction costs (20) (for SCSK one kernel with w = 1) and, by (10),
//! tr(PᵀLP) = ½ Σ_ij ‖P_i − P_j‖² z_ij for L = D − (Z + Zᵀ)/2.
//!
//! Algorithms 1 and 2 are block-coordinate descent on J: the P step (8) is the exact
//! minimiser over PᵀP = I (Ky Fan), the Z step (11) is a convex QP solved by a descent
//! method started at the previous Z (so it never increases J even before convergence),
//! and the w step (22) is the exact minimiser of (19) = J in w. Hence the J recorded
//! after each complete iteration is non-increasing (up to the eigensolver's tolerance),
//! from the second iteration on for SCMK: the authors' start w_i = 1/r violates
//! Σ √w_i = 1, so J(w_0) is not comparable. Each trace entry is J(Z_t, P_t, w_t), with
//! P_t the indicator used in iteration t's Z step (the eigenvectors of L(Z_{t−1})).

use faer::MatRef;
use mkc_core::{validate, Result};

use crate::support::ColumnSupport;
use crate::weights::costs;

/// The terms of J.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Objective {
    /// Σ_i w_i h_i (eq. (19)).
    pub reconstruction: f64,
    /// ‖Z‖²_F.
    pub frobenius: f64,
    /// tr(PᵀLP) (eq. (10)).
    pub laplacian: f64,
    /// reconstruction + α · frobenius + β · laplacian.
    pub total: f64,
}

/// J(Z, P, w) of eq. (18) (eq. (7) with one kernel and w = (1)).
///
/// # Errors
/// Invalid kernels, `w` of another length than `kernels` or non-finite, Z not n x n,
/// P not n x c, non-finite Z or P, α ≤ 0, β < 0.
pub fn objective(
    kernels: &[MatRef<'_, f64>],
    w: &[f64],
    z: MatRef<'_, f64>,
    p: MatRef<'_, f64>,
    alpha: f64,
    beta: f64,
) -> Result<Objective> {
    let n = validate::kernels("kernels", kernels)?;
    validate::len("w", w.len(), kernels.len())?;
    validate::finite_slice("w", w)?;
    validate::dims("Z", z, n, n)?;
    validate::finite("Z", z)?;
    crate::z_step::check_indicator(p, n)?;
    validate::positive("alpha", alpha)?;
    validate::non_negative("beta", beta)?;
    let s = ColumnSupport::new(z);
    let h = costs(kernels, z, &s);
    Ok(assemble(&h, w, &s, p, alpha, beta))
}

/// J from precomputed costs h (eq. (20)) and support of Z.
pub(crate) fn assemble(
    h: &[f64],
    w: &[f64],
    s: &ColumnSupport,
    p: MatRef<'_, f64>,
    alpha: f64,
    beta: f64,
) -> Objective {
    let reconstruction = w.iter().zip(h).map(|(a, b)| a * b).sum::<f64>();
    let frobenius = s.val.iter().flatten().map(|v| v * v).sum::<f64>();
    let c = p.ncols();
    let mut laplacian = 0.0;
    for (j, (idx, val)) in s.idx.iter().zip(&s.val).enumerate() {
        for (&i, &v) in idx.iter().zip(val) {
            let d: f64 = (0..c).map(|t| (p[(i, t)] - p[(j, t)]).powi(2)).sum();
            laplacian += 0.5 * d * v;
        }
    }
    Objective {
        reconstruction,
        frobenius,
        laplacian,
        total: reconstruction + alpha * frobenius + beta * laplacian,
    }
}
