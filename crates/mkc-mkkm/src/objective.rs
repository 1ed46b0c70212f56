//! The optimal value function J(γ) of eqs. (5)–(6) and its evaluator.
//!
//! `J(γ) = max_{HᵀH = I_k} tr(Hᵀ K_γ H)` with `K_γ = Σ_p γ_p² K_p`; the maximum is the
//! sum of the k largest eigenvalues of `K_γ`, attained at the top-k eigenvectors
//! (Ky Fan). Each evaluation forms `K_γ` in one reused n x n buffer
//! (`mkc_linalg::weighted_sum_into`) and solves the top-k eigenproblem, warm-started
//! from a nearby `H` when one is given (`mkc_linalg::eigen::top_k_warm`). Counts and
//! times of the eigensolves are kept in [`EvalStats`].

use std::time::{Duration, Instant};

use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use mkc_linalg::eigen::{self, EigenOptions};

/// Work done by an [`Objective`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalStats {
    /// Number of top-k eigensolves (= evaluations of J).
    pub eigensolves: usize,
    /// Of which warm-started from a previous H.
    pub warm_eigensolves: usize,
    /// Total time in the eigensolver.
    pub eigen_time: Duration,
    /// Total time forming `K_γ`.
    pub combine_time: Duration,
    /// Products of `K_γ` with single vectors inside the eigensolver (n per dense solve).
    pub matvecs: usize,
    /// Eigensolves that used the dense solver (small n, or a block-Lanczos fallback).
    pub dense_solves: usize,
}

impl EvalStats {
    /// Mean time of one eigensolve (zero when none was made).
    pub fn time_per_eigensolve(&self) -> Duration {
        if self.eigensolves == 0 {
            Duration::ZERO
        } else {
            self.eigen_time / self.eigensolves as u32
        }
    }
}

/// One evaluation of J: the value, the maximiser H (n x k, orthonormal columns) and the
/// top-k eigenvalues of the combined kernel (descending).
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// J(γ) = Σ of the k largest eigenvalues of K_γ = tr(Hᵀ K_γ H).
    pub value: f64,
    /// The top-k eigenvectors of K_γ.
    pub h: Mat<f64>,
    /// The k largest eigenvalues of K_γ, descending.
    pub eigenvalues: Vec<f64>,
    /// `tr(Hᵀ K_p H)` for every base kernel when the evaluator had them for free
    /// (the subspace evaluator); `None` otherwise.
    pub alignments: Option<Vec<f64>>,
}

/// Evaluator of J over fixed base kernels, with a reused buffer for `K_γ`.
pub struct Objective<'a> {
    kernels: &'a [MatRef<'a, f64>],
    k: usize,
    combined: Mat<f64>,
    coeffs: Vec<f64>,
    eigen: EigenOptions,
    warm_eigen: EigenOptions,
    warm: bool,
    stats: EvalStats,
}

impl<'a> Objective<'a> {
    /// An evaluator for `k` clusters. The kernels must already be validated (same size,
    /// symmetric, finite); `warm = false` makes every solve start from scratch (for
    /// comparison). Warm solves use block size k unless `eigen.block_size` is set.
    pub fn new(
        kernels: &'a [MatRef<'a, f64>],
        k: usize,
        eigen: EigenOptions,
        warm: bool,
    ) -> Result<Self> {
        let n = kernels
            .first()
            .map(|m| m.nrows())
            .ok_or_else(|| Error::input("kernels", "no kernels given"))?;
        mkc_core::validate::n_clusters(k, n, 1)?;
        let eigen = mkc_core::ParamGuard::check(&eigen)?;
        // A warm start block is H itself: unless the caller chose a block size, use
        // block size k so that no random columns are added to the start.
        let warm_eigen = if eigen.block_size.is_none() {
            eigen.clone().block_size(Some(k))
        } else {
            eigen.clone()
        };
        Ok(Self {
            kernels,
            k,
            combined: Mat::zeros(n, n),
            coeffs: vec![0.0; kernels.len()],
            eigen,
            warm_eigen,
            warm,
            stats: EvalStats::default(),
        })
    }

    /// Number of samples n.
    pub fn n(&self) -> usize {
        self.combined.nrows()
    }

    /// The base kernels.
    pub fn kernels(&self) -> &'a [MatRef<'a, f64>] {
        self.kernels
    }

    /// J(γ) (eq. (6)) with `K_γ = Σ_p γ_p² K_p`; `start` is a nearby H for a warm start.
    pub fn evaluate(
        &mut self,
        gamma: &[f64],
        start: Option<MatRef<'_, f64>>,
    ) -> Result<Evaluation> {
        mkc_core::validate::len("gamma", gamma.len(), self.kernels.len())?;
        let squares: Vec<f64> = gamma.iter().map(|g| g * g).collect();
        self.evaluate_linear(&squares, start)
    }

    /// As [`Objective::evaluate`] but with the combination coefficients given directly:
    /// `K = Σ_p c_p K_p` (Avg-KKM uses `c_p = 1/m`).
    pub fn evaluate_linear(
        &mut self,
        coeffs: &[f64],
        start: Option<MatRef<'_, f64>>,
    ) -> Result<Evaluation> {
        mkc_core::validate::len("coeffs", coeffs.len(), self.kernels.len())?;
        self.coeffs.copy_from_slice(coeffs);
        self.solve(start)
    }

    /// The top-k eigenpairs of a combined kernel that `fill` writes into the evaluator's
    /// n x n buffer (given the base kernels), warm-started from `start`. `fill` must
    /// write an exactly symmetric matrix (e.g. LMKKM's `Σ_m (θ_m θ_mᵀ) ∘ K_m`, whose
    /// entries (i, j) and (j, i) are the same products summed in the same order): it is
    /// not checked again.
    pub fn evaluate_with(
        &mut self,
        fill: impl FnOnce(faer::MatMut<'_, f64>, &[MatRef<'a, f64>]) -> Result<()>,
        start: Option<MatRef<'_, f64>>,
    ) -> Result<Evaluation> {
        let t0 = Instant::now();
        fill(self.combined.as_mut(), self.kernels)?;
        self.eigensolve(start, t0)
    }

    fn solve(&mut self, start: Option<MatRef<'_, f64>>) -> Result<Evaluation> {
        let t0 = Instant::now();
        mkc_linalg::weighted_sum_into(self.combined.as_mut(), &self.coeffs, self.kernels)?;
        self.eigensolve(start, t0)
    }

    /// The top-k eigenpairs of the buffer, filled since `t0`.
    fn eigensolve(&mut self, start: Option<MatRef<'_, f64>>, t0: Instant) -> Result<Evaluation> {
        let t1 = Instant::now();
        // K_γ is exactly symmetric by construction (each entry is Σ_p c_p K_p[i, j] over
        // symmetric, validated K_p, summed in the same order for (i, j) and (j, i)), so the
        // operator entry point is used, skipping an O(n²) symmetry re-check per solve.
        let op = self.combined.as_ref();
        let pairs = match start.filter(|_| self.warm) {
            Some(h0) => {
                self.stats.warm_eigensolves += 1;
                eigen::top_k_op(&op, self.k, Some(h0), &self.warm_eigen)?
            }
            None => eigen::top_k_op(&op, self.k, None, &self.eigen)?,
        };
        self.stats.combine_time += t1 - t0;
        self.stats.eigen_time += t1.elapsed();
        self.stats.eigensolves += 1;
        self.stats.matvecs += pairs.info.matvecs;
        if pairs.info.method == eigen::EigenMethod::Dense {
            self.stats.dense_solves += 1;
        }
        let value = sum_of_eigenvalues(&pairs.values)?;
        Ok(Evaluation {
            value,
            h: pairs.vectors,
            eigenvalues: pairs.values,
            alignments: None,
        })
    }

    /// The combined kernel of the last evaluation.
    pub fn combined(&self) -> MatRef<'_, f64> {
        self.combined.as_ref()
    }

    /// Work done so far.
    pub fn stats(&self) -> &EvalStats {
        &self.stats
    }
}

/// J = the sum of the k largest eigenvalues (eq. (6)), or a typed error when it is not
/// finite.
pub fn sum_of_eigenvalues(values: &[f64]) -> Result<f64> {
    let value: f64 = values.iter().sum();
    if !value.is_finite() {
        return Err(Error::numerical(
            "SimpleMKKM objective",
            "non-finite sum of eigenvalues",
        ));
    }
    Ok(value)
}
