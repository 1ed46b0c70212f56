//! iterSVR's linear feature-space path (the parent module's docs, "The linear
//! feature-space path"): the choice of path, the k-means start on the features, and the
//! SVR step by [`mkc_svm::LinearSvr`].

use super::{targets, IterSvr, IterSvrDiagnostics, SvrFit, SvrStep};
use faer::MatRef;
use mkc_core::{Clustering, KernelSet, ParamGuard, Result, Timings};
use mkc_svm::{LinearFeatures, LinearSvr};
use std::time::Instant;

/// Which input an iterSVR fit reads ([`super::IterSvrParams::path`]; as LG-MMC's
/// `LgmmcPath`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IterSvrPath {
    /// The set's kernel ([`mkc_core::KernelSet::one_kernel`]: the kernel, or the
    /// equal-weight mean of several), SMO.
    Kernel,
    /// The linear kernel `XXᵀ` of the set's feature matrix
    /// ([`mkc_core::KernelSet::require_features`]), in feature space: no n x n matrix,
    /// [`mkc_svm::LinearSvr`] (semismooth Newton, coordinate descent as the fallback).
    /// The set's kernels are not read.
    Linear,
    /// LG-MMC's automatic rule ([`mkc_lgmmc::InputPath::is_linear`]): the linear path
    /// when the set has features and either no kernel or one kernel that is their
    /// linear kernel `XXᵀ` ([`mkc_core::KernelSet::is_features_linear`]), the kernel
    /// path otherwise (default). Given such a kernel, the run still starts from kernel
    /// k-means on it, as the kernel path (the same start for the same seed); only the
    /// SVRs move to feature space.
    #[default]
    Auto,
    /// The rule `Auto` had before it took LG-MMC's: the linear path only for a set with
    /// features and **no** kernel, the kernel path for every kernel (a kernel named
    /// `linear` included). Tables whose records predate the change pin it until they
    /// are re-run (`configs/lgmmc.toml`).
    KernelFirst,
}

mkc_core::param_words!(IterSvrPath {
    "auto" => IterSvrPath::Auto,
    "linear" => IterSvrPath::Linear,
    "kernel" => IterSvrPath::Kernel,
    "kernel-first" => IterSvrPath::KernelFirst
});

/// How the linear path starts.
pub(super) enum Start {
    /// k-means on the features from the run's seed.
    KMeans,
    /// Given ±1 labels.
    Labels(Vec<f64>),
}

/// The linear path's SVR: [`LinearSvr`] on features prepared once per run.
struct LinearStep {
    svr: LinearSvr,
    data: LinearFeatures,
    epochs: usize,
}

impl SvrStep for LinearStep {
    fn fit(&mut self, y: &[f64], warm: Option<&[f64]>) -> Result<SvrFit> {
        let m = self.svr.solve(&self.data, y, warm)?;
        self.epochs += m.status.iterations;
        Ok(SvrFit {
            objective: m.objective,
            converged: m.status.converged,
            prediction: m.prediction,
            coef: m.coef,
        })
    }
    fn is_linear(&self) -> bool {
        true
    }
    fn epochs(&self) -> usize {
        self.epochs
    }
}

impl IterSvr {
    /// Whether `data` goes to the linear feature-space path ([`IterSvrPath`]).
    pub(super) fn linear_path(&self, data: &KernelSet<'_>) -> bool {
        match self.path {
            IterSvrPath::Linear => true,
            IterSvrPath::Kernel => false,
            IterSvrPath::Auto => data.feature_path_fits(),
            IterSvrPath::KernelFirst => data.features().is_some() && data.is_empty(),
        }
    }

    /// One run on the linear kernel of the samples `x` (n x d, validated by the kernel
    /// set): features prepared (centred, phase "features"), the start (phase "kmeans":
    /// k-means with `seed`, or the given labels), then the alternation; `seed` also
    /// permutes the coordinate-descent epochs. `timings` may already hold the phases of
    /// a start computed elsewhere.
    pub(super) fn fit_linear(
        &self,
        x: MatRef<'_, f64>,
        start: Start,
        seed: u64,
        mut timings: Timings,
        t0: Instant,
    ) -> Result<Clustering<IterSvrDiagnostics>> {
        let data = timings.time("features", || LinearFeatures::new(x, true))?;
        let y0 = match start {
            Start::Labels(y) => y,
            Start::KMeans => targets(&timings.time("kmeans", || feature_start(x, seed))?),
        };
        let svr = self.linear.clone().seed(seed).check()?;
        let mut step = LinearStep {
            svr,
            data,
            epochs: 0,
        };
        self.run(&mut step, y0, timings, t0)
    }
}

/// The start of a run on features without a kernel: k-means (k = 2, one k-means++ seeding
/// from `seed`, stopping when the labels stop changing, at most 100 Lloyd steps).
pub(super) fn feature_start(x: MatRef<'_, f64>, seed: u64) -> Result<Vec<usize>> {
    Ok(mkc_kmeans::KMeansParams::new()
        .n_init(1)
        .max_iter(100)
        .tol(0.0)
        .check()?
        .fit_features(x, 2, seed)?
        .labels)
}
