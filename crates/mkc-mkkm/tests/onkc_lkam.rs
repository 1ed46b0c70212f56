//! ONKC and LKAM: the contract, typed errors, thread independence, parameters.

mod common;

use common::{gaussian_views, refs};
use mkc_core::Error;
use mkc_mkkm::params::rejected_param;
use mkc_mkkm::prelude::*;
use mkc_mkkm::{labels_from_h, KernelFit, MethodDiagnostics, OnkcDiagnostics, Preprocessing};

// ONKC and LKAM with default parameters and at the ends of their grids.
common::contract_test!(
    0.9;
    "onkc" => OnkcParams::new(),
    "onkc" => OnkcParams::new().rho(2f64.powi(-7)).lambda(2f64.powi(7)),
    "lkam" => LkamParams::new(),
    "lkam" => LkamParams::new().tau(0.1).lambda(2f64.powi(-15)),
);

#[test]
fn every_bad_parameter_is_named() {
    let o = OnkcParams::new;
    let l = LkamParams::new;
    let cases = [
        (o().rho(0.0).validate_params(), "rho"),
        (o().rho(f64::INFINITY).validate_params(), "rho"),
        (o().lambda(-1.0).validate_params(), "lambda"),
        (o().lambda(f64::NAN).validate_params(), "lambda"),
        (o().tol(0.0).validate_params(), "tol"),
        (o().max_iter(0).validate_params(), "max_iter"),
        (o().zero_weight(0.5).validate_params(), "zero_weight"),
        (l().lambda(-1.0).validate_params(), "lambda"),
        (l().tau(0.0).validate_params(), "tau"),
        (l().tau(1.0).validate_params(), "tau"),
        (l().tau(f64::NAN).validate_params(), "tau"),
        (l().tol(-1.0).validate_params(), "tol"),
        (l().max_iter(0).validate_params(), "max_iter"),
        (l().zero_weight(-0.1).validate_params(), "zero_weight"),
    ];
    for (i, (r, name)) in cases.into_iter().enumerate() {
        assert_eq!(rejected_param(&r), Some(name), "case {i}: {r:?}");
    }
    assert_eq!(Clusterer::name(&OnkcParams::new()), "onkc");
    assert_eq!(Clusterer::name(&LkamParams::new()), "lkam");
    // τ too small for n is caught at fit time, naming tau
    let (ks, _) = gaussian_views(20, 2, &[0.5, 1.0]);
    let data = KernelSet::new(&ks).unwrap();
    match LkamParams::new().tau(0.01).fit(&data, 2, 0) {
        Err(Error::InvalidParam { name, .. }) => assert_eq!(name, "tau"),
        other => panic!("{other:?}"),
    }
}

/// The contract's fit with seed 9 has the engine's weights, trace and iterations, and the
/// labels of k-means with seed 9 on its H.
fn same_as_engine<D, X: MethodDiagnostics, E>(fit: &Clustering<D>, e: &KernelFit<X, E>) {
    assert_eq!(fit.weights().unwrap(), &e.gamma[..]);
    assert_eq!(fit.objective, e.objective_trace);
    assert_eq!(fit.iterations, e.iterations);
    let k = fit.n_clusters;
    assert_eq!(fit.labels, labels_from_h(e.h.as_ref(), k, 9).unwrap());
}

#[test]
fn contract_fit_equals_the_engine_and_the_labels_of_its_h() {
    let (ks, _) = gaussian_views(50, 3, &[0.5, 2.0, 4.0]);
    let data = KernelSet::new(&ks).unwrap();
    let views = refs(&ks);
    let onkc = OnkcParams::new().rho(0.5);
    let e = onkc.fit_kernels(&views, 3).unwrap();
    same_as_engine(&onkc.fit(&data, 3, 9).unwrap(), &e);
    let lkam = LkamParams::new().tau(0.2);
    let e = lkam.fit_kernels(&views, 3).unwrap();
    same_as_engine(&lkam.fit(&data, 3, 9).unwrap(), &e);
}

/// LKAM's step 0 computed once per τ (`Lkam::local_structure`) and shared by a λ grid
/// (`Lkam::fit_restarts_with`): the runs are the fits' bit for bit, for both
/// preprocessings; a structure of another τ, n or kernel count is a typed error.
#[test]
fn lkam_runs_from_a_shared_structure_are_the_fits() {
    let (ks, _) = gaussian_views(60, 3, &[0.5, 2.0, 4.0]);
    let data = KernelSet::new(&ks).unwrap();
    let seeds = [3u64, 4, 5];
    for prep in [Preprocessing::CenterUnitDiagonal, Preprocessing::None] {
        for tau in [0.1, 0.4] {
            let base = LkamParams::new().tau(tau).preprocessing(prep.clone());
            let structure = base.check().unwrap().local_structure(&data).unwrap();
            assert_eq!(
                structure.neighbourhood_size(),
                (tau * 60.0_f64).round() as usize
            );
            for lambda in [2f64.powi(-15), 1.0, 2f64.powi(9)] {
                let m = base.clone().lambda(lambda).check().unwrap();
                let own = m.fit_restarts(&data, 3, &seeds);
                let shared = m.fit_restarts_with(&data, 3, &seeds, &structure);
                for (a, b) in own.iter().zip(&shared) {
                    let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
                    let at = format!("{prep:?} τ = {tau} λ = {lambda}");
                    assert_eq!(a.labels, b.labels, "{at}");
                    assert_eq!(a.weights(), b.weights(), "{at}");
                    assert_eq!(a.objective, b.objective, "{at}");
                    assert_eq!(a.iterations, b.iterations, "{at}");
                    assert_eq!(a.converged, b.converged, "{at}");
                    assert_eq!(
                        a.diagnostics.weight_trace, b.diagnostics.weight_trace,
                        "{at}"
                    );
                    assert_eq!(a.diagnostics.eigensolves, b.diagnostics.eigensolves, "{at}");
                    assert_eq!(a.diagnostics.entries(), b.diagnostics.entries(), "{at}");
                }
            }
        }
    }
    let structure = LkamParams::new()
        .tau(0.1)
        .check()
        .unwrap()
        .local_structure(&data)
        .unwrap();
    let other_tau = LkamParams::new().tau(0.4).check().unwrap();
    let runs = other_tau.fit_restarts_with(&data, 3, &seeds, &structure);
    assert!(
        runs.iter()
            .all(|r| matches!(r, Err(Error::InvalidInput { .. }))),
        "{runs:?}"
    );
    let fewer = KernelSet::new(&ks[..2]).unwrap();
    let m = LkamParams::new().tau(0.1).check().unwrap();
    let runs = m.fit_restarts_with(&fewer, 3, &seeds, &structure);
    assert!(
        runs.iter()
            .all(|r| matches!(r, Err(Error::InvalidInput { .. }))),
        "{runs:?}"
    );
    // τ that gives no neighbour: the structure's own typed error
    let tiny = LkamParams::new()
        .tau(0.001)
        .check()
        .unwrap()
        .local_structure(&data);
    assert!(
        matches!(tiny, Err(Error::InvalidParam { .. })),
        "{:?}",
        tiny.err()
    );
}

/// ONKC's preprocessing, M and step 1 computed once per ρ (`Onkc::start_for`) and shared
/// by a λ grid (`Onkc::fit_restarts_from`): the runs are the fits' bit for bit, for both
/// preprocessings, on the low-rank (block Lanczos, n = 300 > the eigensolver's dense
/// size) and the full projection; a start of another ρ, k or kernel count, or of the
/// other projection, is a typed error.
#[test]
fn onkc_runs_from_a_shared_start_are_the_fits() {
    let (ks, _) = gaussian_views(300, 3, &[0.5, 2.0, 4.0]);
    let data = KernelSet::new(&ks).unwrap();
    let seeds = [3u64, 4];
    let mut low_rank = false;
    let mut dense = false;
    for prep in [Preprocessing::CenterUnitDiagonal, Preprocessing::None] {
        for rho in [2f64.powi(-7), 64.0] {
            let base = OnkcParams::new().rho(rho).preprocessing(prep.clone());
            let start = base.check().unwrap().start_for(&data, 3).unwrap();
            for lambda in [2f64.powi(-6), 1.0, 2f64.powi(7)] {
                let m = base.clone().lambda(lambda).check().unwrap();
                let own = m.fit_restarts(&data, 3, &seeds);
                let shared = m.fit_restarts_from(&data, 3, &seeds, &start);
                for (a, b) in own.iter().zip(&shared) {
                    let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
                    let at = format!("{prep:?} ρ = {rho} λ = {lambda}");
                    assert_eq!(a.labels, b.labels, "{at}");
                    assert_eq!(a.weights(), b.weights(), "{at}");
                    assert_eq!(a.objective, b.objective, "{at}");
                    assert_eq!(a.iterations, b.iterations, "{at}");
                    assert_eq!(a.converged, b.converged, "{at}");
                    let (da, db) = (&a.diagnostics, &b.diagnostics);
                    assert_eq!(da.weight_trace, db.weight_trace, "{at}");
                    assert_eq!(da.eigensolves, db.eigensolves, "{at}");
                    assert_eq!(da.method, db.method, "{at}");
                    let timeless = |d: &OnkcDiagnostics| {
                        let mut e = d.entries();
                        e.retain(|(name, _)| name != "seconds_per_iteration");
                        e
                    };
                    assert_eq!(timeless(da), timeless(db), "{at}");
                    let projections = da.method.eigendecompositions;
                    dense |= projections > 0;
                    low_rank |= projections < da.method.rank_trace.len();
                }
            }
        }
    }
    assert!(low_rank && dense, "both projections ran");
    let m = OnkcParams::new().rho(0.5).check().unwrap();
    let start = m.start_for(&data, 3).unwrap();
    let wrong = [
        (OnkcParams::new().rho(0.25).check().unwrap(), 3, &data),
        (
            OnkcParams::new()
                .rho(0.5)
                .projection(mkc_mkkm::onkc::Projection::Dense)
                .check()
                .unwrap(),
            3,
            &data,
        ),
        (m.clone(), 2, &data),
    ];
    for (i, (other, k, set)) in wrong.iter().enumerate() {
        let runs = other.fit_restarts_from(set, *k, &seeds, &start);
        assert!(
            runs.iter()
                .all(|r| matches!(r, Err(Error::InvalidInput { .. }))),
            "case {i}: {runs:?}"
        );
    }
    let fewer = KernelSet::new(&ks[..2]).unwrap();
    let runs = m.fit_restarts_from(&fewer, 3, &seeds, &start);
    assert!(
        runs.iter()
            .all(|r| matches!(r, Err(Error::InvalidInput { .. }))),
        "{runs:?}"
    );
    // k above n: the start's own typed error
    assert!(m.start_for(&data, 301).is_err());
}
