//! Every bad-input path of the public entry points returns a typed error.

use faer::Mat;
use mkc_core::{Error, ParamGuard};
use mkc_lgmmc::{most_violated, solve_lp, top_eigenvector, Balance, LgmmcParams};

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

#[test]
fn bad_parameters_are_named() {
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
        (LgmmcParams::new().energy_tol(1.0), "energy_tol"),
    ];
    for (p, name) in bad {
        match p.check() {
            Err(Error::InvalidParam { name: got, .. }) => assert_eq!(got, name),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn bad_kernels_are_rejected() {
    let lg = LgmmcParams::new().check().unwrap();
    let x = points(10);
    let mut k = gram(&x);
    k[(2, 3)] = f64::NAN;
    assert!(matches!(
        lg.fit_kernel(k.as_ref()),
        Err(Error::NonFinite { .. })
    ));
    let mut k = gram(&x);
    k[(2, 3)] += 1.0;
    assert!(matches!(
        lg.fit_kernel(k.as_ref()),
        Err(Error::NotSymmetric { .. })
    ));
    let rect = Mat::<f64>::zeros(4, 5);
    assert!(matches!(
        lg.fit_kernel(rect.as_ref()),
        Err(Error::Shape { .. })
    ));
    let empty = Mat::<f64>::zeros(0, 0);
    assert!(lg.fit_kernel(empty.as_ref()).is_err());
    // One sample: no two clusters.
    let one = Mat::from_fn(1, 1, |_, _| 1.0);
    assert!(lg.fit_kernel(one.as_ref()).is_err());
    // A zero kernel (and no bias) has no features for eq. (13).
    let zero = Mat::<f64>::zeros(6, 6);
    let lg0 = LgmmcParams::new().bias(0.0).check().unwrap();
    assert!(lg0.fit_kernel(zero.as_ref()).is_err());
}

#[test]
fn bad_features_are_rejected() {
    let lg = LgmmcParams::new().check().unwrap();
    let mut x = points(10);
    x[(4, 1)] = f64::INFINITY;
    assert!(matches!(
        lg.fit_linear(x.as_ref()),
        Err(Error::NonFinite { row: 4, col: 1, .. })
    ));
    let empty = Mat::<f64>::zeros(0, 3);
    assert!(matches!(
        lg.fit_linear(empty.as_ref()),
        Err(Error::InvalidInput { .. })
    ));
    // Identical samples: every centred column is zero.
    let same = Mat::from_fn(8, 3, |_, j| j as f64);
    assert!(matches!(
        lg.fit_linear(same.as_ref()),
        Err(Error::InvalidInput { .. })
    ));
    // β < 1 with n odd: no labelling fits.
    let odd = points(9);
    let strict = LgmmcParams::new()
        .balance(Balance::Absolute(0.0))
        .check()
        .unwrap();
    assert!(matches!(
        strict.fit_linear(odd.as_ref()),
        Err(Error::InvalidParam { .. })
    ));
    // β ≥ n.
    let loose = LgmmcParams::new()
        .balance(Balance::Absolute(9.0))
        .check()
        .unwrap();
    assert!(matches!(
        loose.fit_linear(odd.as_ref()),
        Err(Error::InvalidParam { .. })
    ));
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
    let lg = LgmmcParams::new()
        .balance(Balance::Fraction(0.2))
        .seed(3)
        .check()
        .unwrap();
    let a = lg.fit_linear(x.as_ref()).unwrap();
    let b = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| lg.fit_linear(x.as_ref()).unwrap());
    assert_eq!(a.labels, b.labels);
    assert_eq!(a.objective_trace, b.objective_trace);
    assert_eq!(a.label_vectors, b.label_vectors);
}
