//! The default solver of [`crate::LinearSvr`] with a free bias (ours): a semismooth Newton
//! method on the **primal** with a Huber-smoothed tube loss, in d + 1 variables.
//!
//! The ε-insensitive loss `h(r) = max(|r| − ε, 0)` is replaced by its Huber smoothing of
//! width μ (the Moreau envelope of h with parameter μ):
//!
//! ```text
//! ρ_μ(r) = 0                       |r| ≤ ε
//!        = (|r| − ε)² / (2μ)       ε < |r| < ε + μ      ("quadratic" points, the set Q)
//!        = |r| − ε − μ/2           |r| ≥ ε + μ
//!
//! min_{w, b}  F(w, b) = ½‖w‖² + C Σ_i ρ_μ(r_i),   r_i = z_i − x_iᵀw − b
//! ```
//!
//! **Why it solves the SVR to `tol`.** At a stationary point of F put
//! `β_i = C ρ_μ'(r_i) ∈ [−C, C]`. Stationarity in w and b is `w = Xᵀβ` and `Σβ = 0`, and
//! the dual gradient of coordinate i is `f_i − z_i = −r_i`; so β_i = ±C where
//! `|r_i| ≥ ε + μ`, β_i = 0 where `|r_i| ≤ ε`, and where β_i is strictly inside the box,
//! `|r_i| − ε ∈ (0, μ)`: every projected gradient of the dual (the violation that
//! [`crate::LinearSvr`] reports) is below μ. With μ = `tol`/2 the stationary point of F
//! *is* a solution of the SVR within `tol` (Madsen & Nielsen, "Finite algorithms for robust
//! linear regression", BIT 30, 1990, use the same smoothing for the L1 problem). Unlike
//! the dual descent, nothing here degrades when the dual is degenerate (MNIST: at most
//! d + 1 of n β off their bounds).
//!
//! **Newton steps.** F is convex, C¹, and quadratic on each region of constant pattern
//! (which points are in the tube, in Q, or on either linear side). Its generalised Hessian
//! is `H = diag(1, …, 1, 0) + (C/μ) Σ_{i∈Q} x̃_i x̃_iᵀ` with `x̃_i = (x_i, 1)` (a (d+1)²
//! system; its Gram part is formed from the rows of Q by one sequential faer product at
//! a stage's first step and then updated with the rows that entered or left Q
//! ([`QuadGram`]), and it is factorised by Cholesky; when Q is empty b has no curvature
//! and gets `C/μ`, as if one point were in Q). Within a stage the residuals move with
//! the steps (`r − t·q`, recomputed every [`RESIDUAL_REFRESH`] steps), so a step reads X
//! twice (`Xᵀ·slope` for the gradient, `X·p_w` for the line search), through the sparse
//! companion of [`crate::linear_sparse`] where the data allow.
//!
//! Measured (iterSVR on MNIST 3 vs 8, C = 5, seed 3, 10 SVRs, about 850 Newton steps;
//! user CPU seconds of the whole fit on a loaded machine): 33.3 s when every step formed
//! the Hessian from all of Q and read X three times densely, 15.0 s with the updated
//! Gram matrix, 13.2 s with the moved residuals, 10.7 s with the sparse products; the
//! same labels, the same number of SVRs, Newton steps within 2%. The step `p = −H⁻¹∇F` is taken with an exact line search ([`exact_step`]: the
//! derivative of F along p is monotone and piecewise linear, its root in (0, 1] is found by
//! a safeguarded Newton–bisection). **Stopping**: the gradient's largest entry is below `GTOL`
//! relative to the data's scale; or a full step (t = 1) ended on the same pattern it
//! started from — it landed on the minimiser of that region's quadratic, the stationary
//! point up to the rounding of the solve (at small μ the system's condition grows like
//! C/μ, so further steps in the same region refine it while they halve the gradient); or
//! the iteration cap.
//!
//! **Continuation.** A cold solve starts at μ = [`MU0`] (F is then close to ridge
//! regression and Newton takes few steps) and divides μ by [`MU_DIVISOR`] per stage down
//! to `tol`/2, each stage from the previous solution; the stages before the last stop
//! once the gradient's largest entry is below `μ/(1 + max‖x_i‖)` (they only have to bring
//! the pattern close). A warm start (β from the previous solve of the same data, as
//! iterSVR's) begins at [`WARM_FACTOR`]·`tol`/2. Measured on iterSVR's MNIST fits (seed
//! 0, ℓ = 0.03n, all SVRs to 10⁻³; Newton steps of the whole fit): starting warm solves at
//! `tol`/2 itself, MNIST 3 vs 8 at C = 0.5 left two SVRs at the 200-step cap (its first
//! relabelling flips thousands of targets and the steps at μ = 5·10⁻⁴ become tiny); at
//! 100·`tol`/2, 1373 steps; at 10·`tol`/2 with the loose intermediate stages, 1168 (MNIST
//! 1 vs 7 at C = 1: 339; 3 vs 8 at C = 100: 1191), the choice here; trying `tol`/2 first
//! with a budget of 40 steps, 1378 / 322 / 1249. The data are
//! the centred rows of [`crate::LinearFeatures`], so b is nearly decoupled from w.
//! All products are sequential and in a fixed order: the result does not depend on the
//! thread count.

use crate::free_system::{chol_solve, cholesky};
use crate::linear_dcd::{dot, Rows};
use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};

/// The first μ of a cold solve.
pub(crate) const MU0: f64 = 1.0;
/// μ is divided by this between stages.
pub(crate) const MU_DIVISOR: f64 = 10.0;
/// A warm start begins at this multiple of the final μ.
pub(crate) const WARM_FACTOR: f64 = 10.0;
/// Gradient test: the largest entry of ∇F below this times `1 + C·max_i ‖x_i‖`.
const GTOL: f64 = 1e-11;
/// Newton steps between exact recomputations of the residuals within a stage.
const RESIDUAL_REFRESH: usize = 8;
/// Safeguarded root search of the line search: at most this many evaluations.
const LINE_EVALS: usize = 80;

/// The smoothed loss of one stage.
#[derive(Clone, Copy, Debug)]
struct Huber {
    c: f64,
    eps: f64,
    mu: f64,
}

/// Where a residual lies: 0 in the tube, ±1 in Q, ±2 on a linear side.
type Region = i8;

impl Huber {
    #[inline]
    fn region(&self, r: f64) -> Region {
        let a = r.abs() - self.eps;
        let s = if r > 0.0 { 1 } else { -1 };
        if a <= 0.0 {
            0
        } else if a < self.mu {
            s
        } else {
            2 * s
        }
    }

    /// `ρ_μ'(r) ∈ [−1, 1]` (so β_i = C·slope).
    #[inline]
    fn slope(&self, r: f64) -> f64 {
        let a = r.abs() - self.eps;
        if a <= 0.0 {
            0.0
        } else {
            (a / self.mu).min(1.0) * r.signum()
        }
    }
}

/// The outcome of [`newton`]: β (inside the box), the bias and the Newton steps taken (the
/// caller judges β by its exact KKT violation; a stage that hit the cap ends the
/// continuation early).
pub(crate) struct Outcome {
    pub(crate) beta: Vec<f64>,
    pub(crate) b: f64,
    pub(crate) iterations: usize,
}

/// The continuation of the module docs from `(w, b)`; `warm` chooses the first μ.
/// `None` if a factorisation failed.
pub(crate) fn newton(
    rows: &Rows,
    z: &[f64],
    (c, eps): (f64, f64),
    (mut w, mut b): (Vec<f64>, f64),
    tol: f64,
    (warm, max_iter): (bool, usize),
) -> Option<Outcome> {
    let mu_final = 0.5 * tol;
    let xmax = rows.sq.iter().fold(0.0f64, |m, &s| m.max(s)).sqrt();
    let gtol = GTOL * (1.0 + c * xmax);
    let mut iterations = 0;
    let top = MU0.max(mu_final);
    let mut mu = if warm {
        (WARM_FACTOR * mu_final).min(top)
    } else {
        top
    };
    loop {
        let h = Huber { c, eps, mu };
        // Intermediate stages stop once their gradient is below μ / (1 + max‖x_i‖).
        let g_stop = if mu > mu_final {
            mu / (1.0 + xmax)
        } else {
            gtol
        };
        let caps = (&mut iterations, max_iter);
        let converged = stage(rows, z, h, (&mut w, &mut b), g_stop, caps)?;
        if mu <= mu_final || !converged {
            let r = residuals(rows, z, &w, b);
            let beta = r.iter().map(|&ri| c * h.slope(ri)).collect();
            return Some(Outcome {
                beta,
                b,
                iterations,
            });
        }
        mu = (mu / MU_DIVISOR).max(mu_final);
    }
}

/// `r_i = z_i − x_iᵀw − b`.
fn residuals(rows: &Rows, z: &[f64], w: &[f64], b: f64) -> Vec<f64> {
    let xw = rows.products(w);
    xw.iter().zip(z).map(|(v, zi)| zi - v - b).collect()
}

/// Newton steps on one μ until stationary (true) or the cap on all steps (false).
fn stage(
    rows: &Rows,
    z: &[f64],
    h: Huber,
    (w, b): (&mut Vec<f64>, &mut f64),
    gtol: f64,
    (iterations, max_iter): (&mut usize, usize),
) -> Option<bool> {
    let d = rows.d;
    let mut last: Option<(Vec<Region>, f64, f64)> = None;
    let mut gram = QuadGram::default();
    // The residuals at (w, b): computed at the stage's start, then moved with each step
    // (`r − t q`, one product with X per step instead of two), recomputed every
    // RESIDUAL_REFRESH steps to bound the rounding drift.
    let mut r = residuals(rows, z, w, *b);
    let mut since_refresh = 0;
    loop {
        let pattern: Vec<Region> = r.iter().map(|&ri| h.region(ri)).collect();
        let slope: Vec<f64> = r.iter().map(|&ri| h.slope(ri)).collect();
        let mut g = rows.combine(&slope);
        g.iter_mut()
            .zip(w.iter())
            .for_each(|(gj, wj)| *gj = wj - h.c * *gj);
        g.push(-h.c * slope.iter().sum::<f64>());
        let gmax = g.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if gmax <= gtol {
            return Some(true);
        }
        if let Some((old, t, gold)) = &last {
            // The same region after a full step: stationary up to the solve's rounding;
            // further steps refine while they halve the gradient.
            if *t == 1.0 && *old == pattern && gmax > 0.5 * gold {
                return Some(true);
            }
        }
        if *iterations >= max_iter {
            return Some(false);
        }
        *iterations += 1;
        let l = cholesky(gram.hessian(rows, &pattern, h))?;
        let mut p = Mat::from_fn(d + 1, 1, |j, _| -g[j]);
        chol_solve(l.as_ref(), p.as_mut());
        let pw: Vec<f64> = (0..d).map(|j| p[(j, 0)]).collect();
        let pb = p[(d, 0)];
        let q: Vec<f64> = rows.products(&pw).iter().map(|v| v + pb).collect();
        let t = exact_step(h, &r, &q, (dot(&pw, w), dot(&pw, &pw)));
        w.iter_mut().zip(&pw).for_each(|(wj, pj)| *wj += t * pj);
        *b += t * pb;
        since_refresh += 1;
        if since_refresh >= RESIDUAL_REFRESH {
            r = residuals(rows, z, w, *b);
            since_refresh = 0;
        } else {
            r.iter_mut().zip(&q).for_each(|(ri, qi)| *ri -= t * qi);
        }
        last = Some((pattern, t, gmax));
    }
}

/// The Gram matrix `S = Σ_{i∈Q} x̃_i x̃_iᵀ` of the quadratic points of one stage, kept
/// from step to step: between two Newton steps of a stage only a few points enter or
/// leave Q (on MNIST 1 vs 7, C = 1: |Q| ≈ 4400 on average against ≈ 155 changes), so S
/// is updated by the rank-|ΔQ| product of the changed rows, `S += AᵀA − RᵀR`, instead of
/// recomputed (|Q|·(d+1)² multiply-adds). It is recomputed from the rows of Q (one
/// sequential faer product, as at a stage's first step) when the changes exceed
/// [`REBUILD_SHARE`] of |Q| or after [`MAX_UPDATES`] updates, which bounds the rounding
/// the additions and subtractions accumulate. S only shapes the Newton direction: the
/// gradient, the line search and every stopping test are computed from the residuals.
#[derive(Default)]
struct QuadGram {
    /// S and the pattern it was computed for.
    held: Option<(Mat<f64>, Vec<bool>)>,
    updates: usize,
}

/// Recompute S when more than this share of |Q| changed ...
const REBUILD_SHARE: f64 = 0.25;
/// ... or after this many updates in a row.
const MAX_UPDATES: usize = 16;

impl QuadGram {
    /// `diag(1, …, 1, 0) + (C/μ) S` for the pattern (module docs).
    fn hessian(&mut self, rows: &Rows, pattern: &[Region], h: Huber) -> Mat<f64> {
        let d = rows.d;
        let quad: Vec<bool> = pattern.iter().map(|r| r.abs() == 1).collect();
        let n_quad = quad.iter().filter(|&&q| q).count();
        let changed = self.held.as_ref().map(|(_, old)| {
            let added: Vec<usize> = (0..rows.n).filter(|&i| quad[i] && !old[i]).collect();
            let removed: Vec<usize> = (0..rows.n).filter(|&i| !quad[i] && old[i]).collect();
            (added, removed)
        });
        let update = match changed {
            Some((a, r))
                if self.updates < MAX_UPDATES
                    && ((a.len() + r.len()) as f64) <= REBUILD_SHARE * n_quad as f64 =>
            {
                Some((a, r))
            }
            _ => None,
        };
        match (update, self.held.as_mut()) {
            (Some((added, removed)), Some((gram, old))) => {
                add_outer(gram, rows, &added, 1.0);
                add_outer(gram, rows, &removed, -1.0);
                *old = quad;
                self.updates += 1;
            }
            _ => {
                let idx: Vec<usize> = (0..rows.n).filter(|&i| quad[i]).collect();
                let mut gram = Mat::<f64>::zeros(d + 1, d + 1);
                add_outer(&mut gram, rows, &idx, 1.0);
                self.held = Some((gram, quad));
                self.updates = 0;
            }
        }
        let gram = &self.held.as_ref().expect("S was just set").0;
        let scale = h.c / h.mu;
        let mut hm = Mat::from_fn(d + 1, d + 1, |i, j| scale * gram[(i, j)]);
        for j in 0..d {
            hm[(j, j)] += 1.0;
        }
        if n_quad == 0 {
            hm[(d, d)] = scale;
        }
        hm
    }
}

/// `S += sign · Σ_{i∈idx} x̃_i x̃_iᵀ` with `x̃_i = (x_i, 1)` (one sequential faer product).
fn add_outer(gram: &mut Mat<f64>, rows: &Rows, idx: &[usize], sign: f64) {
    if idx.is_empty() {
        return;
    }
    let d = rows.d;
    let mut a = Mat::<f64>::zeros(idx.len(), d + 1);
    for (k, &i) in idx.iter().enumerate() {
        for (j, &v) in rows.row(i).iter().enumerate() {
            a[(k, j)] = v;
        }
        a[(k, d)] = 1.0;
    }
    let a: MatRef<'_, f64> = a.as_ref();
    matmul(gram.as_mut(), Accum::Add, a.transpose(), a, sign, Par::Seq);
}

/// The exact line search along p: the step t ∈ (0, 1] where the derivative of
/// `φ(t) = F(w + t p_w, b + t p_b)`,
///
/// ```text
/// φ'(t) = p_wᵀw + t‖p_w‖² − C Σ_i ρ_μ'(r_i − t q_i) q_i,    q_i = x_iᵀp_w + p_b,
/// ```
///
/// vanishes (t = 1 if φ'(1) ≤ 0). φ' is non-decreasing and piecewise linear, so a Newton
/// step on it (slope `‖p_w‖² + (C/μ) Σ_{Q(t)} q_i²`) kept inside the bracket, else a
/// bisection, ends in the right piece after a few evaluations. `pw` = (p_wᵀw, ‖p_w‖²).
fn exact_step(h: Huber, r: &[f64], q: &[f64], (pw_w, pw_pw): (f64, f64)) -> f64 {
    let deriv = |t: f64| {
        let (mut d1, mut d2) = (pw_w + t * pw_pw, pw_pw);
        for (&ri, &qi) in r.iter().zip(q) {
            let rt = ri - t * qi;
            d1 -= h.c * h.slope(rt) * qi;
            if h.region(rt).abs() == 1 {
                d2 += h.c / h.mu * qi * qi;
            }
        }
        (d1, d2)
    };
    let (mut t, (mut d1, mut d2)) = (1.0, deriv(1.0));
    if d1 <= 0.0 {
        return 1.0;
    }
    let stop = 1e-12 * deriv(0.0).0.abs().max(d1);
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..LINE_EVALS {
        if d1 > 0.0 {
            hi = t;
        } else {
            lo = t;
        }
        let newton = t - d1 / d2;
        t = if d2 > 0.0 && newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        (d1, d2) = deriv(t);
        if d1.abs() <= stop || hi - lo <= 1e-15 {
            break;
        }
    }
    t.max(f64::MIN_POSITIVE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Hessian kept by updates equals the one formed from scratch for every pattern
    /// of a sequence whose steps add and remove a few points, rebuild on large changes.
    #[test]
    fn updated_gram_matches_the_recomputed_one() {
        let (n, d) = (60, 7);
        let mut u = crate::test_uniform(0x9e37_79b9_7f4a_7c15u64);
        let mut next = move || u() - 0.5;
        let data: Vec<f64> = (0..n * d).map(|_| next()).collect();
        let rows = Rows::new(n, d, data);
        let h = Huber {
            c: 3.0,
            eps: 0.0,
            mu: 0.01,
        };
        let mut pattern: Vec<Region> = (0..n).map(|i| (i % 3) as i8 - 1).collect();
        let mut gram = QuadGram::default();
        let mut updated = 0;
        for step in 0..40 {
            // a few points change region each step, many every tenth step
            let changes = if step % 10 == 9 { 30 } else { 3 };
            for _ in 0..changes {
                let i = ((next() + 0.5) * n as f64) as usize % n;
                pattern[i] = [-2, -1, 0, 1, 2][((next() + 0.5) * 5.0) as usize % 5];
            }
            let kept = gram.hessian(&rows, &pattern, h);
            updated += usize::from(gram.updates > 0);
            let fresh = QuadGram::default().hessian(&rows, &pattern, h);
            for i in 0..=d {
                for j in 0..=d {
                    let (a, b) = (kept[(i, j)], fresh[(i, j)]);
                    assert!(
                        (a - b).abs() <= 1e-12 * (1.0 + b.abs()),
                        "step {step} ({i}, {j}): {a} vs {b}"
                    );
                }
            }
        }
        // most steps went through the update path, not a rebuild
        assert!(updated > 20, "only {updated} updated steps");
    }
}
