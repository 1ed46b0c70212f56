//! The single-kernel clustering steps GUMKL and MVKKM delegate to `mkc-kmeans`: greedy medoid
//! initialisation (eq. 3) + kernel k-medoids (`MedoidInit::Greedy` runs [`mkc_kmeans::greedy_medoids`]
//! first), and kernel k-means started from given labels.
//! Kept in one place so that the calls into `mkc-kmeans` are easy to audit.

use faer::MatRef;
use mkc_core::{ParamGuard, Result};

/// Result of one k-medoids run on the composite kernel.
pub(crate) struct MedoidStep {
    pub labels: Vec<usize>,
    pub medoids: Vec<usize>,
}

/// Algorithm 1 lines 6–7: greedy medoids (eq. 3) on `k`, then kernel k-medoids from them.
pub(crate) fn greedy_then_kmedoids(
    k: MatRef<'_, f64>,
    m: usize,
    max_iter: usize,
) -> Result<MedoidStep> {
    let fit = mkc_kmeans::KernelKMedoidsParams::new()
        .init(mkc_kmeans::MedoidInit::Greedy)
        .max_iter(max_iter)
        .check()?
        .fit_kernel(k, m, 0)?;
    Ok(MedoidStep {
        labels: fit.labels,
        medoids: fit.medoids,
    })
}

/// Result of one kernel k-means run.
pub(crate) struct MeansStep {
    pub labels: Vec<usize>,
    pub n_iter: usize,
}

/// Kernel k-means on `k` (unit sample weights) started from `labels`, one run; it stops when
/// the labels stop changing or the objective decreases by at most `tol · |J|` in one step.
pub(crate) fn kernel_kmeans_from(
    k: MatRef<'_, f64>,
    labels: &[usize],
    m: usize,
    max_iter: usize,
    tol: f64,
) -> Result<MeansStep> {
    let fit = mkc_kmeans::KernelKMeansParams::new()
        .initial_labels(labels.to_vec())
        .max_iter(max_iter)
        .tol(tol)
        .check()?
        .fit_kernel(k, m, 0)?;
    Ok(MeansStep {
        labels: fit.labels,
        n_iter: fit.n_iter,
    })
}
