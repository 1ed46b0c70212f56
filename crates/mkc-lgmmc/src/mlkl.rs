//! The multiple label-kernel problem (Section 3.4): `min_{μ ∈ M} J(μ)` with
//! `J(μ) = max_{α ∈ A} −½ αᵀ(Σ_t μ_t K∘y_t y_tᵀ + I/C)α` (eq. 7), solved as SimpleMKL
//! does: the α-step at fixed μ, then a reduced-gradient step on μ.
//!
//! `∂J/∂μ_t = −L_t` with `L_t = ½ αᵀ(K∘y_t y_tᵀ)α`. With m the index of the largest μ
//! (lowest on ties) the descent direction is SimpleMKL's:
//! `D_t = L_t − L_m` for t ≠ m, except `D_t = 0` when μ_t = 0 and `L_t < L_m`, and
//! `D_m = −Σ_{t≠m} D_t`. Step choice (ours; SimpleMKL walks to the boundary while J
//! decreases, then line-searches): Armijo's rule (constant 1e-4). The first trial is
//! `min(1, 2f)` times the step that reaches the simplex boundary, with f the fraction of
//! that step accepted last time (f = 1/4 at the start, so the first trial is half-way:
//! the boundary point of a fresh label vector is a single label kernel, costly to solve
//! and rarely better); each rejected step replaced by the minimiser of
//! the parabola through J(0), J'(0) and the rejected J(γ) (kept within [0.05γ, 0.5γ]),
//! at most 8 trials; each trial is one α-solve warm-started from the current α. A step is taken only when J decreases,
//! so J never increases. Stops at the KKT condition of eq. (7) in μ — the terms of the
//! label kernels in use agree to `mkl_tol` relative to the largest term, and no unused
//! term is larger — after `mkl_max_iter` steps, or when no trial step decreases J.

use crate::params::LgmmcParams;
use crate::solver::{AlphaProblem, AlphaSolver, AlphaStep};
use mkc_core::Result;

/// Sufficient-decrease constant of the Armijo rule.
const ARMIJO: f64 = 1e-4;
/// Trial steps per reduced-gradient iteration.
const MAX_TRIALS: usize = 8;

/// Relative KKT residual of eq. (7) in μ: `(max_t L_t − min_{μ_t > 0} L_t) / max_t L_t`.
pub(crate) fn kkt_residual(terms: &[f64], mu: &[f64]) -> f64 {
    let lmax = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lmin = terms
        .iter()
        .zip(mu)
        .filter(|(_, &m)| m > 0.0)
        .map(|(&l, _)| l)
        .fold(f64::INFINITY, f64::min);
    if lmax <= 0.0 {
        0.0
    } else {
        (lmax - lmin) / lmax
    }
}

/// Work counters of the μ-steps, and the step memory of the line search, carried across
/// the rounds of Algorithm 1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MklCounters {
    /// α-solves in all.
    pub solves: usize,
    /// Iterations of the inner solver in all.
    pub inner: usize,
    /// Fraction of the boundary step accepted last time (module docs).
    frac: f64,
}

impl MklCounters {
    /// The counters after the first α-solve `first`.
    pub(crate) fn new(first: &AlphaStep) -> Self {
        Self {
            solves: 1,
            inner: first.iterations,
            frac: 0.25,
        }
    }
}

/// Minimise J over μ from `mu` with `cur` the α-step at `mu`. Returns the new μ and its
/// α-step; `count` counts the α-solves.
pub(crate) fn minimise_mu<S: AlphaSolver>(
    solver: &mut S,
    labels: &[Vec<f64>],
    mut mu: Vec<f64>,
    mut cur: AlphaStep,
    p: &LgmmcParams,
    count: &mut MklCounters,
) -> Result<(Vec<f64>, AlphaStep)> {
    let t_len = mu.len();
    for _ in 0..p.mkl_max_iter {
        let l = &cur.terms;
        if kkt_residual(l, &mu) <= p.mkl_tol {
            break;
        }
        let mut m = 0;
        for t in 1..t_len {
            if mu[t] > mu[m] {
                m = t;
            }
        }
        let mut dir = vec![0.0; t_len];
        let mut sum = 0.0;
        for t in 0..t_len {
            if t == m || (mu[t] == 0.0 && l[t] < l[m]) {
                continue;
            }
            dir[t] = l[t] - l[m];
            sum += dir[t];
        }
        dir[m] = -sum;
        let slope: f64 = -(0..t_len).map(|t| l[t] * dir[t]).sum::<f64>();
        if slope.is_nan() || slope >= 0.0 {
            break;
        }
        let (mut gmax, mut hit) = (f64::INFINITY, usize::MAX);
        for t in 0..t_len {
            if dir[t] < 0.0 {
                let g = -mu[t] / dir[t];
                if g < gmax {
                    (gmax, hit) = (g, t);
                }
            }
        }
        if !gmax.is_finite() {
            break;
        }
        let mut gamma = (2.0 * count.frac).min(1.0) * gmax;
        let mut accepted = false;
        for _ in 0..MAX_TRIALS {
            let mut next: Vec<f64> = (0..t_len)
                .map(|t| (mu[t] + gamma * dir[t]).max(0.0))
                .collect();
            if gamma == gmax {
                next[hit] = 0.0;
            }
            // Weights below 1e-12 (relative) are set to 0, then the sum restored to 1.
            let top = next.iter().copied().fold(0.0, f64::max);
            next.iter_mut().for_each(|v| {
                if *v < 1e-12 * top {
                    *v = 0.0
                }
            });
            let s: f64 = next.iter().sum();
            next.iter_mut().for_each(|v| *v /= s);
            let step = solver.solve(AlphaProblem::cold(labels, &next).from(&cur))?;
            count.solves += 1;
            count.inner += step.iterations;
            if step.objective <= cur.objective + ARMIJO * gamma * slope {
                mu = next;
                cur = step;
                count.frac = gamma / gmax;
                accepted = true;
                break;
            }
            // Minimiser of the parabola through J(0), J'(0) = slope and J(γ), kept in
            // [0.05 γ, 0.5 γ].
            let curv = step.objective - cur.objective - slope * gamma;
            let gq = if curv > 0.0 {
                -slope * gamma * gamma / (2.0 * curv)
            } else {
                0.5 * gamma
            };
            gamma = gq.clamp(0.05 * gamma, 0.5 * gamma);
        }
        if !accepted {
            break;
        }
    }
    Ok((mu, cur))
}
