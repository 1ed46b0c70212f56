//! Kernel k-means on one kernel at a time (the papers' single-kernel baseline: best
//! kernel and average over kernels). Each run is one kernel k-means from its own seed;
//! the RMKC protocol ("restarted 30 times from randomly picked initial centres", mean ±
//! std) is `restarts = 30` with `n_init = 1`. Initialisation: k-means++ in feature space
//! (mkc-kmeans' `KernelInit::PlusPlus`; the papers say "randomly picked initial centres",
//! k-means++ is the randomised seeding every later kernel k-means uses).

use super::KernelUse;
use mkc_kmeans::KernelKMeansParams;

adapter! {
    /// Kernel k-means (`mkc-kmeans`), single kernel.
    Kkm, "kkm", "kernel k-means on each kernel separately (single-kernel baseline)",
    reflect KernelKMeansParams => [n_init, max_iter]; kernels = KernelUse::Single
}
