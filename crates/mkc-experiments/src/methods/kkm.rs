//! Kernel k-means on one kernel at a time (the papers' single-kernel baseline: best
//! kernel and average over kernels). Each run is one kernel k-means from its own seed;
//! the RMKC protocol ("restarted 30 times from randomly picked initial centres", mean ±
//! std) is `restarts = 30` with `n_init = 1`. Initialisation: k-means++ in feature space
//! (mkc-kmeans' `KernelInit::PlusPlus`; the papers say "randomly picked initial centres",
//! k-means++ is the randomised seeding every later kernel k-means uses).

use super::{KernelUse, Method};
use crate::params::{ParamKind, ParamSet, ParamSpec};
use mkc_core::{DynClusterer, Result};
use mkc_kmeans::KernelKMeansParams;

/// Kernel k-means (`mkc-kmeans`), single kernel.
pub struct Kkm;

pub(crate) const PARAMS: &[ParamSpec] = &[
    ParamSpec::new(
        "n_init",
        ParamKind::Int,
        "1",
        "initialisations per run; the run keeps the lowest objective",
    ),
    ParamSpec::new(
        "max_iter",
        ParamKind::Int,
        "100",
        "iteration cap of each initialisation",
    ),
];

/// Kernel k-means parameters from a parameter set.
pub(crate) fn params(p: &ParamSet) -> Result<KernelKMeansParams> {
    Ok(KernelKMeansParams::new()
        .n_init(p.usize("n_init")?)
        .max_iter(p.usize("max_iter")?))
}

impl Method for Kkm {
    fn name(&self) -> &'static str {
        "kkm"
    }
    fn about(&self) -> &'static str {
        "kernel k-means on each kernel separately (single-kernel baseline)"
    }
    fn params(&self) -> Vec<ParamSpec> {
        PARAMS.to_vec()
    }
    fn kernels(&self) -> KernelUse {
        KernelUse::Single
    }
    fn build(&self, p: &ParamSet) -> Result<Box<dyn DynClusterer>> {
        Ok(Box::new(params(p)?))
    }
}
