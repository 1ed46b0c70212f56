//! One block of [`BLOCK`](super::BLOCK) columns of the APG Z step: a feasible start (the
//! better of the warm start and the projected equality-constrained minimiser, column by
//! column), SMO on the columns whose start is sparse, then monotone FISTA with restart
//! on the others (the parent module's docs give the rules).

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use mkc_qp::{CappedSimplexSolver, QpMatrix};

use super::{project_simplex, Problem, SMO_RATIO, SPARSE_RATIO};

/// Rounding-level increases accepted per column before it counts as stalled.
const MAX_ROUNDING: usize = 8;

pub(super) struct BlockOut {
    pub pair_updates: usize,
    /// Some column stopped at the SMO solver's pair-update budget.
    pub smo_exhausted: bool,
    pub z: Vec<f64>,
    pub objective: f64,
    pub max_kkt: f64,
    pub iterations: usize,
    pub converged: bool,
}

/// Buffers of [`products`], reused across iterations.
#[derive(Default)]
struct Scratch {
    dense: Vec<f64>,
    prod: Vec<f64>,
    dense_cols: Vec<usize>,
}

/// out[:, j] = K · v[:, j] for the listed columns (each n long, column-major slices).
fn products(kc: &[f64], n: usize, v: &[f64], out: &mut [f64], cols: &[usize], s: &mut Scratch) {
    let Scratch {
        dense,
        prod,
        dense_cols,
    } = s;
    dense_cols.clear();
    for &j in cols {
        let vj = &v[j * n..(j + 1) * n];
        let nnz = vj.iter().filter(|&&x| x != 0.0).count();
        if nnz * SPARSE_RATIO <= n {
            let oj = &mut out[j * n..(j + 1) * n];
            oj.fill(0.0);
            for (a, &za) in vj.iter().enumerate() {
                if za != 0.0 {
                    for (o, &k) in oj.iter_mut().zip(&kc[a * n..(a + 1) * n]) {
                        *o += za * k;
                    }
                }
            }
        } else {
            dense_cols.push(j);
        }
    }
    if dense_cols.is_empty() {
        return;
    }
    let m = dense_cols.len();
    dense.clear();
    for &j in dense_cols.iter() {
        dense.extend_from_slice(&v[j * n..(j + 1) * n]);
    }
    prod.resize(n * m, 0.0);
    matmul(
        MatMut::from_column_major_slice_mut(&mut prod[..n * m], n, m),
        Accum::Replace,
        MatRef::from_column_major_slice(kc, n, n),
        MatRef::from_column_major_slice(&dense[..], n, m),
        1.0,
        Par::Seq,
    );
    for (t, &j) in dense_cols.iter().enumerate() {
        out[j * n..(j + 1) * n].copy_from_slice(&prod[t * n..(t + 1) * n]);
    }
}

/// f(z) = zᵀ(αz + Kz) + cᵀz from Kz.
fn value(z: &[f64], kz: &[f64], c: &[f64], alpha: f64) -> f64 {
    z.iter()
        .zip(kz)
        .zip(c)
        .map(|((&z, &kz), &c)| z * (alpha * z + kz + c))
        .sum()
}

/// f(x) − f(z) from Kx and Kz.
fn change(x: &[f64], z: &[f64], kx: &[f64], kz: &[f64], c: &[f64], alpha: f64) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        acc += (x[i] - z[i]) * (alpha * (x[i] + z[i]) + kx[i] + kz[i] + c[i]);
    }
    acc
}

/// KKT violation on the capped simplex (cap 1) with g = 2(αz + Kz) + c.
fn kkt(z: &[f64], kz: &[f64], c: &[f64], alpha: f64) -> f64 {
    let (mut hi, mut lo) = (f64::NEG_INFINITY, f64::INFINITY);
    for ((&z, &kz), &c) in z.iter().zip(kz).zip(c) {
        let g = 2.0 * (alpha * z + kz) + c;
        if z > 0.0 {
            hi = hi.max(g);
        }
        if z < 1.0 {
            lo = lo.min(g);
        }
    }
    hi - lo
}

/// The iterate of a block: b columns of Z (column-major, n each), their products Kz,
/// objectives f, KKT violations and whether each still needs work.
struct Block<'a> {
    pb: &'a Problem<'a>,
    n: usize,
    /// The linear terms of the block's columns.
    c: &'a [f64],
    z: Vec<f64>,
    kz: Vec<f64>,
    f: Vec<f64>,
    viol: Vec<f64>,
    active: Vec<bool>,
    scratch: Scratch,
    buf: Vec<f64>,
    pair_updates: usize,
    smo_exhausted: bool,
}

impl<'a> Block<'a> {
    /// Column j's range in the block's slices.
    fn col(&self, j: usize) -> std::ops::Range<usize> {
        j * self.n..(j + 1) * self.n
    }

    /// The start: `z` made feasible, then, column by column, the better of it and
    /// `newton` (never worse than the warm start).
    fn start(
        pb: &'a Problem<'a>,
        n: usize,
        c: &'a [f64],
        mut z: Vec<f64>,
        newton: Option<Vec<f64>>,
    ) -> Self {
        let (alpha, kc) = (pb.alpha, pb.kc);
        let b = z.len() / n;
        let mut buf = Vec::with_capacity(n);
        let mut scratch = Scratch::default();
        let all: Vec<usize> = (0..b).collect();
        for col in z.chunks_mut(n) {
            let inside = col.iter().all(|&x| (0.0..=1.0).contains(&x));
            if !(inside && (col.iter().sum::<f64>() - 1.0).abs() <= 1e-12 * n as f64) {
                project_simplex(col, &mut buf);
            }
        }
        let mut kz = vec![0.0; n * b];
        products(kc, n, &z, &mut kz, &all, &mut scratch);
        let r = |j: usize| j * n..(j + 1) * n;
        let mut f: Vec<f64> = (0..b)
            .map(|j| value(&z[r(j)], &kz[r(j)], &c[r(j)], alpha))
            .collect();
        if let Some(zn) = newton {
            let mut kzn = vec![0.0; n * b];
            products(kc, n, &zn, &mut kzn, &all, &mut scratch);
            for (j, fj) in f.iter_mut().enumerate() {
                let v = value(&zn[r(j)], &kzn[r(j)], &c[r(j)], alpha);
                if v < *fj {
                    *fj = v;
                    z[r(j)].copy_from_slice(&zn[r(j)]);
                    kz[r(j)].copy_from_slice(&kzn[r(j)]);
                }
            }
        }
        let viol: Vec<f64> = (0..b)
            .map(|j| kkt(&z[r(j)], &kz[r(j)], &c[r(j)], alpha))
            .collect();
        let active = viol.iter().map(|&v| v > pb.tol).collect();
        Self {
            pb,
            n,
            c,
            z,
            kz,
            f,
            viol,
            active,
            scratch,
            buf,
            pair_updates: 0,
            smo_exhausted: false,
        }
    }

    /// SMO on the active columns whose start has at most n / SMO_RATIO non-zeros (a few
    /// O(n) pair updates per column when the support is small); kept where it does not
    /// raise f.
    fn smo(&mut self, solver: &CappedSimplexSolver, q: &QpMatrix<'_>) {
        let n = self.n;
        let mut redo = Vec::new();
        for j in 0..self.active.len() {
            let r = self.col(j);
            let nnz = self.z[r.clone()].iter().filter(|&&x| x != 0.0).count();
            if !(self.active[j] && nnz * SMO_RATIO <= n) {
                continue;
            }
            let Ok(sol) = solver.solve(q, &self.c[r.clone()], Some(&self.z[r.clone()])) else {
                continue;
            };
            self.pair_updates += sol.n_iter;
            self.smo_exhausted |= !sol.converged;
            if sol.objective <= self.f[j] {
                self.z[r].copy_from_slice(&sol.z);
                self.f[j] = sol.objective;
                self.viol[j] = sol.kkt_violation;
                self.active[j] = !sol.converged;
                if self.active[j] {
                    redo.push(j);
                }
            }
        }
        let pb = self.pb;
        products(pb.kc, n, &self.z, &mut self.kz, &redo, &mut self.scratch);
    }

    /// Monotone FISTA with restart on the active columns, step 1/`lip`, until each meets
    /// the tolerance or stalls, or `max_iter` iterations; returns the iterations.
    fn fista(&mut self, lip: f64) -> usize {
        let mut m = Momentum::new(self);
        let mut iterations = 0;
        let mut cols: Vec<usize> = Vec::with_capacity(self.active.len());
        while iterations < self.pb.max_iter {
            cols.clear();
            cols.extend((0..self.active.len()).filter(|&j| self.active[j]));
            if cols.is_empty() {
                break;
            }
            iterations += 1;
            m.propose(self, &cols, 1.0 / lip);
            let pb = self.pb;
            products(
                pb.kc,
                self.n,
                &m.cand,
                &mut m.kcand,
                &cols,
                &mut self.scratch,
            );
            for &j in &cols {
                m.accept(self, j);
            }
        }
        iterations
    }

    fn finish(self, iterations: usize) -> BlockOut {
        let tol = self.pb.tol;
        BlockOut {
            pair_updates: self.pair_updates,
            smo_exhausted: self.smo_exhausted,
            objective: self.f.iter().sum(),
            converged: self.viol.iter().all(|&v| v <= tol),
            max_kkt: self.viol.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            iterations,
            z: self.z,
        }
    }
}

/// FISTA's memory: the previous iterate and its product, the candidate, and per column
/// the momentum parameter t, the last momentum used and the rounding-level increases
/// accepted so far.
struct Momentum {
    zp: Vec<f64>,
    kzp: Vec<f64>,
    cand: Vec<f64>,
    kcand: Vec<f64>,
    t: Vec<f64>,
    moms: Vec<f64>,
    roundings: Vec<usize>,
}

impl Momentum {
    fn new(blk: &Block<'_>) -> Self {
        let (len, b) = (blk.z.len(), blk.active.len());
        Self {
            zp: blk.z.clone(),
            kzp: blk.kz.clone(),
            cand: vec![0.0; len],
            kcand: vec![0.0; len],
            t: vec![1.0; b],
            moms: vec![0.0; b],
            roundings: vec![0; b],
        }
    }

    /// The candidates of `cols`: a projected gradient step from the extrapolated point
    /// y = z + mom (z − z_prev), whose product K·y combines the stored Kz and Kz_prev.
    fn propose(&mut self, blk: &mut Block<'_>, cols: &[usize], step: f64) {
        let alpha = blk.pb.alpha;
        for &j in cols {
            let r = blk.col(j);
            let t_next = 0.5 * (1.0 + (1.0 + 4.0 * self.t[j] * self.t[j]).sqrt());
            let mom = (self.t[j] - 1.0) / t_next;
            self.moms[j] = mom;
            let (zj, zpj, kzj, kzpj, cj) = (
                &blk.z[r.clone()],
                &self.zp[r.clone()],
                &blk.kz[r.clone()],
                &self.kzp[r.clone()],
                &blk.c[r.clone()],
            );
            let out = &mut self.cand[r];
            for i in 0..zj.len() {
                let y = zj[i] + mom * (zj[i] - zpj[i]);
                let ky = kzj[i] + mom * (kzj[i] - kzpj[i]);
                out[i] = y - step * (2.0 * (alpha * y + ky) + cj[i]);
            }
            project_simplex(out, &mut blk.buf);
        }
    }

    /// Take column j's candidate if it does not raise f (or raises it at rounding level
    /// after a plain step, a few times); otherwise restart the momentum, or stop the
    /// column when even a plain step failed (the precision limit).
    fn accept(&mut self, blk: &mut Block<'_>, j: usize) {
        let (alpha, tol) = (blk.pb.alpha, blk.pb.tol);
        let r = blk.col(j);
        // f(x) − f(z) = (x − z)ᵀ(α(x + z) + Kx + Kz + c): accurate to the size of the
        // change, where a difference of two values of f would drown in rounding.
        let df = change(
            &self.cand[r.clone()],
            &blk.z[r.clone()],
            &self.kcand[r.clone()],
            &blk.kz[r.clone()],
            &blk.c[r.clone()],
            alpha,
        );
        // A plain projected gradient step (no momentum) decreases f in exact
        // arithmetic; an increase at rounding level (typically from entries of order
        // 1e-17 being zeroed) is accepted a few times per column before the column is
        // declared stalled.
        let plain = self.moms[j] == 0.0;
        let rounding =
            plain && df <= 1e-13 * blk.f[j].abs().max(1.0) && self.roundings[j] < MAX_ROUNDING;
        if rounding {
            self.roundings[j] += 1;
        }
        if df <= 0.0 || rounding {
            let fc = blk.f[j] + df;
            self.zp[r.clone()].copy_from_slice(&blk.z[r.clone()]);
            self.kzp[r.clone()].copy_from_slice(&blk.kz[r.clone()]);
            blk.z[r.clone()].copy_from_slice(&self.cand[r.clone()]);
            blk.kz[r.clone()].copy_from_slice(&self.kcand[r.clone()]);
            blk.f[j] = fc;
            self.t[j] = 0.5 * (1.0 + (1.0 + 4.0 * self.t[j] * self.t[j]).sqrt());
            blk.viol[j] = kkt(&blk.z[r.clone()], &blk.kz[r.clone()], &blk.c[r], alpha);
            if blk.viol[j] <= tol {
                blk.active[j] = false;
            }
        } else if plain {
            // A plain projected gradient step with step 1/L cannot increase f except by
            // rounding: the column is at the precision limit.
            blk.active[j] = false;
        } else {
            // Restart: drop the momentum; the next step starts from z.
            self.zp[r.clone()].copy_from_slice(&blk.z[r.clone()]);
            self.kzp[r.clone()].copy_from_slice(&blk.kz[r]);
            self.t[j] = 1.0;
        }
    }
}

/// Solve (11) for the b columns of a block (module docs): `c` their linear terms, `z`
/// the warm start, `newton` the projected equality-constrained start, `lip` the
/// Lipschitz constant, `smo` the SMO solver for sparse starts.
pub(super) fn solve_block(
    pb: &Problem<'_>,
    n: usize,
    c: &[f64],
    z: Vec<f64>,
    newton: Option<Vec<f64>>,
    lip: f64,
    smo: Option<(&CappedSimplexSolver, &QpMatrix<'_>)>,
) -> BlockOut {
    let mut blk = Block::start(pb, n, c, z, newton);
    if let Some((solver, q)) = smo {
        blk.smo(solver, q);
    }
    let iterations = blk.fista(lip);
    blk.finish(iterations)
}
