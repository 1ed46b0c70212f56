//! Linear ε-SVR on features (n x d samples, no kernel matrix), by dual coordinate
//! descent (Ho & Lin, "Large-scale linear support vector regression", JMLR 13, 2012;
//! LIBLINEAR's L2-regularised L1-loss SVR dual, solver 13). For iterSVR on data too
//! large for an n x n kernel (MNIST pairs, n ≈ 15000).
//!
//! # The problem
//!
//! With [`LinearBias::Free`] (the default) it is the problem [`crate::EpsSvr`] solves on
//! the linear kernel `K = XXᵀ`, with an unregularised bias b:
//!
//! ```text
//! min_β  ½ βᵀXXᵀβ − zᵀβ + ε‖β‖₁   s.t.  Σ β_i = 0,  −C ≤ β_i ≤ C,     f(x) = xᵀw + b,  w = Xᵀβ
//! ```
//!
//! (the dual of `min ½‖w‖² + C Σ max(|z_i − f(x_i)| − ε, 0)`; b is the multiplier of
//! `Σβ = 0`). LIBLINEAR instead appends a constant feature B to every sample, which drops
//! the equality constraint but regularises b (`½b²/B²` in the primal) — that is
//! [`LinearBias::Regularised`]; `Regularised(0.0)` is the model without bias. Single
//! coordinates cannot move under `Σβ = 0`, so the free bias is reached by the method of
//! multipliers (Hestenes–Powell; Bertsekas, *Constrained Optimization and Lagrange
//! Multiplier Methods*, 1982, ch. 2) on that constraint:
//!
//! ```text
//! β^{k+1} = argmin_{|β_i| ≤ C}  ½‖Xᵀβ‖² + ½ρ(Σβ)² + Σ β_i (b_k − z_i) + ε‖β‖₁
//! b_{k+1} = b_k + ρ Σ β^{k+1}
//! ```
//!
//! Each inner problem is LIBLINEAR's with the feature √ρ and the targets `z − b_k`,
//! solved by the coordinate descent (warm-started from β^k), and its gradient at the
//! solution is already `x_iᵀw + b_{k+1} − z_i`: the KKT conditions of the problem above
//! hold within `tol` with the bias `b_{k+1}` except for `Σβ = 0`, which the rounds drive
//! to zero. **Stopping**: an inner solve met `tol` and the multiplier moved by
//! `ρ|Σβ| ≤ tol`, i.e. one more round would change every output f_i by at most `tol`
//! ([`LinearSvrModel::sum_residual`] reports `|Σβ|`; the kernel solver's β sums to 0
//! exactly). ρ starts at the mean `‖x_i − x̄‖²` (the scale of the kernel's diagonal) and
//! is multiplied by 4 (up to 10⁴ times its start) after a round that did not reduce
//! `|Σβ|` to a quarter, the textbook rule.
//!
//! With a free bias the columns of X are **centred** first (exact: under `Σβ = 0`,
//! `βᵀXXᵀβ = βᵀX_cX_cᵀβ`, and the mean moves into b): an uncentred common component
//! (MNIST's background pixels) would add `c·11ᵀ` to the coordinates' curvature and slow the
//! descent. With [`LinearBias::Regularised`] the data are used as given, as LIBLINEAR does.
//! Columns that are identically zero (constant, when centred) are dropped; w has zeros
//! there.
//!
//! # Solver
//!
//! With a free bias the default ([`LinearSvrSolver::Newton`]) is a semismooth Newton method
//! on the primal with the loss Huber-smoothed at width μ = `tol`/2, in d + 1 variables
//! (source `linear_newton.rs`; the stationary point's β meets every KKT condition within
//! μ), with μ lowered from 1 by tenfold stages on a cold solve and at `tol`/2 from the
//! start on a warm one; then an exact finish solves the SVR's KKT system on the smoothed
//! solution's pattern where that pattern is non-degenerate (source `linear_finish.rs`),
//! and the better of the two β by exact KKT violation is returned. If neither meets `tol`
//! (tolerances near 10⁻¹⁰ on degenerate problems, where the smoothing's rounding is of
//! order `C·n·u/μ`), the coordinate descent below continues from the Newton β
//! ([`LinearSvrModel::solver`] says which finished). On MNIST 1 vs 7 (n = 15170, d = 784,
//! ε = 0, C = 1, `tol` = 10⁻³) iterSVR's five SVRs meet the tolerance in 339 Newton steps
//! together (about 0.1 s a step: the (d+1)² system from the rows in Q), where the descent
//! stalled at a violation of 0.045 after 3000 epochs.
//!
//! [`LinearSvrSolver::CoordinateDescent`] (and every solve with a regularised bias): see
//! the coordinate descent's docs in the source (`linear_dcd.rs`): O(d) per
//! coordinate step, a random permutation per epoch from [`LinearSvrParams::seed`]
//! (deterministic), LIBLINEAR's shrinking ([`LinearSvrParams::shrinking`]), stopping when
//! every projected gradient is within [`LinearSvrParams::tol`] (checked in one exact pass).
//! A cold solve with a free bias first runs an ADMM start on the primal
//! ([`LinearSvrParams::admm_iter`]; source `linear_admm.rs`): on MNIST 1 vs 7 at C = 1
//! the descent alone was at a violation of 0.3 after 2000 epochs, from the ADMM start at
//! 0.047 after 300 (and 0.045 after 3000: there it stalls; the optimum has ≤ d + 1 free β
//! among n = 15170, a degenerate LP-like problem). A warm start skips ADMM.
//! A warm start takes a previous β (clipped to the box); the first multiplier b₀ is the
//! bias that the KKT conditions give at that β (the mean of `z_i − x_iᵀw − ε·sign β_i`
//! over the β_i strictly inside the box, else the mean of `z_i − x_iᵀw`).
//! [`LinearSvrParams::max_epochs`] caps the epochs of one solve, all rounds together
//! ([`LinearSvrParams::newton_iter`] the Newton steps); a capped solve is reported
//! (`converged = false`), not an error.

use crate::linear_admm::{admm, gram};
use crate::linear_dcd::{kkt_bias, violation, Dcd, Rows};
use crate::linear_finish::finish;
use crate::linear_newton::newton;
use crate::solver::SolveStatus;
use faer::{Mat, MatRef};
use mkc_core::{validate, Error, Result};
use std::sync::OnceLock;

/// The solver of a free-bias problem (module docs, "Solver").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LinearSvrSolver {
    /// Semismooth Newton on the Huber-smoothed primal (source `linear_newton.rs`), the
    /// dual descent from its β only if it fails.
    #[default]
    Newton,
    /// The ADMM start and the dual coordinate descent with the method of multipliers.
    CoordinateDescent,
}

/// How the bias b of `f(x) = xᵀw + b` enters (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum LinearBias {
    /// Unregularised b with `Σβ = 0`, the problem of [`crate::EpsSvr`] on `XXᵀ` (method of
    /// multipliers; the columns are centred).
    #[default]
    Free,
    /// LIBLINEAR's constant feature B ≥ 0 (b regularised by `½b²/B²`; 0 = no bias); the
    /// data are not centred.
    Regularised(f64),
}

mkc_core::params! {
    /// Unchecked linear ε-SVR hyperparameters (builder): `LinearSvrParams::new().c(10.0)`.
    pub struct LinearSvrParams {
        /// Box constraint C > 0.
        c: f64 = 1.0,
        /// Tube width ε ≥ 0 (0 = the Laplacian loss of iterSVR).
        epsilon: f64 = 0.0,
        /// The bias ([`LinearBias`]).
        bias: LinearBias = LinearBias::Free,
        /// Largest admitted KKT violation (projected gradient, and `ρ|Σβ|` for a free bias).
        tol: f64 = 1e-3,
        /// Cap on the coordinate-descent epochs of one solve (≥ 1).
        max_epochs: usize = 10_000,
        /// LIBLINEAR's shrinking.
        shrinking: bool = true,
        /// Seed of the epochs' permutations.
        seed: u64 = 0,
        /// Free bias, cold solves of the coordinate descent: cap on the iterations of the
        /// ADMM start (0 = none; module docs).
        admm_iter: usize = 500,
        /// The solver with a free bias ([`LinearSvrSolver`]; a regularised bias always
        /// uses the coordinate descent).
        solver: LinearSvrSolver = LinearSvrSolver::Newton,
        /// Cap on the Newton steps of one solve, all stages together (≥ 1).
        newton_iter: usize = 200,
    }
    /// Defaults: C = 1, ε = 0, free bias, tolerance 1e-3 (as the kernel solver's), at most
    /// 10⁴ epochs, shrinking on, seed 0, at most 500 ADMM iterations before the descent,
    /// the Newton solver with at most 200 steps.
    new;
}

mkc_core::checked! {
    /// A checked linear ε-SVR: [`LinearSvr::fit`] on a feature matrix, or
    /// [`LinearSvr::solve`] on [`LinearFeatures`] prepared once for many solves.
    pub struct LinearSvr(LinearSvrParams);
    |p| {
        validate::positive("C", p.c)?;
        validate::non_negative("epsilon", p.epsilon)?;
        validate::positive("tol", p.tol)?;
        if let LinearBias::Regularised(b) = p.bias {
            validate::non_negative("bias", b)?;
        }
        mkc_core::mkc_ensure!(p.max_epochs >= 1, param "max_epochs", p.max_epochs, "must be at least 1");
        mkc_core::mkc_ensure!(p.newton_iter >= 1, param "newton_iter", p.newton_iter, "must be at least 1");
        Ok(())
    }
}

/// Samples validated and laid out for the solver (row-major, centred or not, zero
/// columns dropped): build once, solve many times.
#[derive(Clone, Debug)]
pub struct LinearFeatures {
    rows: Rows,
    /// Original column of every kept column.
    keep: Vec<usize>,
    /// Subtracted mean of every kept column (zeros when not centred).
    means: Vec<f64>,
    /// Columns of the input.
    d_in: usize,
    centred: bool,
    /// `XᵀX` of the stored rows, formed by the first solve that runs ADMM.
    gram: OnceLock<Mat<f64>>,
}

impl LinearFeatures {
    /// The samples `x` (n x d, rows), centred column-wise if `centre`.
    ///
    /// # Errors
    /// [`Error::InvalidInput`] for an empty `x`, [`Error::NonFinite`] for a non-finite entry.
    pub fn new(x: MatRef<'_, f64>, centre: bool) -> Result<Self> {
        validate::non_empty("features", x)?;
        validate::finite("features", x)?;
        let (n, d_in) = (x.nrows(), x.ncols());
        let mean = |j: usize| {
            if centre {
                x.col(j).iter().sum::<f64>() / n as f64
            } else {
                0.0
            }
        };
        let all_means: Vec<f64> = (0..d_in).map(mean).collect();
        let keep: Vec<usize> = (0..d_in)
            .filter(|&j| x.col(j).iter().any(|&v| v - all_means[j] != 0.0))
            .collect();
        let means: Vec<f64> = keep.iter().map(|&j| all_means[j]).collect();
        let d = keep.len();
        let mut data = Vec::with_capacity(n * d);
        for i in 0..n {
            data.extend(keep.iter().zip(&means).map(|(&j, m)| x[(i, j)] - m));
        }
        Ok(Self {
            rows: Rows::new(n, d, data),
            keep,
            means,
            d_in,
            centred: centre,
            gram: OnceLock::new(),
        })
    }

    /// Number of samples.
    pub fn n(&self) -> usize {
        self.rows.n
    }

    /// Whether the columns were centred.
    pub fn is_centred(&self) -> bool {
        self.centred
    }
}

/// A fitted linear ε-SVR.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LinearSvrModel {
    /// Dual coefficients β (|β_i| ≤ C; Σβ ≈ 0 with a free bias, see `sum_residual`).
    pub coef: Vec<f64>,
    /// Weights w (length d of the input), in the input's coordinates.
    pub w: Vec<f64>,
    /// Bias b, in the input's coordinates: `f(x) = xᵀw + b`.
    pub b: f64,
    /// Fitted values `f(x_i)` on the training samples.
    pub prediction: Vec<f64>,
    /// Dual objective in maximisation form, `−(½‖w‖² [+ ½B²(Σβ)²] − zᵀβ + ε‖β‖₁)` (with the
    /// centred w for a free bias: the value of [`crate::EpsSvr`]'s objective when Σβ = 0).
    pub objective: f64,
    /// Coordinate-descent epochs or Newton steps (`iterations`, by [`Self::solver`]),
    /// whether the tolerance was met, and the largest KKT violation (projected gradient)
    /// at the returned β and b.
    pub status: SolveStatus,
    /// Multiplier rounds (1 for a regularised bias and for the Newton solver).
    pub rounds: usize,
    /// The solver that produced the model (the Newton solver hands over to the
    /// coordinate descent if it fails to meet the tolerance).
    pub solver: LinearSvrSolver,
    /// `|Σβ|` (0 up to rounding for a regularised bias, where it is not a constraint).
    pub sum_residual: f64,
}

impl LinearSvr {
    /// Fit targets `z` on the samples `x` (n x d), preparing them first (centred for a
    /// free bias).
    ///
    /// # Errors
    /// As [`LinearFeatures::new`] and [`LinearSvr::solve`].
    pub fn fit(&self, x: MatRef<'_, f64>, z: &[f64]) -> Result<LinearSvrModel> {
        let data = LinearFeatures::new(x, self.p.bias == LinearBias::Free)?;
        self.solve(&data, z, None)
    }

    /// Fit targets `z` on prepared samples, from β = `warm` (clipped to the box) or 0.
    ///
    /// # Errors
    /// [`Error::Shape`] / [`Error::InvalidInput`] for `z` or `warm` of the wrong length or
    /// with non-finite entries ([`Error::NonFinite`]).
    pub fn solve(
        &self,
        data: &LinearFeatures,
        z: &[f64],
        warm: Option<&[f64]>,
    ) -> Result<LinearSvrModel> {
        let (n, c) = (data.n(), self.p.c);
        validate::len("targets z", z.len(), n)?;
        validate::finite_slice("targets z", z)?;
        let mut beta = match warm {
            Some(b) => {
                validate::len("warm-start coefficients", b.len(), n)?;
                validate::finite_slice("warm-start coefficients", b)?;
                b.iter().map(|v| v.clamp(-c, c)).collect()
            }
            None => vec![0.0; n],
        };
        let free = self.p.bias == LinearBias::Free;
        let newton = free && self.p.solver == LinearSvrSolver::Newton && data.rows.d > 0;
        if newton {
            if let Some(m) = self.newton(data, z, &mut beta, warm.is_some())? {
                return Ok(m);
            }
        }
        let beta = if free && warm.is_none() && !newton && self.p.admm_iter > 0 && data.rows.d > 0 {
            let g = data.gram.get_or_init(|| gram(&data.rows));
            let (ce, it) = ((c, self.p.epsilon), self.p.admm_iter);
            admm(&data.rows, g.as_ref(), z, ce, beta.clone(), self.p.tol, it).unwrap_or(beta)
        } else {
            beta
        };
        let mut dcd = Dcd::new(&data.rows, z, (c, self.p.epsilon), beta, self.p.seed);
        let (rounds, converged) = match self.p.bias {
            LinearBias::Regularised(b) => {
                dcd.rho = b * b;
                let ok = dcd.run(self.p.tol, self.p.max_epochs, self.p.shrinking);
                (1, ok)
            }
            LinearBias::Free => self.multipliers(data, &mut dcd),
        };
        let cd = LinearSvrSolver::CoordinateDescent;
        self.model(data, &mut dcd, z, (rounds, converged), cd)
    }

    /// The Newton solver from β (`warm`: a previous solution): the model if it met the
    /// tolerance, else `None` with β set to its last iterate for the descent.
    fn newton(
        &self,
        data: &LinearFeatures,
        z: &[f64],
        beta: &mut Vec<f64>,
        warm: bool,
    ) -> Result<Option<LinearSvrModel>> {
        let (c, eps) = (self.p.c, self.p.epsilon);
        let w = data.rows.combine(beta);
        let resid: Vec<f64> = (data.rows.products(&w).iter().zip(z))
            .map(|(v, zi)| v - zi)
            .collect();
        let b = kkt_bias(beta, &resid, c, eps);
        let caps = (warm, self.p.newton_iter);
        let Some(out) = newton(&data.rows, z, (c, eps), (w, b), self.p.tol, caps) else {
            return Ok(None);
        };
        let model = |beta: Vec<f64>, b: f64| {
            let mut dcd = Dcd::new(&data.rows, z, (c, eps), beta, self.p.seed);
            dcd.shift = b;
            dcd.epochs = out.iterations;
            self.model(data, &mut dcd, z, (1, true), LinearSvrSolver::Newton)
        };
        let huber = model(out.beta.clone(), out.b)?;
        let m = match finish(&data.rows, z, (c, eps), &out.beta) {
            Some((beta, b)) => {
                let exact = model(beta, b)?;
                if exact.status.max_violation < huber.status.max_violation {
                    exact
                } else {
                    huber
                }
            }
            None => huber,
        };
        if m.status.converged {
            return Ok(Some(m));
        }
        beta.clone_from(&m.coef);
        Ok(None)
    }

    /// The method of multipliers on `Σβ = 0` (module docs): (rounds, converged).
    fn multipliers(&self, data: &LinearFeatures, dcd: &mut Dcd<'_>) -> (usize, bool) {
        let mean_sq = data.rows.sq.iter().sum::<f64>() / data.n() as f64;
        let rho0 = if mean_sq > 0.0 { mean_sq } else { 1.0 };
        dcd.rho = rho0;
        dcd.shift = kkt_bias(&dcd.beta, &dcd.residuals(), self.p.c, self.p.epsilon);
        let mut last = f64::INFINITY;
        let mut rounds = 0;
        loop {
            rounds += 1;
            let ok = dcd.run(self.p.tol, self.p.max_epochs, self.p.shrinking);
            let step = dcd.rho * dcd.sigma;
            dcd.shift += step;
            if !ok {
                return (rounds, false);
            }
            if step.abs() <= self.p.tol {
                return (rounds, true);
            }
            if dcd.sigma.abs() > 0.25 * last && dcd.rho < 1e4 * rho0 {
                dcd.rho *= 4.0;
            }
            last = dcd.sigma.abs();
        }
    }

    /// The model from the final state (exact w, σ, outputs and violations).
    fn model(
        &self,
        data: &LinearFeatures,
        dcd: &mut Dcd<'_>,
        z: &[f64],
        (rounds, converged): (usize, bool),
        solver: LinearSvrSolver,
    ) -> Result<LinearSvrModel> {
        let (c, eps) = (self.p.c, self.p.epsilon);
        dcd.w = data.rows.combine(&dcd.beta);
        dcd.sigma = dcd.beta.iter().sum();
        let free = self.p.bias == LinearBias::Free;
        // Free: b = b_{k+1} (already in `shift`); regularised: b = B²σ.
        let b_int = if free { dcd.shift } else { dcd.rho * dcd.sigma };
        let prediction: Vec<f64> = data
            .rows
            .products(&dcd.w)
            .iter()
            .map(|v| v + b_int)
            .collect();
        let max_violation = prediction
            .iter()
            .zip(z)
            .zip(&dcd.beta)
            .map(|((f, zi), &b)| violation(b, f - zi, c, eps))
            .fold(0.0, f64::max);
        validate::finite_slice("linear SVR outputs", &prediction)
            .map_err(|_| Error::numerical("linear SVR", "non-finite outputs"))?;
        let beta = std::mem::take(&mut dcd.beta);
        let wn = crate::linear_dcd::dot(&dcd.w, &dcd.w);
        let penalty = if free {
            0.0
        } else {
            dcd.rho * dcd.sigma * dcd.sigma
        };
        let linear: f64 = beta
            .iter()
            .zip(z)
            .map(|(b, zi)| eps * b.abs() - zi * b)
            .sum();
        let mut w = vec![0.0; data.d_in];
        for (k, &j) in data.keep.iter().enumerate() {
            w[j] = dcd.w[k];
        }
        let shift: f64 = data.means.iter().zip(&dcd.w).map(|(m, v)| m * v).sum();
        Ok(LinearSvrModel {
            objective: -(0.5 * (wn + penalty) + linear),
            w,
            b: b_int - shift,
            prediction,
            status: SolveStatus {
                iterations: dcd.epochs,
                converged: converged && max_violation <= self.p.tol,
                max_violation,
            },
            rounds,
            solver,
            sum_residual: dcd.sigma.abs(),
            coef: beta,
        })
    }
}
