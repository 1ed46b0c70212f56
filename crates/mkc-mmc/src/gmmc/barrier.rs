//! The interior-point solver of the GMMC relaxation: a log-barrier method on the dual
//! (D1) with damped Newton steps (Boyd & Vandenberghe, *Convex Optimization*, 2004,
//! Section 11.3), in the n + 1 dual variables (γ, ν) and an m x m LMI.
//!
//! For t > 0 it maximises `φ_t = Σ h_C(γ_i) − νβ² + t (log det S(γ, ν) + Σ log γ_i)`.
//! At the maximiser ("central point") `Z = t S⁻¹` is feasible for (P1) with
//! `a_iᵀZa_i = h_C'(γ_i) + t/γ_i ≥ s_i²` and `Z_bb = β²`, and the duality gap is
//! exactly `t (m + n)`; t shrinks by [`BarrierSolver::shrink`] per round. The gap is
//! certified at the end of every round from the actual iterates: (γ, ν) with S ≻ 0 is
//! dual feasible, and Z (its bias row scaled if the balance is exceeded) primal
//! feasible, so `primal(Z) − dual(γ, ν)` bounds the distance of both to the optimum.
//!
//! Newton system: with `S = LLᵀ`, `B = A L⁻ᵀ`, `P = BBᵀ = A S⁻¹ Aᵀ`, `w = L⁻¹e_b`,
//! `q = Bw`, the negated Hessian is `t P∘P + diag(t/γ_i² − h_C''(γ_i))` in γ, `−t q∘q`
//! between γ and ν and `t ‖w‖⁴` in ν: dense (n+1) x (n+1), solved by Cholesky
//! (O(n²m + n³) per step, sequential so results do not depend on the thread count).

use super::relaxation::Relaxation;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt;
use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::solve_lower_triangular_in_place;
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{Error, Result};

/// Why the barrier method stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The certified duality gap met [`BarrierSolver::gap_tol`].
    Gap,
    /// The Newton-step cap [`BarrierSolver::max_newton`] was reached.
    MaxNewton,
    /// The line search found no step that improves the barrier objective, or a round
    /// did not centre in 50 Newton steps: the iterate is as accurate as the arithmetic
    /// allows (the best certified point is returned).
    Stalled,
}

impl StopReason {
    /// A number for run records: 0 gap, 1 Newton cap, 2 stalled.
    pub fn code(self) -> u8 {
        match self {
            StopReason::Gap => 0,
            StopReason::MaxNewton => 1,
            StopReason::Stalled => 2,
        }
    }
}

/// A strictly feasible point of the dual (D1): γ > 0 and ν with `S(γ, ν) ≻ 0`. The LMI
/// does not depend on C, so the point of one solve warm-starts another C.
#[derive(Clone, Debug, PartialEq)]
pub struct DualPoint {
    /// One multiplier per sample (of `(a_iᵀz)² ≥ (1 − ξ_i)²`).
    pub gamma: Vec<f64>,
    /// The multiplier of the balance `b² ≤ β²`.
    pub nu: f64,
}

/// The solution of one relaxation.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RelaxationSolution {
    /// The dual point (γ, ν), strictly feasible.
    pub dual_point: DualPoint,
    /// The primal moment matrix Z (m x m, PSD, `Z_bb ≤ β²`), the relaxation of `z zᵀ`.
    pub z: Mat<f64>,
    /// Dual objective of (D1) at the dual point: a lower bound on the optimum.
    pub dual: f64,
    /// Primal objective of (P1) at Z: an upper bound on the optimum.
    pub primal: f64,
    /// Newton steps taken.
    pub newton_steps: usize,
    /// Barrier rounds (values of t).
    pub rounds: usize,
    /// The dual objective after every round (a certified lower bound each time).
    pub trace: Vec<f64>,
    /// Why the solver stopped.
    pub stop: StopReason,
}

impl RelaxationSolution {
    /// The certified duality gap `primal − dual` (≥ 0 up to rounding).
    pub fn gap(&self) -> f64 {
        self.primal - self.dual
    }
}

/// The barrier method's stopping conditions and schedule (the solver of
/// [`crate::gmmc::GmmcParams`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BarrierSolver {
    /// Stop when the certified gap is at most `gap_tol · max(1, |dual|)` (default 1e-5).
    pub gap_tol: f64,
    /// A round ends when the Newton decrement `λ²/t` is at most this (default 1e-3).
    pub center_tol: f64,
    /// Cap on Newton steps over all rounds (default 400).
    pub max_newton: usize,
    /// Factor by which t shrinks per round, in (0, 1) (default 0.1).
    pub shrink: f64,
}

impl Default for BarrierSolver {
    fn default() -> Self {
        Self {
            gap_tol: 1e-5,
            center_tol: 1e-3,
            max_newton: 400,
            shrink: 0.1,
        }
    }
}

/// Newton steps after which a round that has not centred is taken as the arithmetic's
/// limit (the Newton system's condition grows like 1/t²): the solver stops, `Stalled`.
const ROUND_STEPS: usize = 50;

/// Cholesky factor (lower) of a symmetric matrix, sequential; `None` if not PD.
pub(crate) fn cholesky(s: &Mat<f64>) -> Option<Mat<f64>> {
    let n = s.nrows();
    let mut l = s.clone();
    let par = Par::Seq;
    let mut buf = MemBuffer::new(llt::factor::cholesky_in_place_scratch::<f64>(
        n,
        par,
        Default::default(),
    ));
    llt::factor::cholesky_in_place(
        l.as_mut(),
        Default::default(),
        par,
        MemStack::new(&mut buf),
        Default::default(),
    )
    .ok()?;
    for j in 0..n {
        for i in 0..j {
            l[(i, j)] = 0.0;
        }
    }
    Some(l)
}

/// `log det` from a Cholesky factor.
fn log_det(l: &Mat<f64>) -> f64 {
    2.0 * (0..l.nrows()).map(|i| l[(i, i)].ln()).sum::<f64>()
}

/// `L⁻¹ X` for lower-triangular L.
fn lower_solve(l: &Mat<f64>, x: MatRef<'_, f64>) -> Mat<f64> {
    let mut out = x.to_owned();
    solve_lower_triangular_in_place(l.as_ref(), out.as_mut(), Par::Seq);
    out
}

/// The barrier objective `φ_t`, or `None` outside the domain (γ ≤ 0 or S not PD),
/// with the factor of S.
fn barrier(rel: &Relaxation, p: &DualPoint, t: f64) -> Option<(f64, Mat<f64>)> {
    if p.gamma.iter().any(|&g| g <= 0.0 || !g.is_finite()) || !p.nu.is_finite() {
        return None;
    }
    let l = cholesky(&rel.slack(&p.gamma, p.nu))?;
    let logs: f64 = p.gamma.iter().map(|g| g.ln()).sum();
    let v = rel.dual_objective(&p.gamma, p.nu) + t * (log_det(&l) + logs);
    v.is_finite().then_some((v, l))
}

/// `φ_t(p + αΔ) − φ_t(p)` computed from differences (so that the line search still
/// sees changes far below the rounding of φ itself), or `None` outside the domain.
/// `l` is the Cholesky factor of `S(p)`; `log det S' − log det S = log det(I + M)` with
/// `M = L⁻¹(S' − S)L⁻ᵀ`.
fn barrier_change(
    rel: &Relaxation,
    p: &DualPoint,
    dir: &[f64],
    alpha: f64,
    t: f64,
    l: &Mat<f64>,
) -> Option<f64> {
    let (n, m) = (rel.n(), rel.m());
    let mut change = -alpha * dir[n] * rel.beta * rel.beta;
    for i in 0..n {
        let (g, step) = (p.gamma[i], alpha * dir[i]);
        let ratio = step / g;
        if !(ratio > -1.0) || !(g + step).is_finite() {
            return None;
        }
        change += rel.h_change(g, step) + t * ratio.ln_1p();
    }
    // S' − S = αΔν e_b e_bᵀ − Σ αΔ_i a_i a_iᵀ.
    let scaled = Mat::from_fn(n, m, |i, j| rel.a[(i, j)] * (alpha * dir[i]).abs().sqrt());
    let signs: Vec<f64> = (0..n)
        .map(|i| if dir[i] > 0.0 { -1.0 } else { 1.0 })
        .collect();
    let signed = Mat::from_fn(n, m, |i, j| scaled[(i, j)] * signs[i]);
    let mut ds = Mat::<f64>::zeros(m, m);
    matmul(
        ds.as_mut(),
        Accum::Replace,
        scaled.transpose(),
        signed.as_ref(),
        1.0,
        Par::Seq,
    );
    ds[(m - 1, m - 1)] += alpha * dir[n];
    let half = lower_solve(l, ds.as_ref());
    let full = lower_solve(l, half.transpose());
    let mut eye = Mat::from_fn(m, m, |i, j| 0.5 * (full[(i, j)] + full[(j, i)]));
    for i in 0..m {
        eye[(i, i)] += 1.0;
    }
    let f = cholesky(&eye)?;
    let logdet: f64 = (0..m).map(|i| 2.0 * (f[(i, i)] - 1.0).ln_1p()).sum();
    let total = change + t * logdet;
    total.is_finite().then_some(total)
}

/// The primal moment matrix `Z = t S⁻¹ = t L⁻ᵀL⁻¹`, balance repaired.
fn moment_matrix(rel: &Relaxation, l: &Mat<f64>, t: f64) -> Mat<f64> {
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

impl BarrierSolver {
    /// Check the settings.
    pub(crate) fn check(&self) -> Result<()> {
        mkc_core::validate::positive("gap_tol", self.gap_tol)?;
        mkc_core::validate::positive("center_tol", self.center_tol)?;
        mkc_core::mkc_ensure!(self.max_newton >= 1, param "max_newton", self.max_newton, "must be at least 1");
        if !(self.shrink > 0.0 && self.shrink < 1.0) {
            return Err(Error::param("shrink", self.shrink, "must lie in (0, 1)"));
        }
        Ok(())
    }

    /// A strictly feasible start: `γ_i = 1/(4‖Φ‖_F²)` (so `½I − ΦᵀD(γ)Φ ⪰ ¼I`) and
    /// `ν = 2 Σγ_i` (Φ is centred, so S is block diagonal there).
    fn start(rel: &Relaxation) -> DualPoint {
        let (n, m) = (rel.n(), rel.m());
        let fro: f64 = (0..n)
            .map(|i| (0..m - 1).map(|j| rel.a[(i, j)].powi(2)).sum::<f64>())
            .sum();
        let g = 1.0 / (4.0 * fro.max(1e-300));
        let g = g.min(0.25 * rel.c);
        DualPoint {
            gamma: vec![g; n],
            nu: 2.0 * g * n as f64 + 1e-12,
        }
    }

    /// Solve the relaxation from the standard start, or from `warm` (another C's
    /// solution) if it is strictly feasible.
    ///
    /// # Errors
    /// Invalid settings; a numerical failure of the Newton system.
    pub fn solve(&self, rel: &Relaxation, warm: Option<&DualPoint>) -> Result<RelaxationSolution> {
        self.check()?;
        let (n, m) = (rel.n(), rel.m());
        let scale = (n + m) as f64;
        let warm = warm.filter(|w| w.gamma.len() == n && barrier(rel, w, 1.0).is_some());
        let mut point = warm.cloned().unwrap_or_else(|| Self::start(rel));
        // t such that the central gap t(n + m) is about the value C·n of Z = 0 (cold), or
        // a hundredth of it (warm: the point is already near the path).
        let mut t = rel.c * n as f64 / scale * if warm.is_some() { 1e-2 } else { 1.0 };
        let mut sol = RelaxationSolution {
            dual_point: point.clone(),
            z: Mat::zeros(m, m),
            dual: f64::NEG_INFINITY,
            primal: f64::INFINITY,
            newton_steps: 0,
            rounds: 0,
            trace: Vec::new(),
            stop: StopReason::MaxNewton,
        };
        loop {
            let stalled = self.center(rel, &mut point, t, &mut sol.newton_steps)?;
            let (_, l) = barrier(rel, &point, t)
                .ok_or_else(|| Error::numerical("GMMC barrier", "iterate left the domain"))?;
            let z = moment_matrix(rel, &l, t);
            let dual = rel.dual_objective(&point.gamma, point.nu);
            let (primal, _) = rel.primal_objective(z.as_ref());
            sol.rounds += 1;
            sol.trace.push(dual);
            if primal - dual < sol.primal - sol.dual || !sol.dual.is_finite() {
                sol.dual_point = point.clone();
                sol.z = z;
                sol.dual = dual;
                sol.primal = primal;
            }
            if sol.gap() <= self.gap_tol * sol.dual.abs().max(1.0) {
                sol.stop = StopReason::Gap;
                break;
            }
            if stalled {
                sol.stop = StopReason::Stalled;
                break;
            }
            if sol.newton_steps >= self.max_newton {
                sol.stop = StopReason::MaxNewton;
                break;
            }
            t *= self.shrink;
        }
        Ok(sol)
    }

    /// Damped Newton on `φ_t` until the decrement `λ²/t ≤ center_tol`. Returns whether
    /// the line search stalled.
    fn center(
        &self,
        rel: &Relaxation,
        point: &mut DualPoint,
        t: f64,
        steps: &mut usize,
    ) -> Result<bool> {
        let n = rel.n();
        let first = *steps;
        while *steps < self.max_newton {
            if *steps - first >= ROUND_STEPS {
                return Ok(true);
            }
            let (_, l) = barrier(rel, point, t)
                .ok_or_else(|| Error::numerical("GMMC barrier", "iterate left the domain"))?;
            let (grad, dir) = newton_direction(rel, point, t, &l)?;
            let decrement: f64 = grad.iter().zip(&dir).map(|(g, d)| g * d).sum();
            // Centred enough when the decrement is small and the residuals of the
            // centrality conditions (`a_iᵀZa_i = h_C'(γ_i) + t/γ_i`, `Z_bb = β²`) cost
            // the primal at most half the central gap t(n + m).
            let resid: f64 = (0..n)
                .map(|i| (point.gamma[i] + rel.c) * grad[i].abs())
                .sum::<f64>()
                + point.nu * grad[n].abs();
            if decrement / t <= self.center_tol && resid <= 0.5 * t * (n + rel.m()) as f64 {
                return Ok(false);
            }
            *steps += 1;
            // Largest step keeping γ > 0, then backtracking (Armijo, factor ½).
            let mut alpha: f64 = 1.0;
            for i in 0..n {
                if dir[i] < 0.0 {
                    alpha = alpha.min(-0.99 * point.gamma[i] / dir[i]);
                }
            }
            let mut accepted = false;
            for _ in 0..60 {
                if let Some(change) = barrier_change(rel, point, &dir, alpha, t, &l) {
                    if change >= 0.01 * alpha * decrement {
                        for (g, d) in point.gamma.iter_mut().zip(&dir) {
                            *g += alpha * d;
                        }
                        point.nu += alpha * dir[n];
                        accepted = true;
                        break;
                    }
                }
                alpha *= 0.5;
            }
            if !accepted {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Gradient of `φ_t` and the Newton direction (ascent) at `p`, given `S = LLᵀ`.
fn newton_direction(
    rel: &Relaxation,
    p: &DualPoint,
    t: f64,
    l: &Mat<f64>,
) -> Result<(Vec<f64>, Vec<f64>)> {
    let (n, m) = (rel.n(), rel.m());
    // Bᵀ = L⁻¹Aᵀ (m x n); w = L⁻¹e_b.
    let bt = lower_solve(l, rel.a.transpose());
    let mut eb = Mat::<f64>::zeros(m, 1);
    eb[(m - 1, 0)] = 1.0;
    let w = lower_solve(l, eb.as_ref());
    let sbb: f64 = (0..m).map(|j| w[(j, 0)].powi(2)).sum();
    let q: Vec<f64> = (0..n)
        .map(|i| (0..m).map(|j| bt[(j, i)] * w[(j, 0)]).sum())
        .collect();
    let mut h = Mat::<f64>::zeros(n + 1, n + 1);
    matmul(
        h.as_mut().submatrix_mut(0, 0, n, n),
        Accum::Replace,
        bt.transpose(),
        bt.as_ref(),
        1.0,
        Par::Seq,
    );
    let mut grad = vec![0.0; n + 1];
    for i in 0..n {
        let (d1, d2) = rel.dh(p.gamma[i]);
        let gi = p.gamma[i];
        grad[i] = d1 - t * h[(i, i)] + t / gi;
        for j in 0..n {
            h[(i, j)] = t * h[(i, j)] * h[(i, j)];
        }
        h[(i, i)] += t / (gi * gi) - d2;
        h[(i, n)] = -t * q[i] * q[i];
        h[(n, i)] = h[(i, n)];
    }
    grad[n] = -rel.beta * rel.beta + t * sbb;
    h[(n, n)] = t * sbb * sbb;
    let f = cholesky(&h).or_else(|| {
        let ridge = 1e-12 * (0..=n).map(|i| h[(i, i)]).fold(0.0, f64::max);
        for i in 0..=n {
            h[(i, i)] += ridge;
        }
        cholesky(&h)
    });
    let f = f.ok_or_else(|| Error::numerical("GMMC Newton system", "not positive definite"))?;
    let g = Mat::from_fn(n + 1, 1, |i, _| grad[i]);
    let y = lower_solve(&f, g.as_ref());
    let mut x = y;
    faer::linalg::triangular_solve::solve_upper_triangular_in_place(
        f.transpose(),
        x.as_mut(),
        Par::Seq,
    );
    Ok((grad, (0..=n).map(|i| x[(i, 0)]).collect()))
}
