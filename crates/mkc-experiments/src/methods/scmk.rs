//! SCMK and SCSK (Kang, Peng, Cheng & Xu, AAAI 2017, `mkc-scmk`): twin learning of
//! similarity and clustering, with multiple kernels (Algorithm 2) or one kernel at a time
//! (Algorithm 1). α and β have no paper defaults (the paper searches α ∈ {1e-5, …, 100},
//! β ∈ {1e-6, 1e-5}; the defaults 1 and 1e-5 are points of that grid); the stopping rule
//! and the 100 k-means replicates are the authors'. The alternating loop is
//! deterministic, so restarts share it and differ only in the seed of the final k-means
//! on P (`fit_restarts` of `mkc-scmk`).

use super::KernelUse;
use crate::params::{ParamKind, ParamSpec};
use mkc_scmk::{ScmkParams, ScskParams, ZSolver};

#[rustfmt::skip]
fn specs(min_iter: &'static str, max_iter: &'static str) -> Vec<ParamSpec> {
    vec![
        ParamSpec::new("alpha", ParamKind::Float, "1", "α > 0, weight of ‖Z‖²_F (no paper default; a point of the grid 1e-5 … 100)"),
        ParamSpec::new("beta", ParamKind::Float, "1e-5", "β ≥ 0, weight of tr(PᵀLP) (no paper default; the larger of the grid 1e-6, 1e-5)"),
        ParamSpec::new("min_iter", ParamKind::Int, min_iter, "iterations before the stopping test (authors' code)"),
        ParamSpec::new("max_iter", ParamKind::Int, max_iter, "iteration cap (authors' code)"),
        ParamSpec::new("tol", ParamKind::Float, "1e-3", "stop when ‖Z − Z_old‖_F/‖Z_old‖_F < tol (authors' code)"),
        ParamSpec::new("qp_tol", ParamKind::Float, "1e-6", "KKT tolerance of the column QPs (11)"),
        ParamSpec::new("z_solver", ParamKind::Choice(&["auto", "apg", "smo"]), "auto", "Z step: accelerated projected gradient with SMO for sparse columns (auto), APG alone, or SMO alone"),
        ParamSpec::new("n_init", ParamKind::Int, "100", "k-means replicates on P (authors' code: 100)"),
    ]
}

words!(ZSolver { "apg" => ZSolver::Apg, "smo" => ZSolver::Smo, _ => ZSolver::Auto });

adapter! {
    /// SCMK, Algorithm 2 (all kernels).
    Scmk, "scmk", "SCMK: joint similarity, clustering and kernel weights (Kang et al. AAAI 2017, Algorithm 2)", specs("10", "500"),
    ScmkParams::new() => [alpha, beta, min_iter, max_iter, tol, qp_tol, z_solver, n_init]
}

adapter! {
    /// SCSK, Algorithm 1 (each kernel separately).
    Scsk, "scsk", "SCSK: joint similarity and clustering on each kernel (Kang et al. AAAI 2017, Algorithm 1)", specs("5", "200"),
    ScskParams::new() => [alpha, beta, min_iter, max_iter, tol, qp_tol, z_solver, n_init]; kernels = KernelUse::Single
}
