//! MKKM-MiR (Liu, Dou, Wang, Yin, AAAI 2016: *Multiple kernel k-means clustering with
//! matrix-induced regularization*), a baseline of SimpleMKKM's Table 2:
//!
//! `min_{H, γ} tr(K_γ (I − HHᵀ)) + (λ/2) γᵀ M γ`  s.t. `HᵀH = I_k`, `γ ∈ Δ`,
//! with `K_γ = Σ_p γ_p² K_p` and `M_pq = tr(K_p K_q)` (the kernels' Frobenius inner
//! products), which penalises giving weight to two highly correlated kernels together.
//!
//! Alternation as in the authors' code: H = top-k eigenvectors of `K_γ`; then the QP
//! `min_{γ ∈ Δ} ½ γᵀ (λ M + 2 diag(f)) γ` with `f_p = tr K_p − tr(Hᵀ K_p H)` (solved by
//! `mkc_qp`'s simplex QP; the authors use quadprog), weights below 1e-6 set to 0 and the
//! rest renormalised. The objective recorded at iteration t is the authors' `calObj`,
//! `½ γ_{t−1}ᵀ (λ M + 2 diag(f(H_t))) γ_{t−1}`; they stop after the third iteration once
//! its relative change is below 1e-6 and have no iteration cap (ours: `max_iter` = 100,
//! reported as `converged = false`). λ has no default in the paper (its grid is
//! 2^-15, …, 2^10; the experiments choose the best); ours is 1.

use std::time::{Duration, Instant};

use faer::{Mat, MatRef};
use mkc_core::{validate, Error, Fit, ParamGuard, Result};
use mkc_linalg::eigen::EigenOptions;
use mkc_qp::{CappedSimplexQp, QpMatrix};

use crate::gradient;
use crate::labels::{self, LabelOptions};
use crate::objective::Objective;
use crate::params::default_eigen_options;
use crate::preprocess::{Prepared, Preprocessing};

/// Parameters of MKKM-MiR.
///
/// ```
/// use mkc_core::ParamGuard;
/// use mkc_simplemkkm::MkkmMirParams;
/// assert!(MkkmMirParams::new(3).lambda(0.5).check().is_ok());
/// assert!(MkkmMirParams::new(3).lambda(-1.0).check().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MkkmMirParams {
    /// Number of clusters k.
    pub n_clusters: usize,
    /// Regularisation weight λ ≥ 0 (0 gives MKKM with the QP weight update). Default 1.
    pub lambda: f64,
    /// Stop when the relative objective change is below this (after ≥ 3 iterations).
    /// Default 1e-6 (authors).
    pub tol: f64,
    /// Iteration cap (ours; the authors have none). Default 100.
    pub max_iter: usize,
    /// Weights below this are set to 0 after each QP (authors: 1e-6).
    pub zero_weight: f64,
    /// Kernel preprocessing (default centre then unit diagonal, as the authors).
    pub preprocessing: Preprocessing,
    /// Eigensolver options.
    pub eigen: EigenOptions,
    /// Final k-means on the row-normalised H.
    pub labels: LabelOptions,
}

impl MkkmMirParams {
    /// Defaults for `n_clusters` clusters.
    pub fn new(n_clusters: usize) -> Self {
        Self {
            n_clusters,
            lambda: 1.0,
            tol: 1e-6,
            max_iter: 100,
            zero_weight: 1e-6,
            preprocessing: Preprocessing::default(),
            eigen: default_eigen_options(),
            labels: LabelOptions::default(),
        }
    }

    /// Sets `lambda`.
    #[must_use]
    pub fn lambda(mut self, v: f64) -> Self {
        self.lambda = v;
        self
    }
    /// Sets `tol`.
    #[must_use]
    pub fn tol(mut self, v: f64) -> Self {
        self.tol = v;
        self
    }
    /// Sets `max_iter`.
    #[must_use]
    pub fn max_iter(mut self, v: usize) -> Self {
        self.max_iter = v;
        self
    }
    /// Sets `preprocessing`.
    #[must_use]
    pub fn preprocessing(mut self, v: Preprocessing) -> Self {
        self.preprocessing = v;
        self
    }
    /// Sets `eigen`.
    #[must_use]
    pub fn eigen(mut self, v: EigenOptions) -> Self {
        self.eigen = v;
        self
    }
    /// Sets `labels`.
    #[must_use]
    pub fn labels(mut self, v: LabelOptions) -> Self {
        self.labels = v;
        self
    }
}

impl ParamGuard for MkkmMirParams {
    type Checked = MkkmMir;
    fn check(&self) -> Result<MkkmMir> {
        if self.n_clusters == 0 {
            return Err(Error::param("n_clusters", 0, "must be at least 1"));
        }
        if !(self.lambda.is_finite() && self.lambda >= 0.0) {
            return Err(Error::param(
                "lambda",
                self.lambda,
                "must be finite and ≥ 0",
            ));
        }
        validate::positive("tol", self.tol)?;
        if self.max_iter == 0 {
            return Err(Error::param("max_iter", 0, "must be at least 1"));
        }
        if !(self.zero_weight.is_finite() && (0.0..0.5).contains(&self.zero_weight)) {
            return Err(Error::param(
                "zero_weight",
                self.zero_weight,
                "must lie in [0, 0.5)",
            ));
        }
        if self.labels.n_init == 0 || self.labels.max_iter == 0 {
            return Err(Error::param(
                "labels",
                format!("{:?}", self.labels),
                "n_init and max_iter must be at least 1",
            ));
        }
        let eigen = self.eigen.check()?;
        Ok(MkkmMir {
            params: MkkmMirParams {
                eigen,
                ..self.clone()
            },
        })
    }
}

/// Checked MKKM-MiR parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct MkkmMir {
    params: MkkmMirParams,
}

/// Diagnostics of an MKKM-MiR run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MkkmMirInfo {
    /// Alternations made.
    pub iterations: usize,
    /// Whether the relative change fell below `tol` before `max_iter`.
    pub converged: bool,
    /// The authors' objective at every iteration (see the module docs).
    pub objective_trace: Vec<f64>,
    /// γ at the start and after every QP.
    pub gamma_trace: Vec<Vec<f64>>,
    /// Wall time (preprocessing excluded).
    pub optimisation_time: Duration,
}

/// Result of MKKM-MiR.
#[derive(Clone, Debug)]
pub struct MkkmMirFit {
    /// Kernel weights (`K_γ = Σ_p γ_p² K_p`).
    pub gamma: Vec<f64>,
    /// Top-k eigenvectors of `K_γ` for the γ before the last QP (as the authors return).
    pub h: Mat<f64>,
    /// The regularisation matrix `M_pq = tr(K_p K_q)` of the preprocessed kernels.
    pub m: Mat<f64>,
    /// Diagnostics.
    pub info: MkkmMirInfo,
    n_clusters: usize,
    label_opts: LabelOptions,
}

impl MkkmMirFit {
    /// Labels from H with `seed` (row-normalised H, then k-means).
    pub fn labels(&self, seed: u64) -> Result<Vec<usize>> {
        labels::labels_from_h_with(self.h.as_ref(), self.n_clusters, &self.label_opts, seed)
    }
}

/// `M_pq = tr(K_p K_q) = ⟨K_p, K_q⟩_F` for symmetric kernels.
pub fn regularisation_matrix(kernels: &[MatRef<'_, f64>]) -> Result<Mat<f64>> {
    let m = kernels.len();
    let mut out = Mat::<f64>::zeros(m, m);
    for p in 0..m {
        for q in p..m {
            let v = mkc_linalg::frobenius_inner(kernels[p], kernels[q])?;
            out[(p, q)] = v;
            out[(q, p)] = v;
        }
    }
    Ok(out)
}

impl MkkmMir {
    /// The parameters.
    pub fn params(&self) -> &MkkmMirParams {
        &self.params
    }

    /// Run MKKM-MiR on the base kernels.
    pub fn fit(&self, kernels: &[MatRef<'_, f64>]) -> Result<MkkmMirFit> {
        let p = &self.params;
        let prepared = Prepared::new(kernels, &p.preprocessing)?;
        let views = prepared.views();
        let t0 = Instant::now();
        let nk = views.len();
        let traces: Vec<f64> = views
            .iter()
            .map(|k| (0..k.nrows()).map(|i| k[(i, i)]).sum())
            .collect();
        let reg = regularisation_matrix(&views)?;
        let qp = CappedSimplexQp::new(1.0).tol(1e-12).check()?;
        let mut obj = Objective::new(&views, p.n_clusters, p.eigen.clone(), true)?;
        let mut gamma = vec![1.0 / nk as f64; nk];
        let mut info = MkkmMirInfo {
            gamma_trace: vec![gamma.clone()],
            ..Default::default()
        };
        let mut h: Option<Mat<f64>> = None;
        while info.iterations < p.max_iter {
            let eval = obj.evaluate(&gamma, h.as_ref().map(|m| m.as_ref()))?;
            let align = gradient::alignments(&views, eval.h.as_ref())?;
            let f: Vec<f64> = traces.iter().zip(&align).map(|(t, a)| t - a).collect();
            let q = Mat::from_fn(nk, nk, |i, j| {
                p.lambda * reg[(i, j)] + if i == j { 2.0 * f[i] } else { 0.0 }
            });
            let value = 0.5 * quad(q.as_ref(), &gamma);
            let qm = QpMatrix::new(q.as_ref())?;
            let sol = qp.solve(&qm, &vec![0.0; nk], Some(&gamma))?;
            let mut next = sol.z;
            for v in next.iter_mut() {
                if *v < p.zero_weight {
                    *v = 0.0;
                }
            }
            let s: f64 = next.iter().sum();
            if s.is_nan() || s <= 0.0 {
                return Err(Error::numerical("MKKM-MiR", "all kernel weights vanished"));
            }
            next.iter_mut().for_each(|v| *v /= s);
            gamma = next;
            h = Some(eval.h);
            info.iterations += 1;
            info.objective_trace.push(value);
            info.gamma_trace.push(gamma.clone());
            let t = info.objective_trace.len();
            if t > 2 {
                let prev = info.objective_trace[t - 2];
                if ((prev - value) / prev).abs() < p.tol {
                    info.converged = true;
                    break;
                }
            }
        }
        info.optimisation_time = t0.elapsed();
        let h = h.ok_or_else(|| Error::numerical("MKKM-MiR", "no iteration was run"))?;
        Ok(MkkmMirFit {
            gamma,
            h,
            m: reg,
            info,
            n_clusters: p.n_clusters,
            label_opts: p.labels,
        })
    }
}

fn quad(q: MatRef<'_, f64>, x: &[f64]) -> f64 {
    let n = x.len();
    (0..n)
        .map(|i| x[i] * (0..n).map(|j| q[(i, j)] * x[j]).sum::<f64>())
        .sum()
}

impl<'a> Fit<[MatRef<'a, f64>]> for MkkmMir {
    type Output = MkkmMirFit;
    fn fit(&self, kernels: &[MatRef<'a, f64>]) -> Result<MkkmMirFit> {
        MkkmMir::fit(self, kernels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regularisation_matrix_is_the_frobenius_gram() {
        let a = Mat::from_fn(3, 3, |i, j| if i == j { 2.0 } else { 0.5 });
        let b = Mat::<f64>::identity(3, 3);
        let m = regularisation_matrix(&[a.as_ref(), b.as_ref()]).unwrap();
        // ⟨A, A⟩ = 3·4 + 6·0.25 = 13.5, ⟨A, I⟩ = tr A = 6, ⟨I, I⟩ = 3
        assert_eq!(m[(0, 0)], 13.5);
        assert_eq!((m[(0, 1)], m[(1, 0)], m[(1, 1)]), (6.0, 6.0, 3.0));
    }

    #[test]
    fn bad_parameters_are_named() {
        let name = |p: MkkmMirParams| match p.check() {
            Err(Error::InvalidParam { name, .. }) => name,
            other => panic!("{other:?}"),
        };
        assert_eq!(name(MkkmMirParams::new(0)), "n_clusters");
        assert_eq!(name(MkkmMirParams::new(2).lambda(f64::NAN)), "lambda");
        assert_eq!(name(MkkmMirParams::new(2).tol(0.0)), "tol");
        assert_eq!(name(MkkmMirParams::new(2).max_iter(0)), "max_iter");
    }
}
