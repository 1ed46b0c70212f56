//! Normalisations against hand-computed values on a 4x4 kernel, their invariants on
//! random kernels, and their errors.

use faer::{mat, Mat};
use mkc_core::Error;
use mkc_kernels::normalize::{center, divide_by_max, multiplicative, trace, unit_diagonal};
use mkc_kernels::{apply, gram, KernelFn, Normalization};
use rand::Rng;

/// diag (4, 9, 1, 16) so that sqrt(K_ii) = (2, 3, 1, 4); row sums (8, 14, 5, 19); 1ᵀK1 = 46.
fn k4() -> Mat<f64> {
    mat![
        [4.0, 2.0, 0.0, 2.0],
        [2.0, 9.0, 3.0, 0.0],
        [0.0, 3.0, 1.0, 1.0],
        [2.0, 0.0, 1.0, 16.0]
    ]
}

fn assert_close(got: &Mat<f64>, want: &Mat<f64>, tol: f64) {
    for j in 0..want.ncols() {
        for i in 0..want.nrows() {
            assert!(
                (got[(i, j)] - want[(i, j)]).abs() <= tol,
                "({i},{j}): {} vs {}",
                got[(i, j)],
                want[(i, j)]
            );
        }
    }
}

#[test]
fn hand_computed_4x4() {
    let mut k = k4();
    unit_diagonal(k.as_mut()).unwrap();
    let want = mat![
        [1.0, 1.0 / 3.0, 0.0, 0.25],
        [1.0 / 3.0, 1.0, 1.0, 0.0],
        [0.0, 1.0, 1.0, 0.25],
        [0.25, 0.0, 0.25, 1.0]
    ];
    assert_close(&k, &want, 1e-15);

    let mut k = k4();
    divide_by_max(k.as_mut()).unwrap();
    assert_close(&k, &Mat::from_fn(4, 4, |i, j| k4()[(i, j)] / 16.0), 1e-15);

    // tr K = 30, convention tr K = n = 4.
    let mut k = k4();
    trace(k.as_mut()).unwrap();
    assert_close(
        &k,
        &Mat::from_fn(4, 4, |i, j| k4()[(i, j)] * 4.0 / 30.0),
        1e-15,
    );

    // tr K / n − 1ᵀK1 / n² = 7.5 − 46/16 = 4.625.
    let mut k = k4();
    multiplicative(k.as_mut()).unwrap();
    assert_close(&k, &Mat::from_fn(4, 4, |i, j| k4()[(i, j)] / 4.625), 1e-15);

    let mut k = k4();
    center(k.as_mut()).unwrap();
    let want = mat![
        [2.875, -0.625, -0.375, -1.875],
        [-0.625, 4.875, 1.125, -5.375],
        [-0.375, 1.125, 1.375, -2.125],
        [-1.875, -5.375, -2.125, 9.375]
    ];
    assert_close(&k, &want, 1e-13);

    let mut k = k4();
    apply(k.as_mut(), &Normalization::None).unwrap();
    assert_close(&k, &k4(), 0.0);
}

#[test]
fn invariants_on_random_kernels() {
    let mut r = mkc_core::seed::rng(11);
    let x = Mat::from_fn(37, 5, |_, _| r.random::<f64>());
    let base = gram(x.as_ref(), &KernelFn::Polynomial { a: 1.0, degree: 2 }).unwrap();
    let n = base.nrows();

    let mut k = base.clone();
    apply(k.as_mut(), &Normalization::UnitDiagonal).unwrap();
    (0..n).for_each(|i| assert_eq!(k[(i, i)], 1.0));

    let mut k = base.clone();
    apply(k.as_mut(), &Normalization::Center).unwrap();
    for i in 0..n {
        let s: f64 = (0..n).map(|j| k[(i, j)]).sum();
        assert!(s.abs() < 1e-10, "row {i} sums to {s}");
    }

    let mut k = base.clone();
    apply(k.as_mut(), &Normalization::DivideByMax).unwrap();
    let m = (0..n)
        .flat_map(|j| (0..n).map(move |i| (i, j)))
        .map(|(i, j)| k[(i, j)])
        .fold(f64::MIN, f64::max);
    assert_eq!(m, 1.0);

    let mut k = base.clone();
    apply(k.as_mut(), &Normalization::Trace).unwrap();
    let t: f64 = (0..n).map(|i| k[(i, i)]).sum();
    assert!((t - n as f64).abs() < 1e-12);

    // after multiplicative normalisation the feature-space variance is 1, so centring
    // then dividing by n gives a kernel of trace 1 · n / n.
    let mut k = base.clone();
    apply(k.as_mut(), &Normalization::Multiplicative).unwrap();
    apply(k.as_mut(), &Normalization::Center).unwrap();
    let t: f64 = (0..n).map(|i| k[(i, i)]).sum::<f64>() / n as f64;
    assert!((t - 1.0).abs() < 1e-12);
}

#[test]
fn normalisation_errors() {
    // non-positive diagonal entry: named
    let mut k = k4();
    k[(2, 2)] = 0.0;
    match unit_diagonal(k.as_mut()) {
        Err(Error::InvalidInput { reason, .. }) => assert!(reason.contains("K[2, 2]"), "{reason}"),
        other => panic!("{other:?}"),
    }
    let mut neg = Mat::from_fn(3, 3, |i, j| if i == j { -1.0 } else { -2.0 });
    assert!(matches!(
        divide_by_max(neg.as_mut()),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        trace(neg.as_mut()),
        Err(Error::InvalidInput { .. })
    ));
    let mut constant = Mat::from_fn(3, 3, |_, _| 2.0);
    assert!(matches!(
        multiplicative(constant.as_mut()),
        Err(Error::InvalidInput { .. })
    ));
    let mut zero = Mat::<f64>::zeros(3, 3);
    assert!(matches!(
        multiplicative(zero.as_mut()),
        Err(Error::InvalidInput { .. })
    ));

    for norm in [
        Normalization::None,
        Normalization::Center,
        Normalization::UnitDiagonal,
        Normalization::DivideByMax,
        Normalization::Trace,
        Normalization::Multiplicative,
    ] {
        let mut rect = Mat::<f64>::zeros(3, 4);
        assert!(
            matches!(apply(rect.as_mut(), &norm), Err(Error::Shape { .. })),
            "{norm:?}"
        );
        let mut nan = k4();
        nan[(1, 3)] = f64::NAN;
        assert!(
            matches!(apply(nan.as_mut(), &norm), Err(Error::NonFinite { .. })),
            "{norm:?}"
        );
        let mut asym = k4();
        asym[(0, 1)] = 5.0;
        assert!(
            matches!(apply(asym.as_mut(), &norm), Err(Error::NotSymmetric { .. })),
            "{norm:?}"
        );
        let mut empty = Mat::<f64>::zeros(0, 0);
        assert!(apply(empty.as_mut(), &norm).is_err(), "{norm:?}");
    }
}
