//! SCSK, Algorithm 1: twin learning of similarity and clustering with a single kernel,
//! problem (7).

use faer::MatRef;
use mkc_core::{validate, Result};

use crate::fit::TwinFit;
use crate::params::Settings;
use crate::twin::{run, twin_clusterer};

/// Checked SCSK parameters (from [`ScskParams`](crate::ScskParams)): the
/// [`Clusterer`](mkc_core::Clusterer) "scsk".
#[derive(Debug, Clone, PartialEq)]
pub struct Scsk {
    pub(crate) s: Settings,
}

impl Scsk {
    /// The engine: Algorithm 1 on one kernel K (n x n, symmetric PSD, validated here),
    /// with everything the run learned (Z, P, the per-iteration traces; `weights` is
    /// `[1.0]`). [`Clusterer::fit`](mkc_core::Clusterer::fit) returns the same labels and trace in the workspace's
    /// [`Clustering`](mkc_core::Clustering); call this when Z or P is needed.
    ///
    /// # Errors
    /// K empty, non-square, non-finite or non-symmetric; `n_clusters` outside 1..=n.
    pub fn fit_kernel(&self, k: MatRef<'_, f64>, n_clusters: usize, seed: u64) -> Result<TwinFit> {
        let n = validate::kernel("K", k)?;
        validate::n_clusters(n_clusters, n, 1)?;
        Ok(run(&self.s, &[k], false, n_clusters, seed)?.0)
    }

    /// The APG step sizes of a fit on `data` ([`StepSizes`](crate::StepSizes), λ_max(ΠKΠ) of
    /// the set's kernel (or the mean of its kernels)): they depend on the kernels and the eigensolver seed only, not on α, β or
    /// the stopping rule, so the fits of an (α, β) grid share them
    /// ([`Scsk::fit_restarts_with`]).
    ///
    /// # Errors
    /// Those of [`Clusterer::fit`](mkc_core::Clusterer::fit) on the set's kernels (no
    /// kernels, invalid kernels), and a failed eigensolve.
    pub fn step_sizes(&self, data: &mkc_core::KernelSet<'_>) -> Result<crate::StepSizes> {
        crate::twin::step_sizes_set(&self.s, data, false)
    }

    /// [`Clusterer::fit_restarts`](mkc_core::Clusterer::fit_restarts) from step sizes
    /// that [`Scsk::step_sizes`] computed on the same `data` with the same eigensolver
    /// options and kind of Z solver: the same runs bit for bit (labels, objective traces,
    /// weights, diagnostics), except the seconds: their "init" phase leaves out the step
    /// sizes' ([`StepSizes::seconds`](crate::StepSizes::seconds)), which are the caller's
    /// to share.
    ///
    /// Errors: those of the fit, and [`mkc_core::Error::InvalidInput`] (for every seed)
    /// for step sizes made for another n, number of kernels, eigensolver seed or kind of
    /// Z solver.
    pub fn fit_restarts_with(
        &self,
        data: &mkc_core::KernelSet<'_>,
        n_clusters: usize,
        seeds: &[u64],
        steps: &crate::StepSizes,
    ) -> Vec<Result<mkc_core::Clustering<crate::TwinDiagnostics>>> {
        crate::twin::restarts_with_set(&self.s, data, false, n_clusters, seeds, steps)
    }
}

twin_clusterer!(
    Scsk,
    crate::ScskParams,
    "scsk",
    false,
    concat!(
        "Algorithm 1 on the set's kernel, or on the equal-weight mean of its kernels ",
        "(`KernelSet::one_kernel`); no kernel weights. The objective trace is J of eq. ",
        "(7) after every iteration (minimised, non-increasing); `converged` is the ",
        "relative-change stopping rule. The seed drives the final k-means on P only. ",
        "Phases: \"init\", \"eigensolve\", \"z\", \"objective\", \"kmeans\".",
    )
);
