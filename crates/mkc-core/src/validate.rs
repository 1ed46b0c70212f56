//! Input validation shared by every public entry point. Each check returns a typed
//! [`Error`] that names the argument (`what`) and the offending position.

use crate::{Error, Result};
use faer::MatRef;
use rayon::prelude::*;

/// Relative tolerance used by [`kernel`] for symmetry: |K_ij − K_ji| ≤ tol · max|K|.
pub const SYMMETRY_RTOL: f64 = 1e-8;

/// Every entry finite.
pub fn finite(what: &str, m: MatRef<'_, f64>) -> Result<()> {
    for j in 0..m.ncols() {
        for i in 0..m.nrows() {
            let v = m[(i, j)];
            if !v.is_finite() {
                return Err(Error::NonFinite {
                    what: what.into(),
                    row: i,
                    col: j,
                    value: v,
                });
            }
        }
    }
    Ok(())
}

/// Every element of a slice finite (reported as row `i`, column 0).
pub fn finite_slice(what: &str, v: &[f64]) -> Result<()> {
    match v.iter().position(|x| !x.is_finite()) {
        Some(i) => Err(Error::NonFinite {
            what: what.into(),
            row: i,
            col: 0,
            value: v[i],
        }),
        None => Ok(()),
    }
}

/// At least one row and one column.
pub fn non_empty(what: &str, m: MatRef<'_, f64>) -> Result<()> {
    if m.nrows() == 0 || m.ncols() == 0 {
        return Err(Error::input(
            what,
            format!("empty matrix ({} x {})", m.nrows(), m.ncols()),
        ));
    }
    Ok(())
}

/// Square; returns n.
pub fn square(what: &str, m: MatRef<'_, f64>) -> Result<usize> {
    if m.nrows() != m.ncols() {
        return Err(Error::shape(
            what,
            "a square matrix",
            format!("{} x {}", m.nrows(), m.ncols()),
        ));
    }
    Ok(m.nrows())
}

/// Exactly `rows` x `cols`.
pub fn dims(what: &str, m: MatRef<'_, f64>, rows: usize, cols: usize) -> Result<()> {
    if m.nrows() != rows || m.ncols() != cols {
        return Err(Error::shape(
            what,
            format!("{rows} x {cols}"),
            format!("{} x {}", m.nrows(), m.ncols()),
        ));
    }
    Ok(())
}

/// A slice of exactly `len` elements.
pub fn len(what: &str, got: usize, expected: usize) -> Result<()> {
    if got != expected {
        return Err(Error::shape(
            what,
            format!("length {expected}"),
            format!("length {got}"),
        ));
    }
    Ok(())
}

/// Symmetric within `rtol · max|m|` (absolute `rtol` when the matrix is zero).
pub fn symmetric(what: &str, m: MatRef<'_, f64>, rtol: f64) -> Result<()> {
    square(what, m)?;
    let mut scale = 0.0f64;
    for j in 0..m.ncols() {
        for i in 0..m.nrows() {
            scale = scale.max(m[(i, j)].abs());
        }
    }
    symmetric_within(what, m, if scale == 0.0 { rtol } else { rtol * scale })
}

/// Side of the tiles of the parallel symmetry pass.
const TILE: usize = 64;

/// |m_ij − m_ji| ≤ `tol` for every pair (m square). Lower tiles are compared with the
/// upper ones (one task per tile column, so the upper triangle is read a tile at a time,
/// not with stride n); the first offending pair in column order (j, then i > j) is
/// reported, whatever the number of threads. With `tol = 0` this is exact symmetry
/// (entries equal as numbers; ±0 alike).
pub fn symmetric_within(what: &str, m: MatRef<'_, f64>, tol: f64) -> Result<()> {
    let n = m.nrows();
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
                        if (m[(i, j)] - m[(j, i)]).abs() > tol && best.is_none_or(|b| (j, i) < b) {
                            best = Some((j, i));
                        }
                    }
                }
            }
            best
        })
        .find_first(|b| b.is_some())
        .flatten();
    match first {
        Some((j, i)) => Err(Error::NotSymmetric {
            what: what.into(),
            i,
            j,
            a: m[(i, j)],
            b: m[(j, i)],
        }),
        None => Ok(()),
    }
}

/// [`finite`] and max |m| in one pass, in parallel over blocks of about 64k entries
/// (the first non-finite entry in column-major order is reported, whatever the threads).
fn finite_max_abs(what: &str, m: MatRef<'_, f64>) -> Result<f64> {
    let (rows, cols) = (m.nrows(), m.ncols());
    let chunk = ((1 << 16) / rows.max(1)).clamp(1, cols.max(1));
    let parts: Vec<std::result::Result<f64, (usize, usize, f64)>> = (0..cols.div_ceil(chunk))
        .into_par_iter()
        .map(|b| {
            let mut mx = 0.0f64;
            for j in b * chunk..((b + 1) * chunk).min(cols) {
                let col = m.col(j);
                if let Some(s) = col.try_as_col_major().map(|c| c.as_slice()) {
                    if s.iter().all(|v| v.is_finite()) {
                        mx = s.iter().fold(mx, |a, v| a.max(v.abs()));
                        continue;
                    }
                }
                for i in 0..rows {
                    let v = m[(i, j)];
                    if !v.is_finite() {
                        return Err((i, j, v));
                    }
                    mx = mx.max(v.abs());
                }
            }
            Ok(mx)
        })
        .collect();
    let mut scale = 0.0f64;
    for p in parts {
        match p {
            Ok(v) => scale = scale.max(v),
            Err((row, col, value)) => {
                return Err(Error::NonFinite {
                    what: what.into(),
                    row,
                    col,
                    value,
                })
            }
        }
    }
    Ok(scale)
}

/// A valid kernel matrix: non-empty, square, finite, symmetric (within [`SYMMETRY_RTOL`]).
/// Returns n. Positive semidefiniteness is *not* checked here (it costs an
/// eigendecomposition); see `mkc_kernels` for the optional PSD check.
///
/// One parallel pass that reads each entry once decides (finite, max |K|, max
/// |K_ij − K_ji|; the `kernel_pass` module); only a matrix that fails it, or one that
/// is not column-major, goes through the two exact passes (column blocks for
/// finiteness, tiles for symmetry), so the reported entry is the first in column-major
/// order, as a sequential scan would report it.
pub fn kernel(what: &str, k: MatRef<'_, f64>) -> Result<usize> {
    kernel_checked(what, k, true)
}

/// [`kernel`] with its one pass on the calling thread, for solvers that are themselves
/// sequential and run inside parallel grids (mkc-svm's SMO: a nested parallel check
/// would only add scheduling). Same verdict and errors; the reporting passes that bad
/// input (or a matrix that is not column-major) goes through are [`kernel`]'s, parallel.
pub fn kernel_sequential(what: &str, k: MatRef<'_, f64>) -> Result<usize> {
    kernel_checked(what, k, false)
}

fn kernel_checked(what: &str, k: MatRef<'_, f64>, parallel: bool) -> Result<usize> {
    non_empty(what, k)?;
    let n = square(what, k)?;
    let tol_for = |scale: f64| {
        if scale == 0.0 {
            SYMMETRY_RTOL
        } else {
            SYMMETRY_RTOL * scale
        }
    };
    let cols: Option<Vec<&[f64]>> = (0..n)
        .map(|j| k.col(j).try_as_col_major().map(|c| c.as_slice()))
        .collect();
    match cols.map(|c| crate::kernel_pass::summary(&c, parallel)) {
        // one pass decides; the reporting passes below run only on bad input
        Some(crate::kernel_pass::Summary {
            finite: true,
            max_abs,
            max_asym,
        }) if max_asym <= tol_for(max_abs) => Ok(n),
        _ => {
            let scale = finite_max_abs(what, k)?;
            symmetric_within(what, k, tol_for(scale))?;
            Ok(n)
        }
    }
}

/// A list of kernels: at least one, all valid and of the same size. Returns n.
pub fn kernels(what: &str, ks: &[MatRef<'_, f64>]) -> Result<usize> {
    let Some(first) = ks.first() else {
        return Err(Error::input(what, "no kernels given"));
    };
    let n = kernel(&format!("{what}[0]"), *first)?;
    for (p, k) in ks.iter().enumerate().skip(1) {
        let np = kernel(&format!("{what}[{p}]"), *k)?;
        if np != n {
            return Err(Error::shape(
                format!("{what}[{p}]"),
                format!("{n} x {n} like {what}[0]"),
                format!("{np} x {np}"),
            ));
        }
    }
    Ok(n)
}

/// Number of clusters: 1 ≤ k ≤ n (`min` lets methods demand k ≥ 2).
pub fn n_clusters(k: usize, n: usize, min: usize) -> Result<()> {
    if k < min.max(1) {
        return Err(Error::param(
            "n_clusters",
            k,
            format!("must be at least {}", min.max(1)),
        ));
    }
    if k > n {
        return Err(Error::param(
            "n_clusters",
            k,
            format!("larger than the number of samples ({n})"),
        ));
    }
    Ok(())
}

/// A finite, strictly positive scalar parameter.
pub fn positive(name: &str, v: f64) -> Result<()> {
    if !(v.is_finite() && v > 0.0) {
        return Err(Error::param(name, v, "must be finite and > 0"));
    }
    Ok(())
}

/// A finite, non-negative scalar parameter.
pub fn non_negative(name: &str, v: f64) -> Result<()> {
    if !(v.is_finite() && v >= 0.0) {
        return Err(Error::param(name, v, "must be finite and >= 0"));
    }
    Ok(())
}

/// Binary labels in {−1, +1}, both present.
pub fn binary_labels(what: &str, y: &[f64]) -> Result<()> {
    if y.is_empty() {
        return Err(Error::input(what, "no labels"));
    }
    if let Some(i) = y.iter().position(|&v| v != 1.0 && v != -1.0) {
        return Err(Error::input(
            what,
            format!("label {} at index {i} is not -1 or +1", y[i]),
        ));
    }
    if y.iter().all(|&v| v == y[0]) {
        return Err(Error::input(what, format!("only one class ({})", y[0])));
    }
    Ok(())
}

/// Class/cluster labels `0..` with at least `min_classes` distinct values; returns the
/// number of distinct values.
pub fn labels(what: &str, y: &[usize], min_classes: usize) -> Result<usize> {
    if y.is_empty() {
        return Err(Error::input(what, "no labels"));
    }
    let mut seen: Vec<usize> = y.to_vec();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() < min_classes {
        return Err(Error::input(
            what,
            format!(
                "{} distinct label(s), need at least {min_classes}",
                seen.len()
            ),
        ));
    }
    Ok(seen.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use faer::Mat;

    #[test]
    fn kernel_checks_each_defect() {
        let ok = Mat::from_fn(4, 4, |i, j| 1.0 / (1.0 + (i as f64 - j as f64).abs()));
        assert_eq!(kernel("K", ok.as_ref()).unwrap(), 4);

        let rect = Mat::<f64>::zeros(3, 4);
        assert!(matches!(
            kernel("K", rect.as_ref()),
            Err(Error::Shape { .. })
        ));

        let mut nan = ok.clone();
        nan[(2, 1)] = f64::NAN;
        assert!(matches!(
            kernel("K", nan.as_ref()),
            Err(Error::NonFinite { row: 2, col: 1, .. })
        ));

        let mut asym = ok.clone();
        asym[(0, 3)] += 1e-3;
        assert!(matches!(
            kernel("K", asym.as_ref()),
            Err(Error::NotSymmetric { .. })
        ));

        let empty = Mat::<f64>::zeros(0, 0);
        assert!(matches!(
            kernel("K", empty.as_ref()),
            Err(Error::InvalidInput { .. })
        ));
    }

    /// The parallel, tiled passes report the entry a sequential column-major scan finds
    /// first (several defects, n spanning several tiles and blocks, strided views).
    #[test]
    fn tiled_checks_report_the_first_defect() {
        let n = 150;
        let ok = Mat::from_fn(n, n, |i, j| 1.0 / (1.0 + (i as f64 - j as f64).abs()));
        assert_eq!(kernel("A", ok.as_ref()).unwrap(), n);
        let first_asym = |m: MatRef<'_, f64>| {
            let tol = SYMMETRY_RTOL * 1.001;
            (0..n)
                .flat_map(|j| ((j + 1)..n).map(move |i| (i, j)))
                .find(|&(i, j)| (m[(i, j)] - m[(j, i)]).abs() > tol)
        };
        let mut bad = ok.clone();
        bad[(120, 3)] += 1e-3;
        bad[(140, 70)] += 1e-3;
        bad[(2, 100)] += 1e-3;
        for m in [bad.as_ref(), bad.transpose()] {
            match kernel("A", m) {
                Err(Error::NotSymmetric { i, j, .. }) => assert_eq!(Some((i, j)), first_asym(m)),
                other => panic!("{other:?}"),
            }
        }
        let mut nan = ok.clone();
        nan[(9, 120)] = f64::INFINITY;
        nan[(7, 100)] = f64::NAN;
        nan[(140, 100)] = f64::NAN;
        assert!(matches!(
            kernel("A", nan.as_ref()),
            Err(Error::NonFinite {
                row: 7,
                col: 100,
                ..
            })
        ));
        assert!(matches!(
            kernel("A", nan.transpose()),
            Err(Error::NonFinite {
                row: 100,
                col: 7,
                ..
            })
        ));
    }

    /// The one-pass verdict agrees with a brute-force scan, in parallel and sequentially:
    /// asymmetries just under and just over the tolerance (which scales with max |m|,
    /// here sometimes set by the perturbed entry itself) and non-finite entries, above,
    /// below and on the diagonal, in full strips and in the last, partial one (n = 150:
    /// nine strips of 16 and one of 6).
    #[test]
    fn one_pass_verdict_matches_brute_force() {
        let n = 150;
        let ok = Mat::from_fn(n, n, |i, j| 1.0 / (1.0 + (i as f64 - j as f64).abs()));
        let brute = |m: &Mat<f64>| {
            let mut scale = 0.0f64;
            for j in 0..n {
                for i in 0..n {
                    if !m[(i, j)].is_finite() {
                        return false;
                    }
                    scale = scale.max(m[(i, j)].abs());
                }
            }
            let tol = SYMMETRY_RTOL * scale;
            (0..n).all(|j| (0..n).all(|i| (m[(i, j)] - m[(j, i)]).abs() <= tol))
        };
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |m: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % m as u64) as usize
        };
        let mut seen = [0usize; 2];
        for case in 0..400 {
            let mut m = ok.clone();
            let (i, j) = (next(n), next(n));
            match case % 4 {
                // within or just beyond the tolerance at scale 1
                0 => m[(i, j)] += SYMMETRY_RTOL * [0.5, 0.99, 1.01, 2.0][next(4)],
                // a large entry that also sets the scale
                1 => m[(i, j)] = 3.0 + 3.0 * SYMMETRY_RTOL * [0.0, 0.9, 1.1][next(3)],
                // non-finite
                2 => m[(i, j)] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY][next(3)],
                // symmetric change: always fine
                _ => {
                    m[(i, j)] = 0.75;
                    m[(j, i)] = 0.75;
                }
            }
            let want = brute(&m);
            assert_eq!(
                kernel("A", m.as_ref()).is_ok(),
                want,
                "case {case} at ({i}, {j})"
            );
            seen[want as usize] += 1;
        }
        assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
    }

    #[test]
    fn kernels_need_equal_sizes() {
        let a = Mat::<f64>::identity(3, 3);
        let b = Mat::<f64>::identity(4, 4);
        assert!(matches!(
            kernels("Ks", &[a.as_ref(), b.as_ref()]),
            Err(Error::Shape { .. })
        ));
        assert!(matches!(
            kernels("Ks", &[]),
            Err(Error::InvalidInput { .. })
        ));
        assert_eq!(kernels("Ks", &[a.as_ref(), a.as_ref()]).unwrap(), 3);
    }

    #[test]
    fn cluster_count_and_labels() {
        assert!(n_clusters(0, 5, 1).is_err());
        assert!(n_clusters(6, 5, 1).is_err());
        assert!(n_clusters(1, 5, 2).is_err());
        assert!(n_clusters(5, 5, 2).is_ok());
        assert!(binary_labels("y", &[1.0, 1.0]).is_err());
        assert!(binary_labels("y", &[1.0, 0.0]).is_err());
        assert!(binary_labels("y", &[1.0, -1.0]).is_ok());
        assert_eq!(labels("y", &[0, 2, 2], 2).unwrap(), 2);
        assert!(labels("y", &[3, 3], 2).is_err());
    }
}
