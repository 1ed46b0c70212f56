//! SCMK, Algorithm 2: twin learning of similarity and clustering with multiple kernels,
//! problem (18): Algorithm 1's steps on K_w = Σ w_i K^i (17), then the weights by (22).

use faer::MatRef;
use mkc_core::{validate, Result};

use crate::fit::TwinFit;
use crate::params::Settings;
use crate::twin::{run, twin_clusterer};

/// Checked SCMK parameters (from [`ScmkParams`](crate::ScmkParams)): the
/// [`Clusterer`](mkc_core::Clusterer) "scmk".
#[derive(Debug, Clone, PartialEq)]
pub struct Scmk {
    pub(crate) s: Settings,
}

impl Scmk {
    /// The engine: Algorithm 2 on the kernels K^1 … K^r (each n x n, symmetric PSD,
    /// validated here), with everything the run learned: the similarity Z, the
    /// indicator P and the per-iteration traces. [`Clusterer::fit`](mkc_core::Clusterer::fit) returns the same
    /// labels, weights and trace in the workspace's [`Clustering`](mkc_core::Clustering); call this when Z or
    /// P is needed.
    ///
    /// # Errors
    /// No kernels; a kernel empty, non-square, non-finite or non-symmetric; kernels of
    /// different sizes; `n_clusters` outside 1..=n; a clearly negative reconstruction
    /// cost (20) (a kernel that is not PSD).
    pub fn fit_kernels(
        &self,
        kernels: &[MatRef<'_, f64>],
        n_clusters: usize,
        seed: u64,
    ) -> Result<TwinFit> {
        let n = validate::kernels("kernels", kernels)?;
        validate::n_clusters(n_clusters, n, 1)?;
        Ok(run(&self.s, kernels, true, n_clusters, seed)?.0)
    }

    /// The APG step sizes of a fit on `data` ([`StepSizes`](crate::StepSizes), λ_max(ΠKΠ) of
    /// every kernel of the set): they depend on the kernels and the eigensolver seed only, not on α, β or
    /// the stopping rule, so the fits of an (α, β) grid share them
    /// ([`Scmk::fit_restarts_with`]).
    ///
    /// # Errors
    /// Those of [`Clusterer::fit`](mkc_core::Clusterer::fit) on the set's kernels (no
    /// kernels, invalid kernels), and a failed eigensolve.
    pub fn step_sizes(&self, data: &mkc_core::KernelSet<'_>) -> Result<crate::StepSizes> {
        crate::twin::step_sizes_set(&self.s, data, true)
    }

    /// [`Clusterer::fit_restarts`](mkc_core::Clusterer::fit_restarts) from step sizes
    /// that [`Scmk::step_sizes`] computed on the same `data` with the same eigensolver
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
        crate::twin::restarts_with_set(&self.s, data, true, n_clusters, seeds, steps)
    }
}

twin_clusterer!(
    Scmk,
    crate::ScmkParams,
    "scmk",
    true,
    concat!(
        "Algorithm 2 on every kernel of the set. Weights on ",
        "`WeightConstraint::SqrtSimplex` (Σ √w_i = 1, eq. 22); the objective trace is J ",
        "of eq. (18) after every iteration (minimised; non-increasing from the second ",
        "entry on, the `objective` module docs say why not before); `converged` is the ",
        "relative-change stopping rule. The seed drives the final k-means on P only. ",
        "Phases: \"init\", \"eigensolve\", \"z\", \"weights\", \"kmeans\".",
    )
);
