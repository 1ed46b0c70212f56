//! A small dense convex quadratic program in standard form,
//!
//! ```text
//! min ½ xᵀQx + cᵀx   s.t.  Ax = b,  x ≥ 0        (Q ⪰ 0, A with full row rank)
//! ```
//!
//! solved by a primal–dual interior-point method with Mehrotra's predictor–corrector
//! steps (Nocedal & Wright, *Numerical Optimization*, 2nd ed., §16.6). It is the solver
//! of CPMMC's cutting-plane dual (a few dozen variables, two equality rows): robust to
//! the rank-deficient Q of that dual, no warm start needed, and it returns the
//! multipliers, so the KKT conditions can be checked. Each iteration solves the reduced
//! Newton system `[Q + X⁻¹Z, −Aᵀ; A, 0]` by a dense LU with partial pivoting.
//!
//! Mehrotra's heuristic alone can cycle. Once the iterate is feasible, a step that does not
//! lower μ is replaced by a σ = 0.3 path-following step whose length is backtracked until
//! μ decreases and the iterate stays in a wide neighbourhood of the central path (Wright,
//! *Primal-Dual Interior-Point Methods*, SIAM 1997, ch. 5): for a QP the complementarity
//! after a step of length α is `(1 − α(1 − σ))μ + α²dxᵀQdx/N`, so an uncut step can raise
//! it (CPMMC's dual on MNIST3vs8 at C = 5 cycled so, with period 4, to the iteration cap).
//! Convergence is tested on the KKT residuals relative to the data:
//! `max(‖r_p‖∞, ‖r_d‖∞, μ) ≤ tol · (1 + max(‖c‖∞, ‖b‖∞, max|Q|))`.

use faer::linalg::solvers::Solve;
use faer::{Mat, MatRef};
use mkc_core::{Error, Result};

/// Fraction of the step to the boundary taken (keeps the iterates interior).
const STEP_FRACTION: f64 = 0.995;
/// Centring weight of the safeguard step.
const SAFE_SIGMA: f64 = 0.3;
/// γ of the wide neighbourhood `xᵢzᵢ ≥ γμ` kept by the safeguard step.
const NEIGHBOURHOOD: f64 = 1e-3;

/// The solution of a standard-form QP with its multipliers: `Qx + c − Aᵀy − z = 0`,
/// `Ax = b`, `x, z ≥ 0`, `xᵢzᵢ ≈ 0`.
#[derive(Debug, Clone)]
#[cfg_attr(not(test), allow(dead_code))] // y and z: read by the tests' KKT checks
pub(crate) struct QpSolution {
    /// Primal variables.
    pub x: Vec<f64>,
    /// Multipliers of the equality rows.
    pub y: Vec<f64>,
    /// Multipliers of the bounds `x ≥ 0`.
    pub z: Vec<f64>,
    /// Interior-point iterations.
    pub iterations: usize,
}

/// The residuals of the KKT conditions at (x, y, z): (primal ∞-norm, dual ∞-norm, mean
/// complementarity xᵀz / N).
#[cfg(test)]
pub(crate) fn kkt_residuals(
    q: MatRef<'_, f64>,
    c: &[f64],
    a: MatRef<'_, f64>,
    b: &[f64],
    s: &QpSolution,
) -> (f64, f64, f64) {
    let (rp, rd) = residuals(q, c, a, b, &s.x, &s.y, &s.z);
    let comp = dot(&s.x, &s.z) / s.x.len() as f64;
    (inf_norm(&rp), inf_norm(&rd), comp)
}

/// Solve the QP to relative tolerance `tol` in at most `max_iter` iterations. Errors:
/// [`Error::Shape`] for inconsistent sizes, [`Error::NonFinite`] for NaN data,
/// [`Error::NotConverged`] at the iteration cap, [`Error::Numerical`] when a Newton step
/// is not finite.
pub(crate) fn solve_std_qp(
    q: MatRef<'_, f64>,
    c: &[f64],
    a: MatRef<'_, f64>,
    b: &[f64],
    tol: f64,
    max_iter: usize,
) -> Result<QpSolution> {
    let (nv, p) = (c.len(), b.len());
    check_shapes(q, c, a, b)?;
    let scale = 1.0 + inf_norm(c).max(inf_norm(b)).max(max_abs(q));
    let (mut x, mut y, mut z) = (vec![1.0; nv], vec![0.0; p], vec![1.0; nv]);
    let mut worst = f64::INFINITY;
    for it in 0..max_iter {
        let (rp, rd) = residuals(q, c, a, b, &x, &y, &z);
        let mu = dot(&x, &z) / nv as f64;
        worst = inf_norm(&rp).max(inf_norm(&rd)).max(mu);
        if worst <= tol * scale {
            return Ok(QpSolution {
                x,
                y,
                z,
                iterations: it,
            });
        }
        let lu = newton_matrix(q, a, &x, &z).partial_piv_lu();
        // Predictor (affine-scaling) step: complementarity target 0.
        let rc: Vec<f64> = x.iter().zip(&z).map(|(xi, zi)| -xi * zi).collect();
        let (dxa, _, dza) = newton_step(&lu, &rp, &rd, &rc, &x, &z)?;
        let alpha = max_step(&x, &dxa).min(max_step(&z, &dza)).min(1.0);
        let mu_aff = mu_after(&x, &z, &dxa, &dza, alpha);
        let sigma = (mu_aff / mu).clamp(0.0, 1.0).powi(3);
        // Corrector: centring σμ and the second-order term ΔX_aff ΔZ_aff.
        let rc: Vec<f64> = (0..nv)
            .map(|i| -x[i] * z[i] - dxa[i] * dza[i] + sigma * mu)
            .collect();
        let (mut dx, mut dy, mut dz) = newton_step(&lu, &rp, &rd, &rc, &x, &z)?;
        let mut alpha = (STEP_FRACTION * max_step(&x, &dx).min(max_step(&z, &dz))).min(1.0);
        // Safeguard: Mehrotra's second-order term can make μ grow (and the iterates
        // cycle); then take the plain path-following step towards σ₀μ instead.
        let feasible = inf_norm(&rp).max(inf_norm(&rd)) <= 1e-8 * scale;
        if feasible && mu_after(&x, &z, &dx, &dz, alpha) > (1.0 - 0.01 * alpha) * mu {
            let rc: Vec<f64> = (0..nv).map(|i| -x[i] * z[i] + SAFE_SIGMA * mu).collect();
            (dx, dy, dz) = newton_step(&lu, &rp, &rd, &rc, &x, &z)?;
            alpha = (STEP_FRACTION * max_step(&x, &dx).min(max_step(&z, &dz))).min(1.0);
            alpha = safe_step_length(&x, &z, &dx, &dz, alpha, mu);
        }
        axpy(&mut x, alpha, &dx);
        axpy(&mut y, alpha, &dy);
        axpy(&mut z, alpha, &dz);
    }
    Err(Error::NotConverged {
        what: "CPMMC dual QP (interior point)".into(),
        iterations: max_iter,
        residual: worst / scale,
        tolerance: tol,
    })
}

fn check_shapes(q: MatRef<'_, f64>, c: &[f64], a: MatRef<'_, f64>, b: &[f64]) -> Result<()> {
    let (nv, p) = (c.len(), b.len());
    mkc_core::validate::dims("QP matrix Q", q, nv, nv)?;
    mkc_core::validate::dims("QP constraint matrix A", a, p, nv)?;
    mkc_core::validate::finite("QP matrix Q", q)?;
    mkc_core::validate::finite("QP constraint matrix A", a)?;
    mkc_core::validate::finite_slice("QP linear term c", c)?;
    mkc_core::validate::finite_slice("QP right-hand side b", b)
}

/// (r_p, r_d) = (Ax − b, Qx + c − Aᵀy − z).
fn residuals(
    q: MatRef<'_, f64>,
    c: &[f64],
    a: MatRef<'_, f64>,
    b: &[f64],
    x: &[f64],
    y: &[f64],
    z: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let nv = x.len();
    let rp = (0..b.len())
        .map(|r| (0..nv).map(|j| a[(r, j)] * x[j]).sum::<f64>() - b[r])
        .collect();
    let rd = (0..nv)
        .map(|i| {
            let qx: f64 = (0..nv).map(|j| q[(i, j)] * x[j]).sum();
            let aty: f64 = (0..b.len()).map(|r| a[(r, i)] * y[r]).sum();
            qx + c[i] - aty - z[i]
        })
        .collect();
    (rp, rd)
}

/// `[Q + diag(z/x), −Aᵀ; A, 0]`.
fn newton_matrix(q: MatRef<'_, f64>, a: MatRef<'_, f64>, x: &[f64], z: &[f64]) -> Mat<f64> {
    let (nv, p) = (x.len(), a.nrows());
    Mat::from_fn(nv + p, nv + p, |i, j| match (i < nv, j < nv) {
        (true, true) => q[(i, j)] + if i == j { z[i] / x[i] } else { 0.0 },
        (true, false) => -a[(j - nv, i)],
        (false, true) => a[(i - nv, j)],
        (false, false) => 0.0,
    })
}

/// The Newton direction for the complementarity target `Z dx + X dz = r_c`.
fn newton_step(
    lu: &faer::linalg::solvers::PartialPivLu<f64>,
    rp: &[f64],
    rd: &[f64],
    rc: &[f64],
    x: &[f64],
    z: &[f64],
) -> Result<(Vec<f64>, Vec<f64>, Vec<f64>)> {
    let nv = x.len();
    let rhs = Mat::from_fn(nv + rp.len(), 1, |i, _| {
        if i < nv {
            -rd[i] + rc[i] / x[i]
        } else {
            -rp[i - nv]
        }
    });
    let sol = lu.solve(&rhs);
    let dx: Vec<f64> = (0..nv).map(|i| sol[(i, 0)]).collect();
    let dy: Vec<f64> = (nv..nv + rp.len()).map(|i| sol[(i, 0)]).collect();
    let dz: Vec<f64> = (0..nv).map(|i| (rc[i] - z[i] * dx[i]) / x[i]).collect();
    if dx.iter().chain(&dy).chain(&dz).any(|v| !v.is_finite()) {
        return Err(Error::Numerical {
            what: "CPMMC dual QP (interior point)".into(),
            reason: "the Newton system is singular".into(),
        });
    }
    Ok((dx, dy, dz))
}

/// The largest α with v + α·d ≥ 0 (∞ when no entry of d is negative).
fn max_step(v: &[f64], d: &[f64]) -> f64 {
    v.iter()
        .zip(d)
        .filter(|(_, di)| **di < 0.0)
        .map(|(vi, di)| -vi / di)
        .fold(f64::INFINITY, f64::min)
}

/// Backtrack the safeguard step from `alpha` until μ decreases (`μ(α) ≤ (1 − 0.01α)μ`)
/// and the iterate stays in the wide neighbourhood `xᵢzᵢ ≥ γμ(α)` of the central path
/// (γ = `NEIGHBOURHOOD`, or half the current worst ratio when the iterate is already
/// outside): Wright's long-step path-following rule. For a QP the step's complementarity
/// is `μ(α) = (1 − α(1 − σ))μ + α² dxᵀQdx / N`, so a long step can raise μ.
fn safe_step_length(x: &[f64], z: &[f64], dx: &[f64], dz: &[f64], alpha: f64, mu: f64) -> f64 {
    let worst = |a: f64| {
        (0..x.len())
            .map(|i| (x[i] + a * dx[i]) * (z[i] + a * dz[i]))
            .fold(f64::INFINITY, f64::min)
    };
    let gamma = NEIGHBOURHOOD.min(0.5 * worst(0.0) / mu);
    let mut a = alpha;
    for _ in 0..60 {
        let mu_a = mu_after(x, z, dx, dz, a);
        if mu_a <= (1.0 - 0.01 * a) * mu && worst(a) >= gamma * mu_a {
            break;
        }
        a *= 0.5;
    }
    a
}

/// The mean complementarity `(x + α dx)ᵀ(z + α dz) / N` after a step.
fn mu_after(x: &[f64], z: &[f64], dx: &[f64], dz: &[f64], alpha: f64) -> f64 {
    (0..x.len())
        .map(|i| (x[i] + alpha * dx[i]) * (z[i] + alpha * dz[i]))
        .sum::<f64>()
        / x.len() as f64
}

fn axpy(v: &mut [f64], alpha: f64, d: &[f64]) {
    v.iter_mut().zip(d).for_each(|(vi, di)| *vi += alpha * di);
}

pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn inf_norm(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

fn max_abs(m: MatRef<'_, f64>) -> f64 {
    (0..m.ncols())
        .flat_map(|j| m.col(j).iter().copied().collect::<Vec<_>>())
        .fold(0.0, |acc, v| acc.max(v.abs()))
}
