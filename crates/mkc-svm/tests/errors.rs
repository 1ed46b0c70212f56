//! Every bad-input path gives a typed error.
mod common;
use common::Parts;
use faer::Mat;
use mkc_core::{Error, ParamGuard};
use mkc_svm::*;

fn k3() -> Mat<f64> {
    Mat::from_fn(3, 3, |i, j| if i == j { 1.0 } else { 0.2 })
}

#[test]
fn bad_parameters() {
    for c in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(
            matches!(CSvcParams::new(c).check(), Err(Error::InvalidParam { .. })),
            "C = {c}"
        );
        assert!(matches!(
            SimplexSquaredHingeParams::new(c).check(),
            Err(Error::InvalidParam { .. })
        ));
        assert!(matches!(
            EpsSvrParams::new(c, 0.1).check(),
            Err(Error::InvalidParam { .. })
        ));
    }
    assert!(matches!(
        EpsSvrParams::new(1.0, -0.1).check(),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        SmoParams::new().tol(0.0).check(),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        SmoParams::new().max_iter(0).check(),
        Err(Error::InvalidParam { .. })
    ));
}

/// Which errors a case accepts.
type Want = fn(&Error) -> bool;
/// A fit on a kernel and label (or target) vector, and the errors it must give.
type FitCase<'a> = (&'a str, &'a Mat<f64>, &'a [f64], Want);
/// A simplex fit: kernel, label vectors, their weights μ, and the errors it must give.
type SimplexCase<'a> = (&'a str, &'a Mat<f64>, &'a [&'a [f64]], &'a [f64], Want);

/// `result` is an error that `want` accepts.
#[track_caller]
fn assert_err<T: std::fmt::Debug>(
    result: mkc_core::Result<T>,
    want: fn(&Error) -> bool,
    case: &str,
) {
    match result {
        Err(e) => assert!(want(&e), "{case}: unexpected error {e:?}"),
        Ok(v) => panic!("{case}: accepted ({v:?})"),
    }
}

fn shape(e: &Error) -> bool {
    matches!(e, Error::Shape { .. })
}
fn input(e: &Error) -> bool {
    matches!(e, Error::InvalidInput { .. })
}
fn param(e: &Error) -> bool {
    matches!(e, Error::InvalidParam { .. })
}
fn non_finite(e: &Error) -> bool {
    matches!(e, Error::NonFinite { .. })
}
fn asymmetric(e: &Error) -> bool {
    matches!(e, Error::NotSymmetric { .. })
}

#[test]
fn bad_kernels_and_sizes() {
    let svc = CSvcParams::new(1.0).check().unwrap();
    let y = [1.0, -1.0, 1.0];
    let with = |i: usize, j: usize, v: f64| {
        let mut k = k3();
        k[(i, j)] = v;
        k
    };
    let (nan, inf, asym) = (
        with(1, 2, f64::NAN),
        with(2, 0, f64::INFINITY),
        with(0, 1, 0.5),
    );
    let (rect, empty) = (Mat::<f64>::zeros(3, 2), Mat::<f64>::zeros(0, 0));
    let fits: [FitCase; 8] = [
        ("NaN entry", &nan, &y, non_finite),
        ("infinite entry", &inf, &y, |e| {
            matches!(e, Error::NonFinite { row: 2, col: 0, .. })
        }),
        ("asymmetric", &asym, &y, asymmetric),
        ("rectangular", &rect, &y, shape),
        ("empty", &empty, &[], input),
        ("short labels", &k3(), &[1.0, -1.0], shape),
        ("one class", &k3(), &[1.0, 1.0, 1.0], input),
        ("label 0", &k3(), &[1.0, 0.0, -1.0], input),
    ];
    for (case, k, labels, want) in fits {
        assert_err(svc.fit(k.as_ref(), labels), want, case);
    }
    // a strided (non column-major) view takes the fallback check
    let big = Mat::from_fn(6, 6, |i, j| if i == j { 1.0 } else { 0.1 * (i + j) as f64 });
    assert!(CheckedKernel::new(big.as_ref().transpose()).is_ok());
    let kk = k3();
    assert_err(
        svc.fit_warm(kk.as_ref(), &y, &[0.0, 0.0]),
        shape,
        "short start",
    );
    let nan_start = [0.0, f64::NAN, 0.0];
    assert_err(
        svc.fit_warm(kk.as_ref(), &y, &nan_start),
        non_finite,
        "NaN start",
    );
    let ck = CheckedKernel::new(kk.as_ref()).unwrap();
    assert_err(svc.solve(&ck, 0.0, &y, None), param, "scale 0");

    let svr = EpsSvrParams::new(1.0, 0.1).check().unwrap();
    let svr_fits: [FitCase; 3] = [
        ("short targets", &kk, &[1.0, 2.0], shape),
        ("NaN target", &kk, &[1.0, f64::NAN, 2.0], non_finite),
        ("NaN kernel", &nan, &[1.0, 0.0, 2.0], non_finite),
    ];
    for (case, k, z, want) in svr_fits {
        assert_err(svr.fit(k.as_ref(), z), want, case);
    }

    let s = SimplexSquaredHingeParams::new(1.0).check().unwrap();
    let simplex_fits: [SimplexCase; 6] = [
        ("no label vector", &kk, &[], &[], input),
        ("more weights than labels", &kk, &[&y], &[0.5, 0.5], shape),
        ("negative weight", &kk, &[&y], &[-0.5], param),
        ("label 2", &kk, &[&[1.0, 2.0, 1.0]], &[1.0], input),
        ("short labels", &kk, &[&[1.0, 1.0]], &[1.0], shape),
        ("asymmetric", &asym, &[&y], &[1.0], asymmetric),
    ];
    for (case, k, labels, mu, want) in simplex_fits {
        assert_err(s.fit(k.as_ref(), labels, mu), want, case);
    }
}

#[test]
fn infeasible_bounds_and_delta() {
    let k = k3();
    let q = DenseSigned::new(k.as_ref(), 1.0, None).unwrap();
    let smo = Smo::default();
    // p = 0, y = (1, 1, −1), 0 ≤ α ≤ 1: yᵀα ∈ [−1, 2]
    let ok = Parts {
        p: vec![0.0; 3],
        ..Parts::csvc(&[1.0, 1.0, -1.0], 1.0)
    };
    assert!(ok.solve(&smo, &q, None).is_ok());
    assert!(Parts {
        delta: 2.0,
        ..ok.clone()
    }
    .solve(&smo, &q, None)
    .is_ok());
    let cases: [(&str, Parts, Want); 9] = [
        (
            "l > u",
            Parts {
                up: vec![1.0, -0.5, 1.0],
                ..ok.clone()
            },
            |e| matches!(e, Error::InvalidInput { what, .. } if what == "bounds"),
        ),
        (
            "Δ out of reach",
            Parts {
                delta: 2.5,
                ..ok.clone()
            },
            |e| matches!(e, Error::InvalidInput { what, .. } if what == "equality constraint"),
        ),
        (
            "NaN bound",
            Parts {
                lo: vec![f64::NAN, 0.0, 0.0],
                ..ok.clone()
            },
            |_| true,
        ),
        (
            "lower bound +∞",
            Parts {
                lo: vec![f64::INFINITY, 0.0, 0.0],
                up: vec![f64::INFINITY; 3],
                ..ok.clone()
            },
            |_| true,
        ),
        (
            "upper bound −∞",
            Parts {
                up: vec![f64::NEG_INFINITY, 1.0, 1.0],
                ..ok.clone()
            },
            |_| true,
        ),
        (
            "NaN Δ",
            Parts {
                delta: f64::NAN,
                ..ok.clone()
            },
            param,
        ),
        (
            "y = 2",
            Parts {
                y: vec![1.0, 2.0, 1.0],
                ..ok.clone()
            },
            |_| true,
        ),
        (
            "short p",
            Parts {
                p: vec![0.0; 2],
                ..ok.clone()
            },
            shape,
        ),
        (
            "NaN in p",
            Parts {
                p: vec![0.0, f64::NAN, 0.0],
                ..ok.clone()
            },
            non_finite,
        ),
    ];
    for (case, parts, want) in cases {
        assert_err(parts.solve(&smo, &q, None), want, case);
    }
    // construction errors of the Q types
    assert!(DenseSigned::new(k.as_ref(), 1.0, Some(&[1.0, 1.0])).is_err());
    assert!(DenseSigned::new(k.as_ref(), f64::NAN, None).is_err());
    assert!(SumOf::new(vec![]).is_err());
    let k2 = Mat::<f64>::identity(2, 2);
    let two = DenseSigned::new(k2.as_ref(), 1.0, None).unwrap();
    assert_err(SumOf::new(vec![q, two]), shape, "SumOf sizes");
    assert!(WithDiagonal::new(q, vec![1.0; 2]).is_err());
    assert!(WithDiagonal::new(q, vec![1.0, f64::NAN, 1.0]).is_err());
}

#[test]
fn iteration_cap_is_reported() {
    let n = 40;
    let k = Mat::from_fn(n, n, |i, j| (-((i as f64 - j as f64) / 7.0).powi(2)).exp());
    let y: Vec<f64> = (0..n)
        .map(|i| if (i * 7) % 3 == 0 { 1.0 } else { -1.0 })
        .collect();
    let m = CSvcParams::new(100.0)
        .max_iter(3)
        .check()
        .unwrap()
        .fit(k.as_ref(), &y)
        .unwrap();
    assert!(!m.status.converged);
    assert_eq!(m.status.iterations, 3);
    assert!(m.status.max_violation >= 1e-3);
    // the general solver turns the flag into an error on request
    let q = DenseSigned::new(k.as_ref(), 1.0, Some(&y)).unwrap();
    let smo = SmoParams::new().max_iter(3).check().unwrap();
    let sol = Parts::csvc(&y, 100.0).solve(&smo, &q, None).unwrap();
    assert!(matches!(
        sol.ensure_converged(smo.tol()),
        Err(Error::NotConverged { iterations: 3, .. })
    ));
}

/// The one-pass check reads every entry: a NaN, an infinity or an asymmetric pair at any
/// position is found, for sizes around the strip width (16) and its multiples.
#[test]
fn kernel_check_finds_every_position() {
    for n in [1usize, 2, 15, 16, 17, 33, 40] {
        let base = Mat::from_fn(n, n, |i, j| 1.0 / (1.0 + (i as f64 - j as f64).abs()));
        assert!(CheckedKernel::new(base.as_ref()).is_ok(), "n = {n}");
        for r in 0..n {
            for c in 0..n {
                let mut bad = base.clone();
                bad[(r, c)] = if (r + c) % 2 == 0 {
                    f64::NAN
                } else {
                    f64::NEG_INFINITY
                };
                assert!(
                    matches!(CheckedKernel::new(bad.as_ref()), Err(Error::NonFinite { row, col, .. }) if row == r && col == c),
                    "n = {n}: non-finite ({r}, {c}) missed"
                );
                if r != c {
                    let mut asym = base.clone();
                    asym[(r, c)] += 1e-3;
                    assert!(
                        matches!(
                            CheckedKernel::new(asym.as_ref()),
                            Err(Error::NotSymmetric { .. })
                        ),
                        "n = {n}: asymmetric ({r}, {c}) missed"
                    );
                }
            }
        }
    }
}

#[test]
fn label_term_rejects_wrong_lengths_and_non_finite_entries() {
    let k = k3();
    let checked = CheckedKernel::new(k.as_ref()).unwrap();
    let (y, a) = ([1.0, -1.0, 1.0], [0.5, 0.5, 0.0]);
    assert_err(label_term(&checked, &y[..2], &a), shape, "short y");
    assert_err(
        label_term(&checked, &y, &[0.5, 0.5, 0.0, 0.0]),
        shape,
        "long alpha",
    );
    assert_err(
        label_term(&checked, &[1.0, f64::NAN, 1.0], &a),
        non_finite,
        "NaN y",
    );
    assert_err(
        label_term(&checked, &y, &[0.5, f64::INFINITY, 0.0]),
        non_finite,
        "inf alpha",
    );
    // ½ (α∘y)ᵀK(α∘y) with α∘y = (0.5, −0.5, 0): ½ (0.25 + 0.25 − 2·0.25·0.2) = 0.2.
    assert!((label_term(&checked, &y, &a).unwrap() - 0.2).abs() < 1e-15);
}
