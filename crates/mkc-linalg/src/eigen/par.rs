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
use faer::linalg::householder::{
    apply_block_householder_sequence_on_the_left_in_place_scratch,
    apply_block_householder_sequence_on_the_left_in_place_with_conj,
};
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

/// Eigenpairs `lo..lo + k` (ascending order) of a symmetric matrix (lower triangle
/// read), with its smallest and largest eigenvalues.
pub(crate) struct RangeEvd {
    /// The k eigenvalues, ascending.
    pub values: Vec<f64>,
    /// Their eigenvectors (n x k).
    pub vectors: Mat<f64>,
    /// The smallest and the largest eigenvalue of the matrix.
    pub extremes: (f64, f64),
}

impl RangeEvd {
    /// Pairs `lo..lo + k` of a full decomposition (values ascending, vectors as columns).
    pub(crate) fn from_full(s: &[f64], u: &Mat<f64>, lo: usize, k: usize) -> Self {
        RangeEvd {
            values: s[lo..lo + k].to_vec(),
            vectors: u.subcols(lo, k).to_owned(),
            extremes: (s[0], s[s.len() - 1]),
        }
    }
}

/// Split of faer's tridiagonalisation (its fused symmetric rank-2 update and product
/// split into this many column ranges, partial products added in range order): a
/// constant, so the result is the same for any number of threads.
const TRIDIAG_SPLIT: usize = 2;
/// Columns per task of the back-transformation (fixed, for the same reason).
const BACK_COLUMNS: usize = 32;

/// Eigenpairs `lo..lo + k` of a symmetric matrix (lower triangle read), the steps of
/// LAPACK's `dsyevx`: Householder tridiagonalisation (faer, split into
/// [`TRIDIAG_SPLIT`] fixed column ranges), the wanted eigenvalues by bisection and their
/// eigenvectors by inverse iteration ([`super::tridiagonal`]; 2n²k flops of
/// back-transformation instead of 2n³). When inverse iteration is not accepted (see
/// that module) every eigenpair of the tridiagonal matrix is taken from faer's divide
/// and conquer instead. The values agree with [`sym_evd_unchecked`]'s to ε·‖A‖ and the
/// vectors to rounding (see the tests).
pub(crate) fn sym_evd_range(a: MatRef<'_, f64>, lo: usize, k: usize) -> Result<RangeEvd> {
    let n = a.nrows();
    debug_assert!(lo + k <= n);
    if n < 2 || k == n {
        let (s, u) = sym_evd_unchecked(a)?;
        return Ok(RangeEvd::from_full(&s, &u, lo, k));
    }
    let par = Par::rayon(TRIDIAG_SPLIT);
    let mut buf = MemBuffer::new(tridiag::tridiag_in_place_scratch::<f64>(
        n,
        par,
        Default::default(),
    ));
    let mut trid = Mat::<f64>::zeros(n, n);
    trid.copy_from_triangular_lower(a);
    let bs = faer::linalg::qr::no_pivoting::factor::recommended_block_size::<f64>(n, n);
    let mut householder = Mat::<f64>::zeros(bs, n - 1);
    tridiag::tridiag_in_place(
        trid.as_mut(),
        householder.as_mut(),
        par,
        MemStack::new(&mut buf),
        Default::default(),
    );
    let d: Vec<f64> = (0..n).map(|i| trid[(i, i)]).collect();
    let e: Vec<f64> = (0..n - 1).map(|i| trid[(i + 1, i)]).collect();
    let RangeEvd {
        values,
        vectors: mut v,
        extremes,
    } = match subset(&d, &e, lo, k) {
        Some(found) => found,
        None => {
            let (s, u) = tridiagonal_evd(&d, &e)?;
            RangeEvd::from_full(&s, &u, lo, k)
        }
    };
    let reflectors = trid.submatrix(1, 0, n - 1, n - 1);
    v.as_mut()
        .subrows_mut(1, n - 1)
        .par_col_chunks_mut(BACK_COLUMNS)
        .for_each(|cols| {
            let mut buf = MemBuffer::new(
                apply_block_householder_sequence_on_the_left_in_place_scratch::<f64>(
                    n - 1,
                    bs,
                    cols.ncols(),
                ),
            );
            apply_block_householder_sequence_on_the_left_in_place_with_conj(
                reflectors,
                householder.as_ref(),
                Conj::No,
                cols,
                Par::Seq,
                MemStack::new(&mut buf),
            );
        });
    Ok(RangeEvd {
        values,
        vectors: v,
        extremes,
    })
}

/// The eigenpairs `lo..lo + k` and the extreme eigenvalues of the tridiagonal matrix
/// (`d`, `e`) by bisection and inverse iteration, or `None` (see [`super::tridiagonal`]).
fn subset(d: &[f64], e: &[f64], lo: usize, k: usize) -> Option<RangeEvd> {
    let n = d.len();
    let t = super::tridiagonal::Tridiagonal::new(d, e)?;
    let mut indices: Vec<usize> = (lo..lo + k).collect();
    indices.extend([0, n - 1]);
    let mut values = t.eigenvalues(&indices);
    let max = values.pop()?;
    let min = values.pop()?;
    let vectors = t.eigenvectors(&values, lo)?;
    Some(RangeEvd {
        values,
        vectors,
        extremes: (min, max),
    })
}

/// Every eigenpair of the tridiagonal matrix (`d`, `e`), faer's divide and conquer (its
/// workspace, O(n²), allocated here: only when inverse iteration was not accepted).
fn tridiagonal_evd(d: &[f64], e: &[f64]) -> Result<(Vec<f64>, Mat<f64>)> {
    let n = d.len();
    let mut buf = MemBuffer::new(self_adjoint_evd_scratch::<f64>(
        n,
        ComputeEigenvectors::Yes,
        Par::Seq,
        Default::default(),
    ));
    let diag = faer::Col::<f64>::from_fn(n, |i| d[i]).into_diagonal();
    let sub = faer::Col::<f64>::from_fn(n, |i| e.get(i).copied().unwrap_or(0.0)).into_diagonal();
    let mut s = Diag::<f64>::zeros(n);
    let mut u = Mat::<f64>::zeros(n, n);
    tridiagonal_self_adjoint_evd(
        diag.as_ref(),
        sub.as_ref(),
        s.as_mut(),
        Some(u.as_mut()),
        Par::Seq,
        MemStack::new(&mut buf),
        Default::default(),
    )
    .map_err(|e| Error::numerical("symmetric eigendecomposition", format!("{e:?}")))?;
    Ok((s.column_vector().iter().copied().collect(), u))
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

    /// The subset path against the full decomposition: the same eigenvalues to ε·‖A‖
    /// and the same eigenvectors up to sign (every eigenvalue here is simple) at both
    /// ends and inside the spectrum, below and above faer's divide-and-conquer threshold.
    #[test]
    fn range_matches_the_full_decomposition() {
        for (n, seed) in [(1, 1), (2, 2), (7, 3), (60, 4), (200, 5)] {
            let a = sym(n, seed);
            let (s, u) = sym_evd_unchecked(a.as_ref()).unwrap();
            let scale = s[0].abs().max(s[n - 1].abs());
            for (lo, k) in [
                (0, 1),
                (n - 1, 1),
                (0, n.div_ceil(3)),
                (n / 2, n - n / 2),
                (0, n),
            ] {
                let r = sym_evd_range(a.as_ref(), lo, k).unwrap();
                let (lo_v, hi_v) = r.extremes;
                assert!(
                    (lo_v - s[0]).abs() <= 1e-13 * scale
                        && (hi_v - s[n - 1]).abs() <= 1e-13 * scale
                );
                for (c, v) in r.values.iter().enumerate() {
                    assert!((v - s[lo + c]).abs() <= 1e-13 * scale, "n={n} {c}");
                }
                assert_eq!((r.vectors.nrows(), r.vectors.ncols()), (n, k));
                for c in 0..k {
                    let sign = if (0..n)
                        .map(|i| u[(i, lo + c)] * r.vectors[(i, c)])
                        .sum::<f64>()
                        < 0.0
                    {
                        -1.0
                    } else {
                        1.0
                    };
                    for i in 0..n {
                        let d = (u[(i, lo + c)] - sign * r.vectors[(i, c)]).abs();
                        assert!(d < 1e-10, "n={n} lo={lo} k={k} ({i},{c}): {d:e}");
                    }
                }
            }
        }
    }

    /// The fixed split of the tridiagonalisation and of the back-transformation: the
    /// same bits on pools of 1, 2 and 3 threads.
    #[test]
    fn range_is_thread_count_independent() {
        let a = sym(600, 9);
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let r = pool.install(|| sym_evd_range(a.as_ref(), 590, 10).unwrap());
            (r.values, r.vectors)
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(3));
    }

    /// A zero matrix (bisection refuses it): divide and conquer takes over, giving zero
    /// eigenvalues and orthonormal vectors.
    #[test]
    fn zero_matrix_falls_back_to_divide_and_conquer() {
        let a = Mat::<f64>::zeros(10, 10);
        let r = sym_evd_range(a.as_ref(), 2, 3).unwrap();
        assert_eq!(r.values, vec![0.0; 3]);
        assert_eq!(r.extremes, (0.0, 0.0));
        let g = r.vectors.transpose() * &r.vectors;
        for i in 0..3 {
            for j in 0..3 {
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((g[(i, j)] - want).abs() < 1e-14);
            }
        }
    }
}
