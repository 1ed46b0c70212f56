//! Spectral clustering (Ng, Jordan & Weiss 2002) with each kernel as the affinity, the SC
//! baseline of the SCMK paper (best kernel and average over kernels; `mkc-kmeans`'
//! `SpectralParams`: zero diagonal, D^{−1/2} A D^{−1/2}, top-c eigenvectors,
//! row-normalised, k-means). Protocol of the paper: k-means repeated 20 times on the
//! embedding, the lowest objective kept (`n_init = 20`). Each run is one such fit from its
//! own seed.

use super::KernelUse;
use mkc_kmeans::SpectralParams;

adapter! {
    /// Spectral clustering, single kernel.
    Spectral, "sc", "spectral clustering (Ng-Jordan-Weiss normalised cut) with each kernel as affinity",
    reflect SpectralParams => [n_init, max_iter, clip_negative]; kernels = KernelUse::Single
}
