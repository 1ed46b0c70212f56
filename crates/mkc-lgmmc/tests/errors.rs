//! Every bad-input path of the public entry points returns a typed error.

use faer::Mat;
use mkc_core::Error;
use mkc_lgmmc::prelude::*;
use mkc_lgmmc::{most_violated, solve_lp, top_eigenvector, Balance, LgmmcPath};

fn points(n: usize) -> Mat<f64> {
    Mat::from_fn(n, 2, |i, j| {
        if j == 0 {
            if i % 2 == 0 {
                1.0
            } else {
                -1.0
            }
        } else {
            (i as f64 * 0.37).sin()
        }
    })
}

fn gram(x: &Mat<f64>) -> Mat<f64> {
    let n = x.nrows();
    Mat::from_fn(n, n, |i, j| x[(i, 0)] * x[(j, 0)] + x[(i, 1)] * x[(j, 1)])
}

/// The parameter named in an `InvalidParam`, or a panic naming `what`.
fn param_name<T: std::fmt::Debug>(r: Result<T>, what: &str) -> String {
    match r {
        Err(Error::InvalidParam { name, .. }) => name,
        other => panic!("{what}: {other:?}"),
    }
}

#[test]
fn bad_parameters_are_named_before_and_at_fit_time() {
    let bad = [
        (LgmmcParams::new().c(0.0), "C"),
        (LgmmcParams::new().c(f64::NAN), "C"),
        (
            LgmmcParams::new().balance(Balance::Fraction(1.0)),
            "balance",
        ),
        (
            LgmmcParams::new().balance(Balance::Absolute(-1.0)),
            "balance",
        ),
        (LgmmcParams::new().bias(-1.0), "bias"),
        (LgmmcParams::new().max_iter(0), "max_iter"),
        (LgmmcParams::new().mkl_max_iter(0), "mkl_max_iter"),
        (LgmmcParams::new().max_rank(0), "max_rank"),
        (LgmmcParams::new().solver_tol(0.0), "solver_tol"),
        (LgmmcParams::new().tol(-1.0), "tol"),
        (LgmmcParams::new().mkl_tol(f64::NAN), "mkl_tol"),
        (LgmmcParams::new().energy_tol(1.0), "energy_tol"),
        (
            LgmmcParams::new().initial_labels(Some(vec![1.0, 0.5])),
            "initial_labels",
        ),
    ];
    let x = points(10);
    let data = KernelSet::from_features(x.as_ref()).unwrap();
    for (p, name) in bad {
        assert_eq!(param_name(p.validate_params(), name), name);
        assert_eq!(param_name(p.fit(&data, 2, 0), name), name);
    }
    assert!(LgmmcParams::new().validate_params().is_ok());
}

#[test]
fn bad_kernels_are_rejected_by_the_set_and_the_fit() {
    let x = points(10);
    let mut k = gram(&x);
    k[(2, 3)] = f64::NAN;
    assert!(matches!(
        KernelSet::from_refs(vec![k.as_ref()]),
        Err(Error::NonFinite { .. })
    ));
    let mut k = gram(&x);
    k[(2, 3)] += 1.0;
    assert!(matches!(
        KernelSet::from_refs(vec![k.as_ref()]),
        Err(Error::NotSymmetric { .. })
    ));
    let rect = Mat::<f64>::zeros(4, 5);
    assert!(matches!(
        KernelSet::from_refs(vec![rect.as_ref()]),
        Err(Error::Shape { .. })
    ));
    // One sample: no two clusters.
    let one = [Mat::from_fn(1, 1, |_, _| 1.0)];
    let data = KernelSet::new(&one).unwrap();
    assert_eq!(
        param_name(LgmmcParams::new().fit(&data, 2, 0), "n = 1"),
        "n_clusters"
    );
    // A zero kernel (and no bias) has no features for eq. (13).
    let zero = [Mat::<f64>::zeros(6, 6)];
    let data = KernelSet::new(&zero).unwrap();
    assert!(matches!(
        LgmmcParams::new().bias(0.0).fit(&data, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
}

#[test]
fn two_clusters_only() {
    let x = points(10);
    let kernels = [gram(&x)];
    let data = KernelSet::new(&kernels).unwrap();
    for k in [0, 1, 3, 11] {
        assert_eq!(
            param_name(LgmmcParams::new().fit(&data, k, 0), "k"),
            "n_clusters"
        );
    }
}

#[test]
fn each_path_says_what_it_needs() {
    let x = points(10);
    let kernels = [gram(&x)];
    let kernels_only = KernelSet::new(&kernels).unwrap();
    let features_only = KernelSet::from_features(x.as_ref()).unwrap();
    let linear = LgmmcParams::new().path(LgmmcPath::Linear);
    let kernel = LgmmcParams::new().path(LgmmcPath::Kernel);
    assert!(matches!(
        linear.fit(&kernels_only, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        kernel.fit(&features_only, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    // Auto picks the input that is there.
    for set in [&kernels_only, &features_only] {
        let fit = LgmmcParams::new().fit(set, 2, 0).unwrap();
        assert_eq!(fit.diagnostics.linear_path, set.is_empty());
    }
}

#[test]
fn bad_features_are_rejected() {
    let mut x = points(10);
    x[(4, 1)] = f64::INFINITY;
    assert!(matches!(
        KernelSet::from_features(x.as_ref()),
        Err(Error::NonFinite { row: 4, col: 1, .. })
    ));
    let empty = Mat::<f64>::zeros(0, 3);
    assert!(matches!(
        KernelSet::from_features(empty.as_ref()),
        Err(Error::InvalidInput { .. })
    ));
    // Identical samples: every centred column is zero.
    let same = Mat::from_fn(8, 3, |_, j| j as f64);
    let data = KernelSet::from_features(same.as_ref()).unwrap();
    assert!(matches!(
        LgmmcParams::new().fit(&data, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    let odd = points(9);
    let data = KernelSet::from_features(odd.as_ref()).unwrap();
    // β < 1 with n odd: no labelling fits; β ≥ n: one cluster would.
    for beta in [0.0, 9.0] {
        let p = LgmmcParams::new().balance(Balance::Absolute(beta));
        assert_eq!(param_name(p.fit(&data, 2, 0), "β"), "balance");
    }
    // A start of the wrong length, or outside the balance set (β = 0.03 n).
    let even = points(10);
    let data = KernelSet::from_features(even.as_ref()).unwrap();
    let p = LgmmcParams::new().initial_labels(Some(vec![1.0, -1.0, 1.0, -1.0]));
    assert_eq!(param_name(p.fit(&data, 2, 0), "length"), "initial_labels");
    let mut y = vec![1.0; 10];
    y[0] = -1.0;
    let p = LgmmcParams::new().initial_labels(Some(y));
    assert_eq!(param_name(p.fit(&data, 2, 0), "1ᵀy"), "initial_labels");
}

#[test]
fn bad_inputs_of_the_building_blocks() {
    assert!(solve_lp(&[], 0.0).is_err());
    assert!(solve_lp(&[1.0, 2.0, 3.0], 0.5).is_err());
    let x = points(6);
    assert!(matches!(
        most_violated(x.as_ref(), &[0.5; 5], 1.0),
        Err(Error::Shape { .. })
    ));
    assert!(most_violated(x.as_ref(), &[f64::NAN; 6], 2.0).is_err());
    let none = Mat::<f64>::zeros(6, 0);
    assert!(most_violated(none.as_ref(), &[1.0 / 6.0; 6], 2.0).is_err());
    assert!(top_eigenvector(&[], &[]).is_err());
    assert!(top_eigenvector(&[vec![1.0, -1.0]], &[0.0]).is_err());
}

#[test]
fn same_seed_same_result_and_thread_count_does_not_matter() {
    let x = Mat::from_fn(80, 5, |i, j| {
        ((i * 31 + j * 17) % 23) as f64 / 23.0 + if i < 40 && j == 0 { 1.0 } else { 0.0 }
    });
    let data = KernelSet::from_features(x.as_ref()).unwrap();
    let lg = LgmmcParams::new().balance(Balance::Fraction(0.2));
    let a = lg.fit(&data, 2, 3).unwrap();
    let b = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| lg.fit(&data, 2, 3).unwrap());
    assert_eq!(a.labels, b.labels);
    assert_eq!(a.objective, b.objective);
    assert_eq!(a.diagnostics.label_vectors, b.diagnostics.label_vectors);
    // Restarts are single fits, in seed order.
    let runs = lg.fit_restarts(&data, 2, &[3, 4]);
    assert_eq!(runs[0].as_ref().unwrap().labels, a.labels);
    assert_eq!(
        runs[1].as_ref().unwrap().labels,
        lg.fit(&data, 2, 4).unwrap().labels
    );
}
