//! The kernel weight step of SCMK, eqs. (19)–(22).
//!
//! For fixed Z the weights solve (19): min_w Σ_i w_i h_i s.t. Σ_i √w_i = 1, w ≥ 0, with
//! the reconstruction costs (20) h_i = tr(K^i − 2K^iZ + ZᵀK^iZ) = ‖φ_i(X) − φ_i(X)Z‖²_F.
//! Substituting s_i = √w_i gives min Σ s_i² h_i on the simplex, whose minimiser is
//! s_i ∝ 1/h_i, i.e. eq. (22): w_i = (h_i Σ_j 1/h_j)^(−2).
//!
//! Choices the paper leaves open (written down here):
//! - h_i ≥ 0 for a PSD kernel; a negative h_i within rounding
//!   (|h_i| ≤ 1e-12 · max_j |h_j|, or below 1e-300) counts as 0, a clearly negative one is
//!   an error (the kernel is not PSD and (19) is then not what (22) minimises).
//! - Kernels with h_i = 0 reconstruct perfectly: (22) is their limit, which shares the
//!   mass of √w equally among them (w_i = 1/m² for the m such kernels, 0 for the rest).

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{validate, Error, Result};
use rayon::prelude::*;

use crate::support::ColumnSupport;

/// The reconstruction costs (20), h_i = tr(K^i − 2K^iZ + ZᵀK^iZ), one per kernel.
///
/// Summed over the non-zeros of Z (O(Σ_j nnz(Z_j)²) per kernel), in a fixed order.
///
/// # Errors
/// Invalid kernels (see `mkc_core::validate::kernels`), Z not n x n or non-finite.
pub fn reconstruction_costs(kernels: &[MatRef<'_, f64>], z: MatRef<'_, f64>) -> Result<Vec<f64>> {
    let n = validate::kernels("kernels", kernels)?;
    validate::dims("Z", z, n, n)?;
    validate::finite("Z", z)?;
    Ok(costs(kernels, z, &ColumnSupport::new(z)))
}

/// [`reconstruction_costs`] on a precomputed support of Z, no validation.
///
/// Sparse Z: summed over the supports, O(r · Σ_j nnz_j²). Dense Z (when that exceeds
/// n³/4): tr(ZᵀKZ) = ⟨K, ZZᵀ⟩_F and tr(KZ) = ⟨K, Zᵀ⟩_F, one faer product ZZᵀ shared
/// by all kernels plus O(r n²).
pub(crate) fn costs(
    kernels: &[MatRef<'_, f64>],
    z: MatRef<'_, f64>,
    s: &ColumnSupport,
) -> Vec<f64> {
    let r = kernels.len();
    let n = s.idx.len();
    let work: f64 = s
        .idx
        .iter()
        .map(|v| (v.len() * v.len()) as f64)
        .sum::<f64>()
        * r as f64;
    if work > 0.25 * (n as f64).powi(3) {
        return dense_costs(kernels, z);
    }
    // Per column j: Σ_a z_aj (−2K[j, a] + Σ_b z_bj K[b, a]) for every kernel.
    let per_col: Vec<Vec<f64>> = (0..n)
        .into_par_iter()
        .map(|j| {
            let (idx, val) = (&s.idx[j], &s.val[j]);
            kernels
                .iter()
                .map(|k| {
                    let mut acc = 0.0;
                    for (&a, &za) in idx.iter().zip(val) {
                        let mut inner;
                        if let Some(col) = k.col(a).try_as_col_major() {
                            let col = col.as_slice();
                            inner = -2.0 * col[j];
                            for (&b, &zb) in idx.iter().zip(val) {
                                inner += zb * col[b];
                            }
                        } else {
                            inner = -2.0 * k[(j, a)];
                            for (&b, &zb) in idx.iter().zip(val) {
                                inner += zb * k[(b, a)];
                            }
                        }
                        acc += za * inner;
                    }
                    acc
                })
                .collect()
        })
        .collect();
    let mut h: Vec<f64> = kernels
        .iter()
        .map(|k| (0..n).map(|i| k[(i, i)]).sum())
        .collect();
    for col in &per_col {
        for (hi, v) in h.iter_mut().zip(col) {
            *hi += v;
        }
    }
    debug_assert_eq!(h.len(), r);
    h
}

fn dense_costs(kernels: &[MatRef<'_, f64>], z: MatRef<'_, f64>) -> Vec<f64> {
    let n = z.nrows();
    let mut zzt = Mat::<f64>::zeros(n, n);
    matmul(
        zzt.as_mut(),
        Accum::Replace,
        z,
        z.transpose(),
        1.0,
        Par::rayon(0),
    );
    kernels
        .par_iter()
        .map(|k| {
            let mut h = 0.0;
            for j in 0..n {
                for i in 0..n {
                    let kij = k[(i, j)];
                    h += kij * (zzt[(i, j)] - 2.0 * z[(j, i)]);
                }
                h += k[(j, j)];
            }
            h
        })
        .collect()
}

/// Eq. (22): the minimiser of (19), w_i = (h_i Σ_j 1/h_j)^(−2); see the module docs
/// for h_i = 0.
///
/// # Errors
/// Empty or non-finite `h`, or a clearly negative h_i (a non-PSD kernel).
pub fn optimal_weights(h: &[f64]) -> Result<Vec<f64>> {
    if h.is_empty() {
        return Err(Error::input("h", "no kernels"));
    }
    validate::finite_slice("h", h)?;
    let scale = h.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let zero = (1e-12 * scale).max(1e-300);
    if let Some(i) = h.iter().position(|&v| v < -zero) {
        return Err(Error::input(
            format!("kernels[{i}]"),
            format!("reconstruction cost h = {:e} < 0 (eq. 20): the kernel is not positive semidefinite", h[i]),
        ));
    }
    let zeros: Vec<usize> = (0..h.len()).filter(|&i| h[i] <= zero).collect();
    if !zeros.is_empty() {
        let s = 1.0 / zeros.len() as f64;
        let mut w = vec![0.0; h.len()];
        for i in zeros {
            w[i] = s * s;
        }
        return Ok(w);
    }
    let inv_sum: f64 = h.iter().map(|v| 1.0 / v).sum();
    Ok(h.iter().map(|&v| (v * inv_sum).powi(-2)).collect())
}

/// The objective (19), Σ_i w_i h_i.
pub fn weight_objective(w: &[f64], h: &[f64]) -> f64 {
    w.iter().zip(h).map(|(a, b)| a * b).sum()
}
