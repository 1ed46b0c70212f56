//! KAMM-R and KAMM-A (SimpleMKKM's Table 3): the criterion each optimises, checked
//! numerically, their steps against brute force, the contract and typed errors.

#[path = "../../mkc-mkkm/tests/common/mod.rs"]
mod common;

use common::{gaussian_views, refs};
use faer::{Mat, MatRef};
use mkc_core::ParamGuard;
use mkc_mkkm::params::rejected_param;
use mkc_simplemkkm::prelude::*;
use mkc_simplemkkm::{gradient, Preprocessing, Solver};

// KAMM-R picks one kernel: the well separated views keep both above 0.9
common::contract_test!(0.9; "kamm-r" => KammRParams::new(), "kamm-a" => KammAParams::new());

/// J(γ) = the sum of the k largest eigenvalues of Σ_p γ_p² K_p, by a dense decomposition.
fn j_dense(views: &[MatRef<'_, f64>], gamma: &[f64], k: usize) -> f64 {
    let c: Vec<f64> = gamma.iter().map(|g| g * g).collect();
    let kg = mkc_linalg::weighted_sum(&c, views).unwrap();
    let (values, _) = mkc_linalg::eigen::sym_evd(kg.as_ref()).unwrap();
    values.iter().rev().take(k).sum()
}

/// The set's kernels centred and scaled to unit diagonal (what both methods work on).
fn prepared(ks: &[Mat<f64>]) -> Vec<Mat<f64>> {
    Preprocessing::CenterUnitDiagonal.apply(&refs(ks)).unwrap()
}

#[test]
fn kamm_r_ascends_to_the_best_vertex() {
    // J is convex on the simplex, so its maximum is at the vertex of the kernel whose
    // top-k eigenvalues sum highest; the ascent reaches it from 1/m here.
    let (ks, _) = gaussian_views(50, 3, &[0.5, 2.0, 5.0]);
    let pk = prepared(&ks);
    let views = refs(&pk);
    for solver in [Solver::Eigensolver, Solver::default()] {
        let fit = KammRParams::new()
            .algorithm(SimpleMkkmParams::new().solver(solver))
            .check()
            .unwrap()
            .fit_kernels(&refs(&ks), 3)
            .unwrap();
        let tr = &fit.objective_trace;
        assert!(tr.windows(2).all(|w| w[1] >= w[0]), "J decreased: {tr:?}");
        assert!(fit.iterations >= 1 && fit.diagnostics.converged);
        // the recorded J is the eigenvalue sum at the returned γ
        let j = j_dense(&views, &fit.gamma, 3);
        assert!(
            (fit.objective() - j).abs() < 1e-8 * j,
            "{} vs {j}",
            fit.objective()
        );
        let vertices: Vec<f64> = (0..3)
            .map(|p| {
                let mut e = [0.0; 3];
                e[p] = 1.0;
                j_dense(&views, &e, 3)
            })
            .collect();
        let best = vertices.iter().cloned().fold(f64::MIN, f64::max);
        assert!(
            (fit.objective() - best).abs() < 1e-8 * best,
            "{tr:?} vs {vertices:?}"
        );
        assert!(
            fit.gamma.iter().filter(|&&g| g > 0.0).count() == 1,
            "{:?}",
            fit.gamma
        );
    }
}

#[test]
fn kamm_a_records_j_and_its_gamma_step_minimises_the_alignment_for_fixed_h() {
    let (ks, _) = gaussian_views(40, 3, &[0.5, 2.0, 5.0]);
    let pk = prepared(&ks);
    let views = refs(&pk);
    let fit = KammAParams::new()
        .max_iter(4)
        .fit_kernels(&refs(&ks), 3)
        .unwrap();
    // J(γ_t) of every iteration, from the γ trace, by dense decompositions
    let gammas = &fit.diagnostics.weight_trace;
    for (t, value) in fit.objective_trace.iter().enumerate() {
        let j = j_dense(&views, &gammas[t], 3);
        assert!(
            (value - j).abs() < 1e-7 * j,
            "iteration {t}: {value} vs {j}"
        );
    }
    // the γ-step for the last H: no point of a fine simplex grid has a smaller
    // tr(Hᵀ K_γ H) = Σ_p γ_p² a_p
    let a = gradient::alignments(&views, fit.h.as_ref()).unwrap();
    let f = |g: &[f64]| g.iter().zip(&a).map(|(x, ap)| x * x * ap).sum::<f64>();
    let best = f(&fit.gamma);
    for g in mkc_mkkm::simplex_qp::grid3(200) {
        assert!(best <= f(&g) + 1e-12);
    }
}

#[test]
fn a_converged_kamm_a_stops_at_simplemkkm_optimum() {
    // A fixed point of γ ∝ 1/tr(Hᵀ K_p H) is SimpleMKKM's optimality condition.
    let (ks, _) = gaussian_views(60, 3, &[0.5, 1.0, 2.0]);
    let a = KammAParams::new()
        .tol(1e-12)
        .max_iter(500)
        .fit_kernels(&refs(&ks), 3)
        .unwrap();
    let s = SimpleMkkmParams::new()
        .tol(1e-9)
        .fit_kernels(&refs(&ks), 3)
        .unwrap();
    // (on these kernels the alternation settles; it need not in general)
    assert!(a.diagnostics.converged, "{:?}", a.objective_trace);
    for (x, y) in a.gamma.iter().zip(&s.gamma) {
        assert!((x - y).abs() < 1e-3, "{:?} vs {:?}", a.gamma, s.gamma);
    }
}

#[test]
fn bad_parameters_are_named() {
    let bad = SimpleMkkmParams::new().step_cap(Some(-1.0));
    for (r, name) in [
        (KammAParams::new().tol(0.0).validate_params(), "tol"),
        (KammAParams::new().max_iter(0).validate_params(), "max_iter"),
        (
            KammRParams::new().algorithm(bad).validate_params(),
            "step_cap",
        ),
    ] {
        assert_eq!(rejected_param(&r), Some(name), "{r:?}");
    }
    assert_eq!(Clusterer::name(&KammRParams::new()), "kamm-r");
    assert_eq!(Clusterer::name(&KammAParams::new()), "kamm-a");
}
