//! GUMKL (Tzortzis & Likas, `mkc-gumkl`): greedy unsupervised MKL. Deterministic (greedy
//! medoids, no restarts), so the seed is ignored and restarts are copies of one fit. `p = 1`
//! is the paper's best-single-view baseline, `p = inf` its uniform-sum baseline.

use crate::params::{ParamKind, ParamSpec};
use mkc_gumkl::GumklParams;

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("p", ParamKind::Float, "3", "exponent of Σ w_v^p K_v (eq. 4), ≥ 1; 1 = best single view, inf = uniform sum; paper's best range 2.5–3.5"),
    ParamSpec::new("refine", ParamKind::Bool, "true", "refine with kernel k-means on the final composite kernel (the paper's reported setting)"),
    ParamSpec::new("tol", ParamKind::Float, "1e-4", "relative objective change that stops Algorithm 1 (paper: ε unstated; authors' MVKKM code: 1e-4)"),
    ParamSpec::new("max_iter", ParamKind::Int, "100", "cap on the iterations of Algorithm 1"),
];

adapter! {
    /// GUMKL, Algorithm 1 (+ the kernel k-means refinement the paper reports).
    Gumkl, "gumkl", "GUMKL: greedy unsupervised multiple kernel learning (k-medoids + closed-form weights)", PARAMS,
    GumklParams::new() => [p, refine, tol, max_iter]
}
