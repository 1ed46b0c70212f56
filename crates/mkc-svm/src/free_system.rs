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
//! A round then costs `O(|B|² (|R| + |A| + refinements))` instead of `|F|³/3`. When
//! `|R| + |A|` exceeds [`REBUILD_FRACTION`] of `|B|` (plus [`REBUILD_SLACK`]), F becomes
//! the new base and is factorised afresh.
//!
//! The columns `Q[act, U]` (every active row) are kept as well: they give the Schur
//! blocks, the linear term's bound moves and the gradient update of a round without
//! reading the kernel again. All factorisations and products run sequentially (`Par::Seq`):
//! the result does not depend on the thread count.

use crate::qmatrix::QMatrix;
use faer::dyn_stack::MemStack;
use faer::linalg::cholesky::llt;
use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::{
    solve_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, Mat, MatRef, Par};

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
    /// Lower Cholesky factor of `Q_BB + δI`.
    l: Mat<f64>,
    ridge: f64,
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
            l: Mat::zeros(0, 0),
            ridge: 0.0,
        };
        s.add_columns(q, act, f);
        s.refactor()?;
        Some(s)
    }

    /// Column `k` of Q at every active row, if held for position `p`.
    pub fn column(&self, p: usize) -> Option<&[f64]> {
        match self.slot[p] {
            NO_SLOT => None,
            k => Some(&self.qa[k]),
        }
    }

    fn add_columns<Q: QMatrix + ?Sized>(&mut self, q: &Q, act: &[usize], ps: &[usize]) {
        for &p in ps {
            let mut col = vec![0.0; act.len()];
            q.column_at(act[p], act, &mut col);
            self.slot[p] = self.cols.len();
            self.cols.push(p);
            self.qa.push(col);
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
        self.base = self.cols.len();
        let max_diag = (0..self.base)
            .map(|k| self.qa[k][self.cols[k]])
            .fold(0.0f64, f64::max);
        self.ridge = RIDGE * max_diag;
        self.l = cholesky(self.block(0..self.base, 0..self.base))?;
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
        self.refactor()
    }

    /// Solve the round's system for the free positions `f` (module docs): `r` is the
    /// linear term on `f` (in `f`'s order), `y` the signs by active position, `target`
    /// the required `y_fᵀ Δ_f`. Returns `Δ_f` (in `f`'s order) and λ; `None` when a
    /// factorisation fails or the result is not finite.
    pub fn solve<Q: QMatrix + ?Sized>(
        &mut self,
        q: &Q,
        act: &[usize],
        f: &[usize],
        r: &[f64],
        y: &[f64],
        target: f64,
    ) -> Option<(Vec<f64>, f64)> {
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
        let inv = Bordered::new(self)?;
        let c_mat = inv.apply(&n_mat);
        let g_chol = cholesky(mul_tn(n_mat.as_ref(), c_mat.as_ref()))?;
        let mut z = Mat::<f64>::zeros(u, 1);
        let mut nu = Mat::<f64>::zeros(nc, 1);
        for round in 0..=REFINE {
            // (M − δI) z + Nν = −b  ⇐  M z' + Nν = −(b − δ z).
            let rhs = Mat::from_fn(u, 1, |k, _| b[(k, 0)] - self.ridge * z[(k, 0)]);
            let zb = inv.apply(&rhs);
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
            z = next;
            if round > 0 && change <= REFINE_STOP * size {
                break;
            }
        }
        let lambda = nu[(nc - 1, 0)];
        let dir: Vec<f64> = f.iter().map(|&p| z[(self.slot[p], 0)]).collect();
        (lambda.is_finite() && dir.iter().all(|v| v.is_finite())).then_some((dir, lambda))
    }
}

/// `M⁻¹` for the bordered matrix of the held columns (module docs).
struct Bordered<'s> {
    sys: &'s FreeSystem,
    /// `W = L⁻¹ Q_BA`.
    w: Mat<f64>,
    /// Cholesky factor of the Schur complement `Q_AA + δI − WᵀW`.
    s: Mat<f64>,
}

impl<'s> Bordered<'s> {
    fn new(sys: &'s FreeSystem) -> Option<Self> {
        let (b, u) = (sys.base, sys.cols.len());
        let mut w = sys.block(0..b, b..u);
        solve_lower_triangular_in_place(sys.l.as_ref(), w.as_mut(), Par::Seq);
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
        Some(Self { sys, w, s })
    }

    /// `M⁻¹ V` (V has `|U|` rows).
    fn apply(&self, v: &Mat<f64>) -> Mat<f64> {
        let b = self.sys.base;
        let mut out = v.clone();
        let (mut top, mut bottom) = out.as_mut().split_at_row_mut(b);
        let l = self.sys.l.as_ref();
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
        solve_upper_triangular_in_place(l.transpose(), top, Par::Seq);
        out
    }
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
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
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
        let sets: [Vec<usize>; 4] = [
            base.clone(),
            (2..33).filter(|&p| p != 17).collect(), // two removed and one more, three added
            (5..36).collect(),                      // drift further from the base
            (10..40).collect(),                     // many changes: a rebuild
        ];
        for f in &sets {
            let r: Vec<f64> = f.iter().map(|_| next()).collect();
            let t = next();
            let (dir, lam) = sys.solve(&q, &act, f, &r, &y, t).unwrap();
            let (want, want_lam) = direct(&qd, f, &r, &y, t);
            let err = dir
                .iter()
                .zip(&want)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0f64, f64::max);
            let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            assert!(err < 1e-7 * scale, "set {f:?}: error {err} (scale {scale})");
            assert!((lam - want_lam).abs() < 1e-7 * (1.0 + want_lam.abs()));
        }
    }
}
