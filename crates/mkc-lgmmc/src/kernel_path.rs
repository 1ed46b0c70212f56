//! The α-step on a precomputed kernel: `mkc_svm::SimplexSquaredHinge` (eq. 3) over the
//! label kernels `Σ_t μ_t K∘y_t y_tᵀ` (its `SumOf` of `DenseSigned` terms; terms with
//! μ_t = 0 are skipped), warm-started from the previous α.
//!
//! SMO's stopping rule is absolute (maximal KKT violation < ε); we pass
//! `ε = solver_tol · ρ` with ρ the margin of the previous solution (at the first solve,
//! ρ at α = 1/n), so the tolerance is relative to the scale of the problem and matches
//! the linear path's.

use crate::solver::{AlphaProblem, AlphaSolver, AlphaStep};
use faer::{Mat, MatRef};
use mkc_core::{ParamGuard, Result};
use mkc_svm::{CheckedKernel, SimplexSquaredHingeParams};

pub(crate) struct KernelSolver<'a> {
    k: CheckedKernel<'a>,
    c: f64,
    tol: f64,
    features: Mat<f64>,
}

impl<'a> KernelSolver<'a> {
    pub(crate) fn new(k: CheckedKernel<'a>, c: f64, tol: f64, features: Mat<f64>) -> Self {
        Self {
            k,
            c,
            tol,
            features,
        }
    }

    /// ρ at α = 1/n for the first label vector: `(1/n²) yᵀ(K∘…)y`-style scale estimate.
    fn initial_rho(&self, y: &[f64]) -> f64 {
        let k = self.k.as_ref();
        let n = k.nrows();
        let mut s = 0.0;
        for j in 0..n {
            let col = k.col(j);
            let mut inner = 0.0;
            for i in 0..n {
                inner += y[i] * col[i];
            }
            s += y[j] * inner;
        }
        let nf = n as f64;
        (s / (nf * nf) + 1.0 / (self.c * nf)).max(f64::MIN_POSITIVE)
    }
}

impl AlphaSolver for KernelSolver<'_> {
    fn n(&self) -> usize {
        self.k.size()
    }

    fn solve(&mut self, problem: AlphaProblem<'_>) -> Result<AlphaStep> {
        let AlphaProblem { labels, mu, warm } = problem;
        let scale = match warm {
            Some(w) => w.rho,
            None => self.initial_rho(&labels[0]),
        };
        let svm = SimplexSquaredHingeParams::new(self.c)
            .tol((self.tol * scale).max(1e-15))
            .check()?;
        let refs: Vec<&[f64]> = labels.iter().map(|v| v.as_slice()).collect();
        let m = svm.solve(&self.k, &refs, mu, warm.map(|w| w.alpha.as_slice()))?;
        Ok(AlphaStep {
            objective: m.objective,
            rho: m.rho,
            terms: m.label_terms,
            iterations: m.status.iterations,
            converged: m.status.converged,
            alpha: m.alpha,
        })
    }

    fn violation(&self, alpha: &[f64], y: &[f64]) -> Result<f64> {
        mkc_svm::label_term(&self.k, y, alpha)
    }

    fn kernel_times(&self, coef: &[f64]) -> Vec<f64> {
        let k = self.k.as_ref();
        let n = k.nrows();
        let mut out = vec![0.0; n];
        for (j, &c) in coef.iter().enumerate() {
            if c != 0.0 {
                let col = k.col(j);
                for i in 0..n {
                    out[i] += c * col[i];
                }
            }
        }
        out
    }

    fn features(&self) -> MatRef<'_, f64> {
        self.features.as_ref()
    }
}
