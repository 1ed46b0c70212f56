//! Spectral clustering (Ng, Jordan & Weiss 2002) with each kernel as the affinity, the SC
//! baseline of the SCMK paper (best kernel and average over kernels; `mkc-kmeans`'
//! `SpectralParams`: zero diagonal, D^{−1/2} A D^{−1/2}, top-c eigenvectors,
//! row-normalised, k-means). Protocol of the paper: k-means repeated 20 times on the
//! embedding, the lowest objective kept (`n_init = 20`). Each run is one such fit from its
//! own seed.

use super::KernelUse;
use crate::params::{ParamKind, ParamSpec};
use mkc_kmeans::SpectralParams;

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("n_init", ParamKind::Int, "20", "k-means replicates on the embedding; the lowest inertia wins (SCMK paper: 20)"),
    ParamSpec::new("max_iter", ParamKind::Int, "100", "Lloyd iterations per replicate"),
    ParamSpec::new("clip_negative", ParamKind::Bool, "false", "use max(K, 0) as affinity (otherwise a kernel with negative entries is an error)"),
];

adapter! {
    /// Spectral clustering, single kernel.
    Spectral, "sc", "spectral clustering (Ng-Jordan-Weiss normalised cut) with each kernel as affinity", PARAMS,
    SpectralParams::new() => [n_init, max_iter, clip_negative]; kernels = KernelUse::Single
}
