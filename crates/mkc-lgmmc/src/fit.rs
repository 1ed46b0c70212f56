//! LG-MMC through the workspace's method API: [`Lgmmc`] is the [`Clusterer`](mkc_core::Clusterer) "lgmmc".

use crate::cutting_plane::{LgmmcFit, StopReason};
use crate::features::{kernel_features, kernel_sqrt_features};
use crate::kernel_path::KernelSolver;
use crate::linear_path::LinearSolver;
use crate::params::{FeatureMap, Lgmmc, LgmmcParams};
use crate::path::InputPath;
use faer::{Mat, MatRef};
use mkc_core::{Clustering, Diagnostics, KernelSet, Result, Timings};
use mkc_svm::CheckedKernel;

/// What an LG-MMC fit learned besides the labels, and how it got there.
///
/// μ weights the *label kernels* `K∘ŷ_t ŷ_tᵀ` of eq. (7), not the input kernels, so it
/// is reported here and the fit's `kernel_weights` is `None`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LgmmcDiagnostics {
    /// The working set C of label vectors ŷ_t ∈ B (±1 entries), in order of generation
    /// (one of each pair ±ŷ: both give the same label kernel, so Algorithm 1's start
    /// `C = {ŷ, −ŷ}` is stored as `{ŷ}`).
    pub label_vectors: Vec<Vec<f64>>,
    /// μ on the simplex, one weight per label vector (eq. 7).
    pub mu: Vec<f64>,
    /// α of the last α-step, on the simplex A of eq. (7) (the dual variables of the final
    /// SVM over `Σ_t μ_t K∘ŷ_t ŷ_tᵀ`; its support vectors have α_i > 0).
    pub alpha: Vec<f64>,
    /// Why Algorithm 1 stopped.
    pub stop: StopReason,
    /// α-solves in all (SVM solves on the kernel path, coordinate-descent runs on the
    /// linear path).
    pub alpha_solves: usize,
    /// Iterations of the inner solvers in all (SMO steps on the kernel path,
    /// coordinate-descent epochs on the linear path).
    pub inner_iterations: usize,
    /// Whether every α-solve met its tolerance.
    pub solvers_converged: bool,
    /// Relative KKT residual of eq. (7) in μ after the last round (see
    /// [`LgmmcParams::mkl_tol`]).
    pub mkl_residual: f64,
    /// Number of explicit features searched by eq. (13) (the eigen-rank r on the kernel
    /// path, the non-constant feature columns on the linear path).
    pub feature_dim: usize,
    /// Whether the linear feature-space path ran ([`LgmmcPath`](crate::LgmmcPath)).
    pub linear_path: bool,
}

impl LgmmcDiagnostics {
    /// Number of label vectors with μ_t > 0 (the rank of `M = Σ_t μ_t ŷ_t ŷ_tᵀ`, at most).
    pub fn mu_support(&self) -> usize {
        self.mu.iter().filter(|&&m| m > 0.0).count()
    }
}

impl Diagnostics for LgmmcDiagnostics {
    /// `label_vectors` (how many), `mu_support`, `alpha_solves`, `inner_iterations`,
    /// `feature_dim`, `linear_path` (0/1), `stop_reason` ([`StopReason::code`]),
    /// `mkl_residual`, `solvers_converged` (0/1).
    fn entries(&self) -> Vec<(String, f64)> {
        vec![
            ("label_vectors".into(), self.label_vectors.len() as f64),
            ("mu_support".into(), self.mu_support() as f64),
            ("alpha_solves".into(), self.alpha_solves as f64),
            ("inner_iterations".into(), self.inner_iterations as f64),
            ("feature_dim".into(), self.feature_dim as f64),
            ("linear_path".into(), f64::from(u8::from(self.linear_path))),
            ("stop_reason".into(), f64::from(self.stop.code())),
            ("mkl_residual".into(), self.mkl_residual),
            (
                "solvers_converged".into(),
                f64::from(u8::from(self.solvers_converged)),
            ),
        ]
    }
}

mkc_core::clusterer! {
    Lgmmc, "lgmmc", LgmmcDiagnostics;
    /// Algorithm 1 on the set's kernel (or the mean of its kernels), or on the linear
    /// kernel of its features ([`LgmmcParams::path`]); two clusters only, labels 0/1.
    /// The objective trace is J of eq. (7) after every round (minimised, non-increasing);
    /// `iterations` counts the cutting-plane rounds and `converged` is false only when
    /// the round cap stopped them. The seed orders the linear path's coordinate-descent
    /// sweeps and starts the kernel path's eigensolver (n > 600); the result is the same
    /// for any number of threads. Phases: "features" (eq. 13's features, or the linear
    /// solver's data), "violated" (eqs. 13–15), "mkl" (α- and μ-steps), "labels".
    fn fit(&self, data, n_clusters, seed) {
        self.fit_with_features(data, n_clusters, seed, None)
    }
}

mkc_core::clusterer_via_check!(LgmmcParams, "lgmmc");

impl Lgmmc {
    /// The features of eq. (13) that a fit on `data` with `seed` computes on the kernel
    /// path ([`FeatureMap`]: `U_r Λ_r^½` of the centred kernel, or the square root of the
    /// kernel with its bias), or `None` on the linear path, which has none.
    ///
    /// They depend on the kernel, the path, the feature map, its rank, the bias (square
    /// root map) and the seed (the eigensolver's start for n > 600), not on C, the balance
    /// or the solver settings. A grid over C can compute them once and give them to every
    /// fit ([`Lgmmc::fit_with_features`]): the fits are bit for bit those of
    /// [`Clusterer::fit`](mkc_core::Clusterer::fit) (the experiments runner shares them so
    /// across LG-MMC's C grid; on Sick and Krvskp they are 80% of a fit's time).
    ///
    /// Errors: those of [`Clusterer::fit`](mkc_core::Clusterer::fit) on the set (not two
    /// clusters, no kernel on the kernel path, an eigensolver failure).
    pub fn features(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seed: u64,
    ) -> Result<Option<Mat<f64>>> {
        let ((), linear, _) =
            self.params()
                .path
                .timed_fit("LG-MMC", data, n_clusters, |_, _| Ok(()))?;
        if linear {
            return Ok(None);
        }
        let kernel = data.one_kernel("lgmmc")?;
        let k = kernel.as_mat();
        // The square-root map takes the kernel with its bias; PCA takes k itself.
        let owned = match self.params().feature_map {
            FeatureMap::Sqrt => self.with_bias(k),
            FeatureMap::Pca => None,
        };
        let kb = owned.as_ref().map_or(k, |m| m.as_ref());
        self.eq13_features(k, kb, seed).map(Some)
    }

    /// [`Clusterer::fit`](mkc_core::Clusterer::fit) with the features of eq. (13) given,
    /// as [`Lgmmc::features`] computes them for the same data and seed (`None`: computed
    /// here; ignored on the linear path). The result is then the fit's, with the
    /// "features" phase only as long as it takes to take them.
    ///
    /// Errors: those of the fit, and [`Error::Shape`](mkc_core::Error::Shape) for
    /// features whose number of rows is not n.
    pub fn fit_with_features(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seed: u64,
        features: Option<Mat<f64>>,
    ) -> Result<Clustering<LgmmcDiagnostics>> {
        if let Some(f) = &features {
            mkc_core::validate::len("LG-MMC features (rows)", f.nrows(), data.n())?;
        }
        let (fit, linear, timings) =
            self.params()
                .path
                .timed_fit("LG-MMC", data, n_clusters, |linear, timings| {
                    let kernel;
                    let input = if linear {
                        Input::Features(data.require_features("lgmmc")?)
                    } else {
                        kernel = data.one_kernel("lgmmc")?;
                        Input::Kernel(kernel.as_mat())
                    };
                    self.run(input, seed, features, timings)
                })?;
        let diag = LgmmcDiagnostics {
            linear_path: linear,
            ..fit.diag
        };
        let converged = diag.stop.converged();
        Ok(Clustering::new(fit.labels, 2, diag)
            .with_objective(fit.objective_trace)
            .with_iterations(fit.rounds, converged)
            .with_timings(timings))
    }
}

/// What Algorithm 1 runs on.
#[derive(Clone, Copy)]
pub(crate) enum Input<'a> {
    /// A precomputed kernel (n x n, without the bias b).
    Kernel(MatRef<'a, f64>),
    /// Samples as rows (n x d), for the linear kernel in feature space.
    Features(MatRef<'a, f64>),
}

impl Lgmmc {
    /// Algorithm 1 on `input` (validated by the kernel set). A precomputed kernel gets
    /// the bias b added to every entry for the α-steps, and eq. (13) runs on the features
    /// of [`FeatureMap`]; the samples run the linear kernel `K = XXᵀ + b` in feature space
    /// (no n x n matrix), eq. (13) on the columns of X.
    pub(crate) fn run(
        &self,
        input: Input<'_>,
        seed: u64,
        given: Option<Mat<f64>>,
        timings: &mut Timings,
    ) -> Result<LgmmcFit> {
        let p = self.params();
        let k = match input {
            Input::Kernel(k) => k,
            Input::Features(x) => {
                let beta = self.beta(x.nrows())?;
                let mut solver = timings.time("features", || {
                    LinearSolver::new(x, p.center, p.bias, p.c, p.solver_tol, seed)
                })?;
                return self.cutting_plane(&mut solver, beta, timings);
            }
        };
        let owned = self.with_bias(k);
        let kb = owned.as_ref().map_or(k, |m| m.as_ref());
        let features = || match given {
            Some(f) => Ok(f),
            None => self.eq13_features(k, kb, seed),
        };
        self.run_on_kernel(kb, features, timings)
    }

    /// The kernel with the bias b added to every entry, or `None` when b = 0 (k itself).
    fn with_bias(&self, k: MatRef<'_, f64>) -> Option<Mat<f64>> {
        let b = self.params().bias;
        (b != 0.0).then(|| Mat::from_fn(k.nrows(), k.ncols(), |i, j| k[(i, j)] + b))
    }

    /// The features of eq. (13) of the kernel `k` ([`FeatureMap`]; `kb`, k with its bias,
    /// for the square-root map).
    fn eq13_features(
        &self,
        k: MatRef<'_, f64>,
        kb: MatRef<'_, f64>,
        seed: u64,
    ) -> Result<Mat<f64>> {
        let p = self.params();
        match p.feature_map {
            FeatureMap::Pca => kernel_features(k, p.rank, seed),
            FeatureMap::Sqrt => kernel_sqrt_features(kb, p.rank, seed),
        }
    }

    /// Algorithm 1 on the kernel `kb` (with its bias) and the features of eq. (13) that
    /// `features` computes (phase "features").
    fn run_on_kernel(
        &self,
        kb: MatRef<'_, f64>,
        features: impl FnOnce() -> Result<Mat<f64>>,
        timings: &mut Timings,
    ) -> Result<LgmmcFit> {
        let checked = CheckedKernel::new(kb)?;
        let beta = self.beta(checked.size())?;
        let f = timings.time("features", features)?;
        let mut solver = KernelSolver::new(checked, self.params().c, self.params().solver_tol, f);
        self.cutting_plane(&mut solver, beta, timings)
    }

    /// A precomputed kernel, with the features of eq. (13) given by the caller (tests:
    /// the linear kernel with its own features, to compare both paths).
    #[cfg(test)]
    pub(crate) fn run_kernel_with_features(
        &self,
        k: MatRef<'_, f64>,
        f: Mat<f64>,
    ) -> Result<LgmmcFit> {
        self.run_on_kernel(k, || Ok(f), &mut Timings::default())
    }
}
