//! Kernel k-means on one kernel at a time (the papers' single-kernel baseline: best
//! kernel and average over kernels). Each run is one kernel k-means from its own seed;
//! the RMKC protocol ("restarted 30 times from randomly picked initial centres", mean ±
//! std) is `restarts = 30` with `n_init = 1`. Initialisation: k-means++ in feature space
//! (mkc-kmeans' `KernelInit::PlusPlus`; the papers say "randomly picked initial centres",
//! k-means++ is the randomised seeding every later kernel k-means uses).

use super::KernelUse;
use crate::params::{ParamKind, ParamSpec};
use mkc_kmeans::KernelKMeansParams;

#[rustfmt::skip]
pub(crate) const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("n_init", ParamKind::Int, "1", "initialisations per run; the run keeps the lowest objective"),
    ParamSpec::new("max_iter", ParamKind::Int, "100", "iteration cap of each initialisation"),
];

adapter! {
    /// Kernel k-means (`mkc-kmeans`), single kernel.
    Kkm, "kkm", "kernel k-means on each kernel separately (single-kernel baseline)", PARAMS,
    KernelKMeansParams::new() => [n_init, max_iter]; kernels = KernelUse::Single
}
