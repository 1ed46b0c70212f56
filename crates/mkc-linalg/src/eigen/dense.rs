//! Dense symmetric eigendecomposition and the selection of the top or bottom k pairs:
//! faer's `self_adjoint_evd` (tridiagonalisation + divide and conquer, sequential) up to
//! n = 512, above it only the wanted pairs (`par::sym_evd_range`). Neither depends on the
//! number of threads.

use super::{sign_normalize, EigenInfo, EigenMethod, EigenPairs, SymOperator, Which};
use faer::{Mat, MatRef, Par};
use mkc_core::{Error, Result};

/// All eigenpairs of a symmetric matrix, eigenvalues ascending (only the lower triangle
/// is read after validation). Each eigenvector is signed so that its largest-magnitude
/// entry (lowest index on ties) is positive.
pub fn dense_sym(a: MatRef<'_, f64>) -> Result<EigenPairs> {
    crate::check::check_kernel("a", a)?;
    let n = a.nrows();
    dense_select(a, n, Which::Bottom)
}

/// Every eigenpair of a symmetric matrix (lower triangle read), computed sequentially so
/// that the result is bit-identical for any number of threads: eigenvalues ascending and
/// the eigenvectors as columns, without the sign normalisation and residual check of
/// [`dense_sym`] (for small projected problems such as Rayleigh–Ritz steps).
///
/// # Errors
/// `a` not square or with non-finite entries; the decomposition failing.
pub fn sym_evd(a: MatRef<'_, f64>) -> Result<(Vec<f64>, Mat<f64>)> {
    mkc_core::validate::square("a", a)?;
    mkc_core::validate::finite("a", a)?;
    super::par::sym_evd_unchecked(a)
}

/// Matrices up to this order take the full decomposition, larger ones compute and
/// transform back only the wanted pairs (bisection and inverse iteration).
const SUBSET_ABOVE: usize = 512;

/// The `k` wanted pairs of the symmetric matrix `a` from a full decomposition.
pub(crate) fn dense_select(a: MatRef<'_, f64>, k: usize, which: Which) -> Result<EigenPairs> {
    let n = a.nrows();
    // Thread-count independent (faer's default parallel tridiagonalisation rounds
    // differently for different thread counts; results must not depend on them).
    // Above SUBSET_ABOVE only the k wanted pairs are computed (`sym_evd_range`:
    // bisection, inverse iteration, back-transformation of k vectors); below, the full
    // decomposition is cheap and kept as it was (its pairs are bit-identical to earlier
    // results, which the subset path's are only to rounding). The extreme eigenvalues
    // give ‖A‖₂ for the residual check.
    let lo = match which {
        Which::Bottom => 0,
        Which::Top => n - k,
    };
    let super::par::RangeEvd {
        values: s,
        vectors: u,
        extremes: (smin, smax),
    } = if n > SUBSET_ABOVE {
        super::par::sym_evd_range(a, lo, k)?
    } else {
        let (s, u) = super::par::sym_evd_unchecked(a)?;
        super::par::RangeEvd::from_full(&s, &u, lo, k)
    };
    let pick = |c: usize| match which {
        Which::Bottom => c,
        Which::Top => k - 1 - c,
    };
    let values: Vec<f64> = (0..k).map(|c| s[pick(c)]).collect();
    let mut vectors = Mat::from_fn(n, k, |r, c| u[(r, pick(c))]);
    if values.iter().any(|v| !v.is_finite()) {
        return Err(Error::numerical(
            "dense symmetric eigendecomposition",
            "non-finite eigenvalue",
        ));
    }
    sign_normalize(vectors.as_mut());
    let scale = smin.abs().max(smax.abs());
    // A·V costs 2n²k flops: worth it only while small next to the decomposition itself
    let max_residual = if 8 * k <= n || n <= 256 {
        Some(relative_residual(a, &values, vectors.as_ref(), scale))
    } else {
        None
    };
    Ok(EigenPairs {
        values,
        vectors,
        info: EigenInfo {
            method: EigenMethod::Dense,
            iterations: 0,
            matvecs: n,
            max_residual,
            fell_back: false,
        },
    })
}

/// The dense path for a matrix-free operator: form A = op · I, then decompose.
pub(crate) fn dense_operator(op: &dyn SymOperator, k: usize, which: Which) -> Result<EigenPairs> {
    let n = op.dim();
    let mut a = Mat::<f64>::zeros(n, n);
    op.apply(
        Mat::<f64>::identity(n, n).as_ref(),
        a.as_mut(),
        Par::rayon(0),
    );
    crate::center::symmetrize_unchecked(a.as_mut());
    dense_select(a.as_ref(), k, which)
}

/// max_i ‖A v_i − λ_i v_i‖ / ‖A‖₂ (‖A‖₂ = `scale` = max |λ|; absolute when A = 0).
fn relative_residual(a: MatRef<'_, f64>, values: &[f64], v: MatRef<'_, f64>, scale: f64) -> f64 {
    let av = a * v;
    let mut worst = 0.0f64;
    for (j, &l) in values.iter().enumerate() {
        let r: f64 = (0..v.nrows())
            .map(|i| (av[(i, j)] - l * v[(i, j)]).powi(2))
            .sum::<f64>()
            .sqrt();
        worst = worst.max(r);
    }
    if scale > 0.0 {
        worst / scale
    } else {
        worst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Above `SUBSET_ABOVE` (bisection, inverse iteration, back-transformation of k
    /// vectors): the top and bottom pairs equal the full decomposition's, values to
    /// 10⁻¹³·‖A‖, vectors to rounding (up to the sign normalisation), with a small
    /// residual.
    #[test]
    fn subset_path_matches_the_full_decomposition() {
        let n = SUBSET_ABOVE + 8;
        let a = Mat::<f64>::from_fn(n, n, |i, j| {
            let (x, y) = (i as f64 / n as f64, j as f64 / n as f64);
            (-(x - y).powi(2) * 40.0).exp() + if i == j { 0.01 * x } else { 0.0 }
        });
        let (s, u) = super::super::par::sym_evd_unchecked(a.as_ref()).unwrap();
        for (which, k) in [(Which::Top, 6), (Which::Bottom, 3)] {
            let p = dense_select(a.as_ref(), k, which).unwrap();
            for c in 0..k {
                let i = if which == Which::Top { n - 1 - c } else { c };
                assert!(
                    (p.values[c] - s[i]).abs() <= 1e-13 * s[n - 1],
                    "{which:?} {c}"
                );
                let dot: f64 = (0..n).map(|r| u[(r, i)] * p.vectors[(r, c)]).sum();
                assert!((dot.abs() - 1.0).abs() < 1e-10, "{which:?} {c}: {dot}");
            }
            assert!(p.info.max_residual.unwrap() < 1e-12);
        }
    }
}
