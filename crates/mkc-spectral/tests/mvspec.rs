//! MVSpec (Tzortzis & Likas, ICDM 2012).

mod common;

use common::{dense_eigvecs, rejects_each, same_partition, views};
use faer::Mat;
use mkc_core::prelude::*;
use mkc_spectral::{MvspecDiagnostics, MvspecParams};

fn fit(params: MvspecParams, ks: &[Mat<f64>], k: usize) -> Result<Clustering<MvspecDiagnostics>> {
    params.fit(&KernelSet::new(ks)?, k, 0)
}

/// `D_v = tr(K_v) − tr(Yᵀ K_v Y)` with Y the top-k eigenvectors of `Σ_v w_v^p K_v`, all by
/// dense decompositions and explicit loops.
fn view_objectives_from_scratch(ks: &[Mat<f64>], w: &[f64], p: f64, k: usize) -> Vec<f64> {
    let n = ks[0].nrows();
    let kw = Mat::from_fn(n, n, |i, j| {
        ks.iter().zip(w).map(|(m, x)| x.powf(p) * m[(i, j)]).sum()
    });
    let vecs = dense_eigvecs(&kw); // ascending: the top k are the last k columns
    ks.iter()
        .map(|m| {
            let mut between = 0.0;
            for c in n - k..n {
                for i in 0..n {
                    for j in 0..n {
                        between += vecs[(i, c)] * m[(i, j)] * vecs[(j, c)];
                    }
                }
            }
            (0..n).map(|i| m[(i, i)]).sum::<f64>() - between
        })
        .collect()
}

#[test]
fn every_weight_update_is_the_closed_form_of_the_eigenvectors() {
    for (seed, p) in [(1, 1.5), (2, 2.0), (3, 4.0)] {
        let (ks, _) = views(3, 10, 6, &[1.2, 0.7, 0.3], false, seed);
        let f = fit(
            MvspecParams::new()
                .p(p)
                .weight_floor(0.0)
                .tol(0.0)
                .max_iter(5),
            &ks,
            3,
        )
        .unwrap();
        let trace = &f.diagnostics.weights_trace;
        assert!(trace.len() >= 2);
        for (t, w) in trace.windows(2).enumerate() {
            let d = view_objectives_from_scratch(&ks, &w[0], p, 3);
            // w_v = D_v^{−1/(p−1)} / Σ_u D_u^{−1/(p−1)}.
            let raw: Vec<f64> = d.iter().map(|x| x.powf(-1.0 / (p - 1.0))).collect();
            let s: f64 = raw.iter().sum();
            for (a, b) in raw.iter().zip(&w[1]) {
                assert!(
                    (a / s - b).abs() < 1e-9,
                    "p = {p}, step {t}: {raw:?} vs {:?}",
                    w[1]
                );
            }
            // The objective trace is Σ w^p D_v of the weights that produced Y.
            let obj: f64 = w[0].iter().zip(&d).map(|(w, d)| w.powf(p) * d).sum();
            assert!((obj - f.objective[t]).abs() < 1e-9 * obj, "step {t}");
        }
    }
}

#[test]
fn the_objective_never_increases() {
    for (seed, p) in [(4, 1.0), (5, 1.5), (6, 2.0), (7, 3.0), (8, 5.0)] {
        for gaussian in [false, true] {
            let (ks, _) = views(3, 12, 3, &[1.0, 0.6, 0.4, 0.1], gaussian, seed);
            let f = fit(MvspecParams::new().p(p).weight_floor(0.0), &ks, 3).unwrap();
            for w in f.objective.windows(2) {
                assert!(w[1] <= w[0] * (1.0 + 1e-10), "p = {p}: {:?}", f.objective);
            }
            assert!(f.converged, "p = {p}");
            assert_eq!(f.iterations, f.objective.len());
        }
    }
}

#[test]
fn p_one_keeps_one_view_and_p_infinity_the_uniform_sum() {
    let (ks, truth) = views(2, 15, 3, &[0.3, 4.0, 0.6], false, 9);
    let f = fit(MvspecParams::new().p(1.0), &ks, 2).unwrap();
    let d = &f.diagnostics.view_objectives;
    let argmin = (0..3).fold(0, |b, v| if d[v] < d[b] { v } else { b });
    assert_eq!(f.weights().unwrap()[argmin], 1.0);
    assert_eq!(argmin, 1);
    assert!(same_partition(&f.labels, &truth));
    let f = fit(MvspecParams::new().p(f64::INFINITY), &ks, 2).unwrap();
    assert_eq!(f.weights().unwrap(), &[1.0 / 3.0; 3]);
    assert_eq!(f.iterations, 1);
}

#[test]
fn recovers_clusters_and_ranks_views() {
    let (ks, truth) = views(3, 20, 4, &[4.0, 1.5, 0.0], false, 10);
    let f = fit(MvspecParams::new().p(2.0), &ks, 3).unwrap();
    assert!(same_partition(&f.labels, &truth));
    let w = f.kernel_weights.as_ref().unwrap();
    assert!(w.violation() < 1e-12);
    assert!(
        w.values[0] > w.values[1] && w.values[1] > w.values[2],
        "{w:?}"
    );
    // Small weights are floored.
    for w in &f.diagnostics.weights_trace {
        assert!(w.iter().all(|&x| x == 0.0 || x >= 1e-5), "{w:?}");
    }
}

#[test]
fn restarts_share_the_alternation_and_equal_single_fits() {
    let (ks, _) = views(2, 12, 3, &[1.0, 0.4], true, 11);
    let data = KernelSet::new(&ks).unwrap();
    let m = MvspecParams::new().n_init(1).check().unwrap();
    let seeds = [3, 1, 4];
    for (run, &s) in m.fit_restarts(&data, 2, &seeds).iter().zip(&seeds) {
        let run = run.as_ref().unwrap();
        let single = m.fit(&data, 2, s).unwrap();
        assert_eq!(run.labels, single.labels);
        assert_eq!(run.objective, single.objective);
        assert_eq!(run.kernel_weights, single.kernel_weights);
    }
}

#[test]
fn bad_data_and_parameters_are_typed_errors() {
    let (ks, _) = views(2, 6, 2, &[1.0, 0.5], false, 12);
    let data = KernelSet::new(&ks).unwrap();
    for k in [0, 13] {
        assert!(matches!(
            MvspecParams::new().fit(&data, k, 0),
            Err(Error::InvalidParam { .. })
        ));
    }
    let x = Mat::from_fn(12, 2, |i, j| (i * 3 + j) as f64);
    let features = KernelSet::from_features(x.as_ref()).unwrap();
    assert!(matches!(
        MvspecParams::new().fit(&features, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    // A kernel that is not positive semidefinite: tr(K) − tr(YᵀKY) < 0.
    let neg = vec![
        ks[0].clone(),
        Mat::from_fn(12, 12, |i, j| if i == j { -1.0 } else { 0.0 }),
    ];
    assert!(matches!(
        fit(MvspecParams::new(), &neg, 2),
        Err(Error::Numerical { .. })
    ));
    let cases: Vec<(MvspecParams, &str)> = vec![
        (MvspecParams::new().p(0.5), "p"),
        (MvspecParams::new().p(f64::NAN), "p"),
        (MvspecParams::new().tol(-1.0), "tol"),
        (MvspecParams::new().max_iter(0), "max_iter"),
        (MvspecParams::new().weight_floor(1.0), "weight_floor"),
        (MvspecParams::new().weight_floor(-0.1), "weight_floor"),
        (MvspecParams::new().n_init(0), "n_init"),
        (MvspecParams::new().kmeans_max_iter(0), "kmeans_max_iter"),
    ];
    rejects_each(cases, &data);
}
