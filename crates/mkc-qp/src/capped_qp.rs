//! min ½ zᵀQz + cᵀz over the capped simplex {0 ≤ z ≤ u, 1ᵀz = 1}: the column
//! subproblem of SCMK (Kang, Peng, Cheng, AAAI 2017, eq. (7)–(8) / the authors'
//! code: Q = 2(αI + K), c = β/2 · d_i − 2K_{:,i}, u = 1), solved n times per iteration.
//!
//! # Method
//! A pairwise (SMO) active-set method with the second-order working-set selection
//! of Fan, Chen & Lin (JMLR 2005), specialised to one equality constraint with all
//! coefficients +1:
//! - i = argmax_{z_i > 0} g_i (the coordinate to decrease), g = Qz + c;
//! - j = argmin over {z_j < u, g_j < g_i} of −(g_i − g_j)² / a_ij, a_ij = Q_ii + Q_jj − 2Q_ij
//!   (a_ij ≤ 0 replaced by 1e-12: the step is then limited by the bounds);
//! - move t = min((g_i − g_j)/a_ij, z_i, u − z_j) of mass from i to j, exactly onto a
//!   bound when clipped, and update g with columns i and j of Q: O(n) per step.
//!
//! The SCMK solutions are sparse (a few neighbours per column), so a few O(n) steps
//! per column suffice, especially warm-started from the previous iteration's Z.
//!
//! # Stopping rule (KKT)
//! z is optimal iff there is μ with g_i ≥ μ where z_i = 0, g_i ≤ μ where z_i = u, and
//! g_i = μ in between; equivalently the *KKT violation*
//! `max_{z_i > 0} g_i − min_{z_j < u} g_j` is ≤ 0. We stop when it is ≤ `tol`
//! (absolute, in units of the gradient; default 1e-10), re-verified on a gradient
//! recomputed from scratch so that rounding drift of the O(n) updates cannot fake
//! convergence. Hitting `max_iter` (pair updates) is reported as `converged = false`
//! together with the violation, not as an error: the caller (an outer alternating
//! loop) decides.
//!
//! Q must be symmetric (checked once in [`QpMatrix::new`]); for a non-PSD Q the method
//! still stops at a KKT point, which then need not be a global minimiser.

use faer::{Mat, MatRef};
use mkc_core::{validate, Error, ParamGuard, Result};

use crate::project::{check_upper, make_feasible};

/// A validated, column-major Q (square, finite, symmetric), shared by many solves.
#[derive(Debug, Clone)]
pub struct QpMatrix<'a> {
    q: Store<'a>,
    diag: Vec<f64>,
}

#[derive(Debug, Clone)]
enum Store<'a> {
    Borrowed(MatRef<'a, f64>),
    Owned(Mat<f64>),
}

impl<'a> QpMatrix<'a> {
    /// Validate Q once (O(n²)); borrows it when its columns are contiguous, copies it
    /// otherwise.
    pub fn new(q: MatRef<'a, f64>) -> Result<Self> {
        validate::kernel("Q", q)?;
        let diag = (0..q.nrows()).map(|i| q[(i, i)]).collect();
        let store = if q.row_stride() == 1 {
            Store::Borrowed(q)
        } else {
            Store::Owned(q.to_owned())
        };
        Ok(Self { q: store, diag })
    }

    /// n.
    pub fn dim(&self) -> usize {
        self.diag.len()
    }

    /// The matrix.
    pub fn as_ref(&self) -> MatRef<'_, f64> {
        match &self.q {
            Store::Borrowed(m) => *m,
            Store::Owned(m) => m.as_ref(),
        }
    }

    /// Column j as a contiguous slice (Q is symmetric, so also row j).
    #[inline]
    pub(crate) fn col(&self, j: usize) -> &[f64] {
        // The store has unit row stride by construction (checked in `new`, or owned and
        // column-major), so every column is contiguous.
        self.as_ref()
            .col(j)
            .try_as_col_major()
            .expect("QpMatrix columns are contiguous by construction")
            .as_slice()
    }

    #[inline]
    pub(crate) fn diag(&self) -> &[f64] {
        &self.diag
    }
}

/// Hyperparameters of [`CappedSimplexSolver`] (builder; checked by [`ParamGuard::check`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CappedSimplexQp {
    /// Upper bound u of every coordinate (SCMK: 1). Default 1.
    pub upper: f64,
    /// Tolerance on the KKT violation `max_{z_i>0} g_i − min_{z_j<u} g_j`. Default 1e-10.
    pub tol: f64,
    /// Cap on pair updates per problem; `None` = max(100 000, 100·n). Default `None`.
    pub max_iter: Option<usize>,
}

impl Default for CappedSimplexQp {
    fn default() -> Self {
        Self {
            upper: 1.0,
            tol: 1e-10,
            max_iter: None,
        }
    }
}

impl CappedSimplexQp {
    /// Defaults with cap `upper`.
    pub fn new(upper: f64) -> Self {
        Self {
            upper,
            ..Self::default()
        }
    }
    mkc_core::setters! {
        /// Set the KKT tolerance.
        tol: f64,
    }
    /// Set the cap on pair updates.
    pub fn max_iter(mut self, max_iter: usize) -> Self {
        self.max_iter = Some(max_iter);
        self
    }
}

impl ParamGuard for CappedSimplexQp {
    type Checked = CappedSimplexSolver;
    fn check(&self) -> Result<CappedSimplexSolver> {
        validate::positive("upper", self.upper)?;
        validate::positive("tol", self.tol)?;
        if self.max_iter == Some(0) {
            return Err(Error::param("max_iter", 0, "must be at least 1"));
        }
        Ok(CappedSimplexSolver { p: *self })
    }
}

/// The checked solver.
#[derive(Debug, Clone, Copy)]
pub struct CappedSimplexSolver {
    p: CappedSimplexQp,
}

/// Solution of one capped-simplex QP.
#[derive(Debug, Clone, PartialEq)]
pub struct QpSolution {
    /// The minimiser.
    pub z: Vec<f64>,
    /// ½ zᵀQz + cᵀz.
    pub objective: f64,
    /// Final KKT violation `max_{z_i>0} g_i − min_{z_j<u} g_j` (≤ 0 means exact).
    pub kkt_violation: f64,
    /// Pair updates performed.
    pub n_iter: usize,
    /// Whether `kkt_violation ≤ tol`.
    pub converged: bool,
}

/// Outcome of one column solve (the solution itself is written in place).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ColStats {
    pub objective: f64,
    pub kkt_violation: f64,
    pub n_iter: usize,
    pub converged: bool,
}

impl CappedSimplexSolver {
    /// The parameters.
    pub fn params(&self) -> &CappedSimplexQp {
        &self.p
    }

    pub(crate) fn cap(&self, n: usize) -> usize {
        self.p.max_iter.unwrap_or_else(|| (100 * n).max(100_000))
    }

    /// Solve min ½zᵀQz + cᵀz, 0 ≤ z ≤ u, 1ᵀz = 1, from `warm` (kept as is when feasible
    /// to 1e-12 · n in the sum, otherwise projected onto the
    /// feasible set first) or, without it, from the vertex that fills the coordinates
    /// of smallest c_i up to u (the best vertex for the linear part).
    pub fn solve(&self, q: &QpMatrix<'_>, c: &[f64], warm: Option<&[f64]>) -> Result<QpSolution> {
        let n = q.dim();
        validate::len("c", c.len(), n)?;
        validate::finite_slice("c", c)?;
        check_upper(self.p.upper, n)?;
        let mut z = match warm {
            Some(w) => {
                validate::len("warm start", w.len(), n)?;
                validate::finite_slice("warm start", w)?;
                let mut z = w.to_vec();
                make_feasible(&mut z, self.p.upper);
                z
            }
            None => cold_start(c, self.p.upper),
        };
        let mut g = vec![0.0; n];
        gradient(q, c, &z, &mut g);
        let st = self.smo(q, c, &mut z, &mut g);
        Ok(QpSolution {
            z,
            objective: st.objective,
            kkt_violation: st.kkt_violation,
            n_iter: st.n_iter,
            converged: st.converged,
        })
    }

    /// SMO from a feasible z with g = Qz + c freshly computed; z and g updated in place.
    pub(crate) fn smo(
        &self,
        q: &QpMatrix<'_>,
        c: &[f64],
        z: &mut [f64],
        g: &mut [f64],
    ) -> ColStats {
        let (u, tol) = (self.p.upper, self.p.tol);
        let cap = self.cap(z.len());
        let diag = q.diag();
        let mut it = 0usize;
        let mut refreshes = 0usize;
        // g was computed from scratch by the caller and no update has been made yet.
        let mut fresh_g = true;
        let violation = loop {
            // i: largest gradient among coordinates that can decrease (Σz = 1 > 0, so
            // there is one).
            let mut i = usize::MAX;
            let mut gi = f64::NEG_INFINITY;
            for (k, (&zk, &gk)) in z.iter().zip(g.iter()).enumerate() {
                if zk > 0.0 && gk > gi {
                    gi = gk;
                    i = k;
                }
            }
            if i == usize::MAX {
                break kkt_violation(z, g, u);
            }
            // j: second-order choice among coordinates that can increase with g_j < g_i.
            let qi = q.col(i);
            let (mut j, mut best, mut gmin) = (usize::MAX, f64::INFINITY, f64::INFINITY);
            for (k, (&zk, &gk)) in z.iter().zip(g.iter()).enumerate() {
                if zk < u {
                    gmin = gmin.min(gk);
                    let b = gi - gk;
                    if b > 0.0 {
                        let a = (diag[i] + diag[k] - 2.0 * qi[k]).max(1e-12);
                        let score = -b * b / a;
                        if score < best {
                            best = score;
                            j = k;
                        }
                    }
                }
            }
            if gi - gmin <= tol || j == usize::MAX {
                if fresh_g {
                    break gi - gmin;
                }
                // Re-verify on a gradient recomputed from scratch (at most 3 times).
                gradient(q, c, z, g);
                fresh_g = true;
                let fresh = kkt_violation(z, g, u);
                refreshes += 1;
                if fresh <= tol || refreshes >= 3 {
                    break fresh;
                }
                continue;
            }
            if it >= cap {
                break gi - gmin;
            }
            it += 1;
            fresh_g = false;
            let qj = q.col(j);
            let a = (diag[i] + diag[j] - 2.0 * qi[j]).max(1e-12);
            let mut t = (gi - g[j]) / a;
            let (room_i, room_j) = (z[i], u - z[j]);
            if t >= room_i.min(room_j) {
                // Clipped: land exactly on the bound(s).
                if room_i <= room_j {
                    t = room_i;
                    z[i] = 0.0;
                    z[j] = if room_i == room_j {
                        u
                    } else {
                        (z[j] + t).min(u)
                    };
                } else {
                    t = room_j;
                    z[i] = (z[i] - t).max(0.0);
                    z[j] = u;
                }
            } else {
                z[i] -= t;
                z[j] += t;
            }
            for ((gk, &a_jk), &a_ik) in g.iter_mut().zip(qj).zip(qi) {
                *gk += t * (a_jk - a_ik);
            }
        };
        let objective = 0.5
            * z.iter()
                .zip(g.iter())
                .zip(c)
                .map(|((&zk, &gk), &ck)| zk * (gk + ck))
                .sum::<f64>();
        ColStats {
            objective,
            kkt_violation: violation,
            n_iter: it,
            converged: violation <= tol,
        }
    }
}

/// The vertex of the capped simplex that is best for the linear term: fill the
/// coordinates in increasing order of c (ties: lowest index) up to u until the mass is 1.
pub(crate) fn cold_start(c: &[f64], u: f64) -> Vec<f64> {
    let n = c.len();
    let mut z = vec![0.0; n];
    if u >= 1.0 {
        // Common case (SCMK: u = 1): one coordinate, O(n).
        let mut k = 0;
        for (i, &ci) in c.iter().enumerate() {
            if ci < c[k] {
                k = i;
            }
        }
        z[k] = 1.0;
        return z;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| c[a].total_cmp(&c[b]).then(a.cmp(&b)));
    let mut left = 1.0f64;
    for k in order {
        if left <= 0.0 {
            break;
        }
        let take = u.min(left);
        z[k] = take;
        left -= take;
    }
    z
}

/// g = Qz + c using only the non-zero entries of z (O(n · nnz(z))).
pub(crate) fn gradient(q: &QpMatrix<'_>, c: &[f64], z: &[f64], g: &mut [f64]) {
    g.copy_from_slice(c);
    for (k, &zk) in z.iter().enumerate() {
        if zk != 0.0 {
            for (gi, &qik) in g.iter_mut().zip(q.col(k)) {
                *gi += zk * qik;
            }
        }
    }
}

/// `max_{z_i>0} g_i − min_{z_j<u} g_j` (−inf when one of the sets is empty).
pub fn kkt_violation(z: &[f64], g: &[f64], u: f64) -> f64 {
    let mut hi = f64::NEG_INFINITY;
    let mut lo = f64::INFINITY;
    for (&zk, &gk) in z.iter().zip(g) {
        if zk > 0.0 {
            hi = hi.max(gk);
        }
        if zk < u {
            lo = lo.min(gk);
        }
    }
    hi - lo
}
