//! Frobenius inner products ⟨A, B⟩ = Σ_ij a_ij b_ij = tr(AᵀB) (= tr(AB) for symmetric
//! matrices) and trace quadratics tr(HᵀKH), the kernel k-means objective terms of every
//! MKC method (e.g. SimpleMKKM eq. 6 needs tr(HᵀK_pH) for each base kernel).

use crate::util::{col, col_chunk, first_non_finite};
use faer::linalg::matmul::matmul;
use faer::reborrow::*;
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{validate, Error, Result};
use rayon::prelude::*;

/// Rows of `K` per block in [`trace_quadratic`] (one block of K·H is 128 x c).
const ROW_BLOCK: usize = 128;

/// ⟨A, B⟩_F = Σ_ij a_ij b_ij, without forming AᵀB. Parallel over column blocks; the
/// partial sums are added in block order, so the result does not depend on the number
/// of threads.
pub fn frobenius_inner(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> Result<f64> {
    validate::dims("b", b, a.nrows(), a.ncols())?;
    let (r, c) = (a.nrows(), a.ncols());
    if r == 0 || c == 0 {
        return Ok(0.0);
    }
    let chunk = col_chunk(r, c);
    let nblocks = c.div_ceil(chunk);
    let parts: Vec<f64> = (0..nblocks)
        .into_par_iter()
        .map(|blk| {
            let mut s = 0.0;
            for j in blk * chunk..((blk + 1) * chunk).min(c) {
                s += match (col(a, j), col(b, j)) {
                    (Some(x), Some(y)) => dot(x, y),
                    _ => (0..r).map(|i| a[(i, j)] * b[(i, j)]).sum(),
                };
            }
            s
        })
        .collect();
    let s: f64 = parts.iter().sum();
    if !s.is_finite() {
        return Err(locate(&[("a", a), ("b", b)], "frobenius_inner"));
    }
    Ok(s)
}

/// tr(HᵀKH) = Σ_c h_cᵀ K h_c for `k` (n x n) and `h` (n x c).
///
/// Blocked over rows of K: each block K[I, :]·H (128 x c) is a faer matmul into a small
/// per-task buffer, so the full n x c product is never stored; blocks run in parallel and
/// their contributions are added in block order (thread-count independent).
pub fn trace_quadratic(k: MatRef<'_, f64>, h: MatRef<'_, f64>) -> Result<f64> {
    let n = validate::square("k", k)?;
    validate::dims("h", h, n, h.ncols())?;
    let v = trace_quadratic_unchecked(k, h);
    if !v.is_finite() {
        return Err(locate(&[("k", k), ("h", h)], "trace_quadratic"));
    }
    Ok(v)
}

/// [`trace_quadratic`] for several kernels with the same H: `out[p] = tr(HᵀK_pH)`.
pub fn trace_quadratic_many(ks: &[MatRef<'_, f64>], h: MatRef<'_, f64>) -> Result<Vec<f64>> {
    let Some(first) = ks.first() else {
        return Err(Error::input("ks", "no kernels given"));
    };
    let n = validate::square("ks[0]", *first)?;
    for (p, k) in ks.iter().enumerate() {
        validate::dims(&format!("ks[{p}]"), *k, n, n)?;
    }
    validate::dims("h", h, n, h.ncols())?;
    let mut out = Vec::with_capacity(ks.len());
    for (p, k) in ks.iter().enumerate() {
        let v = trace_quadratic_unchecked(*k, h);
        if !v.is_finite() {
            return Err(locate(
                &[(&format!("ks[{p}]"), *k), ("h", h)],
                "trace_quadratic_many",
            ));
        }
        out.push(v);
    }
    Ok(out)
}

fn trace_quadratic_unchecked(k: MatRef<'_, f64>, h: MatRef<'_, f64>) -> f64 {
    let (n, c) = (k.nrows(), h.ncols());
    if n == 0 || c == 0 {
        return 0.0;
    }
    let nblocks = n.div_ceil(ROW_BLOCK);
    let parts: Vec<f64> = (0..nblocks)
        .into_par_iter()
        .map_init(
            || Mat::<f64>::zeros(ROW_BLOCK, c),
            |buf, blk| {
                let i0 = blk * ROW_BLOCK;
                let rows = ROW_BLOCK.min(n - i0);
                let mut kh = buf.as_mut().subrows_mut(0, rows);
                matmul(
                    kh.rb_mut(),
                    Accum::Replace,
                    k.subrows(i0, rows),
                    h,
                    1.0,
                    Par::Seq,
                );
                let hi = h.subrows(i0, rows);
                let mut s = 0.0;
                for j in 0..c {
                    for i in 0..rows {
                        s += kh[(i, j)] * hi[(i, j)];
                    }
                }
                s
            },
        )
        .collect();
    parts.iter().sum()
}

#[inline]
fn dot(x: &[f64], y: &[f64]) -> f64 {
    // four accumulators: lets the compiler vectorise without reassociation flags
    let mut acc = [0.0f64; 4];
    let (xc, xr) = x.split_at(x.len() / 4 * 4);
    let (yc, yr) = y.split_at(xc.len());
    for (a, b) in xc.chunks_exact(4).zip(yc.chunks_exact(4)) {
        for t in 0..4 {
            acc[t] += a[t] * b[t];
        }
    }
    let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (a, b) in xr.iter().zip(yr) {
        s += a * b;
    }
    s
}

fn locate(inputs: &[(&str, MatRef<'_, f64>)], what: &str) -> Error {
    for (name, m) in inputs {
        if let Some(e) = first_non_finite(name, *m) {
            return e;
        }
    }
    Error::numerical(what, "overflow: the result is not finite")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(r: usize, c: usize, s: usize) -> Mat<f64> {
        Mat::from_fn(r, c, |i, j| {
            (((i * 31 + j * 17 + s * 7) % 23) as f64 - 11.0) / 7.0
        })
    }

    #[test]
    fn frobenius_matches_trace_of_product() {
        let (a, b) = (m(33, 21, 1), m(33, 21, 2));
        let want = (a.transpose() * &b)
            .diagonal()
            .column_vector()
            .iter()
            .sum::<f64>();
        assert!((frobenius_inner(a.as_ref(), b.as_ref()).unwrap() - want).abs() < 1e-10);
        // strided views give the same answer
        let (at, bt) = (a.transpose().to_owned(), b.transpose().to_owned());
        assert!((frobenius_inner(at.transpose(), bt.transpose()).unwrap() - want).abs() < 1e-10);
    }

    #[test]
    fn trace_quadratic_matches_naive() {
        for &(n, c) in &[(1, 1), (5, 3), (130, 4), (300, 10)] {
            let k = m(n, n, 3);
            let h = m(n, c, 4);
            let want = (h.transpose() * &k * &h)
                .diagonal()
                .column_vector()
                .iter()
                .sum::<f64>();
            let got = trace_quadratic(k.as_ref(), h.as_ref()).unwrap();
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "n={n}: {got} vs {want}"
            );
            let k2 = m(n, n, 5);
            let many = trace_quadratic_many(&[k.as_ref(), k2.as_ref()], h.as_ref()).unwrap();
            assert_eq!(many[0], got);
            let want2 = (h.transpose() * &k2 * &h)
                .diagonal()
                .column_vector()
                .iter()
                .sum::<f64>();
            assert!((many[1] - want2).abs() <= 1e-9 * want2.abs().max(1.0));
        }
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        let (a, b) = (m(4, 4, 1), m(4, 3, 1));
        assert!(matches!(
            frobenius_inner(a.as_ref(), b.as_ref()),
            Err(Error::Shape { .. })
        ));
        assert!(matches!(
            trace_quadratic(b.as_ref(), b.as_ref()),
            Err(Error::Shape { .. })
        ));
        assert!(matches!(
            trace_quadratic(a.as_ref(), m(5, 2, 0).as_ref()),
            Err(Error::Shape { .. })
        ));
        assert!(matches!(
            trace_quadratic_many(&[], b.as_ref()),
            Err(Error::InvalidInput { .. })
        ));
        assert!(matches!(
            trace_quadratic_many(&[a.as_ref(), m(3, 3, 0).as_ref()], b.as_ref()),
            Err(Error::Shape { .. })
        ));
        let mut nan = a.clone();
        nan[(1, 2)] = f64::NAN;
        assert!(matches!(
            frobenius_inner(a.as_ref(), nan.as_ref()),
            Err(Error::NonFinite { row: 1, col: 2, .. })
        ));
        assert!(matches!(
            trace_quadratic(nan.as_ref(), b.as_ref()),
            Err(Error::NonFinite { .. })
        ));
    }
}
