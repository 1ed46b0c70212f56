//! AASC's weight step (Huang, Chuang & Chen, "Affinity Aggregation for Spectral
//! Clustering", CVPR 2012): the affinity weights for a fixed eigenvector.
//!
//! The aggregated affinity is `W_v = Σ_k v_k² W_k`, so its degree matrix and Laplacian are
//! `D_v = Σ_k v_k² D_k` and `L_v = Σ_k v_k² L_k`. For one eigenvector `f` (the authors'
//! code uses the second-smallest of `L_v`, the Fiedler vector) the weights minimise the
//! Rayleigh ratio
//!
//! ```text
//! R(v) = fᵀL_v f / fᵀD_v f = Σ_k v_k² β_k / Σ_k v_k² α_k,   α_k = fᵀD_k f,  β_k = fᵀL_k f,
//! ```
//!
//! subject to `Σ_k v_k = 1`. With `u_k = √α_k v_k` on the unit sphere, the stationarity
//! conditions give `v_k = λ₂ / ((γ_k − λ₁) α_k)` with `γ_k = β_k / α_k`, where `λ₂` makes
//! `Σ v_k = 1`, `λ₂ = 1 / Σ_k 1/((γ_k − λ₁) α_k)`, and `λ₁` solves the scalar ("secular")
//! equation of the unit norm of `u`,
//!
//! ```text
//! g(λ) = | (Σ_k 1/((γ_k − λ) α_k))² / Σ_k 1/((γ_k − λ)² α_k) | − 1 = 0.
//! ```
//!
//! We evaluate every term in the form `(γ_k − λ) α_k = β_k − λ α_k`, which needs no division
//! by α_k (a kernel with negative entries can have α_k near 0).
//!
//! Choices the paper leaves open, fixed as in the authors' code or stated here:
//! - `λ₁`: the authors call MATLAB's `fsolve` from `x0 = −1` and, when it is unavailable,
//!   use `λ₁ = x0`. We find every root of `g` that shows as a sign change
//!   ([`roots_between_poles`]: the poles are the γ_k) and take the one nearest the start.
//!   When `g` has no root — the usual case: by Cauchy–Schwarz `g < 0` everywhere when
//!   `Σ_k 1/α_k < 1`, and `α_k ≥ 1` for a unit-diagonal affinity with non-negative entries
//!   — `fsolve`, a least-squares solver, ends at a local minimum of `g²`, i.e. a local
//!   maximum of `g`; [`LambdaRule::RootOrLeastSquares`] (default) follows `g` uphill from
//!   the start to that point ([`ascend_between_poles`]). Left of every pole `g` rises
//!   towards its supremum `Σ_k 1/α_k − 1` as `λ → −∞`; an ascent that heads there
//!   (beyond [`crate::root::FAR`]) gives `λ₁ = −∞` and the limit weights `v_k ∝ 1/α_k`.
//!   [`LambdaRule::RootOrStart`] takes `λ₁ = x0` without a root (the code when `fsolve`
//!   throws), [`LambdaRule::Start`] always (the code without `fsolve`). Weight steps
//!   without a root are counted in the diagnostics.
//! - The weights are not projected: they may be negative or large; only `v_k²` enters `W_v`.

use faer::{Mat, MatRef};
use mkc_core::{validate, Error, Result};

use crate::root::{ascend_between_poles, roots_between_poles, Brent};

/// How AASC picks `λ₁` in its weight step (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LambdaRule {
    /// The root of the secular equation nearest the start; without a root, the local
    /// maximum of `g` uphill from the start (the least-squares point that MATLAB's `fsolve`
    /// converges to). Default.
    RootOrLeastSquares,
    /// The root nearest the start; without a root, the start itself (the authors' code when
    /// `fsolve` throws).
    RootOrStart,
    /// The start itself (the authors' code without `fsolve`).
    Start,
}

/// The 1-D weight problem of one eigenvector: the coefficients `α_k = fᵀD_k f` and
/// `β_k = fᵀL_k f` of every affinity.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightProblem {
    /// `α_k = fᵀ D_k f`.
    pub alpha: Vec<f64>,
    /// `β_k = fᵀ L_k f = α_k − fᵀ W_k f`.
    pub beta: Vec<f64>,
}

/// The solution of one weight step.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightStep {
    /// `λ₁`.
    pub lambda: f64,
    /// The new affinity weights v (`Σ v_k = 1`).
    pub weights: Vec<f64>,
    /// Whether `λ₁` is a root of the secular equation (false: the start value).
    pub root_found: bool,
}

/// Degrees (row sums, self-loops included) of every affinity.
pub(crate) fn degrees(kernels: &[MatRef<'_, f64>]) -> Vec<Vec<f64>> {
    kernels
        .iter()
        .map(|k| (0..k.ncols()).map(|j| k.col(j).iter().sum()).collect())
        .collect()
}

impl WeightProblem {
    /// The problem for coefficients `alpha`, `beta` (same length ≥ 1, finite).
    ///
    /// # Errors
    /// Empty or mismatched lengths, non-finite entries.
    pub fn new(alpha: Vec<f64>, beta: Vec<f64>) -> Result<Self> {
        if alpha.is_empty() {
            return Err(Error::input("AASC weight problem", "no affinities"));
        }
        validate::len("AASC beta", beta.len(), alpha.len())?;
        validate::finite_slice("AASC alpha", &alpha)?;
        validate::finite_slice("AASC beta", &beta)?;
        Ok(Self { alpha, beta })
    }

    /// The problem for eigenvector `f` (n x 1) of affinities `kernels` with degrees
    /// `degrees` ([`degrees`]).
    pub(crate) fn for_vector(
        kernels: &[MatRef<'_, f64>],
        degrees: &[Vec<f64>],
        f: MatRef<'_, f64>,
    ) -> Result<Self> {
        let quad = mkc_linalg::trace_quadratic_many(kernels, f)?;
        let alpha: Vec<f64> = degrees
            .iter()
            .map(|d| {
                d.iter()
                    .enumerate()
                    .map(|(i, di)| di * f[(i, 0)] * f[(i, 0)])
                    .sum()
            })
            .collect();
        let beta = alpha.iter().zip(&quad).map(|(a, q)| a - q).collect();
        Self::new(alpha, beta)
    }

    /// `R(v) = Σ_k v_k² β_k / Σ_k v_k² α_k`, the Rayleigh ratio the step minimises.
    pub fn ratio(&self, v: &[f64]) -> f64 {
        let num: f64 = v.iter().zip(&self.beta).map(|(v, b)| v * v * b).sum();
        let den: f64 = v.iter().zip(&self.alpha).map(|(v, a)| v * v * a).sum();
        num / den
    }

    /// The poles of the secular equation: `γ_k = β_k / α_k` for every `α_k ≠ 0`.
    pub fn poles(&self) -> Vec<f64> {
        self.alpha
            .iter()
            .zip(&self.beta)
            .filter(|(a, _)| **a != 0.0)
            .map(|(a, b)| b / a)
            .collect()
    }

    /// The secular function `g(λ)` (module docs); not finite at a pole.
    pub fn secular(&self, lambda: f64) -> f64 {
        let (mut s1, mut s2) = (0.0, 0.0);
        for (a, b) in self.alpha.iter().zip(&self.beta) {
            let t = b - lambda * a;
            s1 += 1.0 / t;
            s2 += a / (t * t);
        }
        (s1 * s1 / s2).abs() - 1.0
    }

    /// The weights for a given `λ₁`: `v_k = λ₂ / (β_k − λ₁ α_k)`, `λ₂ = 1 / Σ_k 1/(β_k − λ₁ α_k)`;
    /// for `λ₁ = ±∞` their limit, `v_k ∝ 1/α_k`.
    ///
    /// # Errors
    /// [`Error::Numerical`] when `λ₁` is a pole, `Σ_k 1/(β_k − λ₁ α_k) = 0`, or `λ₁ = ±∞`
    /// with some `α_k = 0`.
    pub fn weights_at(&self, lambda: f64) -> Result<Vec<f64>> {
        let inv: Vec<f64> = self
            .alpha
            .iter()
            .zip(&self.beta)
            .map(|(a, b)| {
                if lambda.is_infinite() {
                    1.0 / a
                } else {
                    1.0 / (b - lambda * a)
                }
            })
            .collect();
        let s: f64 = inv.iter().sum();
        let v: Vec<f64> = inv.iter().map(|x| x / s).collect();
        if v.iter().all(|x| x.is_finite()) {
            Ok(v)
        } else {
            Err(Error::numerical(
                "AASC weight step",
                format!(
                    "the weights are not finite at λ₁ = {lambda:e} (a pole or Σ 1/(β − λα) = 0)"
                ),
            ))
        }
    }

    /// One weight step: `λ₁` by `rule` from `start`, then [`WeightProblem::weights_at`].
    ///
    /// # Errors
    /// As [`WeightProblem::weights_at`]; a root-finder failure.
    pub fn solve(&self, rule: LambdaRule, start: f64, brent: &Brent) -> Result<WeightStep> {
        let root = match rule {
            LambdaRule::Start => None,
            _ => roots_between_poles(|x| self.secular(x), &self.poles(), brent)?
                .into_iter()
                .min_by(|a, b| (a - start).abs().total_cmp(&(b - start).abs())),
        };
        let lambda = match (root, rule) {
            (Some(r), _) => r,
            (None, LambdaRule::RootOrLeastSquares) => {
                ascend_between_poles(|x| self.secular(x), &self.poles(), start)?.unwrap_or(start)
            }
            (None, _) => start,
        };
        Ok(WeightStep {
            lambda,
            weights: self.weights_at(lambda)?,
            root_found: root.is_some(),
        })
    }
}

/// Column `j` of `m` as an n x 1 matrix.
pub(crate) fn column(m: &Mat<f64>, j: usize) -> Mat<f64> {
    Mat::from_fn(m.nrows(), 1, |i, _| m[(i, j)])
}
