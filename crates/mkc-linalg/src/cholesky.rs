//! The sequential in-place Cholesky factorisation shared by the solvers (the SMO's
//! active-set polish and linear-SVR ADMM in mkc-svm, GMMC's Newton steps in mkc-mmc).

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt;
use faer::{Mat, Par};
use mkc_core::{Error, Result};

/// The lower Cholesky factor `L` of a symmetric positive definite `a` (`a = L Lᵀ`),
/// computed in place on one thread (`Par::Seq`, so the result does not depend on the
/// thread count). Only the lower triangle of `a` is read; the strict upper triangle of
/// the result is left as it was in `a`. An empty matrix is its own factor.
///
/// # Errors
/// [`Error::Shape`](mkc_core::Error::Shape) when `a` is not square;
/// [`Error::Numerical`](mkc_core::Error::Numerical) when it is not numerically positive
/// definite (a non-finite entry included).
///
/// ```
/// let a = faer::mat![[4.0, 2.0], [2.0, 5.0]];
/// let l = mkc_linalg::cholesky_lower(a).unwrap();
/// assert_eq!((l[(0, 0)], l[(1, 0)], l[(1, 1)]), (2.0, 1.0, 2.0));
/// assert!(mkc_linalg::cholesky_lower(faer::mat![[1.0, 2.0], [2.0, 1.0]]).is_err());
/// assert!(mkc_linalg::cholesky_lower(faer::Mat::<f64>::zeros(2, 3)).is_err());
/// assert!(mkc_linalg::cholesky_lower(faer::mat![[f64::NAN]]).is_err());
/// ```
pub fn cholesky_lower(mut a: Mat<f64>) -> Result<Mat<f64>> {
    let n = a.nrows();
    if a.ncols() != n {
        return Err(Error::shape(
            "Cholesky input",
            format!("a square matrix ({n} x {n})"),
            format!("{n} x {}", a.ncols()),
        ));
    }
    if n == 0 {
        return Ok(a);
    }
    let par = Par::Seq;
    let mut buf = MemBuffer::new(llt::factor::cholesky_in_place_scratch::<f64>(
        n,
        par,
        Default::default(),
    ));
    llt::factor::cholesky_in_place(
        a.as_mut(),
        Default::default(),
        par,
        MemStack::new(&mut buf),
        Default::default(),
    )
    .map_err(|_| {
        Error::numerical(
            "Cholesky factorisation",
            "the matrix is not numerically positive definite",
        )
    })?;
    Ok(a)
}
