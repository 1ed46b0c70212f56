//! Thick-restart block Lanczos with full reorthogonalisation and explicit Rayleigh–Ritz.
//!
//! State: an orthonormal basis V (n x m), W = A V (stored, so Rayleigh–Ritz and the
//! residuals are computed from actual products, not from a three-term recurrence), and
//! H = VᵀW (m x m, kept exactly symmetric). One step:
//! 1. W_new = A X for the current block X (b columns), H gains the block column VᵀW_new;
//! 2. Rayleigh–Ritz: H = Y Θ Yᵀ; the wanted k Ritz pairs are (θ_i, V y_i);
//! 3. cheap residual estimate ‖Z ŷ_i‖ from the continuation block Z = W_new − V H_new
//!    (ŷ_i = the rows of y_i belonging to the newest block); when all k estimates pass,
//!    the residuals are computed explicitly as ‖W y_i − θ_i V y_i‖ and the pairs returned
//!    only if those pass too;
//! 4. if the basis is full, thick restart: keep the `keep` wanted-end Ritz vectors
//!    (V ← V Y_keep, W ← W Y_keep, H ← Θ_keep);
//! 5. X = Z orthonormalised against V (random replacement on breakdown).
//!
//! Between restarts the space is the block Krylov space of the kept Ritz vectors and
//! the continuation block, so this is the block form of Wu & Simon's thick-restart
//! Lanczos (SIAM J. Matrix Anal. Appl. 22, 2000).

use super::ortho::orthonormalize_against;
use super::par::{matmul_rows, matmul_tn, sym_evd_unchecked};
use super::{sign_normalize, EigenInfo, EigenMethod, EigenOptions, EigenPairs, SymOperator, Which};
use faer::reborrow::*;
use faer::{Accum, Mat, MatMut, MatRef, Par};
use mkc_core::seed::Rng;
use mkc_core::{Error, Result};
use rand::Rng as _;

/// Sizes chosen for one solve.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// Use the dense solver instead.
    pub dense: bool,
    /// Block size.
    pub b: usize,
    /// Maximal basis size.
    pub mmax: usize,
    /// Ritz vectors kept at a restart.
    pub keep: usize,
    /// Products with A after which a restart gives up (`NotConverged`) so that the caller
    /// falls back to the dense solver (`EigenOptions::dense_switch`; infinite when there
    /// is no fallback, n > `dense_fallback_max_n`).
    pub max_matvecs: f64,
}

impl Plan {
    pub(crate) fn new(n: usize, k: usize, o: &EigenOptions) -> Plan {
        let b = o.block_size.unwrap_or(k.clamp(8, 32)).max(1);
        let mmax = o
            .max_basis
            .unwrap_or((8 * b).max(3 * k + 2 * b))
            .max(k.max(b) + k.max(b) + b);
        let keep = k + (mmax - k - b) / 2;
        let dense = n <= o.dense_below || mmax >= n || (mmax as f64) > o.dense_fraction * n as f64;
        let max_matvecs = if n <= o.dense_fallback_max_n {
            o.dense_switch * n as f64
        } else {
            f64::INFINITY
        };
        Plan {
            dense,
            b,
            mmax,
            keep,
            max_matvecs,
        }
    }
}

/// The Krylov basis V (n x mmax, first `cur` columns in use), W = A V and H = VᵀW
/// (kept exactly symmetric), with a scratch block for the products of a restart.
struct Basis {
    store: Store,
    h: Mat<f64>,
    cur: usize,
}

/// V, W (n x mmax each) and a scratch block (n x `scratch_cols`, the products of a
/// restart and of the explicit check) in one column-major buffer, in that order, taken
/// from the thread's [`SPARE`] and given back on drop. Only columns written in the
/// current solve are ever read.
struct Store {
    buf: Vec<f64>,
    n: usize,
    mmax: usize,
    scratch_cols: usize,
}

/// Largest buffer (in f64) a thread keeps between solves: 4 Mi values, 32 MiB.
const SPARE_MAX: usize = 1 << 22;

thread_local! {
    /// The basis storage of this thread's last solve, reused by its next one: a fresh
    /// n x 2.5·mmax buffer costs a page fault per 4 KiB on first touch, about 1.4 ms of a
    /// 17 ms solve at n = 1000, k = 10 (`cargo xtask compare eigen`). Contents never leak
    /// into a result: every column is written before it is read. Buffers above
    /// [`SPARE_MAX`] are freed instead (their solves are long enough not to notice).
    static SPARE: std::cell::Cell<Vec<f64>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Store {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        if buf.capacity() <= SPARE_MAX {
            SPARE.set(buf);
        }
    }
}

impl Store {
    fn new(n: usize, mmax: usize, scratch_cols: usize) -> Self {
        let len = n * (2 * mmax + scratch_cols);
        let mut buf = SPARE.take();
        if buf.len() < len {
            buf.resize(len, 0.0);
        }
        Store {
            buf,
            n,
            mmax,
            scratch_cols,
        }
    }

    /// V (n x mmax).
    fn v(&self) -> MatRef<'_, f64> {
        MatRef::from_column_major_slice(&self.buf[..self.n * self.mmax], self.n, self.mmax)
    }

    /// W = A V (n x mmax).
    fn w(&self) -> MatRef<'_, f64> {
        let nm = self.n * self.mmax;
        MatRef::from_column_major_slice(&self.buf[nm..2 * nm], self.n, self.mmax)
    }

    /// V, W and the scratch block, mutably.
    fn parts_mut(&mut self) -> (MatMut<'_, f64>, MatMut<'_, f64>, MatMut<'_, f64>) {
        let (n, nm) = (self.n, self.n * self.mmax);
        let (v, rest) = self.buf.split_at_mut(nm);
        let (w, rest) = rest.split_at_mut(nm);
        let scratch = &mut rest[..n * self.scratch_cols];
        (
            MatMut::from_column_major_slice_mut(v, n, self.mmax),
            MatMut::from_column_major_slice_mut(w, n, self.mmax),
            MatMut::from_column_major_slice_mut(scratch, n, self.scratch_cols),
        )
    }
}

/// Counters of one solve.
#[derive(Default)]
struct Counts {
    steps: usize,
    matvecs: usize,
    restarts: usize,
}

pub(crate) fn solve(
    op: &dyn SymOperator,
    k: usize,
    start: Option<MatRef<'_, f64>>,
    which: Which,
    o: &EigenOptions,
    plan: &Plan,
) -> Result<EigenPairs> {
    let n = op.dim();
    let par = Par::rayon(0);
    let mmax = plan.mmax;
    let mut rng = mkc_core::seed::rng(o.seed);
    let mut basis = Basis::new(n, mmax, plan.keep.max(k));
    let (x0, mut refs) = first_block(n, plan.b, start, &mut rng);
    let mut x = basis.next_block(x0, &refs, &mut rng)?;

    let mut counts = Counts::default();
    let mut anorm = 0.0f64;
    loop {
        let wb = x.ncols();
        basis.extend(op, &x, par)?;
        counts.steps += 1;
        counts.matvecs += wb;
        let cur = basis.cur;
        let z;
        (z, refs) = basis.continuation(wb);

        if cur < k {
            // fewer basis vectors than wanted pairs (cold start with b < k): keep expanding
            x = basis.next_block(z, &refs, &mut rng)?;
            continue;
        }

        // Rayleigh–Ritz
        let (theta, y) = sym_evd_unchecked(basis.h.as_ref().submatrix(0, 0, cur, cur))?;
        let y = y.as_ref();
        anorm = anorm.max(theta[0].abs()).max(theta[cur - 1].abs());
        let thresh = o.tol * anorm;
        let order: Vec<usize> = match which {
            Which::Top => (0..cur).rev().collect(),
            Which::Bottom => (0..cur).collect(),
        };
        let wanted = &order[..k];

        let last_est = residual_estimate(z.as_ref(), y, wanted, cur);
        if last_est <= thresh {
            if let Some((values, vectors, res)) =
                basis.explicit_check(y, &theta, wanted, thresh, anorm)
            {
                return Ok(EigenPairs {
                    values,
                    vectors,
                    info: EigenInfo {
                        method: EigenMethod::BlockLanczos,
                        iterations: counts.steps,
                        matvecs: counts.matvecs,
                        max_residual: Some(res),
                        fell_back: false,
                    },
                });
            }
        }

        // thick restart when the next block does not fit
        if cur + wb > mmax {
            counts.restarts += 1;
            if counts.restarts > o.max_iter || counts.matvecs as f64 > plan.max_matvecs {
                return Err(Error::NotConverged {
                    what: "block Lanczos eigensolver".into(),
                    iterations: counts.steps,
                    residual: if anorm > 0.0 {
                        last_est / anorm
                    } else {
                        last_est
                    },
                    tolerance: o.tol,
                });
            }
            let keep = plan.keep.min(mmax - wb).min(cur).max(k);
            basis.restart(y, &theta, &order[..keep]);
        }

        x = basis.next_block(z, &refs, &mut rng)?;
    }
}

/// The first block: the caller's basis (warm start) completed by random columns, with
/// the reference norms its orthonormalisation measures breakdown against.
fn first_block(
    n: usize,
    b: usize,
    start: Option<MatRef<'_, f64>>,
    rng: &mut Rng,
) -> (Mat<f64>, Vec<f64>) {
    let width = start.map_or(b, |s| s.ncols().max(b));
    let mut x = Mat::<f64>::from_fn(n, width, |_, _| rng.random::<f64>() - 0.5);
    let mut refs: Vec<f64> = (0..width).map(|j| x.col(j).norm_l2()).collect();
    if let Some(s) = start {
        x.as_mut().subcols_mut(0, s.ncols()).copy_from(s);
        for (j, r) in refs.iter_mut().enumerate().take(s.ncols()) {
            *r = s.col(j).norm_l2().max(f64::MIN_POSITIVE);
        }
    }
    (x, refs)
}

/// max over the wanted Ritz pairs of ‖Z ŷ_i‖, ŷ_i the rows of y_i belonging to the
/// newest block (Z has as many columns as that block).
fn residual_estimate(z: MatRef<'_, f64>, y: MatRef<'_, f64>, wanted: &[usize], cur: usize) -> f64 {
    let (n, wb, k) = (z.nrows(), z.ncols(), wanted.len());
    let ylast = Mat::from_fn(wb, k, |r, c| y[(cur - wb + r, wanted[c])]);
    let mut est = Mat::<f64>::zeros(n, k);
    matmul_rows(est.as_mut(), Accum::Replace, z, ylast.as_ref(), 1.0);
    (0..k).map(|c| est.col(c).norm_l2()).fold(0.0f64, f64::max)
}

impl Basis {
    fn new(n: usize, mmax: usize, scratch_cols: usize) -> Self {
        Basis {
            store: Store::new(n, mmax, scratch_cols),
            h: Mat::zeros(mmax, mmax),
            cur: 0,
        }
    }

    /// The block `z` orthonormalised against the basis in use (`refs`: the scales its
    /// breakdown test measures against; random replacement on breakdown).
    fn next_block(&self, mut z: Mat<f64>, refs: &[f64], rng: &mut Rng) -> Result<Mat<f64>> {
        orthonormalize_against(self.store.v().subcols(0, self.cur), z.as_mut(), refs, rng)?;
        Ok(z)
    }

    /// Append the orthonormal block `x`: V gains x, W gains A x, H gains the block
    /// column Vᵀ(A x) (mirrored, the new diagonal block symmetrised). A non-finite
    /// projected entry is a numerical error.
    fn extend(&mut self, op: &dyn SymOperator, x: &Mat<f64>, par: Par) -> Result<()> {
        let (cur, wb) = (self.cur, x.ncols());
        let end = cur + wb;
        {
            let (v, w, _) = self.store.parts_mut();
            v.subcols_mut(cur, wb).copy_from(x);
            op.apply(x.as_ref(), w.subcols_mut(cur, wb), par);
        }
        let h = &mut self.h;
        matmul_tn(
            h.as_mut().submatrix_mut(0, cur, end, wb),
            self.store.v().subcols(0, end),
            self.store.w().subcols(cur, wb),
        );
        for j in cur..end {
            for i in 0..cur {
                h[(j, i)] = h[(i, j)];
            }
            for i in cur..j {
                let s = 0.5 * (h[(i, j)] + h[(j, i)]);
                h[(i, j)] = s;
                h[(j, i)] = s;
            }
        }
        if let Some(bad) = (cur..end)
            .flat_map(|j| (0..end).map(move |i| (i, j)))
            .find(|&(i, j)| !h[(i, j)].is_finite())
        {
            return Err(Error::numerical(
                "block Lanczos",
                format!("operator produced a non-finite product (projected entry {bad:?})"),
            ));
        }
        self.cur = end;
        Ok(())
    }

    /// The continuation block Z = W_new − V H_new (first Gram–Schmidt pass) of the
    /// newest `wb` columns, and the norms of W_new's columns (its scales).
    fn continuation(&self, wb: usize) -> (Mat<f64>, Vec<f64>) {
        let cur = self.cur;
        let mut z = self.store.w().subcols(cur - wb, wb).to_owned();
        let refs = (0..wb).map(|j| z.col(j).norm_l2()).collect();
        matmul_rows(
            z.as_mut(),
            Accum::Add,
            self.store.v().subcols(0, cur),
            self.h.as_ref().submatrix(0, cur - wb, cur, wb),
            -1.0,
        );
        (z, refs)
    }

    /// Thick restart: keep the Ritz vectors of the columns `kept` of y
    /// (V ← V Y_kept, W ← W Y_kept, H ← diag(θ_kept)).
    fn restart(&mut self, y: MatRef<'_, f64>, theta: &[f64], kept: &[usize]) {
        let (cur, keep) = (self.cur, kept.len());
        let yk = Mat::from_fn(cur, keep, |r, c| y[(r, kept[c])]);
        let (v, w, mut scratch) = self.store.parts_mut();
        for mut m in [v, w] {
            let mut tmp = scratch.rb_mut().subcols_mut(0, keep);
            matmul_rows(
                tmp.rb_mut(),
                Accum::Replace,
                m.rb().subcols(0, cur),
                yk.as_ref(),
                1.0,
            );
            m.rb_mut().subcols_mut(0, keep).copy_from(tmp.rb());
        }
        self.h.as_mut().submatrix_mut(0, 0, keep, keep).fill(0.0);
        for (i, &c) in kept.iter().enumerate() {
            self.h[(i, i)] = theta[c];
        }
        self.cur = keep;
    }

    /// Explicit residuals ‖W y_i − θ_i V y_i‖ of the wanted Ritz pairs; the pairs
    /// (values, sign-normalised vectors, largest residual relative to `anorm`) when all
    /// pass `thresh`, else None.
    fn explicit_check(
        &mut self,
        y: MatRef<'_, f64>,
        theta: &[f64],
        wanted: &[usize],
        thresh: f64,
        anorm: f64,
    ) -> Option<(Vec<f64>, Mat<f64>, f64)> {
        let (k, cur) = (wanted.len(), self.cur);
        let n = self.store.n;
        let (v, w, scratch) = self.store.parts_mut();
        let yk = Mat::from_fn(cur, k, |r, c| y[(r, wanted[c])]);
        let mut u = Mat::<f64>::zeros(n, k);
        matmul_rows(
            u.as_mut(),
            Accum::Replace,
            v.rb().subcols(0, cur),
            yk.as_ref(),
            1.0,
        );
        let mut au = scratch.subcols_mut(0, k);
        matmul_rows(
            au.rb_mut(),
            Accum::Replace,
            w.rb().subcols(0, cur),
            yk.as_ref(),
            1.0,
        );
        let mut worst = 0.0f64;
        for (c, &i) in wanted.iter().enumerate() {
            let t = theta[i];
            let r: f64 = (0..n)
                .map(|r| (au[(r, c)] - t * u[(r, c)]).powi(2))
                .sum::<f64>()
                .sqrt();
            worst = worst.max(r);
        }
        if worst > thresh {
            return None;
        }
        sign_normalize(u.as_mut());
        let values = wanted.iter().map(|&i| theta[i]).collect();
        Some((values, u, if anorm > 0.0 { worst / anorm } else { worst }))
    }
}
