//! The sequential in-place Cholesky factorisation shared by the solvers (the SMO's
//! active-set polish and linear-SVR ADMM in mkc-svm, GMMC's Newton steps in mkc-mmc).

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt;
use faer::{Mat, Par};

/// The lower Cholesky factor `L` of a symmetric positive definite `a` (`a = L Lᵀ`),
/// computed in place on one thread (`Par::Seq`, so the result does not depend on the
/// thread count). Only the lower triangle of `a` is read; the strict upper triangle of
/// the result is left as it was in `a`. `None` when `a` is not numerically positive
/// definite; an empty matrix is its own factor.
///
/// ```
/// let a = faer::mat![[4.0, 2.0], [2.0, 5.0]];
/// let l = mkc_linalg::cholesky_lower(a).unwrap();
/// assert_eq!((l[(0, 0)], l[(1, 0)], l[(1, 1)]), (2.0, 1.0, 2.0));
/// assert!(mkc_linalg::cholesky_lower(faer::mat![[1.0, 2.0], [2.0, 1.0]]).is_none());
/// ```
pub fn cholesky_lower(mut a: Mat<f64>) -> Option<Mat<f64>> {
    let n = a.nrows();
    if n == 0 {
        return Some(a);
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
    .ok()?;
    Some(a)
}
