//! Thread-count independent parallel products.
//!
//! faer's parallel matmul and eigendecomposition may split work differently for
//! different thread counts, which changes rounding. Here the work is split into blocks of
//! a fixed size (independent of the number of threads), each block is computed with a
//! sequential faer kernel, and reductions add the block results in block order, so the
//! eigensolver returns bit-identical results on 1 or 64 threads.

use faer::diag::Diag;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::evd::{self_adjoint_evd, self_adjoint_evd_scratch, ComputeEigenvectors};
use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatMut, MatRef, Par};
use mkc_core::{Error, Result};
use rayon::prelude::*;

/// Rows per block of an output (or of the summed dimension).
const ROWS: usize = 256;

/// `dst (+)= alpha · lhs · rhs`, parallel over fixed blocks of rows of `dst`.
pub(crate) fn matmul_rows(
    dst: MatMut<'_, f64>,
    accum: Accum,
    lhs: MatRef<'_, f64>,
    rhs: MatRef<'_, f64>,
    alpha: f64,
) {
    let m = dst.nrows();
    if m <= ROWS || dst.ncols() == 0 {
        matmul(dst, accum, lhs, rhs, alpha, Par::Seq);
        return;
    }
    // split dst into disjoint row blocks (transposed column chunks)
    dst.transpose_mut()
        .par_col_chunks_mut(ROWS)
        .enumerate()
        .for_each(|(b, blk)| {
            let r0 = b * ROWS;
            let rows = blk.ncols();
            matmul(
                blk.transpose_mut(),
                accum,
                lhs.subrows(r0, rows),
                rhs,
                alpha,
                Par::Seq,
            );
        });
}

/// `dst = aᵀ · b` (a: n x p, b: n x q), the sum over n split into fixed blocks whose
/// partial products are added in block order.
pub(crate) fn matmul_tn(mut dst: MatMut<'_, f64>, a: MatRef<'_, f64>, b: MatRef<'_, f64>) {
    let n = a.nrows();
    let (p, q) = (a.ncols(), b.ncols());
    let nblocks = n.div_ceil(ROWS * 4).max(1);
    if nblocks == 1 {
        matmul(dst, Accum::Replace, a.transpose(), b, 1.0, Par::Seq);
        return;
    }
    let chunk = n.div_ceil(nblocks);
    let parts: Vec<Mat<f64>> = (0..nblocks)
        .into_par_iter()
        .map(|t| {
            let r0 = t * chunk;
            let rows = chunk.min(n - r0);
            let mut part = Mat::<f64>::zeros(p, q);
            matmul(
                part.as_mut(),
                Accum::Replace,
                a.subrows(r0, rows).transpose(),
                b.subrows(r0, rows),
                1.0,
                Par::Seq,
            );
            part
        })
        .collect();
    dst.copy_from(&parts[0]);
    for part in &parts[1..] {
        dst += part;
    }
}

/// Sequential full eigendecomposition of a small symmetric matrix (lower triangle read):
/// eigenvalues ascending and eigenvectors.
pub(crate) fn sym_evd_unchecked(h: MatRef<'_, f64>) -> Result<(Vec<f64>, Mat<f64>)> {
    let n = h.nrows();
    let mut s = Diag::<f64>::zeros(n);
    let mut u = Mat::<f64>::zeros(n, n);
    let mut buf = MemBuffer::new(self_adjoint_evd_scratch::<f64>(
        n,
        ComputeEigenvectors::Yes,
        Par::Seq,
        Default::default(),
    ));
    self_adjoint_evd(
        h,
        s.as_mut(),
        Some(u.as_mut()),
        Par::Seq,
        MemStack::new(&mut buf),
        Default::default(),
    )
    .map_err(|e| Error::numerical("symmetric eigendecomposition", format!("{e:?}")))?;
    let vals: Vec<f64> = s.column_vector().iter().copied().collect();
    Ok((vals, u))
}
