//! The alternation shared by MKKM (Huang et al., 2012), MKKM-MiR (Liu et al., 2016), LKAM
//! (on its localised kernels) and KAMM-A (`mkc-simplemkkm`):
//! starting from γ = 1/m, iteration t computes H_t = the top-k eigenvectors of
//! `K_γ = Σ_p γ_p² K_p` (relaxed kernel k-means, warm-started from H_{t−1}), then the
//! method's weight update from `b_p = tr K_p − tr(H_tᵀ K_p H_t)` (the kernel k-means
//! cost of each kernel at H_t), and records one objective value. It stops when the
//! method's rule ([`StopRule`]) holds on the objective trace or after `max_iter` iterations, returning
//! the last weights with the H they were computed from.

use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use mkc_linalg::eigen::EigenOptions;

use crate::fit::{FamilyDiagnostics, KernelFit, StopRule};
use crate::objective::Objective;

/// `tr K_p` of every kernel.
pub fn traces(kernels: &[MatRef<'_, f64>]) -> Vec<f64> {
    kernels
        .iter()
        .map(|k| (0..k.nrows()).map(|i| k[(i, i)]).sum())
        .collect()
}

/// One alternation's settings: the method's name (in errors), the eigensolver options of
/// the H step, the iteration cap and the stopping rule.
pub struct Alternation<'a> {
    method: &'static str,
    eigen: &'a EigenOptions,
    max_iter: usize,
    stop: StopRule,
}

impl<'a> Alternation<'a> {
    /// The settings.
    pub fn new(
        method: &'static str,
        eigen: &'a EigenOptions,
        max_iter: usize,
        stop: StopRule,
    ) -> Self {
        Self {
            method,
            eigen,
            max_iter,
            stop,
        }
    }

    /// Run the alternation on `views` (see the module docs). `update(γ_t, b)` returns
    /// `γ_{t+1}` and the objective value recorded for iteration t; the stopping rule is
    /// asked after every iteration. The fit holds the last γ, the H it was computed
    /// from, the trace, γ at the start and after every update, and the eigensolves (the
    /// engine stamps the times).
    pub fn run(
        &self,
        views: &[MatRef<'_, f64>],
        n_clusters: usize,
        mut update: impl FnMut(&[f64], &[f64]) -> Result<(Vec<f64>, f64)>,
    ) -> Result<KernelFit> {
        let (method, max_iter, stop) = (self.method, self.max_iter, self.stop);
        let eigen = self.eigen.clone();
        let tr = traces(views);
        let mut obj = Objective::new(views, n_clusters, eigen, true)?;
        let m = views.len();
        let mut gamma = vec![1.0 / m as f64; m];
        let mut weight_trace = vec![gamma.clone()];
        let mut trace = Vec::new();
        let mut h: Option<Mat<f64>> = None;
        let mut converged = false;
        while trace.len() < max_iter {
            let eval = obj.evaluate(&gamma, h.as_ref().map(|m| m.as_ref()))?;
            let align = mkc_linalg::trace_quadratic_many(views, eval.h.as_ref())?;
            let b: Vec<f64> = tr.iter().zip(&align).map(|(t, a)| t - a).collect();
            let (next, value) = update(&gamma, &b)?;
            gamma = next;
            h = Some(eval.h);
            trace.push(value);
            weight_trace.push(gamma.clone());
            if stop.holds(&trace) {
                converged = true;
                break;
            }
        }
        let h = h.ok_or_else(|| Error::numerical(method, "no iteration was run"))?;
        let mut diag = FamilyDiagnostics {
            converged,
            weight_trace,
            ..FamilyDiagnostics::default()
        };
        diag.count(obj.stats());
        Ok(KernelFit::per_value(gamma, h, trace, diag, ()))
    }
}
