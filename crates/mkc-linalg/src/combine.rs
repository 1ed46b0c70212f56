//! Weighted sums of matrices, Σ_p c_p K_p — the combined kernel K_γ of every MKC
//! method (e.g. SimpleMKKM's K_γ = Σ_p γ_p² K_p is `weighted_sum` with c_p = γ_p²).

use crate::util::{col, col_chunk, col_mut, first_non_finite};
use faer::reborrow::*;
use faer::{Mat, MatMut, MatRef};
use mkc_core::{validate, Error, Result};
use rayon::prelude::*;

/// Writes `dst = Σ_p coeffs[p] · mats[p]` into a preallocated matrix.
///
/// No temporaries are allocated; the work is split over blocks of columns with rayon,
/// and each column of `dst` is written in one pass over the inputs (so the result does
/// not depend on the number of threads). The matrices need not be symmetric.
///
/// Errors: no matrices, `coeffs.len() != mats.len()`, shape mismatch between `dst` and
/// any `mats[p]`, a non-finite coefficient, or a non-finite entry in an input (reported
/// with the input's index and position; detected from the result, so the check costs
/// one pass over each freshly written column while it is still in cache).
pub fn weighted_sum_into(
    mut dst: MatMut<'_, f64>,
    coeffs: &[f64],
    mats: &[MatRef<'_, f64>],
) -> Result<()> {
    if mats.is_empty() {
        return Err(Error::input("mats", "no matrices given"));
    }
    validate::len("coeffs", coeffs.len(), mats.len())?;
    validate::finite_slice("coeffs", coeffs)?;
    let (r, c) = (dst.nrows(), dst.ncols());
    for (p, m) in mats.iter().enumerate() {
        validate::dims(&format!("mats[{p}]"), *m, r, c)?;
    }
    if r == 0 || c == 0 {
        return Ok(());
    }
    let chunk = col_chunk(r, c);
    let bad = dst
        .rb_mut()
        .par_col_chunks_mut(chunk)
        .enumerate()
        .map(|(b, mut block)| {
            let j0 = b * chunk;
            let mut bad = false;
            for jj in 0..block.ncols() {
                let j = j0 + jj;
                bad |= sum_column(block.rb_mut().subcols_mut(jj, 1), j, coeffs, mats);
            }
            bad
        })
        .reduce(|| false, |a, b| a | b);
    if bad {
        for (p, m) in mats.iter().enumerate() {
            if let Some(e) = first_non_finite(&format!("mats[{p}]"), *m) {
                return Err(e);
            }
        }
        return Err(Error::numerical(
            "weighted_sum_into",
            "overflow: the weighted sum is not finite",
        ));
    }
    Ok(())
}

/// Column `j` of the sum into `out` (an r x 1 view); returns true if a non-finite value appeared.
#[inline]
fn sum_column(
    mut out: MatMut<'_, f64>,
    j: usize,
    coeffs: &[f64],
    mats: &[MatRef<'_, f64>],
) -> bool {
    let r = out.nrows();
    if let Some(o) = col_mut(out.rb_mut(), 0) {
        column_into(o, j, coeffs, mats)
    } else {
        let mut bad = false;
        for i in 0..r {
            let v: f64 = coeffs.iter().zip(mats).map(|(&cp, m)| cp * m[(i, j)]).sum();
            out[(i, 0)] = v;
            bad |= !v.is_finite();
        }
        bad
    }
}

/// Column `j` of `Σ_p coeffs[p] · mats[p]` into `out` (length r, the matrices' row
/// count): `out = c_0 M_0[:, j]`, then `out += c_p M_p[:, j]` in the order of the
/// matrices, the arithmetic of every column [`weighted_sum_into`] writes to a
/// contiguous destination. For callers that form single columns of a sum on demand
/// (`mkc_svm::KernelSum`) with the numbers of the formed matrix. Returns whether a
/// value of the column is not finite; with no matrices `out` is left as it is.
///
/// Errors: `coeffs.len() != mats.len()`, a matrix with other than `out.len()` rows, or
/// `j` past a matrix's columns (O(p) checks, no pass over the data).
///
/// ```
/// use faer::Mat;
/// let a = Mat::from_fn(3, 3, |i, j| (i + j) as f64);
/// let b = Mat::from_fn(3, 3, |i, j| (i * j) as f64);
/// let mut col = vec![0.0; 3];
/// let bad = mkc_linalg::weighted_column_into(&mut col, 2, &[2.0, 1.0], &[a.as_ref(), b.as_ref()])?;
/// assert!(!bad);
/// assert_eq!(col, vec![4.0, 6.0 + 2.0, 8.0 + 4.0]);
/// assert!(mkc_linalg::weighted_column_into(&mut col, 3, &[1.0], &[a.as_ref()]).is_err());
/// # Ok::<(), mkc_core::Error>(())
/// ```
#[inline]
pub fn weighted_column_into(
    out: &mut [f64],
    j: usize,
    coeffs: &[f64],
    mats: &[MatRef<'_, f64>],
) -> Result<bool> {
    validate::len("coeffs", coeffs.len(), mats.len())?;
    let r = out.len();
    for (p, m) in mats.iter().enumerate() {
        if m.nrows() != r || j >= m.ncols() {
            return Err(Error::shape(
                format!("mats[{p}]"),
                format!("{r} rows and a column {j}"),
                format!("{} x {}", m.nrows(), m.ncols()),
            ));
        }
    }
    Ok(column_into(out, j, coeffs, mats))
}

/// [`weighted_column_into`] without its checks (sizes known to agree).
#[inline]
fn column_into(out: &mut [f64], j: usize, coeffs: &[f64], mats: &[MatRef<'_, f64>]) -> bool {
    let r = out.len();
    let mut first = true;
    for (&cp, m) in coeffs.iter().zip(mats) {
        match col(*m, j) {
            Some(s) if first => out.iter_mut().zip(s).for_each(|(d, &x)| *d = cp * x),
            Some(s) => out.iter_mut().zip(s).for_each(|(d, &x)| *d += cp * x),
            None if first => (0..r).for_each(|i| out[i] = cp * m[(i, j)]),
            None => (0..r).for_each(|i| out[i] += cp * m[(i, j)]),
        }
        first = false;
    }
    !out.iter().all(|v| v.is_finite())
}

/// The terms of `Σ_p coeffs[p] · mats[p]` whose coefficient is not zero, in order: a
/// sparse combination (θ on the simplex, often) is then summed over those alone. Leaving
/// out a zero term changes no entry of the sum (x + 0·M = x), except that an exact zero
/// may be +0 where the full sum gave −0. Empty when every coefficient is zero.
///
/// Errors: `coeffs.len() != mats.len()`.
pub fn nonzero_terms<'a>(
    coeffs: &[f64],
    mats: &[MatRef<'a, f64>],
) -> Result<(Vec<f64>, Vec<MatRef<'a, f64>>)> {
    validate::len("coeffs", coeffs.len(), mats.len())?;
    Ok(coeffs
        .iter()
        .zip(mats)
        .filter(|(c, _)| **c != 0.0)
        .map(|(c, m)| (*c, *m))
        .unzip())
}

/// Allocating form of [`weighted_sum_into`]: returns `Σ_p coeffs[p] · mats[p]`.
pub fn weighted_sum(coeffs: &[f64], mats: &[MatRef<'_, f64>]) -> Result<Mat<f64>> {
    let Some(first) = mats.first() else {
        return Err(Error::input("mats", "no matrices given"));
    };
    let mut dst = Mat::<f64>::zeros(first.nrows(), first.ncols());
    weighted_sum_into(dst.as_mut(), coeffs, mats)?;
    Ok(dst)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mats(n: usize, m: usize) -> Vec<Mat<f64>> {
        (0..m)
            .map(|p| Mat::from_fn(n, n, |i, j| ((i * 7 + j * 3 + p * 11) % 13) as f64 - 6.0))
            .collect()
    }

    #[test]
    fn matches_naive_sum() {
        let ms = mats(37, 4);
        let refs: Vec<_> = ms.iter().map(|m| m.as_ref()).collect();
        let c = [0.5, -1.0, 2.0, 0.25];
        let got = weighted_sum(&c, &refs).unwrap();
        let want = Mat::from_fn(37, 37, |i, j| {
            (0..4).map(|p| c[p] * ms[p][(i, j)]).sum::<f64>()
        });
        assert!((&got - &want).norm_max() < 1e-12);
    }

    #[test]
    fn works_on_strided_views_and_overwrites_dst() {
        let ms = mats(20, 2);
        let views: Vec<_> = ms.iter().map(|m| m.as_ref().transpose()).collect();
        let mut dst = Mat::from_fn(20, 20, |_, _| 99.0);
        weighted_sum_into(dst.as_mut().transpose_mut(), &[1.0, 3.0], &views).unwrap();
        let want = Mat::from_fn(20, 20, |i, j| ms[0][(j, i)] + 3.0 * ms[1][(j, i)]);
        assert!((dst.transpose() - &want).norm_max() < 1e-12);
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        let ms = mats(5, 2);
        let refs: Vec<_> = ms.iter().map(|m| m.as_ref()).collect();
        assert!(matches!(
            weighted_sum(&[1.0], &refs),
            Err(Error::Shape { .. })
        ));
        assert!(matches!(
            weighted_sum(&[], &[]),
            Err(Error::InvalidInput { .. })
        ));
        assert!(matches!(
            weighted_sum(&[1.0, f64::NAN], &refs),
            Err(Error::NonFinite { .. })
        ));
        let mut dst = Mat::<f64>::zeros(5, 4);
        assert!(matches!(
            weighted_sum_into(dst.as_mut(), &[1.0, 1.0], &refs),
            Err(Error::Shape { .. })
        ));
        let mut bad = ms[1].clone();
        bad[(3, 2)] = f64::INFINITY;
        let r = weighted_sum(&[1.0, 1.0], &[ms[0].as_ref(), bad.as_ref()]);
        match r {
            Err(Error::NonFinite { what, row, col, .. }) => {
                assert_eq!((what.as_str(), row, col), ("mats[1]", 3, 2))
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn column_and_terms_check_their_sizes() {
        let ms = mats(5, 2);
        let refs: Vec<_> = ms.iter().map(|m| m.as_ref()).collect();
        let c = [0.5, -2.0];
        let mut col = vec![0.0; 5];
        assert!(!weighted_column_into(&mut col, 3, &c, &refs).unwrap());
        let full = weighted_sum(&c, &refs).unwrap();
        assert!((0..5).all(|i| col[i].to_bits() == full[(i, 3)].to_bits()));
        let shape = |r: Result<bool>| matches!(r, Err(Error::Shape { .. }));
        assert!(shape(weighted_column_into(&mut col, 3, &[1.0], &refs)));
        assert!(shape(weighted_column_into(&mut col, 5, &c, &refs)));
        assert!(shape(weighted_column_into(&mut [0.0; 4], 0, &c, &refs)));
        assert!(matches!(
            nonzero_terms(&[1.0], &refs),
            Err(Error::Shape { .. })
        ));
        let (w, ks) = nonzero_terms(&[0.0, 3.0], &refs).unwrap();
        assert_eq!((w, ks.len()), (vec![3.0], 1));
    }
}
