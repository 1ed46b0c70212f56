//! CPMMC (Zhao, Wang & Zhang, SDM 2008): cutting-plane maximum margin clustering with the
//! constrained concave–convex procedure, two clusters (`mkc_mmc::cpmmc`).
//!
//! One kernel at a time ([`KernelUse::Single`]): LG-MMC's tables report the best over the
//! linear kernel and the Gaussian widths. `kernel-type = "auto"` (default) runs the
//! feature-space path (no n x n matrix) on the recipe's `linear` kernel or when the recipe
//! builds no kernel (MNIST), and the precomputed-kernel path otherwise. The seed draws the
//! starting hyperplane (`init = "random"`, the authors' Octave copy) or only the power
//! iteration's start (`init = "pca"`).

use super::KernelUse;
use mkc_mmc::{CpmmcInit, CpmmcParams, CpmmcPath};

by_word!(CpmmcPath, CpmmcInit);

adapter! {
    /// CPMMC.
    Cpmmc, "cpmmc", "CPMMC: cutting-plane maximum margin clustering (Zhao, Wang & Zhang, SDM 2008), two clusters",
    reflect CpmmcParams => [c = "C", balance, epsilon, cccp_tol, cccp_max_iter, max_iter, init, path = "kernel-type"];
    kernels = KernelUse::Single
}
