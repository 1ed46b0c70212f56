//! The interior-point solver of the GMMC relaxation: a log-barrier method on the dual
//! (D1) with damped Newton steps (Boyd & Vandenberghe, *Convex Optimization*, 2004,
//! Section 11.3), in the dual variables (γ, ν), the multipliers η of `s ≤ 1` (module
//! `newton`: they keep the barrier objective smooth) and an m x m LMI.
//!
//! For t > 0 it maximises the barrier objective `φ_t` of module `newton`. At its
//! maximiser ("central point") `Z = t S⁻¹` is feasible for (P1) and the duality gap is
//! exactly `t (m + 2n)`; t shrinks by [`BarrierSolver::shrink`] per round. The gap is
//! certified at the end of every round from the actual iterates: (γ, ν) with S ≻ 0 is
//! dual feasible (its value `Σ h_C(γ_i) − νβ²`), and Z (its bias row scaled if the
//! balance is exceeded) primal feasible, so `primal(Z) − dual(γ, ν)` bounds the distance
//! of both to the optimum. Cost per Newton step: O(n²m + n³) time, O(n²) memory.

use super::newton::{barrier_change, domain, moment_matrix, newton_step, Iterate, Workspace};
use super::relaxation::Relaxation;
use faer::Mat;
use mkc_core::{Error, Result};

/// Why the barrier method stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The certified duality gap met [`BarrierSolver::gap_tol`].
    Gap,
    /// The Newton-step cap [`BarrierSolver::max_newton`] was reached.
    MaxNewton,
    /// Rounds kept failing to centre even with t shrinking by less than 5% (or the
    /// line search found no improving step): the iterate is as accurate as the
    /// arithmetic allows (the best certified point is returned).
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
    /// Stop when the certified gap is at most `gap_tol · max(1, |dual|)` (default 1e-4).
    pub gap_tol: f64,
    /// A round ends when the Newton decrement `λ²/t` is at most this (default 1e-3).
    pub center_tol: f64,
    /// Cap on Newton steps over all rounds (default 1000).
    pub max_newton: usize,
    /// Factor by which t shrinks per round, in (0, 1) (default 0.3; a round that does
    /// not centre is retried with the factor's square root).
    pub shrink: f64,
}

impl Default for BarrierSolver {
    fn default() -> Self {
        Self {
            gap_tol: 1e-4,
            center_tol: 1e-3,
            max_newton: 1000,
            shrink: 0.3,
        }
    }
}

/// Newton steps after which a round that has not centred restarts from the last
/// centred iterate with the square root of its factor on t (Newton's method on a log
/// barrier approaches a far-away centre slowly); the solver stops `Stalled` when the
/// factor exceeds 0.95 (the arithmetic's limit: the Newton system's condition grows
/// like 1/t²).
const ROUND_STEPS: usize = 30;

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
        let scale = (m + 2 * n) as f64;
        let mut ws = Workspace::new(rel);
        let warm = warm
            .filter(|w| w.gamma.len() == n)
            .map(|w| Iterate::from_dual(rel, w))
            .filter(|it| domain(rel, it, &mut ws).is_some());
        let is_warm = warm.is_some();
        let mut it = warm.unwrap_or_else(|| Iterate::from_dual(rel, &Self::start(rel)));
        // t such that the central gap t(m + 2n) is about the value C·n of Z = 0 (cold),
        // or a hundredth of it (warm: the point is already near the path).
        let mut t = rel.c * n as f64 / scale * if is_warm { 1e-2 } else { 1.0 };
        let mut sol = RelaxationSolution {
            dual_point: it.dual_point(),
            z: Mat::zeros(m, m),
            dual: f64::NEG_INFINITY,
            primal: f64::INFINITY,
            newton_steps: 0,
            rounds: 0,
            trace: Vec::new(),
            stop: StopReason::MaxNewton,
        };
        // The last centred iterate and its t, and the current factor on t: a round that
        // does not centre in ROUND_STEPS restarts from there with a milder factor.
        let mut centred = (it.clone(), t);
        let mut factor = self.shrink;
        loop {
            // The first round starts far from the path: no per-round cap there.
            let cap = if sol.rounds == 0 {
                self.max_newton
            } else {
                ROUND_STEPS
            };
            let stalled = self.center(rel, &mut it, t, cap, &mut sol.newton_steps, &mut ws)?;
            if stalled && sol.rounds == 0 {
                return Err(Error::numerical(
                    "GMMC barrier",
                    "the first round did not centre (raise max_newton)",
                ));
            }
            if stalled {
                factor = factor.sqrt();
                if factor > 0.95 || sol.newton_steps >= self.max_newton {
                    sol.stop = StopReason::Stalled;
                    break;
                }
                (it, t) = (centred.0.clone(), centred.1 * factor);
                continue;
            }
            let l = domain(rel, &it, &mut ws).ok_or_else(left_domain)?;
            let z = moment_matrix(rel, &l, t);
            let dual = rel.dual_objective(&it.gamma, it.nu);
            let (primal, _) = rel.primal_objective(z.as_ref());
            sol.rounds += 1;
            sol.trace.push(dual);
            if primal - dual < sol.primal - sol.dual || !sol.dual.is_finite() {
                sol.dual_point = it.dual_point();
                sol.z = z;
                sol.dual = dual;
                sol.primal = primal;
            }
            if sol.gap() <= self.gap_tol * sol.dual.abs().max(1.0) {
                sol.stop = StopReason::Gap;
                break;
            }
            if sol.newton_steps >= self.max_newton {
                sol.stop = StopReason::MaxNewton;
                break;
            }
            centred = (it.clone(), t);
            factor = (factor * factor).max(self.shrink);
            t *= factor;
        }
        Ok(sol)
    }

    /// Damped Newton on `φ_t` until centred: the decrement `λ²/t ≤ center_tol` and the
    /// residuals of the centring conditions cost the primal at most half the central gap
    /// `t (m + 2n)`. Returns whether it stalled (no acceptable step, or `cap` steps
    /// without centring).
    fn center(
        &self,
        rel: &Relaxation,
        it: &mut Iterate,
        t: f64,
        cap: usize,
        steps: &mut usize,
        ws: &mut Workspace,
    ) -> Result<bool> {
        let n = rel.n();
        let first = *steps;
        while *steps < self.max_newton {
            if *steps - first >= cap {
                return Ok(true);
            }
            let l = domain(rel, it, ws).ok_or_else(left_domain)?;
            let step = newton_step(rel, it, t, &l, ws)?;
            let decrement: f64 = step.grad.iter().zip(&step.dir).map(|(g, d)| g * d).sum();
            let central = 0.5 * t * (rel.m() + 2 * n) as f64;
            if decrement / t <= self.center_tol && step.residual_cost <= central {
                return Ok(false);
            }
            *steps += 1;
            // Largest step keeping γ, η > 0, then backtracking (Armijo, factor ½).
            let mut alpha: f64 = 1.0;
            for (i, d) in step.dir[..2 * n].iter().enumerate() {
                let x = if i < n { it.gamma[i] } else { it.eta[i - n] };
                if *d < 0.0 {
                    alpha = alpha.min(-0.99 * x / d);
                }
            }
            let mut accepted = false;
            for _ in 0..60 {
                if let Some(change) = barrier_change(rel, it, &step.dir, alpha, t, &l, ws) {
                    if change >= 0.01 * alpha * decrement {
                        it.step(&step.dir, alpha);
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

fn left_domain() -> Error {
    Error::numerical("GMMC barrier", "iterate left the domain")
}
