//! The gating step of LMKKM: with H fixed, the convex QP
//!
//! `min_Θ f(Θ) = Σ_m θ_mᵀ A_m θ_m`, `A_m = (I − HHᵀ) ∘ K_m`, every row of Θ on the
//! probability simplex,
//!
//! (Gönen & Margolin 2014, the Θ-step of their Algorithm; A_m is PSD by the Schur product
//! theorem). The authors hand MOSEK the dense (nP) x (nP) matrix
//! `blockdiag_m(Diag(diag K_m) − (HHᵀ) ∘ K_m)`; here A is only applied, never formed:
//! `A_m θ = diag(K_m) ∘ θ − Σ_c h_c ∘ (K_m (h_c ∘ θ))`, i.e. one product of K_m with the
//! n x k matrix `Diag(θ) H` per kernel ([`GatingOperator::apply`]), in row blocks so the
//! result does not depend on the number of threads.
//!
//! Solver: FISTA (Beck & Teboulle 2009) with the row-wise Euclidean projection onto the
//! simplex (sort-based, [`project_simplex`]), warm-started from the previous Θ, with
//! gradient-based adaptive restart (O'Donoghue & Candès 2015) and backtracking on the
//! step 1/L. L starts at 2 × 1.05 × an estimate of `max_m λ_max(A_m)` by power
//! iteration, or, when the caller passes the L of a previous QP (the next Θ step of the
//! alternation, whose H has moved little), at half of it; backtracking doubles it
//! whenever the quadratic upper bound fails. The gradient at the extrapolated point comes free from linearity,
//! `A y = (1 + β) A x_k − β A x_{k−1}`, so each iteration costs one application of A.
//! Stops when the projected-gradient step `max |Θ − Π(Θ − ∇f/L)|` (in units of Θ, which
//! lies in [0, 1], with the current step 1/L) falls below `tol`, or after `max_iter`
//! iterations; the last iterate is returned unless f is above its value at the warm
//! start (then the start), so f never increases from one Θ step to the next.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatMut, MatRef, Par};
use mkc_core::{Error, Result};
use rayon::prelude::*;

/// Rows per block of the kernel products (each block sequential, blocks in parallel).
const ROWS: usize = 128;

/// The linear operator `Θ ↦ (A_m θ_m)_m` of the gating QP for fixed kernels and H.
pub struct GatingOperator<'a> {
    kernels: &'a [MatRef<'a, f64>],
    h: MatRef<'a, f64>,
}

impl<'a> GatingOperator<'a> {
    /// The operator for kernels `K_m` (n x n, symmetric) and H (n x k).
    pub fn new(kernels: &'a [MatRef<'a, f64>], h: MatRef<'a, f64>) -> Self {
        Self { kernels, h }
    }

    /// `out[:, m] = A_m θ_m = diag(K_m) ∘ θ_m − rowsum(H ∘ (K_m Diag(θ_m) H))`.
    pub fn apply(&self, theta: MatRef<'_, f64>, mut out: MatMut<'_, f64>) {
        let (n, k) = self.h.shape();
        for (m, km) in self.kernels.iter().enumerate() {
            let t = Mat::from_fn(n, k, |i, c| theta[(i, m)] * self.h[(i, c)]);
            let rows: Vec<(usize, Vec<f64>)> = (0..n.div_ceil(ROWS))
                .into_par_iter()
                .map(|b| {
                    let (r0, r1) = (b * ROWS, ((b + 1) * ROWS).min(n));
                    let mut u = Mat::<f64>::zeros(r1 - r0, k);
                    let block = km.subrows(r0, r1 - r0);
                    matmul(u.as_mut(), Accum::Replace, block, t.as_ref(), 1.0, Par::Seq);
                    let vals = (r0..r1)
                        .map(|i| {
                            let hu: f64 = (0..k).map(|c| self.h[(i, c)] * u[(i - r0, c)]).sum();
                            km[(i, i)] * theta[(i, m)] - hu
                        })
                        .collect();
                    (r0, vals)
                })
                .collect();
            for (r0, vals) in rows {
                for (d, v) in vals.into_iter().enumerate() {
                    out[(r0 + d, m)] = v;
                }
            }
        }
    }

    /// `A Θ` as a new matrix.
    pub fn applied(&self, theta: MatRef<'_, f64>) -> Mat<f64> {
        let mut out = Mat::<f64>::zeros(theta.nrows(), theta.ncols());
        self.apply(theta, out.as_mut());
        out
    }

    /// An estimate of `max_m λ_max(A_m)` (the largest eigenvalue of the block-diagonal
    /// operator) by `iters` power iterations from a fixed positive start.
    pub fn largest_eigenvalue(&self, iters: usize) -> f64 {
        let (n, p) = (self.h.nrows(), self.kernels.len());
        let mut x = Mat::from_fn(n, p, |i, m| 1.0 + ((i * 7 + m * 13) % 11) as f64 / 11.0);
        let mut lambda = 0.0;
        for _ in 0..iters.max(1) {
            let norm = x.norm_l2();
            if norm.is_nan() || norm <= 0.0 {
                return 0.0;
            }
            x /= faer::Scale(norm);
            let y = self.applied(x.as_ref());
            lambda = inner_product(x.as_ref(), y.as_ref());
            x = y;
        }
        lambda.max(0.0)
    }
}

/// `tr(Aᵀ B)` for matrices of the same shape.
pub fn inner_product(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> f64 {
    let mut s = 0.0;
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            s += a[(i, j)] * b[(i, j)];
        }
    }
    s
}

/// The Euclidean projection of `v` onto the probability simplex `{x ≥ 0, Σ x = 1}`
/// (sort-based: the threshold τ with `Σ max(v_i − τ, 0) = 1`).
pub fn project_simplex(v: &mut [f64]) {
    let mut u: Vec<f64> = v.to_vec();
    u.sort_by(|a, b| b.total_cmp(a));
    let (mut cum, mut tau) = (0.0, 0.0);
    for (j, &uj) in u.iter().enumerate() {
        cum += uj;
        let t = (cum - 1.0) / (j + 1) as f64;
        if uj - t > 0.0 {
            tau = t;
        }
    }
    for x in v.iter_mut() {
        *x = (*x - tau).max(0.0);
    }
}

/// Every row of `theta` projected onto the simplex.
fn project_rows(mut theta: MatMut<'_, f64>) {
    let p = theta.ncols();
    let mut row = vec![0.0; p];
    for i in 0..theta.nrows() {
        for (m, r) in row.iter_mut().enumerate() {
            *r = theta[(i, m)];
        }
        project_simplex(&mut row);
        for (m, r) in row.iter().enumerate() {
            theta[(i, m)] = *r;
        }
    }
}

/// `Π(x − g/L)` for the gradient `g = 2 A x` given as `ax = A x`.
fn prox_step(x: MatRef<'_, f64>, ax: MatRef<'_, f64>, l: f64) -> Mat<f64> {
    let mut z = Mat::from_fn(x.nrows(), x.ncols(), |i, m| {
        x[(i, m)] - 2.0 * ax[(i, m)] / l
    });
    project_rows(z.as_mut());
    z
}

/// The largest entry of `|x − Π(x − ∇f(x)/L)|`: zero exactly at the minimiser.
pub fn kkt_residual(x: MatRef<'_, f64>, ax: MatRef<'_, f64>, l: f64) -> f64 {
    let z = prox_step(x, ax, l);
    (&z - x).norm_max()
}

/// Settings of the gating QP solver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GatingSolver {
    /// Stop at a projected-gradient step below this. Default 1e-6.
    pub tol: f64,
    /// Iteration cap per QP. Default 500.
    pub max_iter: usize,
    /// Power iterations for the step size. Default 20.
    pub power_iters: usize,
}

impl Default for GatingSolver {
    fn default() -> Self {
        Self {
            tol: 1e-6,
            max_iter: 500,
            power_iters: 20,
        }
    }
}

/// What one gating QP did.
#[derive(Clone, Debug, PartialEq)]
pub struct GatingSolution {
    /// The minimiser found (rows on the simplex).
    pub theta: Mat<f64>,
    /// `f(Θ)` at it.
    pub value: f64,
    /// FISTA iterations (applications of A, power iterations excluded).
    pub iterations: usize,
    /// The final projected-gradient step (`kkt_residual`).
    pub residual: f64,
    /// Whether `residual < tol` before `max_iter`.
    pub converged: bool,
    /// The Lipschitz estimate L the run ended with (a start for the next QP).
    pub lipschitz: f64,
}

impl GatingSolver {
    /// Minimise f over row-simplex Θ from the feasible `start` (module docs); `lipschitz`
    /// is the L of a previous, similar QP (None: estimated by power iteration).
    pub fn solve(
        &self,
        op: &GatingOperator<'_>,
        start: MatRef<'_, f64>,
        lipschitz: Option<f64>,
    ) -> Result<GatingSolution> {
        let mut l = match lipschitz {
            Some(l) => 0.5 * l,
            None => 2.0 * 1.05 * op.largest_eigenvalue(self.power_iters),
        };
        if !(l.is_finite()) {
            return Err(Error::numerical("LMKKM", "non-finite step size"));
        }
        l = l.max(f64::MIN_POSITIVE.sqrt());
        let mut x = start.to_owned();
        let mut ax = op.applied(x.as_ref());
        let fx = inner_product(x.as_ref(), ax.as_ref());
        let (mut y, mut ay, mut t) = (x.clone(), ax.clone(), 1.0f64);
        let first = (x.clone(), ax.clone(), fx);
        let mut residual = kkt_residual(x.as_ref(), ax.as_ref(), l);
        let mut iterations = 0;
        while residual >= self.tol && iterations < self.max_iter {
            iterations += 1;
            let fy = inner_product(y.as_ref(), ay.as_ref());
            let (xn, axn, fxn) = loop {
                let xn = prox_step(y.as_ref(), ay.as_ref(), l);
                let axn = op.applied(xn.as_ref());
                let fxn = inner_product(xn.as_ref(), axn.as_ref());
                let d = &xn - &y;
                // f(x⁺) ≤ f(y) + ⟨∇f(y), x⁺ − y⟩ + L/2 ‖x⁺ − y‖² (∇f = 2A)
                let bound = fy
                    + 2.0 * inner_product(ay.as_ref(), d.as_ref())
                    + 0.5 * l * d.squared_norm_l2();
                if fxn <= bound + 1e-12 * fy.abs().max(1.0) || l > 1e300 {
                    break (xn, axn, fxn);
                }
                l *= 2.0;
            };
            if !fxn.is_finite() {
                return Err(Error::numerical("LMKKM", "non-finite gating objective"));
            }
            let t_next = 0.5 * (1.0 + (1.0 + 4.0 * t * t).sqrt());
            // gradient restart: momentum only while it points downhill
            let restart = inner_product((&y - &xn).as_ref(), (&xn - &x).as_ref()) > 0.0;
            let beta = if restart { 0.0 } else { (t - 1.0) / t_next };
            t = if restart { 1.0 } else { t_next };
            y = &xn + (&xn - &x) * faer::Scale(beta);
            ay = &axn + (&axn - &ax) * faer::Scale(beta);
            residual = kkt_residual(xn.as_ref(), axn.as_ref(), l);
            (x, ax) = (xn, axn);
        }
        // the last iterate, unless it is worse than the start (then the start)
        let fx = inner_product(x.as_ref(), ax.as_ref());
        let mut last = (x, ax, fx);
        if last.2 > first.2 {
            residual = kkt_residual(first.0.as_ref(), first.1.as_ref(), l);
            last = first;
        }
        Ok(GatingSolution {
            theta: last.0,
            value: last.2,
            iterations,
            residual,
            converged: residual < self.tol,
            lipschitz: l,
        })
    }
}
