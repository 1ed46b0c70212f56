//! RKKM (Du et al., IJCAI 2015, `mkc-robust`): robust kernel k-means with the ℓ2,1 loss
//! on one kernel at a time (the SCMK paper's "RKKM" = best kernel, "RKKM-a" = average
//! over kernels). The authors' protocol is `restarts = 20` runs of `n_init = 1` per kernel,
//! mean over the runs; `n_init = 20` keeps the lowest ℓ2,1 loss of 20 starts in one run
//! (the papers' stated "best objective of 20 runs").

use super::KernelUse;
use crate::params::{ParamKind, ParamSpec};
use mkc_robust::RkkmParams;

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("n_init", ParamKind::Int, "1", "'sample' starts per run; the run keeps the lowest l2,1 loss (authors: 1)"),
    ParamSpec::new("max_iter", ParamKind::Int, "100", "cap on the reweighting passes of each start (authors: 100)"),
];

adapter! {
    /// RKKM, single kernel.
    Rkkm, "rkkm", "RKKM: robust kernel k-means, l2,1 loss by reweighting, on each kernel separately", PARAMS,
    RkkmParams::new() => [n_init, max_iter]; kernels = KernelUse::Single
}
