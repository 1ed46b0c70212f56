//! The exact finish of the Newton solver of [`crate::LinearSvr`] (ours, after Madsen &
//! Nielsen 1990's finite termination for L1 regression): the Huber solution's pattern
//! taken as the SVR's, and the SVR's KKT system solved for it.
//!
//! The Huber-smoothed solution (`linear_newton.rs`) meets the KKT conditions within μ, but
//! no closer: its gradient carries rounding of order `C·n·u/μ` (u the unit roundoff), which
//! at μ ≈ 10⁻¹⁰ is 10⁻⁵. Its pattern, though, is the SVR's once μ is small: the points in
//! Q are the free β (F), those beyond it are at ±C, those in the tube at 0. With that
//! pattern the KKT conditions are linear in (β_F, b), with `w = X_Fᵀβ_F + v`,
//! `v = Σ_{i∉F} β_i x_i`:
//!
//! ```text
//! x_iᵀw + b = z_i − ε s_i   (i ∈ F, s_i = sign of its residual),     Σ_F β_i = −Σ_{i∉F} β_i
//! ⇔  [[X_F X_Fᵀ, 1], [1ᵀ, 0]] [β_F; b] = [z_F − ε s_F − X_F v; −Σ_{i∉F} β_i]
//! ```
//!
//! solved by a partially pivoted LU (a saddle-point matrix). If the pattern was right, β_F
//! lies in the box with the signs s_F and the result is the SVR's solution up to the
//! rounding of a |F| + 1 system; the caller keeps it only if its exact KKT violation is
//! smaller than the Huber β's. Skipped when |F| exceeds d + 1 (then `X_F X_Fᵀ` is singular
//! and the pattern degenerate: a non-degenerate optimum interpolates at most d + 1
//! points; on the MNIST pairs iterSVR's SVRs have 1000–5000 of n = 15170 within μ of
//! the tube's edge) or [`MAX_FREE`] (the system's O(|F|³) cost). Where the finish does
//! not apply and μ is so small that the Huber solution's rounding exceeds `tol` (tolerances
//! near 10⁻¹⁰), [`crate::LinearSvr`] hands over to the coordinate descent.

use crate::linear_dcd::Rows;
use faer::linalg::matmul::matmul;
use faer::linalg::solvers::Solve;
use faer::{Accum, Mat, MatRef, Par};

/// Largest free set the finish solves.
pub(crate) const MAX_FREE: usize = 2000;

/// β with the free entries (`0 < |β_i| < C`, `s_i` = sign β_i, the sign of the Huber
/// residual) re-solved from the KKT system (module docs), and the bias; `None` if skipped
/// or not finite.
pub(crate) fn finish(
    rows: &Rows,
    z: &[f64],
    (c, eps): (f64, f64),
    beta: &[f64],
) -> Option<(Vec<f64>, f64)> {
    let free: Vec<usize> = (0..rows.n)
        .filter(|&i| beta[i] != 0.0 && beta[i].abs() < c)
        .collect();
    let m = free.len();
    if m > MAX_FREE || m > rows.d + 1 {
        return None;
    }
    let mut fixed = beta.to_vec();
    free.iter().for_each(|&i| fixed[i] = 0.0);
    let v = rows.combine(&fixed);
    let xf = Mat::from_fn(m, rows.d, |k, j| rows.row(free[k])[j]);
    let mut k = Mat::<f64>::zeros(m, m);
    let xr: MatRef<'_, f64> = xf.as_ref();
    matmul(
        k.as_mut(),
        Accum::Replace,
        xr,
        xr.transpose(),
        1.0,
        Par::Seq,
    );
    let a = Mat::from_fn(m + 1, m + 1, |i, j| match (i < m, j < m) {
        (true, true) => k[(i, j)],
        (true, false) | (false, true) => 1.0,
        (false, false) => 0.0,
    });
    let rhs = Mat::from_fn(m + 1, 1, |i, _| {
        if i < m {
            let f = free[i];
            z[f] - eps * beta[f].signum() - crate::linear_dcd::dot(rows.row(f), &v)
        } else {
            -fixed.iter().sum::<f64>()
        }
    });
    let sol = a.partial_piv_lu().solve(&rhs);
    if !(0..=m).all(|i| sol[(i, 0)].is_finite()) {
        return None;
    }
    for (k, &i) in free.iter().enumerate() {
        fixed[i] = sol[(k, 0)].clamp(-c, c);
    }
    Some((fixed, sol[(m, 0)]))
}
