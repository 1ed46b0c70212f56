//! **mkc**: multiple kernel clustering and maximum margin clustering, every method behind
//! one dependency and one API.
//!
//! Every method of the workspace — the five paper methods (RMKC, SimpleMKKM, LG-MMC, GUMKL,
//! SCMK) and the baselines their tables compare against (kernel k-means, k-means, spectral
//! clustering, MKKM, MKKM-MiR, MVKKM, iterSVR, SCSK, …) — fits through the same contract,
//! [`Clusterer`]: a [`KernelSet`] validated once, the number of clusters, a seed; out comes
//! a [`Clustering`] with the same names everywhere (`labels`, `kernel_weights`, `objective`,
//! `iterations`, `converged`, `timings`, typed `diagnostics`). A user swaps methods by
//! changing the parameter type:
//!
//! ```
//! use mkc::prelude::*;
//!
//! # fn main() -> mkc::Result<()> {
//! // Three kernels on 30 points in two groups (here made up; in practice your own).
//! let x: Vec<f64> = (0..30).map(|i| (i % 2) as f64 * 5.0 + (i as f64 * 0.37).sin()).collect();
//! let kernels: Vec<Mat<f64>> = [0.5, 1.0, 4.0]
//!     .iter()
//!     .map(|s| Mat::from_fn(30, 30, |i, j| (-(x[i] - x[j]).powi(2) / (2.0 * s * s)).exp()))
//!     .collect();
//! let data = KernelSet::new(&kernels)?;
//!
//! // Any method, the same call and the same result shape.
//! let methods: Vec<Box<dyn DynClusterer>> = vec![
//!     Box::new(KernelKMeansParams::new()),
//!     Box::new(SpectralParams::new()),
//!     Box::new(SimpleMkkmParams::new()),
//!     Box::new(MkkmParams::new()),
//!     Box::new(GumklParams::new()),
//!     Box::new(MvkkmParams::new()),
//!     Box::new(RmkcParams::new()),
//!     Box::new(IterSvrParams::new()),
//!     Box::new(LgmmcParams::new()),
//!     Box::new(ScmkParams::new()),
//! ];
//! for m in &methods {
//!     let fit = m.fit_dyn(&data, 2, 42)?;
//!     assert_eq!(fit.labels.len(), 30);
//!     println!("{}: {:?} weights {:?}", m.name(), fit.labels, fit.weights());
//! }
//! # Ok(())
//! # }
//! ```
//!
//! The crates behind it stay usable one by one (each is re-exported as a module here):
//! [`core`] (the API, errors, validation), [`kernels`], [`linalg`], [`qp`], [`metrics`],
//! [`kmeans`], [`svm`], [`data`], and one crate per method family behind a cargo feature
//! (all on by default): `simplemkkm`, `gumkl`, `rmkc`, `lgmmc`, `scmk`, `mkkm` (the MKKM
//! family), `mmc` (GMMC, CPMMC), `robust` (RKKM, RMKKM), `spectral` (AASC, MVSpec).

#![forbid(unsafe_code)]

pub use mkc_core as core;
pub use mkc_core::{
    Clusterer, Clustering, Diagnostics, DynClusterer, Error, KernelSet, KernelWeights, ParamGuard,
    Result, Timings, WeightConstraint,
};
pub use mkc_data as data;
pub use mkc_kernels as kernels;
pub use mkc_kmeans as kmeans;
pub use mkc_linalg as linalg;
pub use mkc_metrics as metrics;
pub use mkc_qp as qp;
pub use mkc_svm as svm;

/// Each method family's crate behind its cargo feature: re-exported under its short name,
/// and its prelude in [`prelude`] beside the method API's and k-means'.
macro_rules! method_crates {
    ($($feature:literal => $krate:ident as $name:ident),* $(,)?) => {
        $(
            #[cfg(feature = $feature)]
            pub use $krate as $name;
        )*

        /// The method API and every method's parameter type: `use mkc::prelude::*;`.
        pub mod prelude {
            pub use faer::Mat;
            pub use mkc_core::prelude::*;
            pub use mkc_kmeans::prelude::*;
            $(
                #[cfg(feature = $feature)]
                pub use $krate::prelude::*;
            )*
        }
    };
}

method_crates! {
    "gumkl" => mkc_gumkl as gumkl,
    "lgmmc" => mkc_lgmmc as lgmmc,
    "mkkm" => mkc_mkkm as mkkm,
    "mmc" => mkc_mmc as mmc,
    "rmkc" => mkc_rmkc as rmkc,
    "robust" => mkc_robust as robust,
    "scmk" => mkc_scmk as scmk,
    "simplemkkm" => mkc_simplemkkm as simplemkkm,
    "spectral" => mkc_spectral as spectral,
}
