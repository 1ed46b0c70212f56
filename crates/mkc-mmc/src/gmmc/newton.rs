//! One Newton step of the barrier method (module `barrier`): the iterate, the barrier
//! objective's change along a direction, and the Newton direction.
//!
//! The ξ-part of (D1) is kept smooth by its own multiplier: `h_C(γ) = max_{η ≥ 0}
//! C − η − (C − η)²/(4γ)` (η is the multiplier of `s ≤ 1`; the maximiser `η = (C − 2γ)₊`
//! gives back `h_C`), so the barrier objective is
//! `φ_t = Σ_i [C − η_i − (C − η_i)²/(4γ_i) + t log γ_i + t log η_i] − νβ² + t log det S`,
//! smooth in (γ, η, ν) (`h_C` itself has a jump in its second derivative at C/2, which
//! stalls Newton's method when many γ_i sit there). With `u = C − η`, the centring
//! conditions say `a_iᵀZa_i = s_i² + t/γ_i` and `s_i = u_i/(2γ_i) = 1 − t/η_i` for
//! `Z = tS⁻¹`: the central gap is `t (m + 2n)`.
//!
//! Newton system: with `S = LLᵀ`, `B = A L⁻ᵀ`, `P = BBᵀ`, `w = L⁻¹e_b`, `q = Bw`, the
//! negated Hessian is `t P∘P + diag(u²/(2γ³) + t/γ²)` in γ, `u/(2γ²)` between γ_i and
//! η_i, `1/(2γ) + t/η²` in η, `−t q∘q` between γ and ν and `t ‖w‖⁴` in ν. η is
//! eliminated per sample (its block is diagonal), leaving a dense (n+1) x (n+1) system
//! solved by Cholesky (sequential, so results do not depend on the thread count).

use super::barrier::DualPoint;
use super::relaxation::Relaxation;
use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::{
    solve_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{Error, Result};

/// The barrier method's iterate: (γ, η, ν), all in the open domain.
#[derive(Clone, Debug)]
pub(crate) struct Iterate {
    pub gamma: Vec<f64>,
    pub eta: Vec<f64>,
    pub nu: f64,
}

impl Iterate {
    /// From a dual point, with `η_i = max(C − 2γ_i, C/10)` (> 0).
    pub fn from_dual(rel: &Relaxation, p: &DualPoint) -> Self {
        let c = rel.c;
        let eta = p.gamma.iter().map(|g| (c - 2.0 * g).max(0.1 * c)).collect();
        Self {
            gamma: p.gamma.clone(),
            eta,
            nu: p.nu,
        }
    }

    /// The dual point (γ, ν).
    pub fn dual_point(&self) -> DualPoint {
        DualPoint {
            gamma: self.gamma.clone(),
            nu: self.nu,
        }
    }

    /// Move by `alpha · dir` (dir = [Δγ (n), Δη (n), Δν]).
    pub fn step(&mut self, dir: &[f64], alpha: f64) {
        let n = self.gamma.len();
        for i in 0..n {
            self.gamma[i] += alpha * dir[i];
            self.eta[i] += alpha * dir[n + i];
        }
        self.nu += alpha * dir[2 * n];
    }
}

/// Cholesky factor (lower) of a symmetric matrix, sequential; `None` if not PD.
pub(crate) fn cholesky(s: &Mat<f64>) -> Option<Mat<f64>> {
    let n = s.nrows();
    let mut l = mkc_linalg::cholesky_lower(s.clone()).ok()?;
    for j in 0..n {
        for i in 0..j {
            l[(i, j)] = 0.0;
        }
    }
    Some(l)
}

/// `L⁻¹ X` for lower-triangular L.
pub(crate) fn lower_solve(l: &Mat<f64>, x: MatRef<'_, f64>) -> Mat<f64> {
    let mut out = x.to_owned();
    solve_lower_triangular_in_place(l.as_ref(), out.as_mut(), Par::Seq);
    out
}

/// The Cholesky factor of `S(γ, ν)` if the iterate is in the domain (γ, η > 0, S ≻ 0).
pub(crate) fn domain(rel: &Relaxation, it: &Iterate) -> Option<Mat<f64>> {
    let positive = |v: &[f64]| v.iter().all(|&x| x > 0.0 && x.is_finite());
    if !(positive(&it.gamma) && positive(&it.eta) && it.nu.is_finite()) {
        return None;
    }
    cholesky(&rel.slack(&it.gamma, it.nu))
}

/// `φ_t(it + α dir) − φ_t(it)` from differences (the line search still sees changes far
/// below the rounding of φ itself), or `None` outside the domain. `l` factors `S(it)`;
/// `log det S' − log det S = log det(I + M)`, `M = L⁻¹(S' − S)L⁻ᵀ`.
pub(crate) fn barrier_change(
    rel: &Relaxation,
    it: &Iterate,
    dir: &[f64],
    alpha: f64,
    t: f64,
    l: &Mat<f64>,
) -> Option<f64> {
    let (n, m, c) = (rel.n(), rel.m(), rel.c);
    let mut change = -alpha * dir[2 * n] * rel.beta * rel.beta;
    for i in 0..n {
        let (g, dg) = (it.gamma[i], alpha * dir[i]);
        let (e, de) = (it.eta[i], alpha * dir[n + i]);
        let (rg, re) = (dg / g, de / e);
        if rg.is_nan() || re.is_nan() || rg <= -1.0 || re <= -1.0 {
            return None;
        }
        // Δ[−u²/(4γ)] with u = C − η, du = −Δη, without cancellation.
        let (u, du) = (c - e, -de);
        let quad = -(2.0 * u * du * g + du * du * g - u * u * dg) / (4.0 * g * (g + dg));
        change += -de + quad + t * (rg.ln_1p() + re.ln_1p());
    }
    // S' − S = αΔν e_b e_bᵀ − Σ αΔγ_i a_i a_iᵀ.
    let root = Mat::from_fn(n, m, |i, j| rel.a[(i, j)] * (alpha * dir[i]).abs().sqrt());
    let signed = Mat::from_fn(n, m, |i, j| {
        if dir[i] > 0.0 {
            -root[(i, j)]
        } else {
            root[(i, j)]
        }
    });
    let mut ds = Mat::<f64>::zeros(m, m);
    matmul(
        ds.as_mut(),
        Accum::Replace,
        root.transpose(),
        signed.as_ref(),
        1.0,
        Par::Seq,
    );
    ds[(m - 1, m - 1)] += alpha * dir[2 * n];
    let half = lower_solve(l, ds.as_ref());
    let full = lower_solve(l, half.transpose());
    let mut shifted = Mat::from_fn(m, m, |i, j| 0.5 * (full[(i, j)] + full[(j, i)]));
    for i in 0..m {
        shifted[(i, i)] += 1.0;
    }
    let f = cholesky(&shifted)?;
    let logdet: f64 = (0..m).map(|i| 2.0 * (f[(i, i)] - 1.0).ln_1p()).sum();
    let total = change + t * logdet;
    total.is_finite().then_some(total)
}

/// A Newton step's ingredients: the gradient of `φ_t` (2n + 1 entries), the ascent
/// direction, and the primal cost of the centring residuals (see `barrier`).
pub(crate) struct NewtonStep {
    pub grad: Vec<f64>,
    pub dir: Vec<f64>,
    pub residual_cost: f64,
}

/// The Newton direction at `it`, given the factor `l` of `S(it)`.
pub(crate) fn newton_step(
    rel: &Relaxation,
    it: &Iterate,
    t: f64,
    l: &Mat<f64>,
) -> Result<NewtonStep> {
    let (n, m, c) = (rel.n(), rel.m(), rel.c);
    // Bᵀ = L⁻¹Aᵀ (m x n); w = L⁻¹e_b; P = BBᵀ into the γ-block of h.
    let bt = lower_solve(l, rel.a.transpose());
    let mut eb = Mat::<f64>::zeros(m, 1);
    eb[(m - 1, 0)] = 1.0;
    let w = lower_solve(l, eb.as_ref());
    let sbb: f64 = (0..m).map(|j| w[(j, 0)].powi(2)).sum();
    let mut h = Mat::<f64>::zeros(n + 1, n + 1);
    matmul(
        h.as_mut().submatrix_mut(0, 0, n, n),
        Accum::Replace,
        bt.transpose(),
        bt.as_ref(),
        1.0,
        Par::Seq,
    );
    let mut grad = vec![0.0; 2 * n + 1];
    let mut rhs = vec![0.0; n + 1];
    let mut elim = vec![(0.0, 0.0); n];
    let mut residual_cost = 0.0;
    for i in 0..n {
        let (g, e) = (it.gamma[i], it.eta[i]);
        let u = c - e;
        let q: f64 = (0..m).map(|j| bt[(j, i)] * w[(j, 0)]).sum();
        grad[i] = u * u / (4.0 * g * g) + t / g - t * h[(i, i)];
        grad[n + i] = -1.0 + u / (2.0 * g) + t / e;
        residual_cost += (g + c) * grad[i].abs() + e * grad[n + i].abs();
        for j in 0..n {
            h[(i, j)] = t * h[(i, j)] * h[(i, j)];
        }
        // Eliminate η_i: b = −∂²/∂γ∂η, d = −∂²/∂η².
        let b = u / (2.0 * g * g);
        let d = 1.0 / (2.0 * g) + t / (e * e);
        elim[i] = (b, d);
        h[(i, i)] += u * u / (2.0 * g * g * g) + t / (g * g) - b * b / d;
        rhs[i] = grad[i] - b * grad[n + i] / d;
        h[(i, n)] = -t * q * q;
        h[(n, i)] = h[(i, n)];
    }
    grad[2 * n] = -rel.beta * rel.beta + t * sbb;
    residual_cost += it.nu * grad[2 * n].abs();
    rhs[n] = grad[2 * n];
    h[(n, n)] = t * sbb * sbb;
    let x = solve_spd(h, &rhs)?;
    let mut dir = vec![0.0; 2 * n + 1];
    for i in 0..n {
        let (b, d) = elim[i];
        dir[i] = x[i];
        dir[n + i] = (grad[n + i] - b * x[i]) / d;
    }
    dir[2 * n] = x[n];
    Ok(NewtonStep {
        grad,
        dir,
        residual_cost,
    })
}

/// Solve `H x = r` for symmetric positive definite H (a tiny ridge if rounding made it
/// indefinite).
fn solve_spd(mut h: Mat<f64>, r: &[f64]) -> Result<Vec<f64>> {
    let k = h.nrows();
    let f = cholesky(&h).or_else(|| {
        let ridge = 1e-12 * (0..k).map(|i| h[(i, i)]).fold(0.0, f64::max);
        for i in 0..k {
            h[(i, i)] += ridge;
        }
        cholesky(&h)
    });
    let f = f.ok_or_else(|| Error::numerical("GMMC Newton system", "not positive definite"))?;
    let mut x = lower_solve(&f, Mat::from_fn(k, 1, |i, _| r[i]).as_ref());
    solve_upper_triangular_in_place(f.transpose(), x.as_mut(), Par::Seq);
    Ok((0..k).map(|i| x[(i, 0)]).collect())
}

/// The primal moment matrix `Z = t S⁻¹ = t L⁻ᵀL⁻¹`, balance repaired.
pub(crate) fn moment_matrix(rel: &Relaxation, l: &Mat<f64>, t: f64) -> Mat<f64> {
    let m = l.nrows();
    let linv = lower_solve(l, Mat::<f64>::identity(m, m).as_ref());
    let mut z = Mat::<f64>::zeros(m, m);
    matmul(
        z.as_mut(),
        Accum::Replace,
        linv.transpose(),
        linv.as_ref(),
        t,
        Par::Seq,
    );
    rel.repair_balance(&mut z);
    z
}
