//! The simplex-constrained squared-hinge dual of LG-MMC (lgmmc.md eq. 3, and its
//! multiple-label-kernel form inside eq. 7):
//!
//! ```text
//! max_α  −½ αᵀ ( Σ_t μ_t K ∘ y_t y_tᵀ + I/C ) α   s.t.  α ≥ 0,  1ᵀα = 1
//! ```
//!
//! solved by [`Smo`] as `min ½αᵀQα` with `Q = Σ_t μ_t K ∘ y_t y_tᵀ + I/C`, `p = 0`,
//! `y = 1`, `Δ = 1`, `l = 0`, `u = +∞` — the same problem as the authors' one-class SVM
//! with ν = 1/n on that kernel (papers/README.md). The cold start is the paper's
//! `α = 1/n · 1` (Algorithm 1, step 1). Terms with `μ_t = 0` are skipped. For many
//! terms it is cheaper to form `K ∘ Σ_t μ_t y_t y_tᵀ` once and call [`SimplexSquaredHinge::solve_q`].

use crate::kernel::CheckedKernel;
use crate::qmatrix::{DenseSigned, QMatrix, SumOf, WithDiagonal};
use crate::solver::{Problem, SolveStatus};
use faer::MatRef;
use mkc_core::{Error, Result};

crate::solver::smo_front_end! {
    /// Unchecked parameters; `check()` gives a [`SimplexSquaredHinge`].
    pub struct SimplexSquaredHingeParams =>
    /// The checked solver of eq. (3) / the α-step of eq. (7).
    SimplexSquaredHinge { c: f64 }
    /// Regularisation C (> 0) of eq. (1); LG-MMC uses C = 1.
    new;
    |p| mkc_core::validate::positive("C", p.c)
}

/// The solution of eq. (3).
#[derive(Clone, Debug)]
pub struct SimplexModel {
    /// α on the simplex.
    pub alpha: Vec<f64>,
    /// The value of eq. (3): `−½ αᵀ(Σ_t μ_t K ∘ y_t y_tᵀ + I/C)α` (≤ 0).
    pub objective: f64,
    /// The margin ρ of eq. (1): `(Qα)_i = ρ` on the support, `≥ ρ` elsewhere; at the
    /// optimum `ρ = αᵀQα = −2 · objective`.
    pub rho: f64,
    /// Per label kernel, `½ αᵀ(K ∘ y_t y_tᵀ)α` (the negated μ-gradient of eq. 7 used by
    /// the SimpleMKL step); empty from [`SimplexSquaredHinge::solve_q`].
    pub label_terms: Vec<f64>,
    /// SMO iterations, whether the tolerance was met, the final maximal KKT violation.
    pub status: SolveStatus,
}

impl SimplexSquaredHinge {
    /// Solve with label vectors `labels[t] ∈ {−1, +1}ⁿ` and weights `mu[t] ≥ 0` on
    /// kernel `k` (validated here).
    pub fn fit(&self, k: MatRef<'_, f64>, labels: &[&[f64]], mu: &[f64]) -> Result<SimplexModel> {
        self.solve(&CheckedKernel::new(k)?, labels, mu, None)
    }

    /// As [`fit`](Self::fit), from a previous α (clipped to α ≥ 0, then the sum
    /// restored to 1 as documented in the crate docs).
    pub fn fit_warm(
        &self,
        k: MatRef<'_, f64>,
        labels: &[&[f64]],
        mu: &[f64],
        prev_alpha: &[f64],
    ) -> Result<SimplexModel> {
        self.solve(&CheckedKernel::new(k)?, labels, mu, Some(prev_alpha))
    }

    /// The general entry point on a kernel checked once.
    pub fn solve(
        &self,
        k: &CheckedKernel<'_>,
        labels: &[&[f64]],
        mu: &[f64],
        warm: Option<&[f64]>,
    ) -> Result<SimplexModel> {
        let n = k.size();
        mkc_core::mkc_ensure!(!labels.is_empty(), input "labels", "no label vectors");
        mkc_core::validate::len("mu", mu.len(), labels.len())?;
        for (t, y) in labels.iter().enumerate() {
            mkc_core::validate::len(&format!("labels[{t}]"), y.len(), n)?;
            if let Some(i) = y.iter().position(|&v| v != 1.0 && v != -1.0) {
                return Err(Error::input(
                    format!("labels[{t}]"),
                    format!("entry {} at index {i} is not -1 or +1", y[i]),
                ));
            }
        }
        if let Some(t) = mu.iter().position(|m| !(m.is_finite() && *m >= 0.0)) {
            return Err(Error::param(
                format!("mu[{t}]"),
                mu[t],
                "must be finite and >= 0",
            ));
        }
        let terms: Vec<DenseSigned<'_>> = labels
            .iter()
            .zip(mu)
            .filter(|(_, &m)| m > 0.0)
            .map(|(y, &m)| DenseSigned::new(k.as_ref(), m, Some(y)))
            .collect::<Result<_>>()?;
        let mut model = if terms.is_empty() {
            self.solve_q(&DenseSigned::new(k.as_ref(), 0.0, None)?, warm)?
        } else if terms.len() == 1 {
            self.solve_q(&terms[0], warm)?
        } else {
            self.solve_q(&SumOf::new(terms)?, warm)?
        };
        model.label_terms = label_terms(k.as_ref(), labels, &model.alpha);
        Ok(model)
    }

    /// Solve `max −½αᵀ(Q + I/C)α` on the simplex for any `Q` (e.g. a dense
    /// `K ∘ Σ_t μ_t y_t y_tᵀ` formed once).
    pub fn solve_q<Q: QMatrix>(&self, q: &Q, warm: Option<&[f64]>) -> Result<SimplexModel> {
        let n = q.size();
        let qc = WithDiagonal::constant(q, 1.0 / self.c)?;
        let start = match warm {
            Some(a) => a.to_vec(),
            None => vec![1.0 / n as f64; n],
        };
        let p = vec![0.0; n];
        let y = vec![1.0; n];
        let lower = vec![0.0; n];
        let upper = vec![f64::INFINITY; n];
        let sol = self.smo.solve(
            &qc,
            &Problem {
                p: &p,
                y: &y,
                delta: 1.0,
                lower: &lower,
                upper: &upper,
            },
            Some(&start),
        )?;
        Ok(SimplexModel {
            objective: -sol.objective,
            rho: sol.rho,
            label_terms: Vec::new(),
            status: sol.status,
            alpha: sol.alpha,
        })
    }
}

/// `½ (α ∘ y_t)ᵀ K (α ∘ y_t)` for every t, over the support of α.
fn label_terms(k: MatRef<'_, f64>, labels: &[&[f64]], alpha: &[f64]) -> Vec<f64> {
    let support = support(alpha);
    labels
        .iter()
        .map(|y| support_term(k, y, alpha, &support))
        .collect()
}

/// The indices of the non-zero entries of α.
fn support(alpha: &[f64]) -> Vec<usize> {
    (0..alpha.len()).filter(|&i| alpha[i] != 0.0).collect()
}

/// `½ (α ∘ y)ᵀ K (α ∘ y)` summed over `support` only.
fn support_term(k: MatRef<'_, f64>, y: &[f64], alpha: &[f64], support: &[usize]) -> f64 {
    let mut s = 0.0;
    for &j in support {
        let col = k.col(j);
        let inner: f64 = support.iter().map(|&i| alpha[i] * y[i] * col[i]).sum();
        s += alpha[j] * y[j] * inner;
    }
    0.5 * s
}

/// `½ (α ∘ y)ᵀ K (α ∘ y)`, one label vector's term of the simplex dual (what
/// [`SimplexModel::label_terms`] holds for each label), summed over the support of α
/// only: O(|support|²) kernel entries. For a label vector that is not among the
/// solved ones (LG-MMC's most violated labelling).
///
/// # Errors
/// `y` or `alpha` whose length is not the kernel's size, or with a NaN or infinite entry.
pub fn label_term(k: &CheckedKernel<'_>, y: &[f64], alpha: &[f64]) -> Result<f64> {
    let n = k.size();
    mkc_core::validate::len("labels y", y.len(), n)?;
    mkc_core::validate::len("alpha", alpha.len(), n)?;
    mkc_core::validate::finite_slice("labels y", y)?;
    mkc_core::validate::finite_slice("alpha", alpha)?;
    Ok(support_term(k.as_ref(), y, alpha, &support(alpha)))
}
