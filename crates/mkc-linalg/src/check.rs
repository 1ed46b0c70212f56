//! Fast input validation for large symmetric matrices: the same contract and error
//! variants as `mkc_core::validate::kernel` (finite; |a_ij − a_ji| ≤ SYMMETRY_RTOL ·
//! max|a|), but tiled and parallel, so that checking an n = 4000 matrix costs a few
//! milliseconds instead of a strided pass over the upper triangle.

use crate::util::{col, col_chunk};
use faer::MatRef;
use mkc_core::validate::SYMMETRY_RTOL;
use mkc_core::{validate, Error, Result};
use rayon::prelude::*;

const TILE: usize = 64;

/// `mkc_core::validate::kernel` for large matrices: the same checks (non-empty, square,
/// finite, symmetric within `SYMMETRY_RTOL · max|a|`), error variants and reported
/// entry, tiled and in parallel. Returns n.
///
/// # Errors
/// As `mkc_core::validate::kernel`.
pub fn check_kernel(what: &str, a: MatRef<'_, f64>) -> Result<usize> {
    symmetric_matrix(what, a)
}

/// Non-empty, square, finite, symmetric within `SYMMETRY_RTOL · max|a|`; returns n.
/// The first offending entry in column-major order is reported, whatever the threads.
pub(crate) fn symmetric_matrix(what: &str, a: MatRef<'_, f64>) -> Result<usize> {
    validate::non_empty(what, a)?;
    let n = validate::square(what, a)?;
    // pass 1: finiteness and max |a| (column blocks, contiguous)
    let chunk = col_chunk(n, n);
    let nblocks = n.div_ceil(chunk);
    let parts: Vec<std::result::Result<f64, (usize, usize, f64)>> = (0..nblocks)
        .into_par_iter()
        .map(|b| {
            let mut mx = 0.0f64;
            for j in b * chunk..((b + 1) * chunk).min(n) {
                let scan = |i: usize,
                            v: f64,
                            mx: &mut f64|
                 -> std::result::Result<(), (usize, usize, f64)> {
                    if !v.is_finite() {
                        return Err((i, j, v));
                    }
                    *mx = mx.max(v.abs());
                    Ok(())
                };
                match col(a, j) {
                    Some(s) => {
                        if s.iter().all(|v| v.is_finite()) {
                            mx = s.iter().fold(mx, |m, v| m.max(v.abs()));
                        } else {
                            for (i, &v) in s.iter().enumerate() {
                                scan(i, v, &mut mx)?;
                            }
                        }
                    }
                    None => {
                        for i in 0..n {
                            scan(i, a[(i, j)], &mut mx)?;
                        }
                    }
                }
            }
            Ok(mx)
        })
        .collect();
    let mut scale = 0.0f64;
    for p in parts {
        match p {
            Ok(m) => scale = scale.max(m),
            Err((row, c, value)) => {
                return Err(Error::NonFinite {
                    what: what.into(),
                    row,
                    col: c,
                    value,
                })
            }
        }
    }
    let tol = if scale == 0.0 {
        SYMMETRY_RTOL
    } else {
        SYMMETRY_RTOL * scale
    };
    // pass 2: lower tiles against upper tiles; each task owns one tile column
    let ntiles = n.div_ceil(TILE);
    let first = (0..ntiles)
        .into_par_iter()
        .map(|tj| {
            let (j0, j1) = (tj * TILE, ((tj + 1) * TILE).min(n));
            let mut best: Option<(usize, usize)> = None;
            for ti in tj..ntiles {
                let (i0, i1) = (ti * TILE, ((ti + 1) * TILE).min(n));
                for j in j0..j1 {
                    for i in i0.max(j + 1)..i1 {
                        if (a[(i, j)] - a[(j, i)]).abs() > tol {
                            let cand = (j, i);
                            if best.is_none_or(|b| cand < b) {
                                best = Some(cand);
                            }
                        }
                    }
                }
            }
            best
        })
        .find_first(|b| b.is_some())
        .flatten();
    if let Some((j, i)) = first {
        return Err(Error::NotSymmetric {
            what: what.into(),
            i,
            j,
            a: a[(i, j)],
            b: a[(j, i)],
        });
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use faer::Mat;

    #[test]
    fn agrees_with_core_validation() {
        let n = 150;
        let ok = Mat::from_fn(n, n, |i, j| 1.0 / (1.0 + (i as f64 - j as f64).abs()));
        assert_eq!(symmetric_matrix("A", ok.as_ref()).unwrap(), n);
        let mut bad = ok.clone();
        bad[(120, 3)] += 1e-3;
        bad[(140, 70)] += 1e-3;
        match (
            symmetric_matrix("A", bad.as_ref()),
            validate::kernel("A", bad.as_ref()),
        ) {
            (
                Err(Error::NotSymmetric { i, j, .. }),
                Err(Error::NotSymmetric { i: i2, j: j2, .. }),
            ) => {
                assert_eq!((i, j), (i2, j2))
            }
            other => panic!("{other:?}"),
        }
        let mut nan = ok.clone();
        nan[(7, 100)] = f64::NAN;
        nan[(9, 120)] = f64::INFINITY;
        assert!(matches!(
            symmetric_matrix("A", nan.as_ref()),
            Err(Error::NonFinite {
                row: 7,
                col: 100,
                ..
            })
        ));
        assert!(matches!(
            symmetric_matrix("A", Mat::<f64>::zeros(3, 2).as_ref()),
            Err(Error::Shape { .. })
        ));
        assert!(matches!(
            symmetric_matrix("A", Mat::<f64>::zeros(0, 0).as_ref()),
            Err(Error::InvalidInput { .. })
        ));
        // transposed (row-major) views take the strided path
        assert!(matches!(
            symmetric_matrix("A", bad.transpose()),
            Err(Error::NotSymmetric { .. })
        ));
    }
}
