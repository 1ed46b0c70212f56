//! MKKM, Avg-KKM and single-kernel kernel k-means.

mod common;

use common::gaussian_views;
use faer::{Mat, MatRef};
use mkc_core::{Error, ParamGuard};
use mkc_simplemkkm::{AvgParams, MkkmParams, SimpleMkkmParams};

fn refs(ks: &[Mat<f64>]) -> Vec<MatRef<'_, f64>> {
    ks.iter().map(|m| m.as_ref()).collect()
}

#[test]
fn mkkm_objective_never_increases_and_weights_are_closed_form() {
    let (ks, _) = gaussian_views(80, 3, &[0.5, 2.0, 5.0]);
    let views = refs(&ks);
    let fit = MkkmParams::new(3).check().unwrap().fit(&views).unwrap();
    let tr = &fit.info.objective_trace;
    for w in tr.windows(2) {
        assert!(w[1] <= w[0] * (1.0 + 1e-12), "{tr:?}");
    }
    assert!(fit.info.iterations <= 50);
    assert!((fit.gamma.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // γ_p ∝ 1/(tr K_p − tr HᵀK_pH) at the returned H (after preprocessing, tr K_p = n).
    let pre = mkc_simplemkkm::Preprocessing::default()
        .apply(&views)
        .unwrap();
    let pre_refs = refs(&pre);
    let a = mkc_simplemkkm::gradient::alignments(&pre_refs, fit.h.as_ref()).unwrap();
    let b: Vec<f64> = a.iter().map(|v| 80.0 - v).collect();
    let expect = mkc_simplemkkm::closed_form_weights(&b, &[80.0; 3]);
    for p in 0..3 {
        assert!(
            (expect[p] - fit.gamma[p]).abs() < 1e-9,
            "{expect:?} vs {:?}",
            fit.gamma
        );
    }
    assert!(fit.info.converged);
}

#[test]
fn avg_kkm_is_simplemkkm_first_iterate_and_single_kernels() {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 1.0, 3.0]);
    let views = refs(&ks);
    let avg = AvgParams::new(3).check().unwrap().fit(&views).unwrap();
    assert_eq!(avg.weights, vec![1.0 / 3.0; 3]);
    let s = SimpleMkkmParams::new(3)
        .max_iter(1)
        .check()
        .unwrap()
        .fit(&views)
        .unwrap();
    // K at γ = 1/m is the average kernel / m: same eigenvalues up to the factor 1/m.
    assert!((s.info.objective_trace[0] * 3.0 - avg.objective).abs() < 1e-9 * avg.objective);
    let each = AvgParams::new(3).check().unwrap().fit_each(&views).unwrap();
    assert_eq!(each.len(), 3);
    assert_eq!(each[1].weights, vec![0.0, 1.0, 0.0]);
    let acc = mkc_metrics::accuracy(&truth, &each[0].labels(3).unwrap()).unwrap();
    assert!(acc > 0.95, "{acc}");
    assert_eq!(avg.labels(5).unwrap(), avg.labels(5).unwrap());
}

#[test]
fn baselines_reject_bad_input() {
    let (ks, _) = gaussian_views(10, 2, &[0.5, 1.0]);
    let other = Mat::<f64>::identity(8, 8);
    let mk = MkkmParams::new(2).check().unwrap();
    let avg = AvgParams::new(2).check().unwrap();
    assert!(matches!(
        mk.fit(&[ks[0].as_ref(), other.as_ref()]),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        avg.fit(&[ks[0].as_ref(), other.as_ref()]),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        MkkmParams::new(20).check().unwrap().fit(&refs(&ks)),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        AvgParams::new(20).check().unwrap().fit_each(&refs(&ks)),
        Err(Error::InvalidParam { .. })
    ));
    let zero = Mat::<f64>::zeros(10, 10);
    assert!(mk.fit(&[zero.as_ref()]).is_err());
}

#[test]
fn mkkm_mir_objective_never_increases_and_lambda_zero_is_mkkm() {
    use mkc_simplemkkm::MkkmMirParams;
    let (ks, truth) = common::gaussian_views(60, 3, &[0.5, 2.0, 6.0]);
    let views: Vec<_> = ks.iter().map(|m| m.as_ref()).collect();
    for lambda in [0.0, 1e-3, 1.0, 100.0] {
        let fit = MkkmMirParams::new(3)
            .lambda(lambda)
            .check()
            .unwrap()
            .fit(&views)
            .unwrap();
        let tr = &fit.info.objective_trace;
        // F(H_t, γ_{t−1}): H maximises, the QP minimises; the 1e-6 thresholding of the
        // weights may add a little
        for w in tr.windows(2) {
            assert!(w[1] <= w[0] * (1.0 + 1e-6), "λ = {lambda}: {tr:?}");
        }
        assert!((fit.gamma.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(fit.gamma.iter().all(|&g| g >= 0.0));
        assert!(fit.info.converged);
        let acc = mkc_metrics::accuracy(&truth, &fit.labels(3).unwrap()).unwrap();
        assert!(acc > 0.8, "λ = {lambda}: {acc}");
    }
    // λ = 0: the QP is MKKM's eq. (2), γ_p ∝ 1/(tr K_p − tr HᵀK_pH)
    let mir = MkkmMirParams::new(3)
        .lambda(0.0)
        .tol(1e-12)
        .max_iter(60)
        .check()
        .unwrap()
        .fit(&views)
        .unwrap();
    let mkkm = MkkmParams::new(3)
        .tol(1e-12)
        .max_iter(60)
        .check()
        .unwrap()
        .fit(&views)
        .unwrap();
    for (a, b) in mir.gamma.iter().zip(&mkkm.gamma) {
        assert!((a - b).abs() < 1e-5, "{:?} vs {:?}", mir.gamma, mkkm.gamma);
    }
    // a large λ spreads the weight over the least correlated kernels: the gradient of
    // γᵀMγ is equal on the support (KKT of the λ-dominated QP)
    let big = MkkmMirParams::new(3)
        .lambda(1e8)
        .check()
        .unwrap()
        .fit(&views)
        .unwrap();
    let mg: Vec<f64> = (0..3)
        .map(|p| (0..3).map(|q| big.m[(p, q)] * big.gamma[q]).sum())
        .collect();
    let support: Vec<f64> = mg
        .iter()
        .zip(&big.gamma)
        .filter(|(_, &g)| g > 0.0)
        .map(|(&v, _)| v)
        .collect();
    let (lo, hi) = support
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    assert!((hi - lo) / hi < 1e-4, "{mg:?} {:?}", big.gamma);
}

#[test]
fn mkkm_mir_rejects_bad_input() {
    use mkc_simplemkkm::MkkmMirParams;
    let (ks, _) = common::gaussian_views(20, 2, &[0.5, 1.0]);
    let model = MkkmMirParams::new(2).check().unwrap();
    let mut nan = ks[1].clone();
    nan[(1, 2)] = f64::NAN;
    nan[(2, 1)] = f64::NAN;
    assert!(matches!(
        model.fit(&[ks[0].as_ref(), nan.as_ref()]),
        Err(mkc_core::Error::NonFinite { .. })
    ));
    let small = faer::Mat::<f64>::identity(5, 5);
    assert!(matches!(
        model.fit(&[ks[0].as_ref(), small.as_ref()]),
        Err(mkc_core::Error::Shape { .. })
    ));
    assert!(model.fit(&[]).is_err());
    assert!(MkkmMirParams::new(30)
        .check()
        .unwrap()
        .fit(&[ks[0].as_ref()])
        .is_err());
}
