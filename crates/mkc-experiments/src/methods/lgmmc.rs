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

use super::KernelUse;
use crate::params::{FromParam, ParamSet};
use faer::Mat;
use mkc_core::Result;
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
        // The features of eq. (13) of every seed (`Lgmmc::features`), the same for every C.
        shared_across_c! {
            Lgmmc, "features", Option<Mat<f64>>,
            |m, set, k, seed| m.features(set, k, seed),
            |m, set, k, seed, start| m.fit_with_features(set, k, seed, start.clone()),
        }
    }
}
