//! Input validation of the symmetric matrices the solvers take: `mkc_core::validate::kernel`
//! (tiled and parallel there), under the name the linear-algebra API has used.

use faer::MatRef;
use mkc_core::Result;

/// `mkc_core::validate::kernel`: non-empty, square, finite, symmetric within
/// `SYMMETRY_RTOL · max|a|`, checked tiled and in parallel, the first offending entry in
/// column-major order reported. Returns n.
///
/// # Errors
/// As `mkc_core::validate::kernel`.
pub fn check_kernel(what: &str, a: MatRef<'_, f64>) -> Result<usize> {
    mkc_core::validate::kernel(what, a)
}
