//! The SMO iterate: α, the gradient `G = Qα + p`, the bound status of every variable,
//! the active (unshrunk) set, and the reused column buffers.
//!
//! Notation (libsvm's, generalised to per-variable bounds `l_i ≤ α_i ≤ u_i`):
//! `I_up = {t : y_t = +1, α_t < u_t} ∪ {t : y_t = −1, α_t > l_t}` and
//! `I_low = {t : y_t = +1, α_t > l_t} ∪ {t : y_t = −1, α_t < u_t}`. Moving along
//! `y_i e_i − y_j e_j` for `i ∈ I_up`, `j ∈ I_low` keeps `yᵀα` fixed.
//!
//! **Packed active set** (the role of libsvm's `swap_index`, without permuting the
//! problem): inside the SMO loop, everything the working-set selection and the gradient
//! update read per variable — `G`, `y`, the set penalties and `Q_tt` — is kept in
//! arrays ordered by position in the active list, so both passes over the active set
//! are contiguous and vectorisable instead of gathering through the index list. While
//! the loop runs, the packed `G` is authoritative for active variables; the full `g`
//! is brought up to date by [`State::unpack_g`] (at shrinking, reconstruction and the
//! end of the loop). α, the bound status and the full penalties are kept current on
//! every step (two entries per step).

use crate::cache::ColumnCache;
use crate::free_system::FreeFactor;
use crate::qmatrix::QMatrix;

/// Curvature used when `Q_ii + Q_jj − 2 y_i y_j Q_ij ≤ 0` (libsvm's τ).
pub(crate) const TAU: f64 = 1e-12;

/// `State::col_i_slot` when column `i` is in the `col_i` buffer.
const NO_SLOT: usize = usize::MAX;

/// Status bits: at the lower bound, at the upper bound (both when `l = u`).
pub(crate) const AT_LOWER: u8 = 1;
pub(crate) const AT_UPPER: u8 = 2;
/// Set-membership bits.
pub(crate) const IN_UP: u8 = 1;
pub(crate) const IN_LOW: u8 = 2;

pub(crate) struct State<'q, Q: QMatrix + ?Sized> {
    pub q: &'q Q,
    pub n: usize,
    pub alpha: Vec<f64>,
    pub g: Vec<f64>,
    pub p: Vec<f64>,
    pub y: Vec<f64>,
    pub lo: Vec<f64>,
    pub up: Vec<f64>,
    pub qd: Vec<f64>,
    pub status: Vec<u8>,
    pub sets: Vec<u8>,
    /// 0 for members of `I_up` (resp. `I_low`), −∞ otherwise: the selection adds them
    /// to `−y_t G_t` (resp. `y_t G_t`) instead of branching on membership.
    pub up_pen: Vec<f64>,
    pub low_pen: Vec<f64>,
    /// Active variables in increasing index order; `all_active` when it is `0..n`.
    pub active: Vec<usize>,
    pub all_active: bool,
    pub shrinking: bool,
    pub unshrink: bool,
    /// Column buffer indexed by position in `active` (by index when all active).
    pub col_i: Vec<f64>,
    /// Where column `i` of the current step is: the cache slot while some variables are
    /// shrunk (read in place, not copied), `NO_SLOT` for `col_i`. See [`State::col_i`].
    pub col_i_slot: usize,
    /// Compact columns at the active rows, used while shrunk.
    pub cache: ColumnCache,
    /// A reference point where `G` was exact on every variable: `g_ref = Q α_ref + p`.
    /// Gradient reconstruction after shrinking adds only the columns of the variables
    /// that moved since then (few, after a warm start) when that is cheaper than adding
    /// the columns of every nonzero α.
    pub alpha_ref: Vec<f64>,
    pub g_ref: Vec<f64>,
    /// Packed copies, indexed by position in `active` (see the module docs).
    pub pg: Vec<f64>,
    pub py: Vec<f64>,
    pub pup: Vec<f64>,
    pub plow: Vec<f64>,
    pub pqd: Vec<f64>,
    /// Stop once the objective falls to this value ([`crate::Smo`]'s objective floor);
    /// `f_track` is the objective, moved with every step while a floor is set.
    pub floor: Option<f64>,
    pub f_track: f64,
    /// A factor carried from an earlier solve, for the warm-start polish
    /// ([`crate::SmoParams::carry_factor`]); taken by its first attempt.
    pub carried: Option<FreeFactor>,
    /// Whether the polish hands out its settled factor (`factor_out`).
    pub carry: bool,
    pub factor_out: Option<FreeFactor>,
}

#[inline]
pub(crate) fn status_of(a: f64, l: f64, u: f64) -> u8 {
    let mut s = 0;
    if a >= u {
        s |= AT_UPPER;
    }
    if a <= l {
        s |= AT_LOWER;
    }
    s
}

#[inline]
pub(crate) fn sets_of(status: u8, y: f64) -> u8 {
    let (blocks_up, blocks_low) = if y > 0.0 {
        (AT_UPPER, AT_LOWER)
    } else {
        (AT_LOWER, AT_UPPER)
    };
    let mut s = 0;
    if status & blocks_up == 0 {
        s |= IN_UP;
    }
    if status & blocks_low == 0 {
        s |= IN_LOW;
    }
    s
}

impl<'q, Q: QMatrix + ?Sized> State<'q, Q> {
    /// Build the state at a box-feasible `alpha`, computing `G` in
    /// O(n · #nonzero α) column reads.
    pub fn new(
        q: &'q Q,
        alpha: Vec<f64>,
        p: Vec<f64>,
        y: Vec<f64>,
        lo: Vec<f64>,
        up: Vec<f64>,
        shrinking: bool,
    ) -> Self {
        let g = p.clone();
        let mut s = Self::with_gradient(q, alpha, g, p, y, lo, up, shrinking);
        for j in 0..s.n {
            let a = s.alpha[j];
            if a != 0.0 {
                s.q.add_column(j, a, &mut s.g);
            }
        }
        s.set_reference();
        s
    }

    /// Record the current `(α, G)` as the reference point (`G` must be exact everywhere).
    pub fn set_reference(&mut self) {
        self.alpha_ref.clone_from(&self.alpha);
        self.g_ref.clone_from(&self.g);
    }

    /// Build the state from `alpha` and a gradient `g = Qα + p` the caller already has.
    #[allow(clippy::too_many_arguments)]
    pub fn with_gradient(
        q: &'q Q,
        alpha: Vec<f64>,
        g: Vec<f64>,
        p: Vec<f64>,
        y: Vec<f64>,
        lo: Vec<f64>,
        up: Vec<f64>,
        shrinking: bool,
    ) -> Self {
        let n = alpha.len();
        let (alpha_ref, g_ref) = (alpha.clone(), g.clone());
        let mut qd = vec![0.0; n];
        q.diagonal_into(&mut qd);
        let mut s = State {
            q,
            n,
            g,
            status: vec![0; n],
            sets: vec![0; n],
            up_pen: vec![0.0; n],
            low_pen: vec![0.0; n],
            active: (0..n).collect(),
            all_active: true,
            shrinking,
            unshrink: false,
            col_i: vec![0.0; n],
            col_i_slot: NO_SLOT,
            cache: ColumnCache::new(n),
            alpha_ref,
            g_ref,
            pg: Vec::new(),
            py: Vec::new(),
            pup: Vec::new(),
            plow: Vec::new(),
            pqd: Vec::new(),
            floor: None,
            f_track: 0.0,
            carried: None,
            carry: false,
            factor_out: None,
            alpha,
            p,
            y,
            lo,
            up,
            qd,
        };
        for t in 0..n {
            s.refresh_status(t);
        }
        s
    }

    #[inline(always)]
    pub fn refresh_status(&mut self, t: usize) {
        let st = status_of(self.alpha[t], self.lo[t], self.up[t]);
        self.status[t] = st;
        let sets = sets_of(st, self.y[t]);
        self.sets[t] = sets;
        self.up_pen[t] = if sets & IN_UP != 0 {
            0.0
        } else {
            f64::NEG_INFINITY
        };
        self.low_pen[t] = if sets & IN_LOW != 0 {
            0.0
        } else {
            f64::NEG_INFINITY
        };
    }

    /// Refresh the status of variable `t` at active position `pos` (full and packed).
    #[inline(always)]
    pub fn refresh_status_at(&mut self, t: usize, pos: usize) {
        self.refresh_status(t);
        self.pup[pos] = self.up_pen[t];
        self.plow[pos] = self.low_pen[t];
    }

    /// Build the packed arrays from the full ones for the current active list.
    pub fn pack(&mut self) {
        let act = &self.active;
        let gather = |dst: &mut Vec<f64>, src: &[f64]| {
            dst.clear();
            dst.extend(act.iter().map(|&t| src[t]));
        };
        gather(&mut self.pg, &self.g);
        gather(&mut self.py, &self.y);
        gather(&mut self.pup, &self.up_pen);
        gather(&mut self.plow, &self.low_pen);
        gather(&mut self.pqd, &self.qd);
    }

    /// Write the packed `G` back into the full `g`.
    pub fn unpack_g(&mut self) {
        for (&t, &g) in self.active.iter().zip(&self.pg) {
            self.g[t] = g;
        }
    }

    /// Keep the packed entries where `keep` is true (the active list shrank the same way).
    pub fn compact_packed(&mut self, keep: &[bool]) {
        for v in [
            &mut self.pg,
            &mut self.py,
            &mut self.pup,
            &mut self.plow,
            &mut self.pqd,
        ] {
            let mut it = keep.iter();
            v.retain(|_| *it.next().unwrap_or(&true));
        }
    }

    /// Column `i` of `Q` at the active rows, position-indexed: into `col_i` when all
    /// variables are active, else the cached column (see [`State::col_i`]).
    #[inline(always)]
    pub fn fetch_col_i(&mut self, i: usize) {
        if self.all_active {
            self.q.column_into(i, &mut self.col_i);
            self.col_i_slot = NO_SLOT;
        } else {
            let (q, active) = (self.q, &self.active);
            let m = active.len();
            self.col_i_slot = self
                .cache
                .fetch(i, m, NO_SLOT, |buf| q.column_at(i, active, buf));
        }
    }

    /// The column fetched by [`State::fetch_col_i`] (at least the active rows).
    #[inline(always)]
    pub fn col_i(&self) -> &[f64] {
        if self.col_i_slot == NO_SLOT {
            &self.col_i
        } else {
            self.cache.column(self.col_i_slot)
        }
    }

    /// How far `α_t` can move along the direction `d` (`d > 0`: up; `d` is ±1 or ±y_t,
    /// never 0) before it reaches a bound, and that bound.
    #[inline]
    pub fn room(&self, t: usize, d: f64) -> (f64, f64) {
        if d > 0.0 {
            (self.up[t] - self.alpha[t], self.up[t])
        } else {
            (self.alpha[t] - self.lo[t], self.lo[t])
        }
    }

    /// Minimise along `y_i e_i − y_j e_j` (the pair from the working-set selection, at
    /// active positions `pos_i`, `pos_j`; `col_i` must already hold column `i` at the
    /// active rows), clip to the box, and update the packed `G` on the active set.
    #[inline(always)]
    pub fn take_step(&mut self, i: usize, pos_i: usize, j: usize, pos_j: usize) {
        let (yi, yj) = (self.y[i], self.y[j]);
        let (ai, aj) = (self.alpha[i], self.alpha[j]);
        let qij = self.col_i()[pos_j];
        let quad = (self.qd[i] + self.qd[j] - 2.0 * yi * yj * qij).max(TAU);
        let t = (-yi * self.pg[pos_i] + yj * self.pg[pos_j]) / quad;
        let (room_i, bound_i) = self.room(i, yi);
        let (room_j, bound_j) = self.room(j, -yj);
        let tm = t.min(room_i).min(room_j);
        let ai_new = if tm >= room_i { bound_i } else { ai + yi * tm };
        let aj_new = if tm >= room_j { bound_j } else { aj - yj * tm };
        let (dai, daj) = (ai_new - ai, aj_new - aj);
        if self.floor.is_some() {
            // f(α + Δ) − f(α) = G_i Δ_i + G_j Δ_j + ½(Q_ii Δ_i² + Q_jj Δ_j²) + Q_ij Δ_i Δ_j
            self.f_track += self.pg[pos_i] * dai
                + self.pg[pos_j] * daj
                + 0.5 * (self.qd[i] * dai * dai + self.qd[j] * daj * daj)
                + qij * dai * daj;
        }
        self.alpha[i] = ai_new;
        self.alpha[j] = aj_new;

        if self.all_active {
            self.q
                .add_column_with(j, daj, dai, &self.col_i, &mut self.pg);
        } else {
            let (q, active) = (self.q, &self.active);
            let m = active.len();
            let pin = self.col_i_slot;
            let sj = self
                .cache
                .fetch(j, m, pin, |buf| q.column_at(j, active, buf));
            let (ci, cj) = (self.cache.column(pin), self.cache.column(sj));
            for ((g, &ci), &cj) in self.pg.iter_mut().zip(&ci[..m]).zip(cj) {
                *g += dai * ci + daj * cj;
            }
        }
        self.refresh_status_at(i, pos_i);
        self.refresh_status_at(j, pos_j);
    }

    /// After `alpha[t]` changed from `old` (outside an SMO step): update `G` on every
    /// variable and the status.
    pub fn apply_single_change(&mut self, t: usize, old: f64) {
        let da = self.alpha[t] - old;
        self.q.add_column(t, da, &mut self.g);
        self.refresh_status(t);
    }

    /// `max_{I_up} −y G + max_{I_low} y G` over all variables (the maximal KKT
    /// violation; `G` must be exact on every variable).
    pub fn max_violation(&self) -> f64 {
        let (mut up, mut low) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for t in 0..self.n {
            let yg = self.y[t] * self.g[t];
            if self.sets[t] & IN_UP != 0 {
                up = up.max(-yg);
            }
            if self.sets[t] & IN_LOW != 0 {
                low = low.max(yg);
            }
        }
        if up == f64::NEG_INFINITY || low == f64::NEG_INFINITY {
            0.0
        } else {
            (up + low).max(0.0)
        }
    }

    /// libsvm's `ρ`: the mean of `y_t G_t` over free variables, or the midpoint of
    /// the bracket the bounded variables give when none is free. The multiplier of
    /// `yᵀα = Δ` is `−ρ`; for C-SVC the bias is `b = −ρ`.
    pub fn rho(&self) -> f64 {
        let (mut ub, mut lb) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut sum, mut nfree) = (0.0, 0usize);
        for t in 0..self.n {
            let yg = self.y[t] * self.g[t];
            let sets = self.sets[t];
            match (sets & IN_UP != 0, sets & IN_LOW != 0) {
                (true, true) => {
                    sum += yg;
                    nfree += 1;
                }
                // At the optimum ρ ≤ y_t G_t on I_up and ρ ≥ y_t G_t on I_low.
                (true, false) => ub = ub.min(yg),
                (false, true) => lb = lb.max(yg),
                (false, false) => {}
            }
        }
        if nfree > 0 {
            sum / nfree as f64
        } else if ub.is_finite() && lb.is_finite() {
            0.5 * (ub + lb)
        } else if ub.is_finite() {
            ub
        } else if lb.is_finite() {
            lb
        } else {
            0.0
        }
    }

    /// `½αᵀQα + pᵀα = Σ α_t (G_t + p_t) / 2`.
    pub fn objective(&self) -> f64 {
        0.5 * self
            .alpha
            .iter()
            .zip(&self.g)
            .zip(&self.p)
            .map(|((a, g), p)| a * (g + p))
            .sum::<f64>()
    }
}
