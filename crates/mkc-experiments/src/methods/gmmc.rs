//! GMMC (Valizadegan & Jin, NIPS 2006; `mkc-mmc`): the convex SDP relaxation of
//! two-cluster maximum margin clustering with a bias and O(n) dual variables, solved by
//! the crate's certified barrier method; labels from the leading eigenvector.
//!
//! One kernel at a time ([`KernelUse::Single`]), as LG-MMC's tables report the best over
//! the linear kernel and the Gaussian widths. `kernel-type = "auto"` reads the features
//! for the recipe's `linear` kernel or a features-only recipe (the SDP's matrix is then
//! (d+1) x (d+1)), and factors the precomputed kernel otherwise. Deterministic: the seed
//! only starts the eigensolver of large kernels.

use super::KernelUse;
use mkc_mmc::gmmc::{GmmcParams, GmmcPath};

by_word!(GmmcPath);

adapter! {
    /// GMMC.
    Gmmc, "gmmc", "GMMC: generalized maximum margin clustering, SDP relaxation with O(n) variables (Valizadegan & Jin, NIPS 2006), two clusters",
    reflect GmmcParams => [c = "C", balance, path = "kernel-type", energy_tol, max_rank, gap_tol, max_newton];
    kernels = KernelUse::Single
}
