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
//!
//! Work per step ([`Workspace`]): the Cholesky factorisation reads only the lower triangle
//! of the system, so only that triangle of `P = BBᵀ` (and of `S(γ, ν)` in [`domain`]) is
//! computed, by faer's lower-triangular product, whose entries are those of the full
//! product bit for bit (the same kernel and depth blocking; tested); the system is built
//! and factored in place, column by column, in a matrix kept across the steps of a solve
//! (it was allocated, zeroed, copied for the factorisation and filled row-wise, against
//! its column-major layout, at every step). German credit (n = 1000, C = 1, ℓ = 0.3n;
//! `gmmc_quickstart`, loaded machine): the same Newton steps, iterates and labels, the SDP
//! 4.5 -> 2.0 s on the linear kernel (r = 20) and 24.2 -> 14.4 s on the Gaussian one
//! (r = 300).

use super::barrier::DualPoint;
use super::relaxation::Relaxation;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt;
use faer::linalg::matmul::matmul;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::linalg::triangular_solve::{
    solve_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::{Accum, Mat, MatMut, MatRef, Par};
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

/// Scratch space of a solve's Newton steps and line searches, sized for one relaxation
/// (n samples, m = r + 1): reused from step to step instead of allocated (and, for the
/// (n+1)² system, zeroed and copied) at every one.
pub(crate) struct Workspace {
    /// `Bᵀ = L⁻¹Aᵀ` (m x n).
    bt: Mat<f64>,
    /// The Newton system (n+1 square): its lower triangle, then its Cholesky factor.
    h: Mat<f64>,
    /// `P_ii`, the diagonal of `P = BBᵀ`.
    p_diag: Vec<f64>,
    /// `√γ_i a_i` by rows ([`domain`]); `√|αΔγ_i| a_i` ([`barrier_change`]).
    root: Mat<f64>,
    /// `−sign(Δγ_i) √|αΔγ_i| a_i` ([`barrier_change`]).
    signed: Mat<f64>,
    /// The factorisations' scratch (n + 1 and m square).
    stack: MemBuffer,
}

impl Workspace {
    /// Space for the relaxation `rel`.
    pub(crate) fn new(rel: &Relaxation) -> Self {
        let (n, m) = (rel.n(), rel.m());
        Self {
            bt: Mat::zeros(m, n),
            h: Mat::zeros(n + 1, n + 1),
            p_diag: vec![0.0; n],
            root: Mat::zeros(n, m),
            signed: Mat::zeros(n, m),
            stack: MemBuffer::new(llt::factor::cholesky_in_place_scratch::<f64>(
                (n + 1).max(m),
                Par::Seq,
                Default::default(),
            )),
        }
    }
}

#[cfg(test)]
impl Workspace {
    /// Fill the system's strict upper triangle with NaN (tests: it must never be read).
    pub(crate) fn poison_upper(&mut self) {
        let k = self.h.nrows();
        for j in 1..k {
            for i in 0..j {
                self.h[(i, j)] = f64::NAN;
            }
        }
    }
}

/// Factor `a` in place (lower Cholesky factor, as [`mkc_linalg::cholesky_lower`]: the
/// same sequential faer factorisation, which reads only the lower triangle and leaves the
/// strict upper triangle as it was); false if `a` is not numerically positive definite.
fn factor_in_place(a: MatMut<'_, f64>, stack: &mut MemBuffer) -> bool {
    llt::factor::cholesky_in_place(
        a,
        Default::default(),
        Par::Seq,
        MemStack::new(stack),
        Default::default(),
    )
    .is_ok()
}

/// Products of at most this many multiply-adds go through [`matmul`] whole: faer runs
/// them with another kernel (nano-gemm) than the lower-triangular product.
const SMALL_PRODUCT: usize = 16 * 16 * 16;

/// The lower triangle of `out ← α lhsᵀ rhs` (lhs, rhs: k x p; out p x p): the entries
/// [`matmul`] gives for the full product, bit for bit, at about half its cost for
/// large products (faer's lower-triangular product runs the same kernel with the same
/// depth blocking; `newton_tests` compare them). The strict upper triangle of `out` is
/// not written, except for small products (computed whole by [`matmul`]).
pub(crate) fn lower_product(
    out: MatMut<'_, f64>,
    lhs: MatRef<'_, f64>,
    rhs: MatRef<'_, f64>,
    alpha: f64,
) {
    let (k, p) = (lhs.nrows(), lhs.ncols());
    if p <= 1 || p * p * k <= SMALL_PRODUCT {
        matmul(out, Accum::Replace, lhs.transpose(), rhs, alpha, Par::Seq);
        return;
    }
    triangular::matmul(
        out,
        BlockStructure::TriangularLower,
        Accum::Replace,
        lhs.transpose(),
        BlockStructure::Rectangular,
        rhs,
        BlockStructure::Rectangular,
        alpha,
        Par::Seq,
    );
}

/// The Cholesky factor of `S(γ, ν)` if the iterate is in the domain (γ, η > 0, S ≻ 0):
/// [`cholesky`] of [`Relaxation::slack`] bit for bit, from the lower triangle of S only.
pub(crate) fn domain(rel: &Relaxation, it: &Iterate, ws: &mut Workspace) -> Option<Mat<f64>> {
    let positive = |v: &[f64]| v.iter().all(|&x| x > 0.0 && x.is_finite());
    if !(positive(&it.gamma) && positive(&it.eta) && it.nu.is_finite()) {
        return None;
    }
    let (n, m) = (rel.n(), rel.m());
    let scaled = &mut ws.root;
    for j in 0..m {
        for i in 0..n {
            scaled[(i, j)] = it.gamma[i].max(0.0).sqrt() * rel.a[(i, j)];
        }
    }
    let mut s = Mat::<f64>::zeros(m, m);
    lower_product(s.as_mut(), scaled.as_ref(), scaled.as_ref(), -1.0);
    for j in 0..m - 1 {
        s[(j, j)] += 0.5;
    }
    s[(m - 1, m - 1)] += it.nu;
    if !factor_in_place(s.as_mut(), &mut ws.stack) {
        return None;
    }
    for j in 1..m {
        for i in 0..j {
            s[(i, j)] = 0.0;
        }
    }
    Some(s)
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
    ws: &mut Workspace,
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
    let (root, signed) = (&mut ws.root, &mut ws.signed);
    for j in 0..m {
        for i in 0..n {
            let r = rel.a[(i, j)] * (alpha * dir[i]).abs().sqrt();
            root[(i, j)] = r;
            signed[(i, j)] = if dir[i] > 0.0 { -r } else { r };
        }
    }
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
    ws: &mut Workspace,
) -> Result<NewtonStep> {
    let (n, m, c) = (rel.n(), rel.m(), rel.c);
    // Bᵀ = L⁻¹Aᵀ (m x n); w = L⁻¹e_b; q = Bw.
    ws.bt.copy_from(rel.a.transpose());
    solve_lower_triangular_in_place(l.as_ref(), ws.bt.as_mut(), Par::Seq);
    let mut eb = Mat::<f64>::zeros(m, 1);
    eb[(m - 1, 0)] = 1.0;
    let w = lower_solve(l, eb.as_ref());
    let sbb: f64 = (0..m).map(|j| w[(j, 0)].powi(2)).sum();
    // What the system needs of every sample besides P: the η-elimination (b, d), the
    // diagonal's other terms and the ν-column entry.
    let mut elim = vec![(0.0, 0.0); n];
    let mut diag = vec![0.0; n];
    let mut nu_col = vec![0.0; n];
    for i in 0..n {
        let (g, e) = (it.gamma[i], it.eta[i]);
        let u = c - e;
        let q: f64 = (0..m).map(|j| ws.bt[(j, i)] * w[(j, 0)]).sum();
        // Eliminate η_i: b = −∂²/∂γ∂η, d = −∂²/∂η².
        let b = u / (2.0 * g * g);
        let d = 1.0 / (2.0 * g) + t / (e * e);
        elim[i] = (b, d);
        diag[i] = u * u / (2.0 * g * g * g) + t / (g * g) - b * b / d;
        nu_col[i] = -t * q * q;
    }
    let system = System {
        t,
        sbb,
        diag: &diag,
        nu_col: &nu_col,
    };
    system.build(ws);
    let mut grad = vec![0.0; 2 * n + 1];
    let mut rhs = vec![0.0; n + 1];
    let mut residual_cost = 0.0;
    for i in 0..n {
        let (g, e) = (it.gamma[i], it.eta[i]);
        let u = c - e;
        grad[i] = u * u / (4.0 * g * g) + t / g - t * ws.p_diag[i];
        grad[n + i] = -1.0 + u / (2.0 * g) + t / e;
        residual_cost += (g + c) * grad[i].abs() + e * grad[n + i].abs();
        let (b, d) = elim[i];
        rhs[i] = grad[i] - b * grad[n + i] / d;
    }
    grad[2 * n] = -rel.beta * rel.beta + t * sbb;
    residual_cost += it.nu * grad[2 * n].abs();
    rhs[n] = grad[2 * n];
    let x = system.solve(ws, &rhs)?;
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

/// The negated Hessian with η eliminated (module docs), from `Bᵀ` in the workspace and
/// the terms that do not involve P: `t P∘P + diag`, `nu_col` in the ν-row and `t ‖w‖⁴`
/// (`sbb = ‖w‖²`) in the corner.
struct System<'a> {
    t: f64,
    sbb: f64,
    diag: &'a [f64],
    nu_col: &'a [f64],
}

impl System<'_> {
    /// The lower triangle of the system into `ws.h`, and `P_ii` into `ws.p_diag`.
    fn build(&self, ws: &mut Workspace) {
        let n = self.diag.len();
        let t = self.t;
        lower_product(
            ws.h.as_mut().submatrix_mut(0, 0, n, n),
            ws.bt.as_ref(),
            ws.bt.as_ref(),
            1.0,
        );
        let h = &mut ws.h;
        for i in 0..n {
            ws.p_diag[i] = h[(i, i)];
        }
        for j in 0..n {
            for i in j..n {
                h[(i, j)] = t * h[(i, j)] * h[(i, j)];
            }
        }
        for i in 0..n {
            h[(i, i)] += self.diag[i];
            h[(n, i)] = self.nu_col[i];
        }
        h[(n, n)] = t * self.sbb * self.sbb;
    }

    /// Solve the system (built in `ws.h`) for `r`, factoring it in place; if rounding
    /// made it indefinite, rebuild it with a tiny ridge (1e-12 of its largest diagonal
    /// entry) and factor again.
    fn solve(&self, ws: &mut Workspace, r: &[f64]) -> Result<Vec<f64>> {
        let k = ws.h.nrows();
        if !factor_in_place(ws.h.as_mut(), &mut ws.stack) {
            self.build(ws);
            let ridge = 1e-12 * (0..k).map(|i| ws.h[(i, i)]).fold(0.0, f64::max);
            for i in 0..k {
                ws.h[(i, i)] += ridge;
            }
            if !factor_in_place(ws.h.as_mut(), &mut ws.stack) {
                return Err(Error::numerical(
                    "GMMC Newton system",
                    "not positive definite",
                ));
            }
        }
        let mut x = Mat::from_fn(k, 1, |i, _| r[i]);
        solve_lower_triangular_in_place(ws.h.as_ref(), x.as_mut(), Par::Seq);
        solve_upper_triangular_in_place(ws.h.transpose(), x.as_mut(), Par::Seq);
        Ok((0..k).map(|i| x[(i, 0)]).collect())
    }
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
