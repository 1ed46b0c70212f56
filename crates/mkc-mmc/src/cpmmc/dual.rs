//! One CCCP step of CPMMC: the convex problem over the working set Ω at fixed signs
//! `sᵢ = sign(wₜᵀxᵢ + bₜ)`, solved in its dual.
//!
//! # The step (Zhao, Wang & Zhang 2008, eqs. 9–13)
//! With the constraint `(1/n) Σᵢ cᵢ|wᵀxᵢ + b| ≥ c̄ − ξ` of eq. (9) linearised at the
//! current hyperplane (`|f| ≥ s·f`, the constrained concave–convex procedure), the step is
//!
//! ```text
//! min_{w, b, ξ ≥ 0}  ½‖w‖² + Cξ
//! s.t.  (1/n) Σᵢ c_ij sᵢ (wᵀxᵢ + b) ≥ c̄_j − ξ    for every cut c_j ∈ Ω
//!       −ℓ ≤ Σᵢ (wᵀxᵢ + b) ≤ ℓ
//! ```
//!
//! We write it on centred samples `x̃ᵢ = xᵢ − x̄` with the centred bias `b̃ = b + wᵀx̄`:
//! then `Σᵢ (wᵀxᵢ + b) = n b̃`, so the balance constraint is the box `|b̃| ≤ κ = ℓ/n`
//! and nothing else involves the mean. With `ã_j = (1/n) Σᵢ c_ij sᵢ x̃ᵢ`,
//! `s̄_j = (1/n) Σᵢ c_ij sᵢ` and `H = [ã_jᵀã_k]`, the dual (the paper's dual written
//! for centred data) is
//!
//! ```text
//! max_{λ ≥ 0, ν ≥ 0}  −½ λᵀHλ + c̄ᵀλ − κ(ν₁ + ν₂)
//! s.t.  1ᵀλ ≤ C,   s̄ᵀλ = ν₁ − ν₂
//! ```
//!
//! a standard-form QP in `(λ, ν₁, ν₂, slack)` with two equality rows (`qp` module).
//! The primal is recovered as `w = Σ_j λ_j ã_j` (so `w = Φ̃ᵀβ` with `β = Uλ`,
//! `U_ij = c_ij sᵢ/n`) and then, with w fixed, `(b̃, ξ)` minimise
//! `ξ(b̃) = max(0, max_j (c̄_j − (Hλ)_j − s̄_j b̃))` over `|b̃| ≤ κ` — a convex piecewise
//! linear function of one variable, minimised by golden-section search, its flat minimum
//! (if any) resolved to the midpoint. This replaces the authors' recovery of b from "the
//! active cuts", which fails when no cut is active or every active `s̄_j` is 0; strong
//! duality (primal = dual objective) is checked by the tests.

use super::cuts::CutSet;
use super::gram::Gram;
use super::qp::{dot, solve_std_qp, QpSolution};
use faer::Mat;
use mkc_core::Result;

/// Relative KKT tolerance of the dual QP.
pub(crate) const QP_TOL: f64 = 1e-10;
/// Iteration cap of the interior-point solver.
const QP_MAX_ITER: usize = 200;

/// The data of one step's dual: `H`, `c̄`, `s̄`.
pub(crate) struct StepData {
    /// `H = UᵀGU` (m × m).
    pub h: Mat<f64>,
    /// `c̄_j = (1/n) Σᵢ c_ij`.
    pub c_bar: Vec<f64>,
    /// `s̄_j = (1/n) Σᵢ c_ij sᵢ`.
    pub s_bar: Vec<f64>,
}

impl StepData {
    /// The step's data for the working set at its current signs.
    pub(crate) fn new(gram: &dyn Gram, cuts: &CutSet) -> Self {
        StepData {
            h: gram.hessian(cuts.u.as_ref(), cuts.e.as_ref()),
            c_bar: cuts.c_bar(),
            s_bar: cuts.s_bar(),
        }
    }

    /// The standard-form QP `(Q, q, A, b)` of the dual (minimised: the negated dual
    /// objective) in the variables `(λ₁ … λ_m, ν₁, ν₂, slack)`.
    pub(crate) fn standard_form(
        &self,
        c: f64,
        kappa: f64,
    ) -> (Mat<f64>, Vec<f64>, Mat<f64>, Vec<f64>) {
        let m = self.c_bar.len();
        let nv = m + 3;
        let q = Mat::from_fn(
            nv,
            nv,
            |i, j| if i < m && j < m { self.h[(i, j)] } else { 0.0 },
        );
        let mut lin: Vec<f64> = self.c_bar.iter().map(|v| -v).collect();
        lin.extend([kappa, kappa, 0.0]);
        let a = Mat::from_fn(2, nv, |r, j| match (r, j) {
            (0, j) if j < m => self.s_bar[j],
            (0, j) if j == m => -1.0,
            (0, j) if j == m + 1 => 1.0,
            (1, j) if j < m || j == m + 2 => 1.0,
            _ => 0.0,
        });
        (q, lin, a, vec![0.0, c])
    }
}

/// The solution of one step (the multipliers and both objectives are read by the
/// tests' optimality certificates).
#[derive(Debug, Clone)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct StepSolution {
    /// Dual variables of the cuts.
    pub lambda: Vec<f64>,
    /// Dual variables of the two balance bounds (`b̃ ≤ κ`, `−b̃ ≤ κ`).
    pub nu: [f64; 2],
    /// `‖w‖² = λᵀHλ`.
    pub w_norm2: f64,
    /// The centred bias b̃.
    pub bias: f64,
    /// The slack ξ.
    pub xi: f64,
    /// Primal objective `½‖w‖² + Cξ` (of the linearised problem).
    pub primal: f64,
    /// Dual objective `−½λᵀHλ + c̄ᵀλ − κ(ν₁ + ν₂)`.
    pub dual: f64,
    /// The interior-point solution (all variables and multipliers).
    pub qp: QpSolution,
}

/// Solve the step's dual and recover the primal (module docs).
pub(crate) fn solve_step(data: &StepData, c: f64, kappa: f64) -> Result<StepSolution> {
    let m = data.c_bar.len();
    let (q, lin, a, b) = data.standard_form(c, kappa);
    let qp = solve_std_qp(q.as_ref(), &lin, a.as_ref(), &b, QP_TOL, QP_MAX_ITER)?;
    let lambda: Vec<f64> = qp.x[..m].iter().map(|v| v.max(0.0)).collect();
    let nu = [qp.x[m].max(0.0), qp.x[m + 1].max(0.0)];
    let h_lambda: Vec<f64> = (0..m)
        .map(|j| (0..m).map(|k| data.h[(j, k)] * lambda[k]).sum())
        .collect();
    let w_norm2 = dot(&lambda, &h_lambda).max(0.0);
    let r: Vec<f64> = data
        .c_bar
        .iter()
        .zip(&h_lambda)
        .map(|(cb, hl)| cb - hl)
        .collect();
    let (bias, xi) = best_bias(&r, &data.s_bar, kappa);
    Ok(StepSolution {
        dual: -0.5 * w_norm2 + dot(&data.c_bar, &lambda) - kappa * (nu[0] + nu[1]),
        primal: 0.5 * w_norm2 + c * xi,
        lambda,
        nu,
        w_norm2,
        bias,
        xi,
        qp,
    })
}

/// `ξ(b) = max(0, max_j (r_j − s̄_j b))`.
pub(crate) fn slack_at(r: &[f64], s_bar: &[f64], b: f64) -> f64 {
    r.iter()
        .zip(s_bar)
        .fold(0.0, |acc: f64, (rj, sj)| acc.max(rj - sj * b))
}

/// The b in [−κ, κ] minimising the convex piecewise linear [`slack_at`] (the midpoint of
/// its minimising interval), and the minimum.
pub(crate) fn best_bias(r: &[f64], s_bar: &[f64], kappa: f64) -> (f64, f64) {
    let g = |b: f64| slack_at(r, s_bar, b);
    let phi = 0.5 * (5f64.sqrt() - 1.0);
    let (mut lo, mut hi) = (-kappa, kappa);
    for _ in 0..200 {
        if hi - lo <= f64::EPSILON * kappa {
            break;
        }
        let (m1, m2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
        if g(m1) <= g(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let b_star = 0.5 * (lo + hi);
    // Endpoints are candidates too (the search keeps them only up to rounding).
    let b_star = [b_star, -kappa, kappa]
        .into_iter()
        .min_by(|a, b| g(*a).total_cmp(&g(*b)))
        .unwrap_or(b_star);
    let best = g(b_star);
    let level = best + 1e-12 * (1.0 + best);
    let left = edge(&g, b_star, -kappa, level);
    let right = edge(&g, b_star, kappa, level);
    let b = 0.5 * (left + right);
    (b, g(b))
}

/// The point between `inside` (where g ≤ level) and `bound` where g crosses `level`
/// (`bound` itself when g stays below it): the end of the convex sublevel set.
fn edge(g: &impl Fn(f64) -> f64, inside: f64, bound: f64, level: f64) -> f64 {
    if g(bound) <= level {
        return bound;
    }
    let (mut a, mut b) = (inside, bound);
    for _ in 0..200 {
        let mid = 0.5 * (a + b);
        if mid == a || mid == b {
            break;
        }
        if g(mid) <= level {
            a = mid;
        } else {
            b = mid;
        }
    }
    a
}
