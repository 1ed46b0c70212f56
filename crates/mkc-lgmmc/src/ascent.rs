//! Ascent refinement of the most violated label vector (ours; the paper stops at eq. 13).
//!
//! The constraint of eq. (6) that a label vector ŷ violates most maximises the label
//! term of eq. (11), `v(ŷ) = ½ (α∘ŷ)ᵀ K (α∘ŷ)`, over the balanced set B. That is the
//! maximisation of a convex quadratic; Section 3.5 replaces the ℓ2 norm by the ∞-norm
//! (eq. 13) to get a problem that sorting solves exactly ([`crate::most_violated`]).
//! The ∞-norm winner looks at one feature only, and the cutting plane can then stop
//! with a duplicate or non-violating vector long before eq. (7) is solved: on Letter
//! A-B's Gaussian kernels, runs started from the true classes end at objectives up to
//! 60% lower than runs from the paper's start (the `lgmmc_margin_check` example).
//!
//! Starting from the ∞-norm winner, each ascent step maximises the linearisation of v
//! at the current ŷ over B,
//!
//! ```text
//! ŷ⁺ = argmax_{ŷ' ∈ B} ŷ'ᵀ (α ∘ K(α∘ŷ)),
//! ```
//!
//! which is eq. (15) with `c = α ∘ f`, `f = K(α∘ŷ)` (solved by the same sorting; ties,
//! i.e. samples with α_i = 0, by the sign of f_i). Because v is convex,
//! `v(ŷ⁺) ≥ v(ŷ) + (ŷ⁺ − ŷ)ᵀ∇v(ŷ) ≥ v(ŷ)`: the violation never decreases. The
//! steps stop when ŷ repeats or after `refine_steps` (a fixed point is a vector that no
//! single linearised move improves). One step costs one product `K·(α∘ŷ)` over the
//! support of α.

use crate::solver::AlphaSolver;
use crate::violated::solve_lp_tiebreak;
use mkc_core::Result;

/// Up to `steps` ascent steps from `y` (module docs); returns the refined vector and
/// the steps taken.
pub(crate) fn refine<S: AlphaSolver>(
    solver: &S,
    alpha: &[f64],
    mut y: Vec<f64>,
    beta: f64,
    steps: usize,
) -> Result<(Vec<f64>, usize)> {
    for step in 0..steps {
        let coef: Vec<f64> = alpha.iter().zip(&y).map(|(a, b)| a * b).collect();
        let f = solver.kernel_times(&coef);
        let c: Vec<f64> = alpha.iter().zip(&f).map(|(a, v)| a * v).collect();
        let (next, _) = solve_lp_tiebreak(&c, &f, beta)?;
        if next == y {
            return Ok((y, step));
        }
        y = next;
    }
    Ok((y, steps))
}
