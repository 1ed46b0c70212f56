//! The free-variable system of the [active-set polish](crate::polish), factorised once
//! and updated as the sets change.
//!
//! A polish round solves, for the guessed free set F,
//!
//! ```text
//! (Q_FF + δI) Δ_F + λ y_F = −r,   y_Fᵀ Δ_F = t
//! ```
//!
//! (δ a tiny ridge, removed again by iterated Tikhonov refinement). Between rounds, and
//! after a warm start, F changes in a few variables only, so the Cholesky factor
//! `L Lᵀ = Q_BB + δI` of a *base* set B (the first round's F) is kept, and a later F is
//! handled without refactorising (the bordered-system update of Gill, Golub, Murray &
//! Saunders 1974, "Methods for modifying matrix factorizations", in its Schur-complement
//! form):
//!
//! - variables added to F (not in B) border the matrix: with `U = B ∪ A`,
//!   `M = [[Q_BB + δI, Q_BA], [Q_AB, Q_AA + δI]]` is solved through `L` and the small
//!   Schur complement `S = Q_AA + δI − WᵀW`, `W = L⁻¹ Q_BA`;
//! - variables of U that left F (the set R) are pinned by extra constraints `Δ_R = 0`
//!   (their bound moves are already in r), which join `y_Uᵀ Δ_U = t` in the constraint
//!   block `N = [E_R, y_U]`: `Δ = −M⁻¹(b + Nν)`, `ν = −(NᵀM⁻¹N)⁻¹(c + NᵀM⁻¹b)`,
//!   `c = (0, t)`; the last entry of ν is λ.
//!
//! A round then costs `O(|B|² (|R| + |A| + refinements))` instead of `|F|³/3`. Later
//! rounds often hold the same columns and only move variables between F and R: they
//! reuse `W`, the factor of `S` and the columns of `M⁻¹N` computed before (`M⁻¹e_k`,
//! `M⁻¹y_U`), so such a round costs the refinements and the new pinned columns only
//! (a warm solve at n = 2000, C = 10 after one flip: rounds 2–4 of 4 hold the same 557
//! columns; 8 % of the solve). When
//! `|R| + |A|` exceeds [`REBUILD_FRACTION`] of `|B|` (plus [`REBUILD_SLACK`]), F becomes
//! the new base and is factorised afresh.
//!
//! The factor can outlive its solve ([`FreeFactor`], [`crate::SmoParams::carry_factor`]):
//! a solve hands out the factor of its last settled polish (or factorises its final free
//! set), and the next warm start's polish takes it as its base B instead of factorising.
//! Labels that flipped in between only change signs: with `Q = S K S` (S the labels'
//! signs on the diagonal), `Q'_BB + δI = D (Q_BB + δI) D` for the diagonal D of the
//! flips, so `D L` is a factor of the new matrix. The sign vector is applied to the
//! vectors the factor solves with (`L'⁻¹ v = L⁻¹ D v`, `L'⁻ᵀ v = D L⁻ᵀ v`), so a flip
//! costs nothing and the factor is shared, not copied.
//!
//! The columns `Q[act, U]` (every active row) of the variables read so far are kept as
//! well: the added ones give the Schur blocks, and the held ones the linear term's bound
//! moves. A carried base's columns are not read at all (a rebuild reads them), and no
//! round needs the free columns for the gradient: the last refinement round's leftover
//! ([`Solved::corr`]) gives `Q_FF Δ_F`, so the free variables' new gradient is
//! `−λ y_F + corr` (the polish reads one column per other active row instead). At
//! n = 2000, C = 10 after one flip this skips reading ~540 columns (0.9 ms of a 4.5 ms
//! warm solve). All factorisations and products run sequentially (`Par::Seq`): the
//! result does not depend on the thread count.

use crate::qmatrix::QMatrix;
use faer::dyn_stack::MemStack;
use faer::linalg::cholesky::llt;
use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::{
    solve_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, Mat, MatRef, Par};
use std::sync::Arc;

/// Relative ridge δ / max diag of the factorised matrices.
pub(crate) const RIDGE: f64 = 1e-8;
/// Rounds of iterated Tikhonov refinement after the first solve (at most) ...
pub(crate) const REFINE: usize = 3;
/// ... stopped early once a round changes no entry by more than this times the largest.
const REFINE_STOP: f64 = 1e-12;
/// Refactorise when the changes since the base exceed this fraction of the base ...
const REBUILD_FRACTION: f64 = 0.125;
/// ... plus this many variables.
const REBUILD_SLACK: usize = 8;

const NO_SLOT: usize = usize::MAX;

/// A Cholesky factor `D L` of `Q_BB + δI` for a set B of variables (by index), kept past
/// the end of a solve so that the next warm start's polish starts from it (module docs;
/// [`crate::SmoParams::carry_factor`]). Opaque: it is valid only for the same `Q` up to
/// the signs of flipped labels, which the front ends ([`crate::CSvc::solve_from`]) track.
#[derive(Clone)]
pub struct FreeFactor {
    /// The variables of B, in the factor's order.
    pub(crate) vars: Vec<usize>,
    /// `L`, lower triangular (shared: flips only change `sign`).
    pub(crate) l: Arc<Mat<f64>>,
    /// The diagonal of D (±1), one per variable of B.
    pub(crate) sign: Vec<f64>,
    /// δ.
    pub(crate) ridge: f64,
}

impl FreeFactor {
    /// Number of variables in B.
    pub fn len(&self) -> usize {
        self.vars.len()
    }

    /// Whether B is empty (never, for a factor a solve hands out).
    pub fn is_empty(&self) -> bool {
        self.vars.is_empty()
    }

    /// Factorise `Q_BB + δI` for the variables `vars` (δ = [`RIDGE`] · max diag, as a
    /// polish round does); `None` if it is not numerically positive definite.
    pub(crate) fn compute<Q: QMatrix + ?Sized>(q: &Q, vars: Vec<usize>) -> Option<Self> {
        let m = vars.len();
        let mut a = gather_block(q, &vars);
        let max_diag = (0..m).map(|i| a[(i, i)]).fold(0.0f64, f64::max);
        let ridge = RIDGE * max_diag;
        for i in 0..m {
            a[(i, i)] += ridge;
        }
        let l = cholesky(a)?;
        Some(Self {
            vars,
            l: Arc::new(l),
            sign: vec![1.0; m],
            ridge,
        })
    }
}

impl FreeFactor {
    /// The factor of B without the variables at positions `gone` (increasing): with R
    /// the rows of L that stay, `R Rᵀ = R_K R_Kᵀ + R_G R_Gᵀ` (K, G: the columns of the
    /// kept and the gone variables; R_K lower triangular), so the new L is R_K after a
    /// rank-|G| update by the columns R_G (faer's `rank_r_update_clobber`), O(m²|G|). The
    /// signs of the kept variables stay. `None` if the update fails.
    pub(crate) fn without(&self, gone: &[usize]) -> Option<Self> {
        let m = self.vars.len();
        let mut is_gone = vec![false; m];
        for &k in gone {
            is_gone[k] = true;
        }
        let keep: Vec<usize> = (0..m).filter(|&k| !is_gone[k]).collect();
        let l = &*self.l;
        // Column by column from L's contiguous columns (column-major).
        let (mk, mg) = (keep.len(), gone.len());
        let mut lk = Mat::<f64>::zeros(mk, mk);
        for (j, &kj) in keep.iter().enumerate() {
            let src = l.col(kj).try_as_col_major().expect("owned Mat").as_slice();
            let dst = lk
                .col_mut(j)
                .try_as_col_major_mut()
                .expect("owned Mat")
                .as_slice_mut();
            for (d, &ki) in dst[j..].iter_mut().zip(&keep[j..]) {
                *d = src[ki];
            }
        }
        let mut w = Mat::<f64>::zeros(mk, mg);
        for (j, &gj) in gone.iter().enumerate() {
            let src = l.col(gj).try_as_col_major().expect("owned Mat").as_slice();
            let dst = w
                .col_mut(j)
                .try_as_col_major_mut()
                .expect("owned Mat")
                .as_slice_mut();
            // Rows below gj only (L is lower triangular).
            let first = keep.partition_point(|&k| k < gj);
            for (d, &ki) in dst[first..].iter_mut().zip(&keep[first..]) {
                *d = src[ki];
            }
        }
        let mut alpha = faer::Col::<f64>::ones(mg);
        faer::linalg::cholesky::llt::update::rank_r_update_clobber(
            lk.as_mut(),
            w.as_mut(),
            alpha.as_diagonal_mut(),
        )
        .ok()?;
        Some(Self {
            vars: keep.iter().map(|&k| self.vars[k]).collect(),
            l: Arc::new(lk),
            sign: keep.iter().map(|&k| self.sign[k]).collect(),
            ridge: self.ridge,
        })
    }
}

impl std::fmt::Debug for FreeFactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FreeFactor")
            .field("variables", &self.vars.len())
            .field("ridge", &self.ridge)
            .finish()
    }
}

/// A solved round ([`FreeSystem::solve`]).
pub(crate) struct Solved {
    /// `Δ_F`, in `f`'s order.
    pub dir: Vec<f64>,
    /// λ, the multiplier of `y_Fᵀ Δ_F = t`.
    pub lambda: f64,
    /// `δ (z_prev − z)_F` of the last refinement round, in `f`'s order: that round solved
    /// `(Q_UU + δI) z + Nν = −b + δ z_prev` (module docs), so
    /// `Q_FF Δ_F = −r − λ y_F + corr` up to the rounding of the solves, and the
    /// gradient of the free variables after the step is `r + Q_FF Δ_F = −λ y_F + corr`
    /// without reading their columns.
    pub corr: Vec<f64>,
}

/// The kept factor and columns (module docs). Indices are positions in the active list
/// the polish works on.
pub(crate) struct FreeSystem {
    /// Positions whose columns are held: the factorised base `cols[..base]`, then the
    /// added ones.
    cols: Vec<usize>,
    /// `slot[p]`: index of position p in `cols`, or [`NO_SLOT`].
    slot: Vec<usize>,
    /// `qa[k]` = column `cols[k]` of Q at every active row.
    qa: Vec<Vec<f64>>,
    base: usize,
    /// Lower triangular L with `D L` a Cholesky factor of `Q_BB + δI`.
    l: Arc<Mat<f64>>,
    /// The diagonal of D (±1) of a carried factor; `None` (all +1) after a factorisation.
    sign: Option<Vec<f64>>,
    ridge: f64,
    /// `M⁻¹` of the held columns and the products `M⁻¹ N` already computed, kept from
    /// round to round while the held columns stay the same (later rounds often change
    /// only which held variables are pinned); dropped when columns are added or the base
    /// is refactorised.
    inv: Option<InvCache>,
}

/// The parts of `M⁻¹` that depend only on the held columns ([`FreeSystem::inv`]).
struct InvCache {
    bordered: Bordered,
    /// `M⁻¹ e_k` by slot k, for the slots pinned in some round so far.
    unit: Vec<Option<Vec<f64>>>,
    /// `M⁻¹ y_U`.
    y: Option<Vec<f64>>,
}

impl FreeSystem {
    /// Gather the columns of the free positions `f` and factorise `Q_ff + δI`; `None` if
    /// it is not numerically positive definite.
    pub fn new<Q: QMatrix + ?Sized>(q: &Q, act: &[usize], f: &[usize]) -> Option<Self> {
        let mut s = FreeSystem {
            cols: Vec::new(),
            slot: vec![NO_SLOT; act.len()],
            qa: Vec::new(),
            base: 0,
            l: Arc::new(Mat::zeros(0, 0)),
            sign: None,
            ridge: 0.0,
            inv: None,
        };
        s.add_columns(q, act, f);
        s.refactor()?;
        Some(s)
    }

    /// Start from a carried factor (module docs) instead of factorising: its variables
    /// become the base B. Variables of the factor that are not active (shrunk since)
    /// are taken out of it (`without`); `None` when more than [`REBUILD_FRACTION`] of
    /// them are (`act` is increasing).
    pub fn from_factor(act: &[usize], f: FreeFactor) -> Option<Self> {
        let pos: Vec<Option<usize>> = f.vars.iter().map(|v| act.binary_search(v).ok()).collect();
        let gone: Vec<usize> = (0..pos.len()).filter(|&k| pos[k].is_none()).collect();
        let f = if gone.is_empty() {
            f
        } else if gone.len() as f64 <= REBUILD_FRACTION * pos.len() as f64 {
            f.without(&gone)?
        } else {
            return None;
        };
        let pos: Vec<usize> = pos.into_iter().flatten().collect();
        let mut s = FreeSystem {
            cols: Vec::new(),
            slot: vec![NO_SLOT; act.len()],
            qa: Vec::new(),
            base: pos.len(),
            l: f.l,
            sign: f.sign.iter().any(|&d| d < 0.0).then_some(f.sign),
            ridge: f.ridge,
            inv: None,
        };
        // The base's columns are not read here: a round needs only the added ones
        // (`block`) and reads the few bound-moved ones itself; `fill_columns` reads them
        // if a rebuild refactorises.
        for &p in &pos {
            s.slot[p] = s.cols.len();
            s.cols.push(p);
            s.qa.push(Vec::new());
        }
        Some(s)
    }

    /// The base factor, to be carried to the next solve (`act` maps positions to
    /// variables).
    pub fn into_factor(self, act: &[usize]) -> FreeFactor {
        let b = self.base;
        FreeFactor {
            vars: self.cols[..b].iter().map(|&p| act[p]).collect(),
            sign: self.sign.unwrap_or_else(|| vec![1.0; b]),
            l: self.l,
            ridge: self.ridge,
        }
    }

    /// `v ← D v` on the base rows (nothing without signs).
    fn apply_sign(&self, mut v: faer::MatMut<'_, f64>) {
        if let Some(sign) = &self.sign {
            for (k, &d) in sign.iter().enumerate() {
                if d < 0.0 {
                    for c in 0..v.ncols() {
                        v[(k, c)] = -v[(k, c)];
                    }
                }
            }
        }
    }

    /// Column `k` of Q at every active row, if held (and read) for position `p`.
    pub fn column(&self, p: usize) -> Option<&[f64]> {
        match self.slot[p] {
            NO_SLOT => None,
            k if self.qa[k].is_empty() => None,
            k => Some(&self.qa[k]),
        }
    }

    /// Read the held columns a carried base left unread (`from_factor`).
    fn fill_columns<Q: QMatrix + ?Sized>(&mut self, q: &Q, act: &[usize]) {
        for (k, &p) in self.cols.iter().enumerate() {
            if self.qa[k].is_empty() {
                self.qa[k] = read_column(q, act, p);
            }
        }
    }

    fn add_columns<Q: QMatrix + ?Sized>(&mut self, q: &Q, act: &[usize], ps: &[usize]) {
        if !ps.is_empty() {
            self.inv = None;
        }
        for &p in ps {
            self.slot[p] = self.cols.len();
            self.cols.push(p);
            self.qa.push(read_column(q, act, p));
        }
    }

    /// `Q_UU` restricted to slots `a..b` × `c..d` (rows × columns), `+ ridge` on the
    /// diagonal when the blocks coincide.
    fn block(&self, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> Mat<f64> {
        let row_pos = &self.cols[rows.clone()];
        let mut out = Mat::<f64>::zeros(rows.len(), cols.len());
        for (c, k) in cols.clone().enumerate() {
            let src = &self.qa[k];
            let dst = out
                .col_mut(c)
                .try_as_col_major_mut()
                .expect("owned Mat is column-major")
                .as_slice_mut();
            for (d, &p) in dst.iter_mut().zip(row_pos) {
                *d = src[p];
            }
        }
        if rows == cols {
            for i in 0..rows.len() {
                out[(i, i)] += self.ridge;
            }
        }
        out
    }

    /// Make every held column part of the base and factorise it.
    fn refactor(&mut self) -> Option<()> {
        self.inv = None;
        self.base = self.cols.len();
        let max_diag = (0..self.base)
            .map(|k| self.qa[k][self.cols[k]])
            .fold(0.0f64, f64::max);
        self.ridge = RIDGE * max_diag;
        self.l = Arc::new(cholesky(self.block(0..self.base, 0..self.base))?);
        self.sign = None;
        Some(())
    }

    /// Drop the columns not in `f` and refactorise on `f`.
    fn rebuild<Q: QMatrix + ?Sized>(&mut self, q: &Q, act: &[usize], f: &[usize]) -> Option<()> {
        let missing: Vec<usize> = f
            .iter()
            .copied()
            .filter(|&p| self.slot[p] == NO_SLOT)
            .collect();
        let (old_cols, mut old_qa) = (std::mem::take(&mut self.cols), std::mem::take(&mut self.qa));
        self.slot.fill(NO_SLOT);
        let mut in_f = vec![false; act.len()];
        for &p in f {
            in_f[p] = true;
        }
        for (k, &p) in old_cols.iter().enumerate() {
            if in_f[p] {
                self.slot[p] = self.cols.len();
                self.cols.push(p);
                self.qa.push(std::mem::take(&mut old_qa[k]));
            }
        }
        self.add_columns(q, act, &missing);
        self.fill_columns(q, act);
        self.refactor()
    }

    /// Solve the round's system for the free positions `f` (module docs): `r` is the
    /// linear term on `f` (in `f`'s order), `y` the signs by active position, `target`
    /// the required `y_fᵀ Δ_f`. Returns `Δ_f` (in `f`'s order), λ and the refinement's
    /// leftover ([`Solved`]); `None` when a factorisation fails or the result is not
    /// finite.
    pub fn solve<Q: QMatrix + ?Sized>(
        &mut self,
        q: &Q,
        act: &[usize],
        f: &[usize],
        r: &[f64],
        y: &[f64],
        target: f64,
    ) -> Option<Solved> {
        let mut in_f = vec![false; act.len()];
        for &p in f {
            in_f[p] = true;
        }
        let added: Vec<usize> = f
            .iter()
            .copied()
            .filter(|&p| self.slot[p] == NO_SLOT)
            .collect();
        let removed = self.cols.iter().filter(|&&p| !in_f[p]).count();
        let limit = (REBUILD_FRACTION * self.base as f64) as usize + REBUILD_SLACK;
        if added.len() + removed > limit {
            self.rebuild(q, act, f)?;
        } else {
            self.add_columns(q, act, &added);
        }
        let u = self.cols.len();
        let mut b = Mat::<f64>::zeros(u, 1);
        for (&p, &rv) in f.iter().zip(r) {
            b[(self.slot[p], 0)] = rv;
        }
        // N = [E_R, y_U], c = (0, …, 0, t).
        let pinned: Vec<usize> = (0..u).filter(|&k| !in_f[self.cols[k]]).collect();
        let nc = pinned.len() + 1;
        let mut n_mat = Mat::<f64>::zeros(u, nc);
        for (c, &k) in pinned.iter().enumerate() {
            n_mat[(k, c)] = 1.0;
        }
        for k in 0..u {
            n_mat[(k, nc - 1)] = y[self.cols[k]];
        }
        let mut cache = match self.inv.take() {
            Some(c) => c,
            None => InvCache {
                bordered: Bordered::new(self)?,
                unit: vec![None; u],
                y: None,
            },
        };
        let c_mat = self.minv_n(&mut cache, &pinned, &n_mat);
        let inv = &cache.bordered;
        let g_chol = cholesky(mul_tn(n_mat.as_ref(), c_mat.as_ref()))?;
        let mut z = Mat::<f64>::zeros(u, 1);
        let mut prev = Mat::<f64>::zeros(u, 1);
        let mut last = f64::INFINITY;
        let mut nu = Mat::<f64>::zeros(nc, 1);
        for round in 0..=REFINE {
            // (M − δI) z + Nν = −b  ⇐  M z' + Nν = −(b − δ z).
            let rhs = Mat::from_fn(u, 1, |k, _| b[(k, 0)] - self.ridge * z[(k, 0)]);
            let zb = inv.apply(self, &rhs);
            let mut rhs_nu = mul_tn(n_mat.as_ref(), zb.as_ref());
            rhs_nu[(nc - 1, 0)] += target;
            chol_solve(g_chol.as_ref(), rhs_nu.as_mut());
            nu = -rhs_nu;
            let next = -(&zb + &c_mat * &nu);
            // Stop refining once a round changes nothing above rounding.
            let (change, size) = (0..u).fold((0.0f64, 0.0f64), |(c, m), k| {
                (
                    c.max((next[(k, 0)] - z[(k, 0)]).abs()),
                    m.max(next[(k, 0)].abs()),
                )
            });
            prev = std::mem::replace(&mut z, next);
            // Stop once this round's change, or the next one's predicted from the
            // contraction so far (change² / previous change: the refinement converges
            // geometrically), is at rounding; the leftover is in `corr` either way.
            if round > 0
                && (change <= REFINE_STOP * size || change * change <= REFINE_STOP * size * last)
            {
                break;
            }
            last = change;
        }
        self.inv = Some(cache);
        let lambda = nu[(nc - 1, 0)];
        let dir: Vec<f64> = f.iter().map(|&p| z[(self.slot[p], 0)]).collect();
        let corr: Vec<f64> = f
            .iter()
            .map(|&p| self.ridge * (prev[(self.slot[p], 0)] - z[(self.slot[p], 0)]))
            .collect();
        (lambda.is_finite() && dir.iter().chain(&corr).all(|v| v.is_finite())).then_some(Solved {
            dir,
            lambda,
            corr,
        })
    }
}

impl FreeSystem {
    /// `C = M⁻¹ N` for `N = [E_pinned, y_U]` (`n_mat`), its columns taken from `cache`
    /// where an earlier round computed them, the others in one solve and kept.
    fn minv_n(&self, cache: &mut InvCache, pinned: &[usize], n_mat: &Mat<f64>) -> Mat<f64> {
        let (u, nc) = (n_mat.nrows(), n_mat.ncols());
        // Cached columns are copied in; the others (`todo`) are solved for at once,
        // written from the solve's output and kept.
        let mut out = Mat::zeros(u, nc);
        let mut todo = Vec::new();
        for c in 0..nc {
            let cached = match pinned.get(c) {
                Some(&k) => cache.unit[k].as_deref(),
                None => cache.y.as_deref(),
            };
            match cached {
                Some(col) => out.col_mut(c).copy_from(faer::ColRef::from_slice(col)),
                None => todo.push(c),
            }
        }
        if !todo.is_empty() {
            let v = Mat::from_fn(u, todo.len(), |r, c| n_mat[(r, todo[c])]);
            let solved = cache.bordered.apply(self, &v);
            for (j, &c) in todo.iter().enumerate() {
                out.col_mut(c).copy_from(solved.col(j));
                let col = solved.col(j).iter().copied().collect();
                match pinned.get(c) {
                    Some(&k) => cache.unit[k] = Some(col),
                    None => cache.y = Some(col),
                }
            }
        }
        out
    }
}

/// `M⁻¹` for the bordered matrix of the held columns (module docs): `W` and the Schur
/// factor, applied with the system's base factor.
struct Bordered {
    /// `W = L⁻¹ Q_BA`.
    w: Mat<f64>,
    /// Cholesky factor of the Schur complement `Q_AA + δI − WᵀW`.
    s: Mat<f64>,
}

impl Bordered {
    fn new(sys: &FreeSystem) -> Option<Self> {
        let (b, u) = (sys.base, sys.cols.len());
        // W = (D L)⁻¹ Q_BA = L⁻¹ D Q_BA.
        let mut w = sys.block(0..b, b..u);
        sys.apply_sign(w.as_mut());
        solve_lower_triangular_in_place((*sys.l).as_ref(), w.as_mut(), Par::Seq);
        let mut d = sys.block(b..u, b..u);
        matmul(
            d.as_mut(),
            Accum::Add,
            w.transpose(),
            w.as_ref(),
            -1.0,
            Par::Seq,
        );
        let s = cholesky(d)?;
        Some(Self { w, s })
    }

    /// `M⁻¹ V` (V has `|U|` rows) for the system `sys` this was built from.
    fn apply(&self, sys: &FreeSystem, v: &Mat<f64>) -> Mat<f64> {
        let b = sys.base;
        let mut out = v.clone();
        let (mut top, mut bottom) = out.as_mut().split_at_row_mut(b);
        let l = (*sys.l).as_ref();
        sys.apply_sign(top.rb_mut());
        solve_lower_triangular_in_place(l, top.rb_mut(), Par::Seq);
        matmul(
            bottom.rb_mut(),
            Accum::Add,
            self.w.transpose(),
            top.rb(),
            -1.0,
            Par::Seq,
        );
        chol_solve(self.s.as_ref(), bottom.rb_mut());
        matmul(
            top.rb_mut(),
            Accum::Add,
            self.w.as_ref(),
            bottom.rb(),
            -1.0,
            Par::Seq,
        );
        solve_upper_triangular_in_place(l.transpose(), top.rb_mut(), Par::Seq);
        sys.apply_sign(top);
        out
    }
}

/// Column of active position `p` of Q at every active row.
fn read_column<Q: QMatrix + ?Sized>(q: &Q, act: &[usize], p: usize) -> Vec<f64> {
    let mut col = vec![0.0; act.len()];
    q.column_at(act[p], act, &mut col);
    col
}

/// `Aᵀ B`, sequential.
fn mul_tn(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> Mat<f64> {
    let mut out = Mat::zeros(a.ncols(), b.ncols());
    matmul(
        out.as_mut(),
        Accum::Replace,
        a.transpose(),
        b,
        1.0,
        Par::Seq,
    );
    out
}

/// `Q[idx, idx]`, column by column.
pub(crate) fn gather_block<Q: QMatrix + ?Sized>(q: &Q, idx: &[usize]) -> Mat<f64> {
    let m = idx.len();
    let mut a = Mat::<f64>::zeros(m, m);
    for (c, &j) in idx.iter().enumerate() {
        let col = a
            .col_mut(c)
            .try_as_col_major_mut()
            .expect("owned Mat is column-major");
        q.column_at(j, idx, col.as_slice_mut());
    }
    a
}

/// The lower Cholesky factor of `a` (sequential, in place); `None` if `a` is not
/// numerically positive definite (the callers fall back; `a` is square by construction).
pub(crate) fn cholesky(a: Mat<f64>) -> Option<Mat<f64>> {
    mkc_linalg::cholesky_lower(a).ok()
}

/// `rhs ← (L Lᵀ)⁻¹ rhs` for a lower Cholesky factor `l`.
pub(crate) fn chol_solve(l: MatRef<'_, f64>, rhs: faer::MatMut<'_, f64>) {
    if l.nrows() == 0 {
        return;
    }
    llt::solve::solve_in_place(l, rhs, Par::Seq, MemStack::new(&mut []));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qmatrix::DenseSigned;

    /// The round's system solved directly: `[[Q_ff, y_f], [y_fᵀ, 0]] [Δ; λ] = [−r; t]`
    /// by a dense LU.
    fn direct(q: &Mat<f64>, f: &[usize], r: &[f64], y: &[f64], t: f64) -> (Vec<f64>, f64) {
        let m = f.len();
        let a = Mat::from_fn(m + 1, m + 1, |i, j| match (i < m, j < m) {
            (true, true) => q[(f[i], f[j])],
            (true, false) => y[f[i]],
            (false, true) => y[f[j]],
            (false, false) => 0.0,
        });
        let rhs = Mat::from_fn(m + 1, 1, |i, _| if i < m { -r[i] } else { t });
        let x = faer::linalg::solvers::Solve::solve(&a.partial_piv_lu(), &rhs);
        ((0..m).map(|i| x[(i, 0)]).collect(), x[(m, 0)])
    }

    /// Updates after adding and removing variables (and a rebuild when many change)
    /// give the solution of the system solved from scratch.
    #[test]
    fn updated_factor_solves_the_changed_system() {
        let n = 40;
        let mut u = crate::test_uniform(0x9e37_79b9_7f4a_7c15u64);
        let mut next = move || u() - 0.5;
        let x = Mat::from_fn(n, 6, |_, _| next());
        let k = Mat::from_fn(n, n, |i, j| {
            let d2: f64 = (0..6).map(|c| (x[(i, c)] - x[(j, c)]).powi(2)).sum();
            (-d2).exp()
        });
        let y: Vec<f64> = (0..n)
            .map(|i| if i % 3 == 0 { -1.0 } else { 1.0 })
            .collect();
        let q = DenseSigned::new(k.as_ref(), 2.0, Some(&y)).unwrap();
        let qd = Mat::from_fn(n, n, |i, j| q.entry(i, j));
        let act: Vec<usize> = (0..n).collect();
        let base: Vec<usize> = (0..30).collect();
        let mut sys = FreeSystem::new(&q, &act, &base).unwrap();
        let sets: [Vec<usize>; 6] = [
            base.clone(),
            (2..33).filter(|&p| p != 17).collect(), // two removed and one more, three added
            // the same held columns, another variable pinned (the kept M⁻¹ and M⁻¹ e_17)
            (2..33).filter(|&p| p != 17 && p != 20).collect(),
            (2..33).filter(|&p| p != 20).collect(), // 17 free again, 20 still pinned
            (5..36).collect(),                      // drift further from the base
            (10..40).collect(),                     // many changes: a rebuild
        ];
        for f in &sets {
            let r: Vec<f64> = f.iter().map(|_| next()).collect();
            let t = next();
            let Solved {
                dir,
                lambda: lam,
                corr,
            } = sys.solve(&q, &act, f, &r, &y, t).unwrap();
            let (want, want_lam) = direct(&qd, f, &r, &y, t);
            let err = dir
                .iter()
                .zip(&want)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0f64, f64::max);
            let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            assert!(err < 1e-7 * scale, "set {f:?}: error {err} (scale {scale})");
            assert!((lam - want_lam).abs() < 1e-7 * (1.0 + want_lam.abs()));
            // The free gradient after the step without reading columns: Q_FF Δ_F = −r −
            // λ y_F + corr, to the rounding of the solves.
            for (i, &pi) in f.iter().enumerate() {
                let qd_dir: f64 = f.iter().zip(&dir).map(|(&pj, d)| qd[(pi, pj)] * d).sum();
                let res = qd_dir + r[i] + lam * y[pi] - corr[i];
                assert!(
                    res.abs() < 1e-10 * scale,
                    "set {f:?}: row {pi} residual {res}"
                );
            }
        }
    }

    /// `(D L)(D L)ᵀ` of a factor (the lower triangle of L: the factorisation leaves
    /// the strict upper one as it was).
    fn product(f: &FreeFactor) -> Mat<f64> {
        let m = f.len();
        let dl = Mat::from_fn(
            m,
            m,
            |i, j| if i >= j { f.sign[i] * f.l[(i, j)] } else { 0.0 },
        );
        &dl * dl.transpose()
    }

    /// A factor without some of its variables is the factor of the matrix without
    /// them; a factor whose signs follow flipped labels solves the flipped system.
    #[test]
    fn carried_factor_follows_removals_and_flips() {
        let n = 30;
        let mut u = crate::test_uniform(0x2545_f491_4f6c_dd1du64);
        let mut next = move || u() - 0.5;
        let x = Mat::from_fn(n, 4, |_, _| next());
        let k = Mat::from_fn(n, n, |i, j| {
            let d2: f64 = (0..4).map(|c| (x[(i, c)] - x[(j, c)]).powi(2)).sum();
            (-d2).exp()
        });
        let y: Vec<f64> = (0..n)
            .map(|i| if i % 4 == 1 { -1.0 } else { 1.0 })
            .collect();
        let q = DenseSigned::new(k.as_ref(), 1.5, Some(&y)).unwrap();
        let vars: Vec<usize> = (0..n).filter(|v| v % 5 != 2).collect();
        let f = FreeFactor::compute(&q, vars.clone()).unwrap();
        let want = |f: &FreeFactor, q: &DenseSigned<'_>| {
            Mat::from_fn(f.len(), f.len(), |i, j| {
                q.entry(f.vars[i], f.vars[j]) + if i == j { f.ridge } else { 0.0 }
            })
        };
        assert!((product(&f) - want(&f, &q)).norm_max() < 1e-12);
        for gone in [vec![0], vec![3, 4, 17], vec![f.len() - 1]] {
            let g = f.without(&gone).unwrap();
            assert_eq!(g.len(), f.len() - gone.len());
            assert!(!gone.iter().any(|&k| g.vars.contains(&f.vars[k])));
            assert!((product(&g) - want(&g, &q)).norm_max() < 1e-12, "{gone:?}");
        }
        // Flip two labels, one inside the factor's set and one outside.
        let mut y2 = y.clone();
        y2[3] = -y2[3];
        y2[2] = -y2[2];
        let q2 = DenseSigned::new(k.as_ref(), 1.5, Some(&y2)).unwrap();
        let mut f2 = f.clone();
        for (d, &v) in f2.sign.iter_mut().zip(&f2.vars) {
            *d *= y[v] * y2[v];
        }
        assert!((product(&f2) - want(&f2, &q2)).norm_max() < 1e-12);
        // Solves through the carried factor (some variables not active, one added).
        let act: Vec<usize> = (0..n).filter(|&v| v != 8).collect();
        let mut sys = FreeSystem::from_factor(&act, f2).unwrap();
        let q2d = Mat::from_fn(act.len(), act.len(), |i, j| q2.entry(act[i], act[j]));
        let ya: Vec<f64> = act.iter().map(|&v| y2[v]).collect();
        let free: Vec<usize> = (0..act.len())
            .filter(|&p| act[p] % 5 != 2 || act[p] == 12)
            .collect();
        let r: Vec<f64> = free.iter().map(|&p| (p as f64 * 0.37).sin()).collect();
        let Solved {
            dir, lambda: lam, ..
        } = sys.solve(&q2, &act, &free, &r, &ya, 0.25).unwrap();
        let (dref, lref) = direct(&q2d, &free, &r, &ya, 0.25);
        let err = dir
            .iter()
            .zip(&dref)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f64, f64::max);
        let scale = dref.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        assert!(err < 1e-7 * scale, "error {err}");
        assert!((lam - lref).abs() < 1e-7 * (1.0 + lref.abs()));
    }
}
