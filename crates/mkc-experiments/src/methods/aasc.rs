//! AASC (Huang, Chuang & Chen, CVPR 2012, `mkc-spectral`): affinity aggregation for spectral
//! clustering, every kernel an affinity. The embedding is deterministic; each run is k-means
//! on it from its own seed (restarts share the embedding), the protocol of the authors'
//! evaluation script (mean over 20 such runs).

use crate::params::{ParamKind, ParamSpec};
use mkc_spectral::{AascParams, LambdaRule};

words!(LambdaRule {
    "root-or-start" => LambdaRule::RootOrStart,
    "start" => LambdaRule::Start,
    _ => LambdaRule::RootOrLeastSquares,
});

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("lambda", ParamKind::Choice(&["root-or-least-squares", "root-or-start", "start"]), "root-or-least-squares", "λ₁ of the weight step: fsolve's answer from lambda_start (nearest root, else least squares), nearest root else the start, or the start (authors' code without fsolve)"),
    ParamSpec::new("lambda_start", ParamKind::Float, "-1", "start of the λ₁ search (authors: -1)"),
    ParamSpec::new("max_iter", ParamKind::Int, "20", "cap on the alternations (authors: 20)"),
    ParamSpec::new("tol", ParamKind::Float, "1e-5", "stop when Σ(|F| − |F_old|)² is below this (authors: 1e-5)"),
    ParamSpec::new("n_init", ParamKind::Int, "10", "k-means replicates on the embedding (authors: 10)"),
    ParamSpec::new("kmeans_max_iter", ParamKind::Int, "1000", "Lloyd iterations per replicate (authors: 1000)"),
    ParamSpec::new("normalize_rows", ParamKind::Bool, "true", "row-normalise the embedding before k-means (authors' reported setting)"),
];

adapter! {
    /// AASC.
    Aasc, "aasc", "AASC: affinity aggregation spectral clustering, Σ v_k² W_k with closed-form weights (Huang et al.)", PARAMS,
    AascParams::new() => [lambda, lambda_start, max_iter, tol, n_init, kmeans_max_iter, normalize_rows]
}
