//! MVKKM (Tzortzis & Likas, ICDM 2012, `mkc-gumkl`): multi-view kernel k-means with weights
//! ∝ D_v^(−1/(p−1)), started from global kernel k-means on the uniform combination.
//! Deterministic, so the seed is ignored and restarts are copies of one fit.

use crate::params::{ParamKind, ParamSpec};
use mkc_gumkl::{MvkkmInit, MvkkmParams};

words!(MvkkmInit { "fast-global" => MvkkmInit::FastGlobalKernelKMeans, _ => MvkkmInit::GlobalKernelKMeans });

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("p", ParamKind::Float, "3", "exponent of Σ w_v^p K_v, ≥ 1; 1 = one view, inf = uniform sum (no default in the authors' code)"),
    ParamSpec::new("init", ParamKind::Choice(&["global", "fast-global"]), "global", "initial partition: global kernel k-means (authors' code) or its fast variant"),
    ParamSpec::new("tol", ParamKind::Float, "1e-4", "relative objective change that stops the iterations (authors' code: 1e-4)"),
    ParamSpec::new("max_iter", ParamKind::Int, "100", "cap on the outer iterations"),
    ParamSpec::new("weight_floor", ParamKind::Float, "1e-5", "weights below this are set to 0 (authors' code: 1e-5)"),
];

adapter! {
    /// MVKKM.
    Mvkkm, "mvkkm", "MVKKM: multi-view kernel k-means with closed-form view weights (Tzortzis & Likas)", PARAMS,
    MvkkmParams::new() => [p, init, tol, max_iter, weight_floor]
}
