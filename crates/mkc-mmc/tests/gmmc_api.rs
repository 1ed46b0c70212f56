//! GMMC through the method API: the contract's fit equals the engine, the two paths
//! agree, invariances, warm starts along C, typed errors.

use faer::Mat;
use mkc_mmc::gmmc::{Balance, BarrierSolver, GmmcParams, GmmcPath, Relaxation, StopReason};
use mkc_mmc::prelude::*;

/// Two groups of n/2 points along the first axis, with deterministic jitter.
fn blobs(n: usize, d: usize) -> Mat<f64> {
    Mat::from_fn(n, d, |i, j| {
        let side = if i < n / 2 { -1.0 } else { 1.0 };
        let jitter = ((i * 7919 + j * 104_729) % 97) as f64 / 97.0 - 0.5;
        if j == 0 {
            side * 1.5 + jitter
        } else {
            jitter
        }
    })
}

fn linear_kernel(x: &Mat<f64>) -> Mat<f64> {
    let n = x.nrows();
    Mat::from_fn(n, n, |i, j| {
        (0..x.ncols()).map(|c| x[(i, c)] * x[(j, c)]).sum()
    })
}

/// Same partition up to the names of the two clusters.
fn same_partition(a: &[usize], b: &[usize]) -> bool {
    a == b || a.iter().zip(b).all(|(x, y)| x != y)
}

#[test]
fn finds_two_groups_and_matches_the_engine() {
    let x = blobs(30, 3);
    let params = GmmcParams::new().c(1.0).balance(Balance::Fraction(0.1));
    let data = KernelSet::from_features(x.as_ref()).unwrap();
    let fit = params.fit(&data, 2, 0).unwrap();
    assert!(fit.labels[..15].iter().all(|&l| l == fit.labels[0]));
    assert!(fit.labels[15..].iter().all(|&l| l != fit.labels[0]));
    let d = &fit.diagnostics;
    assert!(d.linear_path && d.feature_dim == 3 && fit.converged);
    assert!(d.gap <= 1e-4 * d.relaxation.abs().max(1.0) && d.gap >= -1e-9);
    assert_eq!(fit.objective.last().copied(), Some(d.relaxation));
    // The engine on the same features gives the same value and labels.
    let checked = mkc_core::ParamGuard::check(&params).unwrap();
    let rel = checked.relaxation(x.as_ref()).unwrap();
    let sol = BarrierSolver::default().solve(&rel, None).unwrap();
    assert_eq!(sol.dual, d.relaxation);
    let (v, _) = mkc_mmc::gmmc::leading_direction(rel.design(), sol.z.as_ref()).unwrap();
    assert_eq!(mkc_mmc::gmmc::sign_labels(&v), fit.labels);
    // (the signs are balanced here, so the balanced rounding keeps them)
}

#[test]
fn kernel_path_equals_linear_path() {
    // The kernel path's features U Λ^½ of the centred linear kernel are the centred data
    // rotated; the relaxation is invariant under rotations of w.
    let x = blobs(24, 2);
    let k = vec![linear_kernel(&x)];
    let data = KernelSet::new(&k).unwrap();
    let p = GmmcParams::new().c(5.0).energy_tol(0.0);
    let kern = p.clone().path(GmmcPath::Kernel).fit(&data, 2, 0).unwrap();
    let data_x = KernelSet::from_features(x.as_ref()).unwrap();
    let lin = p.fit(&data_x, 2, 0).unwrap();
    assert!(!kern.diagnostics.linear_path && lin.diagnostics.linear_path);
    let (a, b) = (kern.diagnostics.relaxation, lin.diagnostics.relaxation);
    assert!((a - b).abs() <= 2e-4 * a.abs(), "{a} vs {b}");
    assert!(same_partition(&kern.labels, &lin.labels));
}

#[test]
fn invariant_to_sign_and_order_of_the_samples() {
    let x = blobs(20, 2);
    let p = GmmcParams::new().c(0.5);
    let fit = |m: &Mat<f64>| {
        p.fit(&KernelSet::from_features(m.as_ref()).unwrap(), 2, 0)
            .unwrap()
    };
    let base = fit(&x);
    // Negated features: the same relaxation (z → −z), the same partition.
    let neg = fit(&Mat::from_fn(20, 2, |i, j| -x[(i, j)]));
    assert!(same_partition(&base.labels, &neg.labels));
    assert!((base.diagnostics.relaxation - neg.diagnostics.relaxation).abs() < 1e-9);
    // Reversed sample order: labels reversed.
    let rev = fit(&Mat::from_fn(20, 2, |i, j| x[(19 - i, j)]));
    let back: Vec<usize> = rev.labels.iter().rev().copied().collect();
    assert!(same_partition(&base.labels, &back));
}

#[test]
fn warm_start_along_c_reaches_the_cold_optimum() {
    let x = blobs(40, 3);
    let solver = BarrierSolver::default();
    let rel = Relaxation::new(x.as_ref(), 1.0, 4.0).unwrap();
    let first = solver.solve(&rel, None).unwrap();
    for c in [0.1, 5.0, 100.0] {
        let next = rel.with_c(c).unwrap();
        let cold = solver.solve(&next, None).unwrap();
        let warm = solver.solve(&next, Some(&first.dual_point)).unwrap();
        assert_eq!((cold.stop, warm.stop), (StopReason::Gap, StopReason::Gap));
        let tol = 2e-4 * cold.dual.abs().max(1.0);
        assert!(
            (cold.dual - warm.dual).abs() <= tol,
            "C = {c}: {} vs {}",
            cold.dual,
            warm.dual
        );
    }
}

#[test]
fn bad_input_gets_typed_errors() {
    let x = blobs(10, 2);
    let data = KernelSet::from_features(x.as_ref()).unwrap();
    let p = GmmcParams::new();
    let param = |r: mkc_core::Result<mkc_core::Clustering<_>>, name: &str| match r {
        Err(mkc_core::Error::InvalidParam { name: got, .. }) => assert_eq!(got, name),
        other => panic!("expected InvalidParam({name}), got {other:?}"),
    };
    param(p.fit(&data, 3, 0), "n_clusters");
    param(p.clone().c(0.0).fit(&data, 2, 0), "C");
    param(p.clone().c(f64::NAN).fit(&data, 2, 0), "C");
    param(
        p.clone().balance(Balance::Fraction(1.0)).fit(&data, 2, 0),
        "balance",
    );
    param(
        p.clone().balance(Balance::Fraction(0.0)).fit(&data, 2, 0),
        "balance",
    );
    param(p.clone().energy_tol(1.0).fit(&data, 2, 0), "energy_tol");
    param(p.clone().max_newton(0).fit(&data, 2, 0), "max_newton");
    param(p.clone().shrink(1.0).fit(&data, 2, 0), "shrink");
    // n = 9 and ℓ = 0.5: every labelling has |1ᵀy| ≥ 1 > ℓ.
    let odd = blobs(9, 2);
    let data9 = KernelSet::from_features(odd.as_ref()).unwrap();
    param(
        p.clone().balance(Balance::Absolute(0.5)).fit(&data9, 2, 0),
        "balance",
    );
    // NaN and non-symmetric kernels are refused by the kernel set.
    let mut k = linear_kernel(&x);
    k[(0, 1)] += 1.0;
    assert!(KernelSet::new(std::slice::from_ref(&k)).is_err());
    k[(0, 1)] = f64::NAN;
    assert!(KernelSet::new(std::slice::from_ref(&k)).is_err());
    // The linear path needs features.
    let kernels = vec![linear_kernel(&x)];
    let kset = KernelSet::new(&kernels).unwrap();
    assert!(p.clone().path(GmmcPath::Linear).fit(&kset, 2, 0).is_err());
    // The engine refuses non-finite features.
    let mut bad = x.clone();
    bad[(3, 1)] = f64::NAN;
    assert!(Relaxation::new(bad.as_ref(), 1.0, 1.0).is_err());
}
