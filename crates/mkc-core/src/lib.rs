//! Shared foundations of the mkc workspace: one error type for every crate, input
//! validation helpers, a parameter-guard trait in the manner of linfa, and
//! deterministic seeding, and the one method API ([`Clusterer`], [`KernelSet`],
//! [`Clustering`]) that every clustering method of the workspace implements.
//!
//! Every public entry point of every mkc crate returns [`Result<T>`] with the
//! [`Error`] defined here, so a user matches on one enum whatever crate failed.
//!
//! ```
//! use faer::Mat;
//! use mkc_core::{validate, Error};
//!
//! let k = Mat::from_fn(3, 3, |i, j| if i == j { 1.0 } else { 0.5 });
//! assert!(validate::kernel("K", k.as_ref()).is_ok());
//!
//! let bad = Mat::from_fn(3, 3, |i, j| (i + 2 * j) as f64);
//! assert!(matches!(validate::kernel("K", bad.as_ref()), Err(Error::NotSymmetric { .. })));
//! ```

pub mod cluster;
pub mod error;
mod kernel_pass;
pub mod params;
pub mod seed;
#[cfg(feature = "testing")]
pub mod testing;
pub mod validate;

pub use cluster::{
    check_binary, check_n_clusters, Clusterer, Clustering, DiagnosticList, DiagnosticValue,
    Diagnostics, DynClusterer, KernelSet, KernelWeights, OneKernel, Timings, WeightConstraint,
};
pub use cluster::{one_kernel_restarts, parallel_fits, seed_free_restarts};
pub use error::{Error, Result};
pub use params::ParamGuard;

/// Everything a user of a method crate needs: `use mkc_core::prelude::*;`.
pub mod prelude {
    pub use crate::cluster::{
        check_binary, check_n_clusters, Clusterer, Clustering, Diagnostics, DynClusterer,
        KernelSet, KernelWeights, Timings, WeightConstraint,
    };
    pub use crate::{Error, ParamGuard, Result};
}
