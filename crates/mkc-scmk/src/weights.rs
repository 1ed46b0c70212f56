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
                .map(|k| column_cost(*k, j, idx, val))
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

/// Independent sums formed side by side in [`column_cost`].
const CHAINS: usize = 16;

/// Σ_a z_aj (−2K[j, a] + Σ_b z_bj K[b, a]) over the support (`idx`, `val`) of column j:
/// every inner sum in the order of the support, the outer one too.
///
/// On a kernel stored by columns the inner sums of [`CHAINS`] consecutive a are formed
/// together, reading their columns side by side: each gets the same terms in the same
/// order as alone, so the value is the same bit for bit, without a sum waiting on its own
/// previous addition at every term. h on BA's linear kernel at α = 10 (57% of Z non-zero,
/// one thread, loaded machine): 1.1–1.2 → 0.5 s per iteration.
pub(crate) fn column_cost(k: MatRef<'_, f64>, j: usize, idx: &[usize], val: &[f64]) -> f64 {
    let mut acc = 0.0;
    if k.row_stride() == 1 {
        let col = |a: usize| {
            k.col(a)
                .try_as_col_major()
                .map_or(&[][..], |c| c.as_slice())
        };
        let mut chunks = idx.chunks_exact(CHAINS);
        let mut t = 0;
        for chunk in &mut chunks {
            let cols: [&[f64]; CHAINS] = std::array::from_fn(|q| col(chunk[q]));
            let mut inner: [f64; CHAINS] = std::array::from_fn(|q| -2.0 * cols[q][j]);
            for (&b, &zb) in idx.iter().zip(val) {
                for q in 0..CHAINS {
                    inner[q] += zb * cols[q][b];
                }
            }
            for q in 0..CHAINS {
                acc += val[t + q] * inner[q];
            }
            t += CHAINS;
        }
        for (&a, &za) in chunks.remainder().iter().zip(&val[t..]) {
            let c = col(a);
            let mut inner = -2.0 * c[j];
            for (&b, &zb) in idx.iter().zip(val) {
                inner += zb * c[b];
            }
            acc += za * inner;
        }
    } else {
        for (&a, &za) in idx.iter().zip(val) {
            let mut inner = -2.0 * k[(j, a)];
            for (&b, &zb) in idx.iter().zip(val) {
                inner += zb * k[(b, a)];
            }
            acc += za * inner;
        }
    }
    acc
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Column j's cost as it was summed before the chains: one a at a time.
    fn one_at_a_time(k: MatRef<'_, f64>, j: usize, idx: &[usize], val: &[f64]) -> f64 {
        let mut acc = 0.0;
        for (&a, &za) in idx.iter().zip(val) {
            let mut inner = -2.0 * k[(j, a)];
            for (&b, &zb) in idx.iter().zip(val) {
                inner += zb * k[(b, a)];
            }
            acc += za * inner;
        }
        acc
    }

    /// The chained column costs equal the one-at-a-time sums bit for bit, for supports
    /// shorter and longer than the chain count, on a kernel stored by columns and on a
    /// view that is not (the plain path).
    #[test]
    fn column_costs_are_the_one_at_a_time_sums() {
        let n = 45;
        let k = Mat::from_fn(n, n, |i, j| {
            ((i * j) % 7) as f64 * 0.3 + 1.0 / (1.0 + i.abs_diff(j) as f64)
        });
        let kt = k.transpose().to_owned();
        let rows = kt.as_ref().transpose();
        assert!(rows.row_stride() != 1);
        for len in [1, 5, 16, 17, 33, 44] {
            let idx: Vec<usize> = (0..len)
                .map(|t| (t * 7 + 3) % n)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let val: Vec<f64> = idx.iter().map(|&i| 1.0 / (1.0 + i as f64)).collect();
            for j in [0, 4, n - 1] {
                let want = one_at_a_time(k.as_ref(), j, &idx, &val).to_bits();
                let got = column_cost(k.as_ref(), j, &idx, &val);
                assert_eq!(got.to_bits(), want, "len {len} j {j}");
                let got = column_cost(rows, j, &idx, &val);
                assert_eq!(got.to_bits(), want, "len {len} j {j} rows");
            }
        }
    }
}
