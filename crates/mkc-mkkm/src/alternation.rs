//! The alternation shared by MKKM (Huang et al., 2012) and MKKM-MiR (Liu et al., 2016):
//! starting from γ = 1/m, iteration t computes H_t = the top-k eigenvectors of
//! `K_γ = Σ_p γ_p² K_p` (relaxed kernel k-means, warm-started from H_{t−1}), then the
//! method's weight update from `b_p = tr K_p − tr(H_tᵀ K_p H_t)` (the kernel k-means
//! cost of each kernel at H_t), and records one objective value. It stops when the
//! method's rule holds on the objective trace or after `max_iter` iterations, returning
//! the last weights with the H they were computed from.

use std::time::Duration;

use faer::{Mat, MatRef};
use mkc_core::{Error, Result};
use mkc_linalg::eigen::EigenOptions;

use crate::objective::Objective;

/// What the alternation produced.
pub struct Alternation {
    /// γ after the last weight update.
    pub gamma: Vec<f64>,
    /// H of the last iteration (computed for the γ before the last update).
    pub h: Mat<f64>,
    /// One objective value per iteration.
    pub trace: Vec<f64>,
    /// γ at the start and after every update.
    pub gamma_trace: Vec<Vec<f64>>,
    /// Iterations made.
    pub iterations: usize,
    /// Whether the stopping rule held before `max_iter`.
    pub converged: bool,
    /// Eigensolves and their total time.
    pub eigensolves: usize,
    pub eigen_time: Duration,
}

/// `tr K_p` of every kernel.
pub fn traces(kernels: &[MatRef<'_, f64>]) -> Vec<f64> {
    kernels
        .iter()
        .map(|k| (0..k.nrows()).map(|i| k[(i, i)]).sum())
        .collect()
}

/// Run the alternation (see the module docs). `update(γ_t, b)` returns `γ_{t+1}` and
/// the objective value recorded for iteration t; `stop(trace)` is the stopping rule,
/// asked after every iteration.
pub fn alternate(
    method: &str,
    views: &[MatRef<'_, f64>],
    n_clusters: usize,
    eigen: EigenOptions,
    max_iter: usize,
    mut update: impl FnMut(&[f64], &[f64]) -> Result<(Vec<f64>, f64)>,
    stop: impl Fn(&[f64]) -> bool,
) -> Result<Alternation> {
    let tr = traces(views);
    let mut obj = Objective::new(views, n_clusters, eigen, true)?;
    let m = views.len();
    let mut gamma = vec![1.0 / m as f64; m];
    let mut gamma_trace = vec![gamma.clone()];
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
        gamma_trace.push(gamma.clone());
        if stop(&trace) {
            converged = true;
            break;
        }
    }
    let h = h.ok_or_else(|| Error::numerical(method, "no iteration was run"))?;
    let stats = obj.stats();
    Ok(Alternation {
        gamma,
        h,
        iterations: trace.len(),
        trace,
        gamma_trace,
        converged,
        eigensolves: stats.eigensolves,
        eigen_time: stats.eigen_time,
    })
}
