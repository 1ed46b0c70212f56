//! The small weight step several methods of the family share: the m-dimensional QP
//! `min_γ ½ γᵀ Q γ + cᵀ γ` over the simplex `{γ ≥ 0, 1ᵀγ = 1}` (m = number of kernels),
//! which the authors' MATLAB code solves with `quadprog` (bounds 0 ≤ γ ≤ 1), followed by
//! their clean-up: weights below a threshold set to 0 and the rest renormalised.
//!
//! Solved by `mkc_qp`'s pairwise active-set method ([`mkc_qp::CappedSimplexQp`], cap 1)
//! on the problem scaled to unit size (Q and c divided by the largest |entry|), so its
//! absolute KKT tolerance means the same thing for kernels of any scale. Used by LKAM
//! ([`crate::lkam`], `Q = λ HE + 2 diag(z)`, `c = 0`) and ONKC ([`crate::onkc`],
//! `Q = (ρ + λ) M`, `c_p = −ρ tr(K_p G)`).

use faer::{Mat, MatRef};
use mkc_core::{validate, Error, ParamGuard, Result};
use mkc_qp::{CappedSimplexQp, QpMatrix};

/// KKT tolerance of the scaled problem (entries of Q and c at most 1 in magnitude).
const SCALED_TOL: f64 = 1e-13;

/// `argmin_{γ ∈ Δ} ½ γᵀ Q γ + cᵀ γ` (Q symmetric m x m, c of length m), started from
/// `warm` when given, then weights below `zero_weight` set to 0 and the rest
/// renormalised. `what` names the method in errors (all weights vanishing, which
/// needs `zero_weight ≥ 1/m`, or a non-finite problem).
pub fn simplex_weights(
    q: MatRef<'_, f64>,
    c: &[f64],
    warm: Option<&[f64]>,
    zero_weight: f64,
    what: &str,
) -> Result<Vec<f64>> {
    let m = validate::square("Q", q)?;
    validate::len("c", c.len(), m)?;
    validate::finite("Q", q)?;
    validate::finite_slice("c", c)?;
    let scale = (0..m)
        .flat_map(|j| (0..m).map(move |i| (i, j)))
        .map(|(i, j)| q[(i, j)].abs())
        .chain(c.iter().map(|v| v.abs()))
        .fold(0.0, f64::max);
    let s = if scale > 0.0 { 1.0 / scale } else { 1.0 };
    let qs = Mat::from_fn(m, m, |i, j| 0.5 * (q[(i, j)] + q[(j, i)]) * s);
    let cs: Vec<f64> = c.iter().map(|v| v * s).collect();
    let solver = CappedSimplexQp::new(1.0).tol(SCALED_TOL).check()?;
    let sol = solver.solve(&QpMatrix::new(qs.as_ref())?, &cs, warm)?;
    let mut gamma = sol.z;
    for v in gamma.iter_mut() {
        if *v < zero_weight {
            *v = 0.0;
        }
    }
    let total: f64 = gamma.iter().sum();
    if !(total.is_finite() && total > 0.0) {
        return Err(Error::numerical(what, "all kernel weights vanished"));
    }
    gamma.iter_mut().for_each(|v| *v /= total);
    Ok(gamma)
}

/// The weight update of the regularised alternations (MKKM-MiR's and LKAM's): from the
/// current γ and the per-kernel costs `b` (the `b_p` of [`crate::alternation`]),
/// `Q = λ R + 2 diag(b)`, the recorded value `½ γᵀ Q γ` (at the γ *before* the update,
/// as the authors' `calObj` / `callocalObj`), and the next γ = [`simplex_weights`] of
/// `½ γᵀ Q γ` warm-started from γ. `R` is the method's regularisation matrix (m x m).
pub fn regularised_update<'r>(
    reg: MatRef<'r, f64>,
    lambda: f64,
    zero_weight: f64,
    what: &'r str,
) -> impl FnMut(&[f64], &[f64]) -> Result<(Vec<f64>, f64)> + 'r {
    move |gamma: &[f64], b: &[f64]| {
        let m = b.len();
        let q = Mat::from_fn(m, m, |i, j| {
            lambda * reg[(i, j)] + if i == j { 2.0 * b[i] } else { 0.0 }
        });
        let value = 0.5 * quadratic_form(q.as_ref(), gamma);
        let next = simplex_weights(q.as_ref(), &vec![0.0; m], Some(gamma), zero_weight, what)?;
        Ok((next, value))
    }
}

/// The clean-up threshold `zero_weight` in [0, 0.5) (at least one of two kernels keeps
/// its weight), an `InvalidParam` naming it otherwise.
pub fn check_zero_weight(v: f64) -> Result<()> {
    if !(v.is_finite() && (0.0..0.5).contains(&v)) {
        return Err(Error::param("zero_weight", v, "must lie in [0, 0.5)"));
    }
    Ok(())
}

/// How far `gradient` is from equal on the support of `weights` (the entries with a
/// positive weight): `(max − min) / max` over the support — 0 at a stationary point of a
/// function on the simplex (its first-order condition), and the measure the tests of the
/// weight steps use.
pub fn support_spread(gradient: &[f64], weights: &[f64]) -> f64 {
    let (lo, hi) = gradient
        .iter()
        .zip(weights)
        .filter(|(_, &w)| w > 0.0)
        .fold((f64::MAX, f64::MIN), |(a, b), (&v, _)| (a.min(v), b.max(v)));
    (hi - lo) / hi
}

/// The points of the simplex of three weights with coordinates that are multiples of
/// `1/steps` (`(steps + 1)(steps + 2)/2` points; `steps` 0 is taken as 1): a brute-force
/// grid against which the weight steps of the family are checked.
pub fn grid3(steps: usize) -> impl Iterator<Item = [f64; 3]> {
    let steps = steps.max(1);
    let s = steps as f64;
    (0..=steps).flat_map(move |a| {
        (0..=steps - a).map(move |b| [a as f64 / s, b as f64 / s, (steps - a - b) as f64 / s])
    })
}

/// `xᵀ Q x`.
pub fn quadratic_form(q: MatRef<'_, f64>, x: &[f64]) -> f64 {
    let n = x.len();
    (0..n)
        .map(|i| x[i] * (0..n).map(|j| q[(i, j)] * x[j]).sum::<f64>())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best point of a grid of step 1/steps on the simplex (m = 2 or 3).
    fn grid_min(q: MatRef<'_, f64>, c: &[f64], steps: usize) -> (Vec<f64>, f64) {
        let m = c.len();
        let f = |g: &[f64]| {
            0.5 * quadratic_form(q, g) + c.iter().zip(g).map(|(a, b)| a * b).sum::<f64>()
        };
        let mut best = (vec![], f64::INFINITY);
        // m = 2: the points of the grid with a zero third weight.
        for g3 in grid3(steps).filter(|g| m == 3 || g[2] == 0.0) {
            let g = &g3[..m];
            let v = f(g);
            if v < best.1 {
                best = (g.to_vec(), v);
            }
        }
        best
    }

    #[test]
    fn support_spread_reads_only_the_support() {
        // Equal on the support {0, 2}: 0 whatever the entry off it.
        assert_eq!(support_spread(&[2.0, 9.0, 2.0], &[0.5, 0.0, 0.5]), 0.0);
        // 1 and 4 on the support: (4 − 1) / 4.
        assert_eq!(support_spread(&[1.0, 4.0, 0.5], &[0.3, 0.7, 0.0]), 0.75);
        assert_eq!(grid3(2).count(), 6);
        assert!(grid3(7).all(|g| (g.iter().sum::<f64>() - 1.0).abs() < 1e-15));
    }

    #[test]
    fn matches_a_fine_grid_for_two_and_three_weights() {
        // (Q, c): an interior optimum, a vertex optimum, an edge optimum, a huge scale
        // (ONKC's (ρ + λ) M with M ~ n²) and a linear term pulling off the interior.
        let cases: Vec<(Mat<f64>, Vec<f64>)> = vec![
            (
                Mat::from_fn(2, 2, |i, j| if i == j { 2.0 + i as f64 } else { 0.5 }),
                vec![0.0, 0.0],
            ),
            (
                Mat::from_fn(2, 2, |i, j| if i == j { 1.0 } else { 0.2 }),
                vec![-3.0, 1.0],
            ),
            (
                Mat::from_fn(3, 3, |i, j| if i == j { 3.0 - i as f64 * 0.5 } else { 0.3 }),
                vec![0.0; 3],
            ),
            (
                Mat::from_fn(3, 3, |i, j| 4e8 * if i == j { 1.0 } else { 0.9 }),
                vec![-3.9e8, -4.1e8, -4.0e8],
            ),
            (
                Mat::from_fn(3, 3, |i, j| if i == j { 1.0 } else { 0.0 }),
                vec![0.4, -0.2, 5.0],
            ),
        ];
        for (t, (q, c)) in cases.iter().enumerate() {
            let g = simplex_weights(q.as_ref(), c, None, 0.0, "test").unwrap();
            assert!((g.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(g.iter().all(|&v| v >= 0.0));
            let f = |g: &[f64]| {
                0.5 * quadratic_form(q.as_ref(), g)
                    + c.iter().zip(g).map(|(a, b)| a * b).sum::<f64>()
            };
            let (gb, vb) = grid_min(q.as_ref(), c, 600);
            // never worse than the grid's best, and next to it
            assert!(
                f(&g) <= vb + 1e-12 * vb.abs().max(1.0),
                "case {t}: {} > {vb}",
                f(&g)
            );
            let dist = g
                .iter()
                .zip(&gb)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(dist < 5e-3, "case {t}: {g:?} vs grid {gb:?}");
        }
    }

    #[test]
    fn small_weights_are_dropped_and_errors_are_typed() {
        // optimum (0.9975, 0.0025) → the second weight is cut at 0.01
        let q = Mat::from_fn(2, 2, |i, j| if i == j { 1.0 } else { 0.0 });
        let g = simplex_weights(q.as_ref(), &[0.0, 0.995], None, 0.01, "t").unwrap();
        assert_eq!(g, vec![1.0, 0.0]);
        let bad = Mat::from_fn(2, 2, |_, _| f64::NAN);
        assert!(simplex_weights(bad.as_ref(), &[0.0, 0.0], None, 0.0, "t").is_err());
        assert!(simplex_weights(q.as_ref(), &[0.0], None, 0.0, "t").is_err());
        match simplex_weights(q.as_ref(), &[0.0, 0.0], None, 0.9, "LKAM") {
            Err(Error::Numerical { what, .. }) => assert_eq!(what, "LKAM"),
            other => panic!("{other:?}"),
        }
    }
}
