//! Thread-count independent parallel products.
//!
//! faer's parallel matmul and eigendecomposition may split work differently for
//! different thread counts, which changes rounding. Here the work is split into blocks of
//! a fixed size (independent of the number of threads), each block is computed with a
//! sequential faer kernel, and reductions add the block results in block order, so the
//! eigensolver returns bit-identical results on 1 or 64 threads.

use faer::diag::Diag;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::evd::{
    self_adjoint_evd, self_adjoint_evd_scratch, tridiag, tridiagonal_self_adjoint_evd,
    ComputeEigenvectors,
};
use faer::linalg::householder::apply_block_householder_sequence_on_the_left_in_place_with_conj;
use faer::linalg::matmul::matmul;
use faer::{Accum, Conj, Mat, MatMut, MatRef, Par};
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

/// Every eigenvalue (ascending) of a symmetric matrix (lower triangle read) and the
/// eigenvectors `lo..lo + k` of that order, sequentially: the steps of faer's `self_adjoint_evd`
/// (Householder tridiagonalisation, every eigenpair of the tridiagonal matrix), except
/// that only the k wanted eigenvectors are transformed back (2n²k flops instead of 2n³,
/// the subset idea of LAPACK's `syevr`). The values are those of [`sym_evd_unchecked`]
/// bit for bit; the vectors agree with its columns to rounding (see the tests).
pub(crate) fn sym_evd_range(
    a: MatRef<'_, f64>,
    lo: usize,
    k: usize,
) -> Result<(Vec<f64>, Mat<f64>)> {
    let n = a.nrows();
    debug_assert!(lo + k <= n);
    if n < 2 || k == n {
        let (s, u) = sym_evd_unchecked(a)?;
        return Ok((s, u.subcols(lo, k).to_owned()));
    }
    // the full decomposition's workspace covers every step below
    let mut buf = MemBuffer::new(self_adjoint_evd_scratch::<f64>(
        n,
        ComputeEigenvectors::Yes,
        Par::Seq,
        Default::default(),
    ));
    let stack = MemStack::new(&mut buf);
    let mut trid = Mat::<f64>::zeros(n, n);
    trid.copy_from_triangular_lower(a);
    let bs = faer::linalg::qr::no_pivoting::factor::recommended_block_size::<f64>(n, n);
    let mut householder = Mat::<f64>::zeros(bs, n - 1);
    tridiag::tridiag_in_place(
        trid.as_mut(),
        householder.as_mut(),
        Par::Seq,
        stack,
        Default::default(),
    );
    let diag = faer::Col::<f64>::from_fn(n, |i| trid[(i, i)]).into_diagonal();
    let sub = faer::Col::<f64>::from_fn(n, |i| if i + 1 < n { trid[(i + 1, i)] } else { 0.0 })
        .into_diagonal();
    let mut s = Diag::<f64>::zeros(n);
    let mut u = Mat::<f64>::zeros(n, n);
    tridiagonal_self_adjoint_evd(
        diag.as_ref(),
        sub.as_ref(),
        s.as_mut(),
        Some(u.as_mut()),
        Par::Seq,
        stack,
        Default::default(),
    )
    .map_err(|e| Error::numerical("symmetric eigendecomposition", format!("{e:?}")))?;
    let mut v = u.subcols(lo, k).to_owned();
    apply_block_householder_sequence_on_the_left_in_place_with_conj(
        trid.submatrix(1, 0, n - 1, n - 1),
        householder.as_ref(),
        Conj::No,
        v.as_mut().subrows_mut(1, n - 1),
        Par::Seq,
        stack,
    );
    let vals = s.column_vector().iter().copied().collect();
    Ok((vals, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A symmetric matrix with a repeated eigenvalue block and a random part.
    fn sym(n: usize, seed: u64) -> Mat<f64> {
        use rand::Rng;
        let mut rng = mkc_core::seed::rng(seed);
        let b = Mat::<f64>::from_fn(n, n, |_, _| rng.random::<f64>() - 0.5);
        let mut a = &b + b.transpose();
        for i in 0..n.min(3) {
            a[(i, i)] += 10.0;
        }
        a
    }

    /// The subset path against the full decomposition: the same eigenvalues bit for bit
    /// and the same eigenvectors to rounding, at both ends and inside the spectrum, below
    /// and above faer's divide-and-conquer threshold.
    #[test]
    fn range_matches_the_full_decomposition() {
        for (n, seed) in [(1, 1), (2, 2), (7, 3), (60, 4), (200, 5)] {
            let a = sym(n, seed);
            let (s, u) = sym_evd_unchecked(a.as_ref()).unwrap();
            for (lo, k) in [
                (0, 1),
                (n - 1, 1),
                (0, n.div_ceil(3)),
                (n / 2, n - n / 2),
                (0, n),
            ] {
                let (s2, v) = sym_evd_range(a.as_ref(), lo, k).unwrap();
                assert_eq!(s, s2, "n={n}");
                assert_eq!((v.nrows(), v.ncols()), (n, k));
                for c in 0..k {
                    for r in 0..n {
                        let d = (u[(r, lo + c)] - v[(r, c)]).abs();
                        assert!(d < 1e-12, "n={n} lo={lo} k={k} ({r},{c}): {d:e}");
                    }
                }
            }
        }
    }
}
