//! The one method API of the workspace: a [`KernelSet`] validated once, a [`Clusterer`]
//! implemented by every method, and a [`Clustering`] result with the same names
//! everywhere. See [`Clusterer`] for the contract.

mod clusterer;
mod clustering;
mod kernel_set;
mod restarts;
mod timings;
mod weights;

pub use clusterer::{check_binary, check_n_clusters, Clusterer, DiagnosticList, DynClusterer};
pub use clustering::{Clustering, DiagnosticValue, Diagnostics};
pub use kernel_set::{KernelSet, OneKernel, LINEAR_RTOL};
pub use restarts::{one_kernel_restarts, parallel_fits, seed_free_restarts};
pub use timings::Timings;
pub use weights::{KernelWeights, WeightConstraint};

#[cfg(test)]
mod tests;
