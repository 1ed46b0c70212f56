//! Kernel k-means on one kernel at a time (the papers' single-kernel baseline: best
//! kernel and average over kernels). Each run is one kernel k-means from its own seed;
//! the RMKC protocol ("restarted 30 times from randomly picked initial centres", mean ±
//! std) is `restarts = 30` with `n_init = 1`. Initialisation: k-means++ in feature space
//! (mkc-kmeans' `KernelInit::PlusPlus`; the papers say "randomly picked initial centres",
//! k-means++ is the randomised seeding every later kernel k-means uses).

use super::{Input, KernelUse, Method, Outcome};
use crate::params::{ParamKind, ParamSet, ParamSpec};
use mkc_core::{Error, ParamGuard, Result};

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

pub(crate) fn check_common(p: &ParamSet) -> Result<()> {
    for name in ["n_init", "max_iter"] {
        if p.usize(name)? == 0 {
            return Err(Error::param(name, 0, "must be at least 1"));
        }
    }
    Ok(())
}

/// Kernel k-means on `k` with the common parameters.
pub(crate) fn fit(
    k: faer::MatRef<'_, f64>,
    n_clusters: usize,
    p: &ParamSet,
    seed: u64,
) -> Result<Outcome> {
    let fit = mkc_kmeans::KernelKMeansParams::new(n_clusters)
        .n_init(p.usize("n_init")?)
        .max_iter(p.usize("max_iter")?)
        .seed(seed)
        .check()?
        .fit(k)?;
    Ok(Outcome {
        labels: fit.labels,
        objective: fit.objective_trace,
        iterations: fit.n_iter,
        ..Outcome::default()
    })
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
    fn check(&self, p: &ParamSet) -> Result<()> {
        check_common(p)
    }
    fn run(&self, input: &Input<'_>, p: &ParamSet, seed: u64) -> Result<Outcome> {
        let Some(k) = input.kernels.first() else {
            return Err(Error::input("kkm", "no kernel given"));
        };
        fit(k.as_ref(), input.n_clusters, p, seed)
    }
}
