//! ONKC (Liu et al., AAAI 2017; `mkc-mkkm`): optimal neighbourhood kernel clustering as
//! the SimpleMKKM authors run it. Deterministic optimisation (γ, G, H) once per grid
//! point; only the final k-means on H depends on the seed.

use super::mkkm::{family, with_labels};
use crate::params::{ParamKind, ParamSpec};
use mkc_mkkm::onkc::Projection;
use mkc_mkkm::OnkcParams;

words!(Projection { "dense" => Projection::Dense, _ => Projection::Auto });

#[rustfmt::skip]
const PARAMS: [ParamSpec; 6] = [
    ParamSpec::new("rho", ParamKind::Float, "1", "ρ > 0, weight of (ρ/2)‖G − K_γ‖² (authors' demo grid 2^-7 … 2^9; their Flower17 call 1)"),
    ParamSpec::new("lambda", ParamKind::Float, "1", "λ ≥ 0, weight of (λ/2) γᵀMγ, M_pq = tr(K_p K_q) (demo grid 2^-6 … 2^7; Flower17 call 1)"),
    ParamSpec::new("tol", ParamKind::Float, "1e-3", "stop at relative objective change < tol from the third iteration (authors)"),
    ParamSpec::new("max_iter", ParamKind::Int, "51", "iteration cap (authors: 51 passes); each iteration is one PSD projection of G (see projection)"),
    ParamSpec::new("zero_weight", ParamKind::Float, "1e-8", "weights below this set to 0 after each QP (authors)"),
    ParamSpec::new("projection", ParamKind::Choice(&["auto", "dense"]), "auto", "PSD projection of the G-step: auto = block Lanczos while rank(G) ≤ n/6 (the first rank counted from one LBLᵀ factorisation's inertia), else full eigendecomposition (same G to 1e-8); dense = always full (authors)"),
];

adapter! {
    /// ONKC: H, the optimal neighbourhood kernel G (PSD projection) and linear weights γ.
    Onkc, "onkc", "ONKC (Liu et al. 2017): cluster with the best PSD kernel G near Σ γ_p K_p (PSD projection of G each iteration)", with_labels(&PARAMS),
    OnkcParams::new() => [rho, lambda, tol, max_iter, zero_weight, projection] then |b, p| family(b, p)?
}
