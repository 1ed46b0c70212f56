//! MVSpec (Tzortzis & Likas, ICDM 2012, `mkc-spectral`): multi-view spectral clustering, the
//! top eigenvectors of Σ w_v^p K_v alternated with MVKKM's closed-form weights, from uniform
//! weights. The alternation is deterministic; each run is the final k-means from its own seed
//! (restarts share the alternation).

use crate::params::{ParamKind, ParamSpec};
use mkc_spectral::MvspecParams;

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("p", ParamKind::Float, "2", "exponent of Σ w_v^p K_v, ≥ 1; 1 = one view, inf = uniform sum (RMKC's grid: 1, 1.5, …, 5)"),
    ParamSpec::new("tol", ParamKind::Float, "1e-4", "relative objective change that stops the iterations (authors: 1e-4)"),
    ParamSpec::new("max_iter", ParamKind::Int, "100", "cap on the iterations (authors: none)"),
    ParamSpec::new("weight_floor", ParamKind::Float, "1e-5", "weights below this are set to 0 (authors: 1e-5)"),
    ParamSpec::new("n_init", ParamKind::Int, "30", "k-means replicates on the embedding (authors: 30)"),
    ParamSpec::new("kmeans_max_iter", ParamKind::Int, "1000", "Lloyd iterations per replicate (authors: 1000)"),
];

adapter! {
    /// MVSpec.
    Mvspec, "mvspec", "MVSpec: multi-view spectral clustering with closed-form view weights (Tzortzis & Likas)", PARAMS,
    MvspecParams::new() => [p, tol, max_iter, weight_floor, n_init, kmeans_max_iter]
}
