//! MVKKM (Tzortzis & Likas, ICDM 2012) and global kernel k-means.

mod common;

use common::views;
use faer::{Mat, MatRef};
use mkc_core::{Error, ParamGuard};
use mkc_gumkl::{composite, global_kernel_kmeans, MvkkmInit, MvkkmParams};
use mkc_metrics::{nmi, NmiNorm};

fn refs(ks: &[Mat<f64>]) -> Vec<MatRef<'_, f64>> {
    ks.iter().map(|k| k.as_ref()).collect()
}

#[test]
fn objective_never_increases_and_weights_stay_on_the_simplex() {
    for (seed, p) in [(21, 1.0), (22, 1.5), (23, 2.0), (24, 4.0), (25, 10.0)] {
        let (_, ks, _) = views(4, 12, 3, &[1.0, 0.7, 0.4, 0.1], seed);
        let fit = MvkkmParams::new(4)
            .p(p)
            .init(MvkkmInit::FastGlobalKernelKMeans)
            .check()
            .unwrap()
            .fit(&refs(&ks))
            .unwrap();
        for w in fit.objective_trace.windows(2) {
            assert!(
                w[1] <= w[0] * (1.0 + 1e-9),
                "p = {p}: {:?}",
                fit.objective_trace
            );
        }
        for w in &fit.weights_trace {
            assert!(
                w.iter().all(|&x| x == 0.0 || x >= 1e-5),
                "p = {p}: floor not applied: {w:?}"
            );
            assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        // The reported objective is Σ w^p D_v of the returned partition and weights.
        let d = composite::mean_view_objectives(&refs(&ks), &fit.labels, 4).unwrap();
        let obj = mkc_gumkl::weights::weighted_objective(&fit.weights, &d, p);
        assert!((obj - fit.objective()).abs() <= 1e-9 * obj.abs());
    }
}

#[test]
fn recovers_clusters_and_ranks_views() {
    let (_, ks, truth) = views(3, 20, 4, &[4.0, 1.5, 0.0], 26);
    let fit = MvkkmParams::new(3)
        .p(2.0)
        .check()
        .unwrap()
        .fit(&refs(&ks))
        .unwrap();
    assert!(nmi(&truth, &fit.labels, NmiNorm::Arithmetic).unwrap() > 0.95);
    assert!(
        fit.weights[0] > fit.weights[1] && fit.weights[1] > fit.weights[2],
        "{:?}",
        fit.weights
    );
    assert!(fit.converged);
}

#[test]
fn p_one_keeps_the_view_of_least_kernel_kmeans_objective() {
    let (_, ks, _) = views(3, 15, 3, &[0.5, 5.0, 1.0], 27);
    let fit = MvkkmParams::new(3)
        .p(1.0)
        .check()
        .unwrap()
        .fit(&refs(&ks))
        .unwrap();
    let argmin = (0..3).fold(0, |b, v| {
        if fit.view_objectives[v] < fit.view_objectives[b] {
            v
        } else {
            b
        }
    });
    assert_eq!(fit.weights.iter().filter(|&&w| w == 1.0).count(), 1);
    assert_eq!(fit.weights[argmin], 1.0);
}

#[test]
fn infinite_p_is_one_kernel_kmeans_run_with_uniform_weights() {
    let (_, ks, _) = views(3, 10, 3, &[2.0, 1.0], 28);
    let fit = MvkkmParams::new(3)
        .p(f64::INFINITY)
        .check()
        .unwrap()
        .fit(&refs(&ks))
        .unwrap();
    assert_eq!(fit.n_iter, 1);
    assert_eq!(fit.weights, vec![0.5, 0.5]);
}

#[test]
fn given_initial_labels_are_used_and_global_init_is_deterministic() {
    let (_, ks, truth) = views(3, 12, 3, &[3.0, 1.0], 29);
    let fit = MvkkmParams::new(3)
        .init(MvkkmInit::Labels(truth.clone()))
        .check()
        .unwrap()
        .fit(&refs(&ks))
        .unwrap();
    assert_eq!(fit.init_labels, truth);
    let sum = &ks[0] + &ks[1];
    let a = global_kernel_kmeans(sum.as_ref(), 3, false, 100).unwrap();
    let b = global_kernel_kmeans(sum.as_ref(), 3, false, 100).unwrap();
    assert_eq!(a, b);
    let f = global_kernel_kmeans(sum.as_ref(), 3, true, 100).unwrap();
    // Both variants reach at least the quality of the true partition, and the exact one is no
    // worse than the fast one here.
    let cost = |l: &[usize]| composite::mean_view_objectives(&[sum.as_ref()], l, 3).unwrap()[0];
    assert!(cost(&a) <= cost(&truth) * (1.0 + 1e-12));
    assert!(cost(&f) <= cost(&truth) * (1.0 + 1e-12));
    assert!(cost(&a) <= cost(&f) * (1.0 + 1e-12));
    // With well separated clusters they find the truth.
    let (_, ks, truth) = views(3, 12, 3, &[8.0, 8.0], 31);
    let sum = &ks[0] + &ks[1];
    for fast in [false, true] {
        let l = global_kernel_kmeans(sum.as_ref(), 3, fast, 100).unwrap();
        assert!(
            nmi(&truth, &l, NmiNorm::Arithmetic).unwrap() > 0.99,
            "fast = {fast}"
        );
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    let (_, ks, _) = views(2, 5, 2, &[1.0, 1.0], 30);
    let r = refs(&ks);
    let ok = MvkkmParams::new(2).check().unwrap();
    assert!(matches!(
        MvkkmParams::new(2).p(0.0).check(),
        Err(Error::InvalidParam { .. })
    ));
    let small = Mat::<f64>::identity(9, 9);
    assert!(matches!(
        ok.fit(&[r[0], small.as_ref()]),
        Err(Error::Shape { .. })
    ));
    let mut inf = ks[1].clone();
    inf[(0, 0)] = f64::INFINITY;
    assert!(matches!(
        ok.fit(&[r[0], inf.as_ref()]),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        MvkkmParams::new(11).check().unwrap().fit(&r),
        Err(Error::InvalidParam { .. })
    ));
    let short = MvkkmParams::new(2)
        .init(MvkkmInit::Labels(vec![0, 1, 0]))
        .check()
        .unwrap();
    assert!(matches!(short.fit(&r), Err(Error::Shape { .. })));
    assert!(matches!(
        global_kernel_kmeans(r[0], 0, false, 10),
        Err(Error::InvalidParam { .. })
    ));
}
