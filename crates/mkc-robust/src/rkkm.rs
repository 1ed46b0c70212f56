//! RKKM: robust kernel k-means with the ℓ2,1 loss on one kernel (Du et al. 2015, eq. (4)),
//! by its reweighting iterations (module `l21`).

use crate::centres::Centres;
use crate::l21::{self, L21Run};
use mkc_core::{check_n_clusters, Clustering, Error, Result, Timings};
use mkc_kmeans::KernelCols;

/// How RKKM starts.
#[derive(Debug, Clone, PartialEq)]
pub enum RkkmInit {
    /// k distinct random samples as singleton centres (the authors' 'sample' start).
    Sample,
    /// Centres = the means of these labels (length n, values below the number of
    /// clusters); every restart would be the same run, so one run is made.
    Labels(Vec<usize>),
}

mkc_core::params! {
    /// Parameters of RKKM (unchecked builder). The number of clusters and the seed are
    /// given when fitting.
    ///
    /// ```
    /// use mkc_robust::prelude::*;
    /// let p = RkkmParams::new().n_init(20).max_iter(50);
    /// assert!(p.validate_params().is_ok());
    /// assert!(RkkmParams::new().n_init(0).validate_params().is_err());
    /// ```
    pub struct RkkmParams {
        /// 'sample' starts per fit (run in parallel; the authors: 1); the lowest final ℓ2,1
        /// loss wins (ties to the lowest start). Start r draws from
        /// `mkc_core::seed::derive(seed, r)`.
        n_init: usize = 1,
        /// Cap on the reweighting passes of each start (≥ 1; the authors: 100).
        max_iter: usize = 100,
        /// The start ([`RkkmInit::Sample`] by default).
        init: RkkmInit = RkkmInit::Sample,
    }
    /// The authors' defaults: one start (`Replicates` 1), at most 100 assignment passes,
    /// the 'sample' start.
    new;
}

mkc_core::checked! {
    /// Checked RKKM parameters (see [`RkkmParams`]).
    pub struct Rkkm(RkkmParams);
    |p| crate::check_counts(&[("n_init", p.n_init), ("max_iter", p.max_iter)])
}

mkc_core::diagnostics! {
    /// Diagnostics of RKKM ([`Clustering::diagnostics`]).
    pub struct RkkmDiagnostics {
        /// Final ℓ2,1 loss `Σ_i ‖φ(x_i) − v_{ℓ_i}‖` (eq. (4); the last objective entry).
        objective: f64,
        /// Index of the winning start.
        best_restart: usize,
        /// Passes of the winning start that refilled an empty cluster.
        empty_fills: usize,
    }
}

/// Initial labels: length n, every value below k.
fn check_labels(labels: &[usize], n: usize, k: usize) -> Result<()> {
    mkc_core::validate::len("initial labels", labels.len(), n)?;
    if let Some(i) = labels.iter().position(|&l| l >= k) {
        return Err(Error::input(
            "initial labels",
            format!(
                "label {} at index {i} is not below n_clusters = {k}",
                labels[i]
            ),
        ));
    }
    Ok(())
}

impl Rkkm {
    /// The IRLS run(s) on one validated kernel.
    fn run(&self, kc: &KernelCols<'_>, k: usize, seed: u64) -> Result<(L21Run, usize)> {
        match &self.p.init {
            RkkmInit::Labels(l) => {
                check_labels(l, kc.n(), k)?;
                let start = Centres::weighted(l.clone(), &vec![1.0; l.len()], k);
                Ok((l21::run(kc, start, self.p.max_iter), 0))
            }
            RkkmInit::Sample => l21::best_of(kc, k, self.p.n_init, self.p.max_iter, seed)
                .ok_or_else(|| Error::numerical("rkkm", "no start produced a result")),
        }
    }
}

mkc_core::clusterer! {
    Rkkm, "rkkm", RkkmDiagnostics;
    /// RKKM on the set's kernel, or on the equal-weight mean of its kernels. The
    /// objective trace is the ℓ2,1 loss (minimised) after every assignment pass of the
    /// winning start, ending with the loss of the final labels and centres.
    fn fit(&self, data, n_clusters, seed) {
        let mut timings = Timings::default();
        check_n_clusters(data, n_clusters, 1)?;
        let k = timings.time("init", || data.one_kernel("rkkm"))?;
        let kc = KernelCols::new(k.as_mat());
        let (run, best_restart) = timings.time("l21", || self.run(&kc, n_clusters, seed))?;
        let diag = RkkmDiagnostics {
            objective: run.objective(),
            best_restart,
            empty_fills: run.empty_fills,
        };
        Ok(Clustering::new(run.labels, n_clusters, diag)
            .with_objective(run.trace)
            .with_iterations(run.iterations, run.converged)
            .with_timings(timings))
    }
    /// Given several kernels, their mean is formed once and shared by the restarts.
    fn fit_restarts(&self, data, n_clusters, seeds) {
        mkc_core::one_kernel_restarts(self, data, n_clusters, seeds)
    }
}

mkc_core::clusterer_via_check!(RkkmParams, "rkkm");
