//! LKAM (Li et al., IJCAI 2016; `mkc-mkkm`): local kernel alignment over τ-nearest
//! neighbourhoods, as the SimpleMKKM authors run it. Deterministic optimisation once per
//! grid point; only the final k-means on H depends on the seed.

use super::mkkm::{family, with_labels};
use crate::params::{ParamKind, ParamSpec};
use mkc_mkkm::LkamParams;

#[rustfmt::skip]
const PARAMS: [ParamSpec; 5] = [
    ParamSpec::new("lambda", ParamKind::Float, "1", "λ ≥ 0, weight of (λ/2) γᵀ HE γ (the authors' group searches 2^-15 … 2^15; SimpleMKKM's Flower17 call 1)"),
    ParamSpec::new("tau", ParamKind::Float, "0.5", "neighbourhood size as a fraction of n, s = round(τ n) (grid 0.05, 0.15, …, 0.95; Flower17 call 0.5)"),
    ParamSpec::new("tol", ParamKind::Float, "1e-6", "stop at relative objective change < tol from the third iteration (authors)"),
    ParamSpec::new("max_iter", ParamKind::Int, "11", "iteration cap (authors: 11 passes)"),
    ParamSpec::new("zero_weight", ParamKind::Float, "1e-6", "weights below this set to 0 after each QP (authors)"),
];

adapter! {
    /// LKAM: localised kernels (1/n) A ∘ K_p over τ-nearest neighbourhoods, weights by a simplex QP.
    Lkam, "lkam", "LKAM (Li et al. 2016): multiple kernel k-means aligned only within τ-nearest neighbourhoods, local regulariser λ", with_labels(&PARAMS),
    LkamParams::new() => [lambda, tau, tol, max_iter, zero_weight] then |b, p| family(b, p)?
}
