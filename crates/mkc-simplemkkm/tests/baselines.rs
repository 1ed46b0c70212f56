//! Avg-KKM, and the contract checks of `mkc-mkkm`'s tests on the two methods of this
//! crate (MKKM and MKKM-MiR are tested in `mkc-mkkm`).

#[path = "../../mkc-mkkm/tests/common/mod.rs"]
mod common;

use common::{gaussian_views, refs};
use mkc_simplemkkm::prelude::*;

common::contract_test!(0.9; "simplemkkm" => SimpleMkkmParams::new(), "avg" => AvgParams::new());

#[test]
fn avg_kkm_is_simplemkkm_first_iterate_and_single_kernels() {
    let (ks, truth) = gaussian_views(60, 3, &[0.5, 1.0, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    let avg = AvgParams::new().fit(&data, 3, 5).unwrap();
    assert_eq!(avg.weights().unwrap(), [1.0 / 3.0; 3]);
    assert_eq!((avg.iterations, avg.objective.len()), (0, 1));
    let s = SimpleMkkmParams::new()
        .max_iter(1)
        .fit(&data, 3, 5)
        .unwrap();
    // K at γ = 1/m is the average kernel / m: same eigenvalues up to the factor 1/m.
    assert!((s.objective[0] * 3.0 - avg.objective[0]).abs() < 1e-9 * avg.objective[0]);
    // the engine's H gives the contract's labels
    let e = AvgParams::new().fit_kernels(&refs(&ks), 3).unwrap();
    let labels =
        mkc_simplemkkm::labels_from_h_with(e.h.as_ref(), 3, &Default::default(), 5).unwrap();
    assert_eq!(avg.labels, labels);
    assert_eq!(avg.objective, [e.objective()]);
    // one kernel alone: single-kernel (spectral) kernel k-means, weight 1
    let one = AvgParams::new()
        .fit(&data.select(&[0]).unwrap(), 3, 3)
        .unwrap();
    assert_eq!(one.weights().unwrap(), [1.0]);
    let acc = mkc_metrics::accuracy(&truth, &one.labels).unwrap();
    assert!(acc > 0.95, "{acc}");
}
