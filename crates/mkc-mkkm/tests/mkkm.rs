//! MKKM and MKKM-MiR: the contract, typed errors, and the properties of each method.

mod common;

use common::{gaussian_views, refs};
use mkc_mkkm::prelude::*;

common::contract_test!(0.9; "mkkm" => MkkmParams::new(), "mkkm-mir" => MkkmMirParams::new());

#[test]
fn mkkm_objective_never_increases_and_weights_are_closed_form() {
    let (ks, _) = gaussian_views(80, 3, &[0.5, 2.0, 5.0]);
    let views = refs(&ks);
    let fit = MkkmParams::new().fit_kernels(&views, 3).unwrap();
    let tr = &fit.objective_trace;
    assert!(fit.largest_rise() <= 1e-12, "{tr:?}");
    assert!(fit.iterations <= 50 && fit.diagnostics.converged);
    assert_eq!(fit.objective(), *tr.last().unwrap());
    // γ_p ∝ 1/(tr K_p − tr HᵀK_pH) at the returned H (after preprocessing, tr K_p = n).
    let pre = mkc_mkkm::Preprocessing::default().apply(&views).unwrap();
    let a = mkc_linalg::trace_quadratic_many(&refs(&pre), fit.h.as_ref()).unwrap();
    let b: Vec<f64> = a.iter().map(|v| 80.0 - v).collect();
    let expect = mkc_mkkm::closed_form_weights(&b, &[80.0; 3]);
    for p in 0..3 {
        assert!(
            (expect[p] - fit.gamma[p]).abs() < 1e-9,
            "{expect:?} vs {:?}",
            fit.gamma
        );
    }
    // the contract reports the same weights and trace
    let c = MkkmParams::new()
        .fit(&KernelSet::new(&ks).unwrap(), 3, 0)
        .unwrap();
    assert_eq!(c.weights().unwrap(), fit.gamma.as_slice());
    assert_eq!(c.objective, fit.objective_trace);
    assert_eq!((c.iterations, c.converged), (fit.iterations, true));
}

#[test]
fn mkkm_mir_objective_never_increases_and_lambda_zero_is_mkkm() {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 2.0, 6.0]);
    let views = refs(&ks);
    let data = KernelSet::new(&ks).unwrap();
    let engine = |p: MkkmMirParams| p.fit_kernels(&views, 3).unwrap();
    for lambda in [0.0, 1e-3, 1.0, 100.0] {
        let fit = MkkmMirParams::new()
            .lambda(lambda)
            .fit(&data, 3, 3)
            .unwrap();
        let tr = &fit.objective;
        // F(H_t, γ_{t−1}): H maximises, the QP minimises; the 1e-6 thresholding of the
        // weights may add a little
        for w in tr.windows(2) {
            assert!(w[1] <= w[0] * (1.0 + 1e-6), "λ = {lambda}: {tr:?}");
        }
        assert!(fit.kernel_weights.as_ref().unwrap().violation() < 1e-12);
        assert!(fit.converged && fit.diagnostics.converged);
        let acc = mkc_metrics::accuracy(&truth, &fit.labels).unwrap();
        assert!(acc > 0.8, "λ = {lambda}: {acc}");
    }
    // λ = 0: the QP is MKKM's eq. (2), γ_p ∝ 1/(tr K_p − tr HᵀK_pH)
    let mir = engine(MkkmMirParams::new().lambda(0.0).tol(1e-12).max_iter(60));
    let mkkm = MkkmParams::new()
        .tol(1e-12)
        .max_iter(60)
        .fit_kernels(&views, 3)
        .unwrap();
    for (a, b) in mir.gamma.iter().zip(&mkkm.gamma) {
        assert!((a - b).abs() < 1e-5, "{:?} vs {:?}", mir.gamma, mkkm.gamma);
    }
    // a large λ spreads the weight over the least correlated kernels: the gradient of
    // γᵀMγ is equal on the support (KKT of the λ-dominated QP)
    let big = engine(MkkmMirParams::new().lambda(1e8));
    let mg: Vec<f64> = (0..3)
        .map(|p| (0..3).map(|q| big.extra[(p, q)] * big.gamma[q]).sum())
        .collect();
    let spread = mkc_mkkm::simplex_qp::support_spread(&mg, &big.gamma);
    assert!(spread < 1e-4, "{mg:?} {:?}", big.gamma);
}
