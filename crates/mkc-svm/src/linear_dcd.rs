//! The dual coordinate descent of [`crate::LinearSvr`] (Ho & Lin, "Large-scale linear
//! support vector regression", JMLR 13, 2012, Algorithm 3: LIBLINEAR's L2-regularised
//! L1-loss SVR dual, solver 13), on
//!
//! ```text
//! min_β  ½‖Σ_i β_i x_i‖² + ½ρ(Σ_i β_i)² + Σ_i β_i (s − z_i) + ε‖β‖₁   s.t.  −C ≤ β_i ≤ C
//! ```
//!
//! i.e. LIBLINEAR's dual with the constant feature √ρ appended to every x_i (ρ = B²) and
//! the targets shifted by a constant s (the augmented-Lagrangian step of
//! [`crate::LinearSvr`] moves s; LIBLINEAR has s = 0). The state keeps
//! `w = Σ β_i x_i` and `σ = Σ β_i`, so the gradient of coordinate i is
//! `G_i = x_iᵀw + ρσ + s − z_i` (O(d)) and its curvature `H_i = ‖x_i‖² + ρ`.
//!
//! Each coordinate step is LIBLINEAR's exact minimisation of the one-variable problem
//! (Ho & Lin eq. 28–29 with λ = 0): with `G⁺ = G + ε`, `G⁻ = G − ε`, the new value is
//! `β − G⁺/H` if `G⁺ < Hβ`, `β − G⁻/H` if `G⁻ > Hβ`, else 0, clipped to the box
//! (`H = 0`: the bound the linear term points to, or 0). The coordinates are visited in a
//! random permutation per epoch (ChaCha8 from the solve's seed, so the iterates are
//! deterministic), with LIBLINEAR's shrinking (a variable at a bound whose gradient points
//! outside by more than the previous epoch's largest violation `M` is left out:
//! `β = C, G⁺ < −M`; `β = −C, G⁻ > M`; `β = 0, G⁺ > M, G⁻ < −M`).
//!
//! **Stopping** (ours; LIBLINEAR tests the 1-norm of the projected gradient relative to the
//! first epoch's): when the largest violation met in an epoch over all n coordinates is at
//! most `tol`, one exact pass recomputes w and σ from β and every projected gradient
//! there; the run stops if all are within `tol` (the KKT conditions of the problem above),
//! else it goes on without shrinking until the next such test.

use crate::linear_sparse::SparseRows;
use mkc_core::seed::Rng;
use rand::seq::SliceRandom;

/// The samples as the solver reads them: row-major, optionally centred, with the columns
/// that are identically zero (after centring) dropped.
#[derive(Clone, Debug)]
pub(crate) struct Rows {
    pub(crate) n: usize,
    /// Kept columns.
    pub(crate) d: usize,
    /// n x d, row i at `data[i * d..(i + 1) * d]`.
    pub(crate) data: Vec<f64>,
    /// ‖x_i‖² of the stored rows.
    pub(crate) sq: Vec<f64>,
    /// The sparse companion for `products` and `combine`, where it pays
    /// ([`crate::linear_sparse`]).
    pub(crate) sparse: Option<SparseRows>,
}

impl Rows {
    #[inline]
    pub(crate) fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.d..(i + 1) * self.d]
    }

    /// The rows, with the sparse companion when most entries of each column are one
    /// value.
    pub(crate) fn new(n: usize, d: usize, data: Vec<f64>) -> Self {
        let sq = (0..n)
            .map(|i| data[i * d..(i + 1) * d].iter().map(|v| v * v).sum())
            .collect();
        let sparse = SparseRows::build(&data, n, d);
        Rows {
            n,
            d,
            data,
            sq,
            sparse,
        }
    }

    /// `x_iᵀw` for every i.
    pub(crate) fn products(&self, w: &[f64]) -> Vec<f64> {
        if let Some(sp) = &self.sparse {
            return sp.products(w);
        }
        (0..self.n).map(|i| dot(self.row(i), w)).collect()
    }

    /// `Σ_i β_i x_i`.
    pub(crate) fn combine(&self, beta: &[f64]) -> Vec<f64> {
        if let Some(sp) = &self.sparse {
            return sp.combine(beta);
        }
        let mut w = vec![0.0; self.d];
        for (i, &b) in beta.iter().enumerate() {
            if b != 0.0 {
                axpy(&mut w, b, self.row(i));
            }
        }
        w
    }
}

/// `aᵀb` with four partial sums (vectorises without reassociation).
#[inline]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

#[inline]
fn axpy(y: &mut [f64], a: f64, x: &[f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

/// The KKT violation of coordinate β ∈ [−C, C] with gradient `g` of the smooth part and
/// the term ε|β|: the size of its projected (sub)gradient.
#[inline]
pub(crate) fn violation(beta: f64, g: f64, c: f64, eps: f64) -> f64 {
    let (gp, gn) = (g + eps, g - eps);
    if beta >= c {
        gp.max(0.0)
    } else if beta <= -c {
        (-gn).max(0.0)
    } else if beta > 0.0 {
        gp.abs()
    } else if beta < 0.0 {
        gn.abs()
    } else {
        (-gp).max(gn).max(0.0)
    }
}

/// The bias b that the KKT conditions give at β, with `resid_i = x_iᵀw − z_i`: the mean
/// of `−(resid_i + ε·sign β_i)` over the β_i strictly inside the box (with ε > 0, the
/// non-zero ones), else the mean of `−resid_i`.
pub(crate) fn kkt_bias(beta: &[f64], resid: &[f64], c: f64, eps: f64) -> f64 {
    let (mut inside, mut count, mut all) = (0.0, 0usize, 0.0);
    for (&b, &r) in beta.iter().zip(resid) {
        all -= r;
        if b.abs() < c && (b != 0.0 || eps == 0.0) {
            inside -= r + if b == 0.0 { 0.0 } else { eps * b.signum() };
            count += 1;
        }
    }
    if count > 0 {
        inside / count as f64
    } else {
        all / resid.len().max(1) as f64
    }
}

/// The state of the coordinate descent (module docs).
pub(crate) struct Dcd<'a> {
    rows: &'a Rows,
    z: &'a [f64],
    c: f64,
    eps: f64,
    /// Coupling ρ of Σβ (B², or the augmented-Lagrangian penalty).
    pub(crate) rho: f64,
    /// Constant s added to every output.
    pub(crate) shift: f64,
    pub(crate) beta: Vec<f64>,
    pub(crate) w: Vec<f64>,
    pub(crate) sigma: f64,
    /// Epochs so far (over all runs of this state).
    pub(crate) epochs: usize,
    index: Vec<usize>,
    rng: Rng,
}

impl<'a> Dcd<'a> {
    /// The state at `beta` (inside the box), w and σ computed from it.
    pub(crate) fn new(
        rows: &'a Rows,
        z: &'a [f64],
        (c, eps): (f64, f64),
        beta: Vec<f64>,
        seed: u64,
    ) -> Self {
        let w = rows.combine(&beta);
        let sigma = beta.iter().sum();
        Self {
            rows,
            z,
            c,
            eps,
            rho: 0.0,
            shift: 0.0,
            beta,
            w,
            sigma,
            epochs: 0,
            index: (0..rows.n).collect(),
            rng: mkc_core::seed::rng(seed),
        }
    }

    /// The gradient of coordinate i given `x_iᵀw`.
    #[inline]
    fn gradient(&self, i: usize, xw: f64) -> f64 {
        xw + self.rho * self.sigma + self.shift - self.z[i]
    }

    /// `x_iᵀw − z_i` for every i (the gradients at ρ = 0, s = 0).
    pub(crate) fn residuals(&self) -> Vec<f64> {
        let xw = self.rows.products(&self.w);
        xw.iter().zip(self.z).map(|(v, z)| v - z).collect()
    }

    /// Every coordinate's gradient `G_i = x_iᵀw + ρσ + s − z_i`.
    pub(crate) fn gradients(&self) -> Vec<f64> {
        let xw = self.rows.products(&self.w);
        (0..self.rows.n).map(|i| self.gradient(i, xw[i])).collect()
    }

    /// w and σ recomputed from β (removing the drift of the updates), then the largest
    /// KKT violation over all coordinates.
    pub(crate) fn refresh(&mut self) -> f64 {
        self.w = self.rows.combine(&self.beta);
        self.sigma = self.beta.iter().sum();
        self.gradients()
            .iter()
            .zip(&self.beta)
            .map(|(&g, &b)| violation(b, g, self.c, self.eps))
            .fold(0.0, f64::max)
    }

    /// Whether LIBLINEAR's shrinking rule leaves coordinate `beta` out (module docs).
    #[inline]
    fn shrinks(&self, beta: f64, g: f64, m: f64) -> bool {
        let (gp, gn) = (g + self.eps, g - self.eps);
        if beta >= self.c {
            gp < -m
        } else if beta <= -self.c {
            gn > m
        } else {
            beta == 0.0 && gp > m && gn < -m
        }
    }

    /// The exact minimisation over coordinate i (module docs); returns the step taken.
    #[inline]
    fn step(&mut self, i: usize, g: f64) {
        let h = self.rows.sq[i] + self.rho;
        let (gp, gn, b) = (g + self.eps, g - self.eps, self.beta[i]);
        let target = if h > 0.0 {
            if gp < h * b {
                b - gp / h
            } else if gn > h * b {
                b - gn / h
            } else {
                0.0
            }
        } else if gp < 0.0 {
            self.c
        } else if gn > 0.0 {
            -self.c
        } else {
            0.0
        };
        let new = target.clamp(-self.c, self.c);
        let d = new - b;
        if d != 0.0 {
            self.beta[i] = new;
            self.sigma += d;
            axpy(&mut self.w, d, self.rows.row(i));
        }
    }

    /// Epochs until the KKT conditions hold within `tol` (true) or `max_epochs` epochs
    /// in all have been made (false).
    pub(crate) fn run(&mut self, tol: f64, max_epochs: usize, shrinking: bool) -> bool {
        let n = self.rows.n;
        let mut active = n;
        let mut m_old = f64::INFINITY;
        while self.epochs < max_epochs {
            self.epochs += 1;
            let mut index = std::mem::take(&mut self.index);
            index[..active].shuffle(&mut self.rng);
            let mut m_new = 0.0f64;
            let mut s = 0;
            while s < active {
                let i = index[s];
                let g = self.gradient(i, dot(self.rows.row(i), &self.w));
                if shrinking && self.shrinks(self.beta[i], g, m_old) {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                }
                m_new = m_new.max(violation(self.beta[i], g, self.c, self.eps));
                self.step(i, g);
                s += 1;
            }
            self.index = index;
            if m_new <= tol {
                if active == n && self.refresh() <= tol {
                    return true;
                }
                active = n;
                m_old = f64::INFINITY;
            } else {
                m_old = m_new;
            }
        }
        false
    }
}
