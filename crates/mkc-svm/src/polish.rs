//! Active-set polish: an optional finishing move of the SMO loop that solves the
//! problem on the active variables exactly once the bound constraints are guessed right.
//!
//! SMO changes two variables per iteration. When many variables are free (strictly
//! inside their box) and `Q` is ill-conditioned, its tail re-balances them slowly: about
//! a thousand iterations per decade of the KKT violation at n = 2000, C = 10, and 10⁵–10⁶
//! iterations per solve for iterSVR's Laplacian-loss SVR at C = 100 on Letter A-B.
//!
//! The polish is a primal-dual active-set iteration (Hintermüller, Ito & Kunisch 2002,
//! "The primal-dual active set strategy as a semismooth Newton method") on the active
//! variables, started from the SMO iterate. With the reduced gradient `w = G + λy`
//! (λ the multiplier of `yᵀα = Δ`, first estimated as libsvm's −ρ), each round
//!
//! 1. guesses the sets: t at its lower bound if `α_t − w_t / Q_tt ≤ l_t`, at its upper
//!    bound if `≥ u_t`, free otherwise (`Q_tt` scales the guess like one Newton step);
//!    a warm start's first guess is its current bound statuses instead
//!    ([`crate::SmoParams::warm_polish`]);
//! 2. puts the bounded variables on their bounds and solves the free ones exactly,
//!
//!    ```text
//!    Q_FF Δ_F + r + λ y_F = 0,   y_Fᵀ Δ_F = −y_Bᵀ Δ_B,   r = G_F + Q_FB Δ_B
//!    ```
//!
//!    (a Cholesky factorisation of `Q_FF + δI`, faer, sequential, with iterated
//!    Tikhonov refinement: duplicated points make `Q_FF` exactly singular; the
//!    warm-start polish factorises in its first round only and updates the factor for
//!    the set changes of later rounds, see the `free_system` module), which gives the
//!    new α and λ, and updates G (the warm-start polish takes the free rows of G from
//!    its solve, `free_system::Solved::corr`, and reads one column per other row);
//! 3. stops when the guessed sets repeat: the free α are then inside their box and the
//!    bounded ones have multipliers of the right sign, i.e. α is optimal on the active
//!    variables up to rounding.
//!
//! The iterate is kept only when the sets settle (and the settled point is feasible to
//! rounding: the free α in their box, `yᵀα` unchanged); otherwise (a cap of rounds, or
//! four rounds without fewer set changes: the iteration can cycle when `Q` is not an
//! M-matrix) α and G are left as they were. The SMO loop then goes on either way: it
//! checks the KKT conditions on every variable, including shrunk ones, so the polish
//! never decides optimality itself. When to try is the solver's schedule
//! ([`crate::SmoParams::polish`]).
//!
//! **Tried and not kept** (2026-11-28):
//! - Where the iteration cycles (iterSVR's Laplacian-loss SVRs at C = 100 on
//!   Spambase's Gaussian kernel σ = 1·rms: ~1850 free variables of 4601, every
//!   attempt fails, and the failed attempts double the solve, 5.5 s against 2.8 s
//!   for the first SVR), a monotone fallback from the SMO iterate: the Newton step
//!   on its free variables, then (a) the longest step inside the box, or (b) the
//!   projected search (projection onto the box and `yᵀα = Δ`, halving the step).
//!   (a) stopped at the first of 100–1900 blocking variables (steps of 1e-5–1e-3 of
//!   the Newton step) and (b) increased the objective at every step length down to
//!   1e-4 of it (the Newton step on the ill-conditioned free block is huge and its
//!   projection lands far off), so neither cut the SMO iterations; iterSVR instead
//!   turns the polish off for a run after an SVR whose attempts all failed.
//! - For the warm-start polish, moving G over every row of Q from whole columns
//!   (instead of gathering the free columns at the active rows, ~17 % of a C = 10
//!   warm solve at n = 2000) and moving the reconstruction's reference point with
//!   it: no gain in alternating runs (5.7–7.6 ms against 5.8–7.3 ms). The ~550 free
//!   columns are read from memory either way: once per round over all 2000 rows
//!   (2–3 rounds), against once gathered plus once in the reconstruction. (Since
//!   then the polish no longer reads them: the free rows of G come from the solve.)
//!
//! This is our addition; libsvm has no such step. It changes the iterates, not the
//! problem: the solution meets the same KKT tolerance, after a settled polish usually
//! to rounding (violation ~1e-14).

use crate::free_system::{
    chol_solve, cholesky, gather_block, FreeFactor, FreeSystem, REFINE, RIDGE,
};
use crate::qmatrix::QMatrix;
use crate::state::State;
use faer::Mat;

/// What a polish attempt did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Polish {
    /// Fewer than two free variables: nothing to do.
    Skipped,
    /// `Q_FF` not numerically positive definite, or the sets did not settle: α unchanged.
    Failed,
    /// The sets settled: α moved to the optimum of the active variables.
    Settled,
}

/// Set labels of the primal-dual active-set iteration.
const FREE: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

/// Where a polish attempt takes its first guess of the sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Start {
    /// From the iterate's gradient (step 1 of the module docs).
    Classify,
    /// From the current bound statuses (a warm start, whose sets are nearly right).
    Status,
}

/// Primal-dual active-set polish on the active variables (module docs): at most
/// `max_rounds` rounds; α and the packed gradient change only if the sets settle (the
/// point is then optimal on the active set up to rounding). The packed gradient must be
/// current (it is, inside the SMO loop). Returns what happened and the rounds solved
/// (each one factorisation or factor update: the attempt's cost).
pub(crate) fn active_set_polish<Q: QMatrix + ?Sized>(
    s: &mut State<'_, Q>,
    max_rounds: usize,
    start: Start,
) -> (Polish, usize) {
    let Some(mut p) = Active::from_state(s, start == Start::Status) else {
        return (Polish::Skipped, 0);
    };
    if p.keep_factor {
        p.carried = s.carried.take();
    }
    let mut sets = match start {
        Start::Classify => p.classify(),
        Start::Status => p.current_sets(s),
    };
    let (mut best_diff, mut since_best) = (usize::MAX, 0);
    for round in 1..=max_rounds {
        if p.step(s.q, &sets).is_none() {
            return (Polish::Failed, round);
        }
        let next = p.classify();
        let diff = next.iter().zip(&sets).filter(|(x, y)| x != y).count();
        if diff == 0 {
            // Settled sets with an inexact solve (Q_FF singular beyond the ridge) can
            // leave a free α outside its box or yᵀα off its target: keep the iterate.
            if !p.consistent(s, &sets) {
                return (Polish::Failed, round);
            }
            p.commit(s, &sets);
            if s.carry {
                if let Some(sys) = p.sys.take() {
                    s.factor_out = Some(sys.into_factor(&p.act));
                }
            }
            return (Polish::Settled, round);
        }
        // PDAS can cycle on ill-conditioned Q: give up after STALL rounds without a
        // new least number of set changes.
        if diff < best_diff {
            (best_diff, since_best) = (diff, 0);
        } else {
            since_best += 1;
            if since_best >= STALL {
                return (Polish::Failed, round);
            }
        }
        sets = next;
    }
    (Polish::Failed, max_rounds)
}

/// The problem on the active variables (indexed by position p in `act`), copied out of
/// the SMO state: the polish works on these copies and writes back only when it settles.
struct Active {
    act: Vec<usize>,
    y: Vec<f64>,
    qd: Vec<f64>,
    lo: Vec<f64>,
    up: Vec<f64>,
    a: Vec<f64>,
    g: Vec<f64>,
    /// Multiplier of `yᵀα = Δ`.
    lambda: f64,
    /// Column buffer at the active rows.
    col: Vec<f64>,
    /// Whether the free-set factorisation is kept from round to round and updated
    /// (`free_system`; the warm-start polish) or each round factorises afresh (the
    /// scheduled polish, whose iterates stay those it has always had).
    keep_factor: bool,
    /// The kept factorisation.
    sys: Option<FreeSystem>,
    /// A factor carried from an earlier solve: the first round starts from it.
    carried: Option<FreeFactor>,
}

impl Active {
    /// The copies, with λ first estimated as −ρ from the free variables (libsvm's mean
    /// of y_t G_t); `None` with fewer than two free variables.
    fn from_state<Q: QMatrix + ?Sized>(s: &State<'_, Q>, keep_factor: bool) -> Option<Self> {
        let act = s.active.clone();
        let free_pos: Vec<usize> = (0..act.len()).filter(|&p| s.status[act[p]] == 0).collect();
        if free_pos.len() < 2 {
            return None;
        }
        let y: Vec<f64> = s.py.clone();
        let g = s.pg.clone();
        let lambda = -free_pos.iter().map(|&p| y[p] * g[p]).sum::<f64>() / free_pos.len() as f64;
        Some(Active {
            y,
            qd: s.pqd.clone(),
            lo: act.iter().map(|&t| s.lo[t]).collect(),
            up: act.iter().map(|&t| s.up[t]).collect(),
            a: act.iter().map(|&t| s.alpha[t]).collect(),
            g,
            lambda,
            col: vec![0.0; act.len()],
            act,
            keep_factor,
            sys: None,
            carried: None,
        })
    }

    /// The sets of the current bound statuses.
    fn current_sets<Q: QMatrix + ?Sized>(&self, s: &State<'_, Q>) -> Vec<u8> {
        self.act
            .iter()
            .map(|&t| match s.status[t] {
                0 => FREE,
                crate::state::AT_UPPER => UPPER,
                _ => LOWER,
            })
            .collect()
    }

    /// Guess the sets (step 1 of the module docs).
    fn classify(&self) -> Vec<u8> {
        (0..self.act.len())
            .map(|p| {
                let (lo, up) = (self.lo[p], self.up[p]);
                if lo >= up {
                    return LOWER;
                }
                let w = self.g[p] + self.lambda * self.y[p];
                let trial = self.a[p] - w / self.qd[p].max(f64::MIN_POSITIVE);
                if trial <= lo {
                    LOWER
                } else if trial >= up {
                    UPPER
                } else {
                    FREE
                }
            })
            .collect()
    }

    /// One round for the guessed `sets` (step 2): bounded variables to their bounds,
    /// the free ones from the reduced system; α, G and λ updated. `None` when there is
    /// no free variable or the system cannot be solved.
    fn step<Q: QMatrix + ?Sized>(&mut self, q: &Q, sets: &[u8]) -> Option<()> {
        let na = self.act.len();
        let f: Vec<usize> = (0..na).filter(|&p| sets[p] == FREE).collect();
        if f.is_empty() {
            return None;
        }
        let mut delta: Vec<f64> = (0..na)
            .map(|p| match sets[p] {
                LOWER => self.lo[p] - self.a[p],
                UPPER => self.up[p] - self.a[p],
                _ => 0.0,
            })
            .collect();
        if self.keep_factor {
            if self.sys.is_none() {
                let carried = self
                    .carried
                    .take()
                    .and_then(|c| FreeSystem::from_factor(&self.act, c));
                self.sys = match carried {
                    Some(sys) => Some(sys),
                    None => Some(FreeSystem::new(q, &self.act, &f)?),
                };
            }
            let (r, shift) = self.linear_term(q, &f, &delta);
            let sys = self.sys.as_mut()?;
            let solved = sys.solve(q, &self.act, &f, &r, &self.y, -shift)?;
            for (k, &p) in f.iter().enumerate() {
                delta[p] = solved.dir[k];
            }
            self.apply_solved(q, &f, &delta, &solved);
            return Some(());
        }
        let (q_ff, r, shift) = self.reduced_system(q, &f, &delta);
        let yf: Vec<f64> = f.iter().map(|&p| self.y[p]).collect();
        let (dir, lam) = solve_free(q_ff, &r, &yf, -shift)?;
        for (k, &p) in f.iter().enumerate() {
            delta[p] = dir[k];
        }
        self.apply(q, &delta);
        self.lambda = lam;
        Some(())
    }

    /// α += Δ, λ and G after a round of the kept system: on the free positions `f`
    /// G = −λ y_F + corr ([`crate::free_system::Solved`]; no columns read), on the other
    /// active rows G += Q[row, moved] Δ_moved, one column per row (Q is symmetric) at
    /// the moved positions. The free set is most of the moved variables (~550 of ~610
    /// active at n = 2000, C = 10), so this reads ~60 columns instead of ~560.
    fn apply_solved<Q: QMatrix + ?Sized>(
        &mut self,
        q: &Q,
        f: &[usize],
        delta: &[f64],
        solved: &crate::free_system::Solved,
    ) {
        let na = self.act.len();
        let moved: Vec<usize> = (0..na).filter(|&p| delta[p] != 0.0).collect();
        let moved_vars: Vec<usize> = moved.iter().map(|&p| self.act[p]).collect();
        let dm: Vec<f64> = moved.iter().map(|&p| delta[p]).collect();
        let mut in_f = vec![false; na];
        for &p in f {
            in_f[p] = true;
        }
        let mut row = vec![0.0; moved.len()];
        for p in (0..na).filter(|&p| !in_f[p]) {
            q.column_at(self.act[p], &moved_vars, &mut row);
            self.g[p] += row.iter().zip(&dm).map(|(a, b)| a * b).sum::<f64>();
        }
        for (k, &p) in f.iter().enumerate() {
            self.g[p] = -solved.lambda * self.y[p] + solved.corr[k];
        }
        for &p in &moved {
            self.a[p] += delta[p];
        }
        self.lambda = solved.lambda;
    }

    /// Column of active position `p` at the active rows: the held copy, or read into
    /// `col`.
    fn column<'c, Q: QMatrix + ?Sized>(
        sys: &'c Option<FreeSystem>,
        col: &'c mut [f64],
        q: &Q,
        act: &[usize],
        p: usize,
    ) -> &'c [f64] {
        match sys.as_ref().and_then(|s| s.column(p)) {
            Some(c) => c,
            None => {
                q.column_at(act[p], act, col);
                col
            }
        }
    }

    /// `r = g_F + Q_FB Δ_B` and `y_Bᵀ Δ_B` for the free positions `f` and the bound
    /// moves `delta` (zero on `f`).
    fn linear_term<Q: QMatrix + ?Sized>(
        &mut self,
        q: &Q,
        f: &[usize],
        delta: &[f64],
    ) -> (Vec<f64>, f64) {
        let mut r: Vec<f64> = f.iter().map(|&p| self.g[p]).collect();
        let mut shift = 0.0;
        for (p, &d) in delta.iter().enumerate() {
            if d != 0.0 {
                let c = Self::column(&self.sys, &mut self.col, q, &self.act, p);
                for (ri, &fp) in r.iter_mut().zip(f) {
                    *ri += d * c[fp];
                }
                shift += self.y[p] * d;
            }
        }
        (r, shift)
    }

    /// `Q_FF`, `r = g_F + Q_FB Δ_B` and `y_Bᵀ Δ_B` for the free positions `f` and the
    /// bound moves `delta` (zero on `f`).
    fn reduced_system<Q: QMatrix + ?Sized>(
        &mut self,
        q: &Q,
        f: &[usize],
        delta: &[f64],
    ) -> (Mat<f64>, Vec<f64>, f64) {
        let m = f.len();
        let f_idx: Vec<usize> = f.iter().map(|&p| self.act[p]).collect();
        let mut r: Vec<f64> = f.iter().map(|&p| self.g[p]).collect();
        let mut shift = 0.0;
        for (p, &d) in delta.iter().enumerate() {
            if d != 0.0 {
                q.column_at(self.act[p], &f_idx, &mut self.col[..m]);
                for (ri, &c) in r.iter_mut().zip(&self.col[..m]) {
                    *ri += d * c;
                }
                shift += self.y[p] * d;
            }
        }
        (gather_block(q, &f_idx), r, shift)
    }

    /// α += Δ and G += Q[:, moved] Δ on the active rows.
    fn apply<Q: QMatrix + ?Sized>(&mut self, q: &Q, delta: &[f64]) {
        for (p, &d) in delta.iter().enumerate() {
            if d != 0.0 {
                let c = Self::column(&self.sys, &mut self.col, q, &self.act, p);
                for (gi, &cv) in self.g.iter_mut().zip(c) {
                    *gi += d * cv;
                }
                self.a[p] += d;
            }
        }
    }

    /// Whether the settled point is feasible: the free α inside their box (up to
    /// rounding) and `yᵀα` unchanged from the SMO iterate's (up to rounding).
    fn consistent<Q: QMatrix + ?Sized>(&self, s: &State<'_, Q>, sets: &[u8]) -> bool {
        let (mut moved, mut size) = (0.0, 1.0);
        for (p, &t) in self.act.iter().enumerate() {
            let a = self.a[p];
            let slack = ROUNDING * (1.0 + a.abs());
            if sets[p] == FREE && !(a >= self.lo[p] - slack && a <= self.up[p] + slack) {
                return false;
            }
            let settled = match sets[p] {
                LOWER => self.lo[p],
                UPPER => self.up[p],
                _ => a,
            };
            moved += self.y[p] * (settled - s.alpha[t]);
            size += a.abs() + s.alpha[t].abs();
        }
        moved.abs() <= ROUNDING * size
    }

    /// Write the settled point back (step 3): α_F inside the box, the bounded α on
    /// their bounds, the packed gradient, and the statuses.
    fn commit<Q: QMatrix + ?Sized>(&self, s: &mut State<'_, Q>, sets: &[u8]) {
        for (p, &t) in self.act.iter().enumerate() {
            s.alpha[t] = match sets[p] {
                LOWER => self.lo[p],
                UPPER => self.up[p],
                _ => self.a[p].clamp(self.lo[p], self.up[p]),
            };
        }
        s.pg.copy_from_slice(&self.g);
        for (p, &t) in self.act.iter().enumerate() {
            s.refresh_status_at(t, p);
        }
    }
}

/// `Δ_F = −Q_FF⁻¹(r + λ y_F)` with `y_Fᵀ Δ_F = target`; returns Δ_F and λ.
fn solve_free(q: Mat<f64>, r: &[f64], yf: &[f64], target: f64) -> Option<(Vec<f64>, f64)> {
    let x = factor_solve(q, r, yf)?;
    let m = r.len();
    let (yu, yv): (f64, f64) = (0..m).fold((0.0, 0.0), |(a, c), i| {
        (a + yf[i] * x[(i, 0)], c + yf[i] * x[(i, 1)])
    });
    if !(yv > 0.0 && yv.is_finite() && yu.is_finite()) {
        return None;
    }
    let lambda = -(target + yu) / yv;
    let dir: Vec<f64> = (0..m).map(|i| -x[(i, 0)] - lambda * x[(i, 1)]).collect();
    dir.iter().all(|v| v.is_finite()).then_some((dir, lambda))
}

/// `[Q_FF⁻¹ r, Q_FF⁻¹ y_F]` by one Cholesky factorisation of `Q_FF + δI`,
/// δ = [`RIDGE`] · max diag, and [`REFINE`] rounds of iterated Tikhonov refinement
/// `(Q_FF + δI) x_{k+1} = b + δ x_k`, which converge to the solution of `Q_FF x = b` on
/// the directions with eigenvalues well above δ. The ridge is needed: duplicated points
/// (Letter has many) make `Q_FF` exactly singular. `None` if even `Q_FF + δI` is not
/// numerically positive definite. `l` holds `Q_FF` and is factorised in place.
fn factor_solve(mut l: Mat<f64>, r: &[f64], yf: &[f64]) -> Option<Mat<f64>> {
    let m = r.len();
    let max_diag = (0..m).map(|i| l[(i, i)]).fold(0.0f64, f64::max);
    let ridge = RIDGE * max_diag;
    for i in 0..m {
        l[(i, i)] += ridge;
    }
    let l = cholesky(l)?;
    let b = Mat::from_fn(m, 2, |i, j| if j == 0 { r[i] } else { yf[i] });
    let mut x = b.clone();
    chol_solve(l.as_ref(), x.as_mut());
    for _ in 0..REFINE {
        let mut next = Mat::from_fn(m, 2, |i, j| b[(i, j)] + ridge * x[(i, j)]);
        chol_solve(l.as_ref(), next.as_mut());
        x = next;
    }
    Some(x)
}

/// Rounds without a new least number of set changes before an attempt is abandoned.
const STALL: usize = 4;
/// Relative slack of the feasibility checks before a commit.
const ROUNDING: f64 = 1e-10;
