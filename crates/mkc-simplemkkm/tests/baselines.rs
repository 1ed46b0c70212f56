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
