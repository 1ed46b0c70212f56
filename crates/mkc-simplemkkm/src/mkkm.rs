//! MKKM (Huang et al., 2012), the paper's eq. (1), as in the authors' baseline code:
//! alternate (i) relaxed kernel k-means — H = top-k eigenvectors of `K_γ = Σ_p γ_p² K_p`
//! — and (ii) the closed-form weights of eq. (2),
//! `min_{γ ∈ Δ} Σ_p γ_p² b_p` with `b_p = tr(K_p) − tr(Hᵀ K_p H)`, i.e.
//! `γ_p = (1/b_p) / Σ_q (1/b_q)`.
//!
//! Choices written down here: γ starts at 1/m; iteration t computes `H_t` for `γ_t`,
//! then `γ_{t+1}` from `H_t`, and records the objective after both block updates,
//! `obj_t = Σ_p γ_{t+1,p}² b_p(H_t)` (non-increasing); it stops when
//! `|obj_{t−1} − obj_t| / |obj_t| < tol` (1e-4) or after `max_iter` (50) iterations, and
//! returns `γ_{t+1}` with `H_t`. If some `b_p ≤ 1e-12 · tr(K_p)` (kernel p entirely
//! inside span H), the weight is shared uniformly among those kernels (the limit of the
//! closed form). Every eigensolve after the first is warm-started from the previous H.

use std::time::{Duration, Instant};

use faer::{Mat, MatRef};
use mkc_core::{Fit, Result};

use crate::gradient;
use crate::labels;
use crate::objective::Objective;
use crate::params::MkkmParams;
use crate::preprocess::Prepared;

/// Checked MKKM parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Mkkm {
    pub(crate) params: MkkmParams,
}

/// Diagnostics of an MKKM run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MkkmInfo {
    /// Number of alternations.
    pub iterations: usize,
    /// Whether the relative change fell below `tol` before `max_iter`.
    pub converged: bool,
    /// Objective of eq. (1) after each alternation (non-increasing).
    pub objective_trace: Vec<f64>,
    /// γ at the start and after each alternation.
    pub gamma_trace: Vec<Vec<f64>>,
    /// Number of eigensolves.
    pub eigensolves: usize,
    /// Total eigensolver time.
    pub eigen_time: Duration,
    /// Wall time (preprocessing excluded).
    pub optimisation_time: Duration,
}

/// Result of MKKM.
#[derive(Clone, Debug)]
pub struct MkkmFit {
    /// Kernel weights (`K_γ = Σ_p γ_p² K_p`).
    pub gamma: Vec<f64>,
    /// Relaxed partition matrix (top-k eigenvectors), n x k.
    pub h: Mat<f64>,
    /// Final objective `tr(K_γ) − tr(Hᵀ K_γ H)`.
    pub objective: f64,
    /// Diagnostics.
    pub info: MkkmInfo,
    pub(crate) n_clusters: usize,
    pub(crate) label_opts: labels::LabelOptions,
}

impl MkkmFit {
    /// Labels from H with `seed` (row-normalised H, then k-means).
    pub fn labels(&self, seed: u64) -> Result<Vec<usize>> {
        labels::labels_from_h_with(self.h.as_ref(), self.n_clusters, &self.label_opts, seed)
    }
}

/// The closed-form weights of eq. (2): `γ_p ∝ 1/b_p` on the simplex.
pub fn closed_form_weights(b: &[f64], traces: &[f64]) -> Vec<f64> {
    let degenerate: Vec<bool> = b
        .iter()
        .zip(traces)
        .map(|(&bp, &tp)| bp <= 1e-12 * tp.abs().max(f64::MIN_POSITIVE))
        .collect();
    let n_deg = degenerate.iter().filter(|&&d| d).count();
    if n_deg > 0 {
        return degenerate
            .iter()
            .map(|&d| if d { 1.0 / n_deg as f64 } else { 0.0 })
            .collect();
    }
    let inv: Vec<f64> = b.iter().map(|v| 1.0 / v).collect();
    let s: f64 = inv.iter().sum();
    inv.iter().map(|v| v / s).collect()
}

impl Mkkm {
    /// The parameters.
    pub fn params(&self) -> &MkkmParams {
        &self.params
    }

    /// Run MKKM on the base kernels.
    pub fn fit(&self, kernels: &[MatRef<'_, f64>]) -> Result<MkkmFit> {
        let p = &self.params;
        let prepared = Prepared::new(kernels, &p.preprocessing)?;
        let views = prepared.views();
        let t0 = Instant::now();
        let m = views.len();
        let traces: Vec<f64> = views
            .iter()
            .map(|k| (0..k.nrows()).map(|i| k[(i, i)]).sum())
            .collect();
        let mut obj = Objective::new(&views, p.n_clusters, p.eigen.clone(), true)?;
        let mut gamma = vec![1.0 / m as f64; m];
        let mut info = MkkmInfo {
            gamma_trace: vec![gamma.clone()],
            ..Default::default()
        };
        let mut h: Option<Mat<f64>> = None;
        let mut objective = f64::INFINITY;
        while info.iterations < p.max_iter {
            let eval = obj.evaluate(&gamma, h.as_ref().map(|m| m.as_ref()))?;
            let align = gradient::alignments(&views, eval.h.as_ref())?;
            let b: Vec<f64> = traces.iter().zip(&align).map(|(t, a)| t - a).collect();
            gamma = closed_form_weights(&b, &traces);
            let value: f64 = gamma.iter().zip(&b).map(|(g, bp)| g * g * bp).sum();
            h = Some(eval.h);
            info.iterations += 1;
            info.objective_trace.push(value);
            info.gamma_trace.push(gamma.clone());
            let prev = objective;
            objective = value;
            if prev.is_finite() && ((prev - value) / value).abs() < p.tol {
                info.converged = true;
                break;
            }
        }
        let stats = obj.stats();
        info.eigensolves = stats.eigensolves;
        info.eigen_time = stats.eigen_time;
        info.optimisation_time = t0.elapsed();
        let h = h.ok_or_else(|| mkc_core::Error::numerical("MKKM", "no iteration was run"))?;
        Ok(MkkmFit {
            gamma,
            h,
            objective,
            info,
            n_clusters: p.n_clusters,
            label_opts: p.labels,
        })
    }
}

impl<'a> Fit<[MatRef<'a, f64>]> for Mkkm {
    type Output = MkkmFit;
    fn fit(&self, kernels: &[MatRef<'a, f64>]) -> Result<MkkmFit> {
        Mkkm::fit(self, kernels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_form_minimises_eq_2() {
        let b = [2.0, 1.0, 4.0];
        let g = closed_form_weights(&b, &[10.0; 3]);
        assert!((g.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        // γ ∝ (1/2, 1, 1/4) = (2, 4, 1)/7
        assert!((g[0] - 2.0 / 7.0).abs() < 1e-15 && (g[1] - 4.0 / 7.0).abs() < 1e-15);
        let f = |g: &[f64]| g.iter().zip(&b).map(|(x, bp)| x * x * bp).sum::<f64>();
        // any other point of the simplex is worse
        for other in [[1.0 / 3.0; 3], [0.3, 0.6, 0.1], [0.25, 0.55, 0.2]] {
            assert!(f(&g) <= f(&other));
        }
        assert_eq!(
            closed_form_weights(&[0.0, 1.0, 0.0], &[5.0; 3]),
            vec![0.5, 0.0, 0.5]
        );
    }
}
