//! MVKKM (Tzortzis & Likas, ICDM 2012, `mkc-gumkl`): multi-view kernel k-means with weights
//! ∝ D_v^(−1/(p−1)), started from global kernel k-means on the uniform combination.
//! Deterministic, so the seed is ignored and restarts are copies of one fit.

use mkc_gumkl::{MvkkmInit, MvkkmParams};

by_word!(MvkkmInit);

adapter! {
    /// MVKKM.
    Mvkkm, "mvkkm", "MVKKM: multi-view kernel k-means with closed-form view weights (Tzortzis & Likas)",
    reflect MvkkmParams => [p, init, tol, max_iter, weight_floor]
}
