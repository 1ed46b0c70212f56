//! RKKM (Du et al., IJCAI 2015, `mkc-robust`): robust kernel k-means with the ℓ2,1 loss
//! on one kernel at a time (the SCMK paper's "RKKM" = best kernel, "RKKM-a" = average
//! over kernels). The authors' protocol is `restarts = 20` runs of `n_init = 1` per kernel,
//! mean over the runs; `n_init = 20` keeps the lowest ℓ2,1 loss of 20 starts in one run
//! (the papers' stated "best objective of 20 runs").

use super::KernelUse;
use mkc_robust::RkkmParams;

adapter! {
    /// RKKM, single kernel.
    Rkkm, "rkkm", "RKKM: robust kernel k-means, l2,1 loss by reweighting, on each kernel separately",
    reflect RkkmParams => [n_init, max_iter]; kernels = KernelUse::Single
}
