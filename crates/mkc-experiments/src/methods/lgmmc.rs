//! LG-MMC (Li, Tsang, Kwok & Zhou, AISTATS 2009): label-generating maximum margin
//! clustering, two clusters (`mkc-lgmmc`).
//!
//! One kernel at a time ([`KernelUse::Single`]): the paper reports the best over the
//! linear kernel and Gaussian widths. `kernel-type = "auto"` (default, `LgmmcPath::Auto`)
//! runs the feature-space path (no n x n matrix) when the kernel is the recipe's `linear`
//! kernel or when the recipe builds no kernel at all (features-only recipes, e.g. MNIST),
//! and the precomputed-kernel path otherwise; `linear` / `kernel` force one path. LG-MMC
//! is deterministic: the seed only orders the coordinate-descent sweeps of the linear path
//! and starts the kernel path's eigensolver. The kernel path's features of eq. (13) (most of
//! a fit's time on the larger sets) do not depend on C, so the jobs of a C grid share them
//! ([`Method::shared_key`](super::Method::shared_key); the fits are bit for bit the same).

use super::{charge, seeded_fits, Input, KernelUse, Outcome, SharedValue, SharedWork};
use crate::params::{FromParam, ParamSet};
use faer::Mat;
use mkc_core::{ParamGuard, Result};
use mkc_lgmmc::{Balance, FeatureMap, LabelRule, LgmmcParams, LgmmcPath};

by_word!(LabelRule, LgmmcPath, FeatureMap);

/// `balance` is ℓ as a fraction of n (LG-MMC's and GMMC's `Balance`).
impl FromParam for Balance {
    fn from_param(set: &ParamSet, name: &str) -> Result<Self> {
        Ok(Balance::Fraction(set.f64(name)?))
    }
}

adapter! {
    /// LG-MMC. The key `tol` sets both the cutting-plane tolerance and the MKL step's
    /// (`mkl_tol`), as the package's single tolerance does.
    Lgmmc, "lgmmc", "LG-MMC: label-generating maximum margin clustering (Li et al., AISTATS 2009), two clusters",
    reflect LgmmcParams => [
        c = "C", balance, path = "kernel-type", bias, max_iter, tol, mkl_max_iter, solver_tol, label_rule,
        refine_steps, center, feature_map = "features",
    ] then |b, p| b.mkl_tol(p.get("tol")?);
    kernels = KernelUse::Single;
    extra {
        /// The features of eq. (13) (`Lgmmc::features`): the same for every C, so the
        /// key is the parameters with C set to 1 (LG-MMC's grids vary C only).
        fn shared_key(&self, params: &ParamSet) -> Option<String> {
            let b = Lgmmc::builder(params).ok()?;
            Some(format!("{:?}", b.c(1.0)))
        }
        fn shared_work(
            &self,
            input: &Input<'_>,
            params: &ParamSet,
            seeds: &[u64],
        ) -> Result<SharedValue> {
            use rayon::prelude::*;
            let m = Lgmmc::builder(params)?.check()?;
            let set = input.kernel_set()?;
            let features = seeds
                .par_iter()
                .map(|&s| m.features(&set, input.n_clusters, s))
                .collect::<Result<Vec<Option<Mat<f64>>>>>()?;
            Ok(std::sync::Arc::new(features))
        }
        fn run_restarts_shared(
            &self,
            input: &Input<'_>,
            params: &ParamSet,
            seeds: &[u64],
            shared: &SharedWork,
        ) -> Vec<Result<Outcome>> {
            let given = shared.value.downcast_ref::<Vec<Option<Mat<f64>>>>();
            let (Some(given), Ok(m)) = (
                given.filter(|g| g.len() == seeds.len()),
                Lgmmc::builder(params).and_then(|b| b.check()),
            ) else {
                return self.run_restarts(input, params, seeds);
            };
            let mut runs = seeded_fits("lgmmc", input, seeds, |set, i, seed| {
                m.fit_with_features(set, input.n_clusters, seed, given[i].clone())
            });
            charge(&mut runs, shared.share, "features");
            runs
        }
    }
}
