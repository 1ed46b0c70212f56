//! Validity checks for kernel matrices.

use faer::{MatRef, Side};
use mkc_core::{validate as core_validate, Error, Result};

/// Default relative tolerance of the PSD check: λ_min ≥ −1e-10 · max(|λ_max|, |λ_min|).
pub const PSD_RTOL: f64 = 1e-10;

/// A valid kernel: non-empty, square, finite, symmetric within
/// [`mkc_core::validate::SYMMETRY_RTOL`] · max|K|. Returns n.
pub fn validate(k: MatRef<'_, f64>) -> Result<usize> {
    core_validate::kernel("kernel", k)
}

/// Smallest and largest eigenvalue of a valid kernel (dense symmetric eigenvalue
/// solver, O(n³): meant for checks, not for hot paths).
pub fn extreme_eigenvalues(k: MatRef<'_, f64>) -> Result<(f64, f64)> {
    validate(k)?;
    let ev = k
        .self_adjoint_eigenvalues(Side::Lower)
        .map_err(|e| Error::numerical("kernel eigenvalues", format!("{e:?}")))?;
    match (ev.first(), ev.last()) {
        (Some(&lo), Some(&hi)) => Ok((lo, hi)),
        _ => Err(Error::input("kernel", "empty matrix")),
    }
}

/// Whether a valid kernel is positive semidefinite: λ_min ≥ −rtol · max(|λ_max|, |λ_min|)
/// (a relative test: rounding makes the zero eigenvalues of a rank-deficient kernel
/// slightly negative, by about ε · λ_max · n).
pub fn is_psd(k: MatRef<'_, f64>, rtol: f64) -> Result<bool> {
    core_validate::non_negative("rtol", rtol)?;
    let (lo, hi) = extreme_eigenvalues(k)?;
    Ok(lo >= -rtol * hi.abs().max(lo.abs()))
}

/// Like [`is_psd`] but an [`Error::NotPsd`] (with the smallest eigenvalue) when not.
pub fn ensure_psd(what: &str, k: MatRef<'_, f64>, rtol: f64) -> Result<()> {
    core_validate::non_negative("rtol", rtol)?;
    let (lo, hi) = extreme_eigenvalues(k)?;
    if lo >= -rtol * hi.abs().max(lo.abs()) {
        Ok(())
    } else {
        Err(Error::NotPsd {
            what: what.into(),
            min_eigenvalue: lo,
        })
    }
}
