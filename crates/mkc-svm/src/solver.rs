//! The general SMO solver (in the manner of libsvm's `Solver`, Chang & Lin 2011) for
//!
//! ```text
//! min ½ αᵀQα + pᵀα   s.t.  yᵀα = Δ,  l_t ≤ α_t ≤ u_t,   y_t ∈ {−1, +1}
//! ```
//!
//! with [second-order working-set selection](crate::working_set), [shrinking and
//! gradient reconstruction](crate::shrinking), the stopping rule `m(α) − M(α) < ε` on
//! the maximal KKT violation (default ε = 1e-3, libsvm's) and an iteration cap.
//!
//! **Non-convergence is reported, not hidden:** when the cap is hit the solver returns
//! the last iterate with [`SmoSolution::converged`] `= false` and the violation reached;
//! [`SmoSolution::ensure_converged`] turns that into [`mkc_core::Error::NotConverged`]
//! for callers who want an error. The front ends ([`crate::CSvc`], …) pass the flag on.

use crate::feasibility;
use crate::free_system::FreeFactor;
use crate::polish::{active_set_polish, Polish, Start};
use crate::qmatrix::QMatrix;
use crate::shrinking::{reconstruct_gradient, shrink};
use crate::state::State;
use crate::working_set::{select, Selection};
use mkc_core::{Error, ParamGuard, Result};

mkc_core::params! {
    /// Unchecked solver options (builder); [`ParamGuard::check`] gives an [`Smo`].
    pub struct SmoParams {
        /// Tolerance ε on the maximal KKT violation `m(α) − M(α)`.
        pub(crate) tol: f64 = 1e-3,
        /// Enable or disable shrinking (results agree within the tolerance either way).
        pub(crate) shrinking: bool = true,
        /// Enable or disable the [active-set polish](crate::polish) (default off: the
        /// iterates are then libsvm's). It pays off when many variables are free at the
        /// optimum and `Q` is ill-conditioned (large C, ε = 0 SVR): see the crate docs.
        pub(crate) polish: bool = false,
        /// Enable or disable the warm-start polish (default off): a warm start tries the
        /// [active-set polish](crate::polish) once, from its bound statuses, right after
        /// its fourth shrinking (see `Smo::run`). The solution meets the same KKT
        /// tolerance either way, usually to rounding with it; off by default because it
        /// moves the warm-started solves of RMKC, LG-MMC and iterSVR within the tolerance,
        /// and with them some quick-table cells.
        pub(crate) warm_polish: bool = false,
        /// Hand out a factorisation of the final free set with the solution
        /// ([`SmoSolution::factor`]; default off), for the warm-start polish of the next
        /// solve ([`Smo::solve_carried`]) to start from instead of factorising (the
        /// `free_system` module). The factor is the settled warm-start polish's, else one
        /// Cholesky factorisation of the final free set at the end of the solve (none
        /// past [`CARRY_MAX`] free variables). It changes no iterate of this solve; the
        /// next solve's polish then works on the same system factored differently, so
        /// its result agrees to rounding, not bit for bit.
        pub(crate) carry_factor: bool = false,
        ;
        /// `None`: `max(10⁷, 100 n)` (libsvm's).
        max_iter: Option<usize> = None,
    }
    /// Defaults: `tol = 1e-3`, `max_iter = max(10⁷, 100 n)` (libsvm's), shrinking on.
    new;
}

impl SmoParams {
    /// Iteration cap (one iteration = one pair update).
    pub fn max_iter(mut self, max_iter: usize) -> Self {
        self.max_iter = Some(max_iter);
        self
    }
}

mkc_core::checked! {
    /// Checked solver options; [`Smo::solve`] runs the solver.
    pub struct Smo(SmoParams);
    |p| {
        mkc_core::validate::positive("tol", p.tol)?;
        if let Some(m) = p.max_iter {
            mkc_core::mkc_ensure!(m >= 1, param "max_iter", m, "must be at least 1");
        }
        Ok(())
    }
}

impl Default for Smo {
    fn default() -> Self {
        SmoParams::default()
            .check()
            .expect("the default parameters are valid")
    }
}

/// The linear part and the constraints of the problem (`Q` is passed separately).
#[derive(Clone, Copy, Debug)]
pub struct Problem<'a> {
    /// Linear term p (length n, finite).
    pub p: &'a [f64],
    /// Signs y of the equality constraint, each −1 or +1.
    pub y: &'a [f64],
    /// Right-hand side Δ of `yᵀα = Δ`.
    pub delta: f64,
    /// Lower bounds l (may be −∞, not +∞).
    pub lower: &'a [f64],
    /// Upper bounds u (may be +∞, not −∞); `l ≤ u`.
    pub upper: &'a [f64],
}

/// How an iterative solve of this crate ended (every model and solution carries one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveStatus {
    /// Iterations performed: SMO pair updates, or coordinate-descent epochs for
    /// [`crate::LinearSvr`].
    pub iterations: usize,
    /// Whether the tolerance was met (false: the iteration cap was hit).
    pub converged: bool,
    /// Final maximal KKT violation (≥ 0).
    pub max_violation: f64,
}

/// The solver's output.
#[derive(Clone, Debug)]
pub struct SmoSolution {
    /// The solution α (feasible: in the box, `yᵀα = Δ` up to rounding).
    pub alpha: Vec<f64>,
    /// The gradient `Qα + p` at α (exact on every variable).
    pub gradient: Vec<f64>,
    /// libsvm's ρ: the multiplier of `yᵀα = Δ` is `−ρ`, i.e. at the optimum
    /// `y_t G_t ≥ ρ` where α_t may increase along `y_t` and `≤ ρ` where it may decrease.
    pub rho: f64,
    /// `½αᵀQα + pᵀα`.
    pub objective: f64,
    /// Pair updates performed, whether `m(α) − M(α) < tol` was reached and the final
    /// maximal KKT violation `m(α) − M(α)`.
    pub status: SolveStatus,
    /// Coordinates changed by the feasibility repair of the starting point.
    pub repaired: usize,
    /// [Active-set polish](crate::polish) attempts and how many settled (0 unless
    /// enabled).
    pub polish: PolishCount,
    /// Whether [`Smo::solve_with_floor`] stopped at its floor (the solution is then
    /// the iterate where the objective reached it, not the optimum).
    pub floored: bool,
    /// The factorisation to carry to the next solve ([`SmoParams::carry_factor`]).
    pub factor: Option<FreeFactor>,
}

/// Most free variables whose factorisation a solve computes at its end to carry it
/// ([`SmoParams::carry_factor`]): m³/3 flops, ~0.1 s at this size.
pub const CARRY_MAX: usize = 3000;

impl SmoSolution {
    /// `Err(Error::NotConverged)` when the iteration cap was hit.
    pub fn ensure_converged(self, tol: f64) -> Result<Self> {
        if self.status.converged {
            Ok(self)
        } else {
            Err(Error::NotConverged {
                what: "SMO".into(),
                iterations: self.status.iterations,
                residual: self.status.max_violation,
                tolerance: tol,
            })
        }
    }
}

impl Smo {
    /// The tolerance ε.
    pub fn tol(&self) -> f64 {
        self.p.tol
    }

    /// Whether solves hand out their free-set factorisation
    /// ([`SmoParams::carry_factor`]).
    pub fn carries_factor(&self) -> bool {
        self.p.carry_factor
    }

    /// Solve from `start` (a warm start, repaired to feasibility as documented in
    /// the [crate docs](crate#warm-starts)) or, without one, from `α = clip(0)`
    /// repaired the same way. Cost of the start: O(n · #nonzero α) column reads.
    pub fn solve<Q: QMatrix + ?Sized>(
        &self,
        q: &Q,
        problem: &Problem<'_>,
        start: Option<&[f64]>,
    ) -> Result<SmoSolution> {
        self.solve_impl(q, problem, start, None, None, None)
    }

    /// [`Smo::solve_with_gradient`] whose warm-start polish starts from the factor
    /// `carried` of an earlier solve ([`SmoParams::carry_factor`]) instead of
    /// factorising: `carried` must be a factor of this `Q`'s block (an earlier solve's
    /// [`SmoSolution::factor`] on the same `Q`; the C-SVC front end also follows label
    /// flips, [`crate::CSvc::solve_from`]). A factor whose variables are not all active
    /// when the polish starts is not used.
    pub fn solve_carried<Q: QMatrix + ?Sized>(
        &self,
        q: &Q,
        problem: &Problem<'_>,
        start: &[f64],
        gradient: &[f64],
        carried: FreeFactor,
    ) -> Result<SmoSolution> {
        mkc_core::validate::len("warm-start gradient", gradient.len(), q.size())?;
        mkc_core::validate::finite_slice("warm-start gradient", gradient)?;
        if let Some(&v) = carried.vars.iter().find(|&&v| v >= q.size()) {
            return Err(Error::input(
                "carried factor",
                format!("variable {v} out of range for n = {}", q.size()),
            ));
        }
        self.solve_impl(q, problem, Some(start), Some(gradient), None, Some(carried))
    }

    /// [`Smo::solve`] that stops as soon as the objective `½αᵀQα + pᵀα` falls to `floor`
    /// or below ([`SmoSolution::floored`]): for a caller that only needs to know whether
    /// the optimum lies above `floor` (SMO never increases the objective, so once an
    /// iterate is at or below `floor`, so is the optimum). The objective is followed
    /// step by step (O(1) per pair update, from the quantities of the step); the caller
    /// should leave a margin for its rounding (relative ~1e-13 after 10⁴ steps). The
    /// [active-set polish](crate::polish) is not used in such a solve.
    pub fn solve_with_floor<Q: QMatrix + ?Sized>(
        &self,
        q: &Q,
        problem: &Problem<'_>,
        start: Option<&[f64]>,
        floor: f64,
    ) -> Result<SmoSolution> {
        mkc_core::mkc_ensure!(!floor.is_nan(), param "floor", floor, "must not be NaN");
        self.solve_impl(q, problem, start, None, Some(floor), None)
    }

    /// Warm start with the gradient `G = Q·start + p` already known (e.g. updated by the
    /// caller in O(n) per changed coordinate after a label flip), so that the start costs
    /// O(n) per coordinate the repair changes instead of O(n · #nonzero α). The gradient
    /// is trusted: a wrong one gives a wrong answer.
    pub fn solve_with_gradient<Q: QMatrix + ?Sized>(
        &self,
        q: &Q,
        problem: &Problem<'_>,
        start: &[f64],
        gradient: &[f64],
    ) -> Result<SmoSolution> {
        mkc_core::validate::len("warm-start gradient", gradient.len(), q.size())?;
        mkc_core::validate::finite_slice("warm-start gradient", gradient)?;
        self.solve_impl(q, problem, Some(start), Some(gradient), None, None)
    }

    fn solve_impl<Q: QMatrix + ?Sized>(
        &self,
        q: &Q,
        problem: &Problem<'_>,
        start: Option<&[f64]>,
        gradient: Option<&[f64]>,
        floor: Option<f64>,
        carried: Option<FreeFactor>,
    ) -> Result<SmoSolution> {
        let n = q.size();
        mkc_core::mkc_ensure!(n > 0, input "Q", "empty problem (n = 0)");
        mkc_core::validate::len("p", problem.p.len(), n)?;
        mkc_core::validate::finite_slice("p", problem.p)?;
        feasibility::check(problem.y, problem.lower, problem.upper, problem.delta, n)?;
        let alpha = match start {
            Some(a) => {
                mkc_core::validate::len("warm-start alpha", a.len(), n)?;
                mkc_core::validate::finite_slice("warm-start alpha", a)?;
                a.to_vec()
            }
            None => vec![0.0; n],
        };
        let (p, y, lo, up) = (
            problem.p.to_vec(),
            problem.y.to_vec(),
            problem.lower.to_vec(),
            problem.upper.to_vec(),
        );
        let (mut s, mut changed) = match gradient {
            Some(g) => {
                let mut s =
                    State::with_gradient(q, alpha, g.to_vec(), p, y, lo, up, self.p.shrinking);
                let mut changed = Vec::new();
                for t in 0..n {
                    let old = s.alpha[t];
                    let c = old.clamp(s.lo[t], s.up[t]);
                    if c != old {
                        s.alpha[t] = c;
                        s.apply_single_change(t, old);
                        changed.push(t);
                    }
                }
                (s, changed)
            }
            None => {
                let mut alpha = alpha;
                let changed = feasibility::clip(&mut alpha, problem.lower, problem.upper);
                (
                    State::new(q, alpha, p, y, lo, up, self.p.shrinking),
                    changed,
                )
            }
        };
        if let Some(t) = s.qd.iter().position(|v| !v.is_finite()) {
            return Err(Error::NonFinite {
                what: "Q diagonal".into(),
                row: t,
                col: t,
                value: s.qd[t],
            });
        }
        changed.extend(feasibility::restore_equality(&mut s, problem.delta));
        changed.sort_unstable();
        changed.dedup();
        let repaired = changed.len();
        if floor.is_some() {
            s.f_track = s.objective();
            s.floor = floor;
        }
        s.carried = carried;
        s.carry = self.p.carry_factor;
        let (n_iter, optimal, polish) = self.run(&mut s, start.is_some());
        let floored = !optimal && s.floor.is_some_and(|f| s.f_track <= f);
        let max_violation = s.max_violation();
        let objective = s.objective();
        if !objective.is_finite() || s.g.iter().any(|g| !g.is_finite()) {
            return Err(Error::numerical(
                "SMO",
                "non-finite gradient (Q has non-finite entries?)",
            ));
        }
        let factor = if self.p.carry_factor && !floored {
            s.factor_out.take().or_else(|| {
                let free: Vec<usize> = (0..n).filter(|&t| s.status[t] == 0).collect();
                (free.len() >= 2 && free.len() <= CARRY_MAX)
                    .then(|| FreeFactor::compute(q, free))
                    .flatten()
            })
        } else {
            None
        };
        Ok(SmoSolution {
            factor,
            rho: s.rho(),
            objective,
            status: SolveStatus {
                iterations: n_iter,
                converged: optimal || max_violation < self.p.tol,
                max_violation,
            },
            repaired,
            polish,
            floored,
            alpha: s.alpha,
            gradient: s.g,
        })
    }

    /// The SMO loop (libsvm's schedule: shrink every `min(n, 1000)` iterations). A warm
    /// start is near its optimum, so its first shrinking happens before the first
    /// iteration, and during its first `min(n, 1000)` iterations it shrinks
    /// [`WARM_EARLY_SHRINKS`] times as often (our choices; libsvm has no warm start): the
    /// first shrinking sees the large violations of the repaired variables and keeps
    /// most of the set, which the next one, after the violation has fallen, removes.
    /// After a label flip at n = 2000, C = 10 (the `xtask compare svm` warm line) this
    /// keeps about 600 instead of 1600 variables active over the first 1000
    /// iterations: 10.3 → 7.9 ms with the same iterations and objective.
    ///
    /// A warm start with the warm-start polish ([`SmoParams::warm_polish`], off by
    /// default) shrinks [`POLISH_EARLY_SHRINKS`] times as often instead, and right after
    /// its fourth shrinking (iteration `3 · min(n, 1000) / POLISH_EARLY_SHRINKS`), if it
    /// has not converged, tries the [active-set polish](crate::polish) once, from its
    /// bound statuses: after
    /// one label flip the free set barely changes, so the sets settle in two or three
    /// rounds on one factorisation updated as they change
    /// (`free_system` module), where SMO's tail would need about 1000
    /// pair updates per decade of tolerance. The loop then goes on and checks the KKT
    /// conditions on every variable as before.
    fn run<Q: QMatrix + ?Sized>(
        &self,
        s: &mut State<'_, Q>,
        warm: bool,
    ) -> (usize, bool, PolishCount) {
        pulp::Arch::new().dispatch(SmoLoop { smo: self, s, warm })
    }

    /// The body of [`Smo::run`], inlined into the instruction-set dispatch.
    #[inline(always)]
    fn run_loop<Q: QMatrix + ?Sized>(
        &self,
        s: &mut State<'_, Q>,
        warm: bool,
    ) -> (usize, bool, PolishCount) {
        let n = s.n;
        let max_iter = self
            .p
            .max_iter
            .unwrap_or_else(|| 10_000_000usize.max(n.saturating_mul(100)));
        let period = n.min(1000);
        let mut counter = if warm { 1 } else { period + 1 };
        let mut iter = 0;
        let eps = self.p.tol;
        // The polish moves α outside the pair steps that the objective floor follows:
        // a solve with a floor runs without it.
        let polish_on = s.floor.is_none();
        let mut polish = PolishSchedule::new(self.p.polish && polish_on);
        let warm_polish = warm && self.p.warm_polish && polish_on;
        let early = if warm_polish {
            (period / POLISH_EARLY_SHRINKS).max(1)
        } else {
            (period / WARM_EARLY_SHRINKS).max(1)
        };
        let warm_polish_at = POLISH_AFTER_SHRINKS * early;
        s.pack();
        let optimal = loop {
            if iter >= max_iter {
                break false;
            }
            if iter % period == 0 {
                polish.maybe_step(s);
            }
            if s.shrinking {
                counter -= 1;
                if counter == 0 {
                    counter = if warm && iter < period { early } else { period };
                    shrink(s, eps);
                }
            }
            if warm_polish && iter == warm_polish_at {
                polish.warm_step(s);
            }
            let (i, pos_i, j, pos_j) = match select(s, eps) {
                Selection::Pair { i, pos_i, j, pos_j } => (i, pos_i, j, pos_j),
                Selection::Optimal => {
                    if s.all_active {
                        break true;
                    }
                    reconstruct_gradient(s);
                    match select(s, eps) {
                        Selection::Optimal => break true,
                        Selection::Pair { i, pos_i, j, pos_j } => {
                            counter = 1;
                            (i, pos_i, j, pos_j)
                        }
                    }
                }
            };
            iter += 1;
            polish.work += s.active.len() as f64;
            s.take_step(i, pos_i, j, pos_j);
            if s.floor.is_some_and(|f| s.f_track <= f) {
                break false;
            }
        };
        reconstruct_gradient(s);
        (iter, optimal, polish.count)
    }
}

/// The SMO loop compiled for the best instruction set the CPU has (`pulp`'s runtime
/// dispatch: AVX2 where available, else the baseline). The loop and the selection,
/// step and column reads it calls are inlined, so the compiler vectorises them for that
/// set; no floating-point operation changes (Rust never fuses a multiply and an add),
/// so the iterates are the same bit for bit on every instruction set.
struct SmoLoop<'a, 'q, Q: QMatrix + ?Sized> {
    smo: &'a Smo,
    s: &'a mut State<'q, Q>,
    warm: bool,
}

impl<Q: QMatrix + ?Sized> pulp::WithSimd for SmoLoop<'_, '_, Q> {
    type Output = (usize, bool, PolishCount);
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> Self::Output {
        self.smo.run_loop(self.s, self.warm)
    }
}

/// How many times more often a warm start shrinks during its first `min(n, 1000)`
/// iterations (see `Smo::run`).
const WARM_EARLY_SHRINKS: usize = 10;

/// [`WARM_EARLY_SHRINKS`] for a warm start with the warm-start polish, which comes
/// after the [`POLISH_AFTER_SHRINKS`]-th shrinking that follows the first one (our
/// choices). The polish works on the active variables, so the fewer are left, the less
/// it gathers and the fewer variables its factor has to drop. `cargo xtask compare svm`
/// warm line (n = 2000, C = 10, carried factor), alternating runs of the settings
/// (thread CPU time, 2026-11-28): every 100 iterations and polish at 100 (the previous
/// choice) 5.1–6.7 ms, mean 5.7 over eight runs; every 40, polish at 120: 4.3–5.6 ms,
/// mean 4.9; every 20, polish at 120: 4.4–5.9 ms; every 40, polish at 160: 4.5–6.1
/// ms; every 100, polish at 25 or 50 (before the second shrinking): 6.6–7.0 ms. Six
/// alternating runs of the two builds afterwards: 5.5–5.9 ms (median 5.8) against
/// 5.1–8.6 ms (median 6.3), cold 24–26 ms: 4.3–4.7x, short of the 5x goal on that day.
/// The warm starts without the polish (RMKC's, iterSVR's) keep [`WARM_EARLY_SHRINKS`],
/// and with it their iterates.
const POLISH_EARLY_SHRINKS: usize = 25;
const POLISH_AFTER_SHRINKS: usize = 3;

/// When to try the [active-set polish](crate::polish): every `min(n, 1000)` iterations
/// (with the shrinking), once the SMO work since the last attempt (Σ active-set size
/// over the iterations) exceeds the cost of one polish round (`m³/3 / RATE + m·(m +
/// active)` for m free variables; RATE = 100, measured: a round at m = 1330 took as long
/// as about 6000 SMO iterations on 1340 active variables), times a backoff that doubles
/// after every failed attempt.
///
/// A failed attempt can run up to [`PolishSchedule::MAX_ROUNDS`] rounds, so where the
/// primal-dual iteration never settles its attempts can cost as much as the SMO work
/// itself (iterSVR's Laplacian-loss SVRs at C = 100 on Sick and Spambase's Gaussian
/// kernels, 1800–2700 free variables: twice the time without the polish). Charging the
/// rounds a failed attempt ran to the next attempt's threshold was tried (session 19):
/// it halved those solves but delayed the attempts that settle after a failure
/// elsewhere (Letter A-B, σ = 0.6·range, C = 100: the first SVR took 758 000 SMO
/// iterations instead of 107 000), so the schedule is as before and the callers that
/// solve many similar problems decide from [`PolishCount`] (iterSVR turns the polish
/// off for a run after an SVR whose attempts all failed).
struct PolishSchedule {
    on: bool,
    work: f64,
    backoff: f64,
    count: PolishCount,
}

impl PolishSchedule {
    const RATE: f64 = 100.0;
    /// Rounds per attempt (the iteration usually settles in 2–6 or cycles).
    const MAX_ROUNDS: usize = 40;

    fn new(on: bool) -> Self {
        Self {
            on,
            work: 0.0,
            backoff: 1.0,
            count: PolishCount::default(),
        }
    }

    /// Count an attempt's outcome.
    fn record(&mut self, outcome: Polish) {
        match outcome {
            Polish::Skipped => {}
            Polish::Failed => self.count.attempts += 1,
            Polish::Settled => {
                self.count.attempts += 1;
                self.count.settled += 1;
            }
        }
    }

    /// The warm-start attempt (see `Smo::run`): sets from the bound statuses, once.
    fn warm_step<Q: QMatrix + ?Sized>(&mut self, s: &mut State<'_, Q>) {
        let (outcome, _) = active_set_polish(s, Self::MAX_ROUNDS, Start::Status);
        self.record(outcome);
    }

    fn maybe_step<Q: QMatrix + ?Sized>(&mut self, s: &mut State<'_, Q>) {
        if !self.on {
            return;
        }
        let m = s.active.iter().filter(|&&t| s.status[t] == 0).count() as f64;
        let act = s.active.len() as f64;
        let cost = m * m * m / 3.0 / Self::RATE + m * (m + act);
        if m < 2.0 || self.work < self.backoff * cost {
            return;
        }
        self.work = 0.0;
        let (outcome, _) = active_set_polish(s, Self::MAX_ROUNDS, Start::Classify);
        self.record(outcome);
        if outcome == Polish::Failed {
            self.backoff *= 2.0;
        }
    }
}

/// What the [active-set polish](crate::polish) did in one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PolishCount {
    /// Attempts made (a scheduled attempt with fewer than two free variables is not
    /// made).
    pub attempts: usize,
    /// Attempts whose sets settled: α moved to the optimum of the active variables.
    pub settled: usize,
}

/// A front end of [`Smo`] (C-SVC, ε-SVR, the simplex dual): the unchecked params struct
/// (the listed hyperparameters and `smo: SmoParams`; `new` takes the hyperparameters and
/// the SMO defaults; setters for the SMO options), the checked struct (the same
/// hyperparameters and the checked [`Smo`]) and `ParamGuard` between them, which runs the
/// given validation of the hyperparameters (the params bound to the name before it) and
/// then checks the SMO options.
macro_rules! smo_front_end {
    (
        $(#[$pm:meta])*
        pub struct $params:ident =>
        $(#[$cm:meta])*
        $checked:ident { $($field:ident: $ty:ty),* $(,)? }
        $(#[$nm:meta])*
        new;
        |$p:ident| $body:expr
    ) => {
        $(#[$pm])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $params {
            $($field: $ty,)*
            smo: $crate::SmoParams,
        }

        impl $params {
            $(#[$nm])*
            pub fn new($($field: $ty),*) -> Self {
                Self {
                    $($field,)*
                    smo: $crate::SmoParams::new(),
                }
            }
            mkc_core::setters! {
                /// Tolerance on the maximal KKT violation (default 1e-3, libsvm's).
                tol: f64 => smo,
                /// Shrinking on/off (default on).
                shrinking: bool => smo,
                /// [Active-set polish](crate::polish) on/off (default off).
                polish: bool => smo,
                /// The warm-start polish on/off (default off; see [`crate::SmoParams`]).
                warm_polish: bool => smo,
                /// Carry the free-set factorisation to the next warm start (default off;
                /// see [`crate::SmoParams`]).
                carry_factor: bool => smo,
            }
            /// Iteration cap (default `max(10⁷, 100 n)`); hitting it gives `converged = false`.
            pub fn max_iter(mut self, max_iter: usize) -> Self {
                self.smo = self.smo.max_iter(max_iter);
                self
            }
        }

        impl mkc_core::ParamGuard for $params {
            type Checked = $checked;
            fn check(&self) -> mkc_core::Result<$checked> {
                let $p = self;
                let valid: mkc_core::Result<()> = $body;
                valid?;
                Ok($checked {
                    $($field: self.$field,)*
                    smo: self.smo.check()?,
                })
            }
        }

        $(#[$cm])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $checked {
            $($field: $ty,)*
            smo: $crate::Smo,
        }
    };
}
pub(crate) use smo_front_end;
