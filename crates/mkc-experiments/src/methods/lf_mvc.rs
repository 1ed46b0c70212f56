//! LF-MVC (Wang et al., IJCAI 2019; `mkc-mkkm`): late fusion alignment maximisation over
//! the kernels' base partitions. λ is tuned on the authors' grid 2^-15 … 2^15 (the
//! SimpleMKKM authors' Flower17 call: λ = 2, the default); the consensus H is computed
//! once, k-means per seed.

use super::mkkm::{family, LABEL_PARAMS};
use mkc_mkkm::LfMvcParams;

adapter! {
    /// LF-MVC, late fusion alignment maximisation.
    LfMvc, "lf-mvc", "LF-MVC (Wang et al. 2019): consensus H aligned with rotated per-kernel base partitions (Procrustes updates) and the average kernel's",
    reflect LfMvcParams + LABEL_PARAMS => [lambda, tol, max_iter, accumulate] then |b, p| family(b, p)?
}
