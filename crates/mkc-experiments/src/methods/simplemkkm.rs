//! SimpleMKKM (Liu et al., ICML; `mkc-simplemkkm`) and its Avg-KKM baseline as the
//! SimpleMKKM authors run it, in the spectral form (top-k eigenvectors of the uniform kernel
//! average, then k-means on the row-normalised H). The kernel weights / H are
//! deterministic: the methods' `fit_restarts` optimise once and only the final k-means
//! (10 replicates of 100 iterations) depends on the seed; each run is charged an equal
//! share of the optimisation time. The adapters only map parameters. MKKM and MKKM-MiR
//! are in `methods/mkkm.rs`, with the options the family shares.

use super::mkkm::{family, LABEL_PARAMS};
use crate::params::{reflected, ParamKind, ParamSet, ParamSpec};
use mkc_core::Result;
use mkc_simplemkkm::{Armijo, AvgParams, GoldenSection, LineSearch, SimpleMkkmParams, Solver};

/// Algorithm 1's settings from the parameter set (also KAMM-R's, `methods/kamm.rs`).
pub(super) fn simplemkkm_params(p: &ParamSet) -> Result<SimpleMkkmParams> {
    let cap = p.f64("step_cap")?;
    let ls = match p.str("line_search")? {
        "armijo" => LineSearch::Armijo(Armijo::default()),
        _ => LineSearch::GoldenSection(GoldenSection::new(p.f64("delta_max")?)),
    };
    let solver = match p.str("solver")? {
        "eigensolver" => Solver::Eigensolver,
        _ => Solver::Subspace {
            trial_tol: p.f64("trial_tol")?,
        },
    };
    family(
        SimpleMkkmParams::new()
            .solver(solver)
            .tol(p.f64("tol")?)
            .max_iter(p.usize("max_iter")?)
            .step_cap(if cap.is_infinite() { None } else { Some(cap) })
            .line_search(ls),
        p,
    )
}

/// Algorithm 1's options (also KAMM-R's): `tol` and `max_iter` as [`SimpleMkkmParams`]
/// declares them, then the config's flat form of its step cap (`inf` for none), line
/// search and solver, then [`LABEL_PARAMS`].
pub(super) fn simplemkkm_specs() -> Vec<ParamSpec> {
    reflected::<SimpleMkkmParams>(&[("tol", "tol", None), ("max_iter", "max_iter", None)])
        .into_iter()
        .chain(FLAT_PARAMS)
        .chain(LABEL_PARAMS)
        .collect()
}

#[rustfmt::skip]
const FLAT_PARAMS: [ParamSpec; 5] = [
    ParamSpec::new("step_cap", ParamKind::Float, "0.1", "cap on the step to the simplex boundary (authors: 0.1; inf = SimpleMKL's uncapped step)"),
    ParamSpec::new("line_search", ParamKind::Choice(&["golden", "armijo"]), "golden", "golden = SimpleMKL's boundary walk + golden section (authors); armijo = backtracking (paper's suggestion)"),
    ParamSpec::new("delta_max", ParamKind::Float, "1e-3", "relative bracket width ending the golden-section search"),
    ParamSpec::new("solver", ParamKind::Choice(&["subspace", "eigensolver"]), "subspace", "how J(γ) is evaluated: subspace = Rayleigh-Ritz on a subspace shared by all γ, accepted points certified to the eigensolver tolerance (fast); eigensolver = one warm-started top-k eigensolve per evaluation (reference)"),
    ParamSpec::new("trial_tol", ParamKind::Float, "1e-3", "subspace solver: relative residual tolerance of line-search trial points"),
];

adapter! {
    /// SimpleMKKM, Algorithm 1.
    SimpleMkkm, "simplemkkm", "SimpleMKKM: min over kernel weights of max over H of tr(Hᵀ K_γ H), reduced gradient descent", simplemkkm_specs(),
    |p| simplemkkm_params(p)?
}

adapter! {
    /// Avg-KKM in the authors' spectral form.
    AvgKkmSpectral, "avg-kkm-spectral", "Avg-KKM as the SimpleMKKM authors run it: top-k eigenvectors of the average kernel, k-means on the row-normalised H", LABEL_PARAMS,
    AvgParams::new() => [] then |b, p| family(b, p)?
}
