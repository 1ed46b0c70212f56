//! The α-step for the linear kernel `K = XXᵀ (+ b)` in feature space: no n x n matrix.
//!
//! # Reformulation
//! For `Q = Σ_t μ_t K∘y_t y_tᵀ + I/C` (positive definite) the simplex problem
//! `min_{α ≥ 0, 1ᵀα = 1} αᵀQα` (eq. 3) and the box problem
//! `max_{β ≥ 0} 1ᵀβ − ½ βᵀQβ` (the dual of the squared-hinge SVM with margin fixed at
//! 1, i.e. LIBLINEAR's L2-loss dual without bias) have the same solution up to scale:
//! writing `β = s·a` with `a` on the simplex, the box objective is maximised over s at
//! `s = 1/(aᵀQa)` with value `1/(2 aᵀQa)`, so `α* = β*/1ᵀβ*` and `ρ = α*ᵀQα* = 1/1ᵀβ*`.
//! The box problem is solved by dual coordinate descent as in LIBLINEAR (Hsieh et al.
//! 2008, the solver the paper names): random permutation each epoch (seeded), shrinking,
//! stop when every projected gradient satisfies `|PG_i| ≤ solver_tol` (the KKT
//! conditions of the box problem; LIBLINEAR tests the gap `max PG − min PG`). Where LIBLINEAR re-sweeps all coordinates to test convergence, we get
//! the full gradient from one product `X·W` (faer, dense, parallel) and restart the
//! sweeps on the support and the KKT violators only. As `(Qβ)_i − 1 = ((Qα)_i − ρ)/ρ` at the optimum, this is the kernel
//! path's relative KKT tolerance.
//!
//! # What is kept
//! One `w_t = Σ_i β_i y_ti x_i` per label vector with μ_t > 0 (the gradient is
//! `(Qβ)_i = Σ_t μ_t y_ti x_iᵀw_t + β_i/C`); the `w_t` of the other label vectors, needed
//! for the μ-gradient `L_t = ½‖w_t‖²/(1ᵀβ)²`, come from one product `Xᵀ(β∘Y)` at the end.
//! With `center` (the default, ours) the columns of X are centred first, so the kernel
//! is `X_c X_cᵀ + b`: an uncentred common component of the samples (e.g. MNIST's
//! background pixels scaled to −1) acts as a huge bias term `c·11ᵀ` in K, which makes
//! the dual badly conditioned for coordinate descent and dominates eq. (13).
//! Columns of X that are identically zero (constant, when centred) are dropped (they change nothing); the bias
//! is an extra column √b. Eq. (13) searches the columns of X only, without the bias
//! column, as the authors' package does (`x_new = x` for the linear kernel): the bias
//! column is constant, so it would win the ∞-norm of eq. (13) with a label vector that
//! only reflects the sizes of the α_i.

use crate::solver::{AlphaProblem, AlphaSolver, AlphaStep};
use faer::{linalg::matmul::matmul, Accum, Mat, MatRef, Par};
use mkc_core::{Error, Result};
use rand::seq::SliceRandom;

/// Epoch cap of the coordinate descent (reported as `converged = false`).
const MAX_EPOCHS: usize = 2000;

pub(crate) struct LinearSolver {
    n: usize,
    dp: usize,
    /// Row-major n x dp (row i contiguous).
    rows: Vec<f64>,
    /// Column-major n x dp: the final products; its first `d_feat` columns (without the
    /// bias column) are the features of eq. (13).
    cols: Mat<f64>,
    d_feat: usize,
    sqnorm: Vec<f64>,
    c: f64,
    tol: f64,
    rng: mkc_core::seed::Rng,
}

impl LinearSolver {
    /// `x` (n x d) validated by the caller; `bias` ≥ 0.
    pub(crate) fn new(
        x: MatRef<'_, f64>,
        center: bool,
        bias: f64,
        c: f64,
        tol: f64,
        seed: u64,
    ) -> Result<Self> {
        let n = x.nrows();
        let means: Vec<f64> = (0..x.ncols())
            .map(|j| {
                if center {
                    x.col(j).iter().sum::<f64>() / n as f64
                } else {
                    0.0
                }
            })
            .collect();
        let mut keep: Vec<usize> = (0..x.ncols())
            .filter(|&j| x.col(j).iter().any(|&v| v - means[j] != 0.0))
            .collect();
        let with_bias = bias > 0.0;
        let dp = keep.len() + usize::from(with_bias);
        if dp == 0 {
            return Err(Error::input(
                "features",
                "every feature is zero and bias = 0: the kernel is zero",
            ));
        }
        let d_feat = keep.len();
        if d_feat == 0 {
            return Err(Error::input("features", "every feature column is zero"));
        }
        let sb = bias.sqrt();
        let cols = Mat::from_fn(n, dp, |i, j| {
            if j < keep.len() {
                x[(i, keep[j])] - means[keep[j]]
            } else {
                sb
            }
        });
        keep.clear();
        let mut rows = vec![0.0; n * dp];
        for j in 0..dp {
            let col = cols.col(j);
            for i in 0..n {
                rows[i * dp + j] = col[i];
            }
        }
        let sqnorm = (0..n)
            .map(|i| rows[i * dp..(i + 1) * dp].iter().map(|v| v * v).sum())
            .collect();
        Ok(Self {
            n,
            dp,
            rows,
            cols,
            d_feat,
            sqnorm,
            c,
            tol,
            rng: mkc_core::seed::rng(seed),
        })
    }

    /// `Xᵀ(β∘Y)` for the label vectors `ts`: dp x |ts|, column s = Σ_i β_i y_{ts[s],i} x_i.
    fn products(&self, beta: &[f64], labels: &[Vec<f64>], ts: &[usize]) -> Mat<f64> {
        let b = Mat::from_fn(self.n, ts.len(), |i, s| beta[i] * labels[ts[s]][i]);
        let mut w = Mat::<f64>::zeros(self.dp, ts.len());
        matmul(
            w.as_mut(),
            Accum::Replace,
            self.cols.transpose(),
            b.as_ref(),
            1.0,
            Par::Seq,
        );
        w
    }
}

#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    // Four accumulators: lets the compiler vectorise without reassociation licence.
    let mut acc = [0.0f64; 4];
    let mut ca = a.chunks_exact(4);
    let mut cb = b.chunks_exact(4);
    for (x, y) in (&mut ca).zip(&mut cb) {
        acc[0] += x[0] * y[0];
        acc[1] += x[1] * y[1];
        acc[2] += x[2] * y[2];
        acc[3] += x[3] * y[3];
    }
    let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
        s += x * y;
    }
    s
}

/// The state of one dual coordinate descent run on the box problem (module docs) over
/// the label vectors with μ_t > 0.
struct Dcd<'a> {
    labels: &'a [Vec<f64>],
    /// The label vectors with μ_t > 0 and their weights.
    active: Vec<usize>,
    mu_a: Vec<f64>,
    /// Diagonal of Q: `Σ_t μ_t ‖x_i‖² + 1/C`.
    qii: Vec<f64>,
    inv_c: f64,
    beta: Vec<f64>,
    /// `w_t` of the active label vectors, t-major (ta x dp).
    w: Vec<f64>,
    epochs: usize,
}

impl LinearSolver {
    /// The run's state at weights `mu`, warm-started at β = α/ρ (the scale of the box
    /// problem's solution) when `warm` is given.
    fn start<'a>(
        &self,
        labels: &'a [Vec<f64>],
        mu: &[f64],
        warm: Option<&AlphaStep>,
    ) -> Result<Dcd<'a>> {
        let active: Vec<usize> = (0..mu.len()).filter(|&t| mu[t] > 0.0).collect();
        if active.is_empty() {
            return Err(Error::input("mu", "no label vector has a positive weight"));
        }
        let (ta, dp) = (active.len(), self.dp);
        let beta: Vec<f64> = match warm {
            Some(w) if w.rho > 0.0 => w.alpha.iter().map(|a| a / w.rho).collect(),
            _ => vec![0.0; self.n],
        };
        let mut w = vec![0.0; ta * dp];
        if beta.iter().any(|&b| b != 0.0) {
            let p = self.products(&beta, labels, &active);
            for s in 0..ta {
                for k in 0..dp {
                    w[s * dp + k] = p[(k, s)];
                }
            }
        }
        let mu_a: Vec<f64> = active.iter().map(|&t| mu[t]).collect();
        let musum: f64 = mu_a.iter().sum();
        let inv_c = 1.0 / self.c;
        Ok(Dcd {
            labels,
            qii: self.sqnorm.iter().map(|s| musum * s + inv_c).collect(),
            active,
            mu_a,
            inv_c,
            beta,
            w,
            epochs: 0,
        })
    }

    /// The full gradient from one product `X·W` (instead of a sweep over every
    /// coordinate): whether every projected gradient is within `tol`, else the
    /// coordinates in the support or violating their KKT condition in `index`.
    fn full_gradient(&self, d: &Dcd<'_>, z: &mut Mat<f64>, index: &mut Vec<usize>) -> bool {
        let (dp, ta) = (self.dp, d.active.len());
        let wm = MatRef::from_column_major_slice(&d.w, dp, ta);
        matmul(
            z.as_mut(),
            Accum::Replace,
            self.cols.as_ref(),
            wm,
            1.0,
            Par::Seq,
        );
        let (mut pg_max, mut pg_min) = (f64::NEG_INFINITY, f64::INFINITY);
        index.clear();
        for i in 0..self.n {
            let mut g = d.beta[i] * d.inv_c - 1.0;
            for a in 0..ta {
                g += d.mu_a[a] * d.labels[d.active[a]][i] * z[(i, a)];
            }
            let pg = if d.beta[i] == 0.0 { g.min(0.0) } else { g };
            pg_max = pg_max.max(pg);
            pg_min = pg_min.min(pg);
            if d.beta[i] > 0.0 || g < 0.0 {
                index.push(i);
            }
        }
        pg_max.abs().max(pg_min.abs()) <= self.tol || index.is_empty()
    }

    /// Coordinate-descent epochs over `index` with LIBLINEAR's shrinking, until the
    /// projected gradients of the shrunk set are within `tol` or the epoch cap.
    fn sweeps(&mut self, d: &mut Dcd<'_>, index: &mut [usize]) {
        let (dp, ta) = (self.dp, d.active.len());
        let mut ys = vec![0.0; ta];
        let mut active_size = index.len();
        // Only the upper side is used for shrinking: β has no upper bound.
        let mut pg_max_old = f64::INFINITY;
        while d.epochs < MAX_EPOCHS {
            let (mut pg_max, mut pg_min) = (f64::NEG_INFINITY, f64::INFINITY);
            index[..active_size].shuffle(&mut self.rng);
            let mut s = 0;
            while s < active_size {
                let i = index[s];
                let xi = &self.rows[i * dp..(i + 1) * dp];
                let mut g = d.beta[i] * d.inv_c - 1.0;
                for (a, (y, &t)) in ys.iter_mut().zip(&d.active).enumerate() {
                    *y = d.labels[t][i];
                    g += d.mu_a[a] * *y * dot(&d.w[a * dp..(a + 1) * dp], xi);
                }
                let mut pg = 0.0;
                if d.beta[i] == 0.0 {
                    if g > pg_max_old {
                        active_size -= 1;
                        index.swap(s, active_size);
                        continue;
                    } else if g < 0.0 {
                        pg = g;
                    }
                } else {
                    pg = g;
                }
                pg_max = pg_max.max(pg);
                pg_min = pg_min.min(pg);
                if pg.abs() > 1e-14 {
                    let old = d.beta[i];
                    d.beta[i] = (old - g / d.qii[i]).max(0.0);
                    let delta = d.beta[i] - old;
                    if delta != 0.0 {
                        for (wa, &y) in d.w.chunks_exact_mut(dp).zip(&ys) {
                            let f = delta * y;
                            for (wk, xk) in wa.iter_mut().zip(xi) {
                                *wk += f * xk;
                            }
                        }
                    }
                }
                s += 1;
            }
            d.epochs += 1;
            if pg_max.abs().max(pg_min.abs()) <= self.tol || active_size == 0 {
                break;
            }
            pg_max_old = if pg_max <= 0.0 { f64::INFINITY } else { pg_max };
        }
    }

    /// α = β/1ᵀβ, ρ, J and the terms `L_t = ½‖w_t‖²/(1ᵀβ)²` of every label vector (one
    /// product `Xᵀ(β∘Y)`).
    fn finish(&self, d: Dcd<'_>, mu: &[f64], converged: bool) -> Result<AlphaStep> {
        let labels = d.labels;
        let total: f64 = d.beta.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            return Err(Error::numerical(
                "LG-MMC linear dual coordinate descent",
                format!("1ᵀβ = {total}"),
            ));
        }
        let all: Vec<usize> = (0..labels.len()).collect();
        let wall = self.products(&d.beta, labels, &all);
        let s2 = total * total;
        let terms: Vec<f64> = (0..labels.len())
            .map(|t| 0.5 * wall.col(t).iter().map(|v| v * v).sum::<f64>() / s2)
            .collect();
        let bb: f64 = d.beta.iter().map(|b| b * b).sum();
        let rho =
            2.0 * (0..labels.len()).map(|t| mu[t] * terms[t]).sum::<f64>() + bb * d.inv_c / s2;
        Ok(AlphaStep {
            alpha: d.beta.iter().map(|b| b / total).collect(),
            objective: -0.5 * rho,
            rho,
            terms,
            iterations: d.epochs,
            converged,
        })
    }
}

impl AlphaSolver for LinearSolver {
    fn n(&self) -> usize {
        self.n
    }

    /// Outer loop: the full gradient by one product, the convergence test on all
    /// coordinates, then coordinate descent on the support and the KKT violators.
    fn solve(&mut self, problem: AlphaProblem<'_>) -> Result<AlphaStep> {
        let AlphaProblem { labels, mu, warm } = problem;
        let mut d = self.start(labels, mu, warm)?;
        let mut z = Mat::<f64>::zeros(self.n, d.active.len());
        let mut index: Vec<usize> = Vec::with_capacity(self.n);
        let mut converged = false;
        while d.epochs < MAX_EPOCHS {
            if self.full_gradient(&d, &mut z, &mut index) {
                converged = true;
                break;
            }
            self.sweeps(&mut d, &mut index);
        }
        self.finish(d, mu, converged)
    }

    fn violation(&self, alpha: &[f64], y: &[f64]) -> Result<f64> {
        let mut v = vec![0.0; self.dp];
        for i in 0..self.n {
            let f = alpha[i] * y[i];
            if f != 0.0 {
                for (vk, xk) in v.iter_mut().zip(&self.rows[i * self.dp..(i + 1) * self.dp]) {
                    *vk += f * xk;
                }
            }
        }
        Ok(0.5 * v.iter().map(|x| x * x).sum::<f64>())
    }

    fn kernel_times(&self, coef: &[f64]) -> Vec<f64> {
        let mut w = vec![0.0; self.dp];
        for (i, &c) in coef.iter().enumerate() {
            if c != 0.0 {
                for (wk, xk) in w.iter_mut().zip(&self.rows[i * self.dp..(i + 1) * self.dp]) {
                    *wk += c * xk;
                }
            }
        }
        (0..self.n)
            .map(|i| dot(&w, &self.rows[i * self.dp..(i + 1) * self.dp]))
            .collect()
    }

    fn features(&self) -> MatRef<'_, f64> {
        self.cols.as_ref().subcols(0, self.d_feat)
    }
}
