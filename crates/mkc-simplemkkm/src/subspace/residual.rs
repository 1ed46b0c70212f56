//! Residuals `K_γ U − U Θ` of Ritz pairs on the subspace, from the stored products
//! `P_p = K_p Q` (no product with an n x n matrix).

use faer::linalg::matmul::matmul;
use faer::reborrow::*;
use faer::{Accum, Mat, MatRef, Par};
use rayon::prelude::*;

use super::{Ritz, Subspace, ROWS};

impl Subspace<'_> {
    /// Residual block `K_γ U − U Θ` (n x k) of Ritz pairs at `gamma`, and the largest
    /// column norm relative to `ritz.scale`.
    pub(crate) fn residual(&self, gamma: &[f64], ritz: &Ritz) -> (Mat<f64>, f64) {
        let res = self.residual_block(gamma, ritz);
        let worst = (0..res.ncols())
            .map(|j| res.col(j).norm_l2())
            .fold(0.0f64, f64::max);
        let rel = if ritz.scale > 0.0 {
            worst / ritz.scale
        } else {
            worst
        };
        (res, rel)
    }

    /// Largest relative residual norm of Ritz pairs at `gamma` without forming the
    /// residual: with `U = Q Y` and `Qᵀ K_γ Q Y = Y Θ`, `‖K_γ u − θ u‖² = ‖P_γ y‖² − θ²`
    /// (`P_γ = Σ_p γ_p² P_p`). The difference cancels to about 1e-16 θ², so this is used
    /// only for the loose trial tolerance (≥ 1e-6; certification forms the residual).
    pub(super) fn residual_norm(&self, gamma: &[f64], ritz: &Ritz) -> f64 {
        let (n, r, k) = (self.q.nrows(), self.r, ritz.y.ncols());
        let nblocks = n.div_ceil(ROWS);
        // per row block: Σ_j ‖(P_γ Y)_block e_j‖² — blocks summed in order (deterministic)
        let parts: Vec<Vec<f64>> = (0..nblocks)
            .into_par_iter()
            .map(|b| {
                let r0 = b * ROWS;
                let rows = ROWS.min(n - r0);
                let mut pg = Mat::<f64>::zeros(rows, r);
                for (g, pp) in gamma.iter().zip(&self.p) {
                    let c = g * g;
                    if c != 0.0 {
                        pg += faer::Scale(c) * pp.as_ref().submatrix(r0, 0, rows, r);
                    }
                }
                let mut py = Mat::<f64>::zeros(rows, k);
                matmul(
                    py.as_mut(),
                    Accum::Replace,
                    pg.as_ref(),
                    ritz.y.as_ref(),
                    1.0,
                    Par::Seq,
                );
                (0..k).map(|j| py.col(j).squared_norm_l2()).collect()
            })
            .collect();
        let worst = (0..k)
            .map(|j| {
                let sq: f64 = parts.iter().map(|p| p[j]).sum();
                (sq - ritz.values[j] * ritz.values[j]).max(0.0).sqrt()
            })
            .fold(0.0f64, f64::max);
        if ritz.scale > 0.0 {
            worst / ritz.scale
        } else {
            worst
        }
    }

    fn residual_block(&self, gamma: &[f64], ritz: &Ritz) -> Mat<f64> {
        let (n, r, k) = (self.q.nrows(), self.r, ritz.y.ncols());
        let mut res = Mat::<f64>::zeros(n, k);
        let ytheta = Mat::from_fn(r, k, |i, j| ritz.y[(i, j)] * ritz.values[j]);
        let terms: Vec<(MatRef<'_, f64>, MatRef<'_, f64>, f64)> = gamma
            .iter()
            .zip(&self.p)
            .filter(|(g, _)| **g != 0.0)
            .map(|(g, pp)| (pp.as_ref().subcols(0, r), ritz.y.as_ref(), g * g))
            .chain(std::iter::once((
                self.q.as_ref().subcols(0, r),
                ytheta.as_ref(),
                -1.0,
            )))
            .collect();
        // parallel over fixed blocks of rows, each sequential: bit-identical for any
        // number of threads
        res.as_mut()
            .transpose_mut()
            .par_col_chunks_mut(ROWS)
            .enumerate()
            .for_each(|(b, blk)| {
                let r0 = b * ROWS;
                let rows = blk.ncols();
                let mut blk = blk.transpose_mut();
                for (lhs, rhs, c) in &terms {
                    matmul(
                        blk.rb_mut(),
                        Accum::Add,
                        lhs.subrows(r0, rows),
                        *rhs,
                        *c,
                        Par::Seq,
                    );
                }
            });
        res
    }
}
