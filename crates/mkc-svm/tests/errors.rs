//! Every bad-input path gives a typed error.
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

#[test]
fn bad_kernels_and_sizes() {
    let svc = CSvcParams::new(1.0).check().unwrap();
    let y = [1.0, -1.0, 1.0];
    let mut nan = k3();
    nan[(1, 2)] = f64::NAN;
    assert!(matches!(
        svc.fit(nan.as_ref(), &y),
        Err(Error::NonFinite { .. })
    ));
    let mut inf = k3();
    inf[(2, 0)] = f64::INFINITY;
    assert!(matches!(
        svc.fit(inf.as_ref(), &y),
        Err(Error::NonFinite { row: 2, col: 0, .. })
    ));
    let mut asym = k3();
    asym[(0, 1)] = 0.5;
    assert!(matches!(
        svc.fit(asym.as_ref(), &y),
        Err(Error::NotSymmetric { .. })
    ));
    let rect = Mat::<f64>::zeros(3, 2);
    assert!(matches!(
        svc.fit(rect.as_ref(), &y),
        Err(Error::Shape { .. })
    ));
    let empty = Mat::<f64>::zeros(0, 0);
    assert!(matches!(
        svc.fit(empty.as_ref(), &[]),
        Err(Error::InvalidInput { .. })
    ));
    // a strided (non column-major) view takes the fallback check
    let big = Mat::from_fn(6, 6, |i, j| if i == j { 1.0 } else { 0.1 * (i + j) as f64 });
    let view = big.as_ref().transpose();
    assert!(CheckedKernel::new(view).is_ok());
    assert!(matches!(
        svc.fit(k3().as_ref(), &[1.0, -1.0]),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        svc.fit(k3().as_ref(), &[1.0, 1.0, 1.0]),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        svc.fit(k3().as_ref(), &[1.0, 0.0, -1.0]),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        svc.fit_warm(k3().as_ref(), &y, &[0.0, 0.0]),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        svc.fit_warm(k3().as_ref(), &y, &[0.0, f64::NAN, 0.0]),
        Err(Error::NonFinite { .. })
    ));
    let kk = k3();
    let ck = CheckedKernel::new(kk.as_ref()).unwrap();
    assert!(matches!(
        svc.solve(&ck, 0.0, &y, None),
        Err(Error::InvalidParam { .. })
    ));

    let svr = EpsSvrParams::new(1.0, 0.1).check().unwrap();
    assert!(matches!(
        svr.fit(k3().as_ref(), &[1.0, 2.0]),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        svr.fit(k3().as_ref(), &[1.0, f64::NAN, 2.0]),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        svr.fit(nan.as_ref(), &[1.0, 0.0, 2.0]),
        Err(Error::NonFinite { .. })
    ));

    let s = SimplexSquaredHingeParams::new(1.0).check().unwrap();
    assert!(matches!(
        s.fit(k3().as_ref(), &[], &[]),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        s.fit(k3().as_ref(), &[&y], &[0.5, 0.5]),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        s.fit(k3().as_ref(), &[&y], &[-0.5]),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        s.fit(k3().as_ref(), &[&[1.0, 2.0, 1.0]], &[1.0]),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        s.fit(k3().as_ref(), &[&[1.0, 1.0]], &[1.0]),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        s.fit(asym.as_ref(), &[&y], &[1.0]),
        Err(Error::NotSymmetric { .. })
    ));
}

#[test]
fn infeasible_bounds_and_delta() {
    let k = k3();
    let q = DenseSigned::new(k.as_ref(), 1.0, None).unwrap();
    let smo = Smo::default();
    let p = [0.0; 3];
    let y = [1.0, 1.0, -1.0];
    let ok_lo = [0.0; 3];
    let ok_up = [1.0; 3];
    // l > u
    let bad_up = [1.0, -0.5, 1.0];
    let e = smo
        .solve(
            &q,
            &Problem {
                p: &p,
                y: &y,
                delta: 0.0,
                lower: &ok_lo,
                upper: &bad_up,
            },
            None,
        )
        .unwrap_err();
    assert!(
        matches!(&e, Error::InvalidInput { what, .. } if what == "bounds"),
        "{e}"
    );
    // Δ out of reach: yᵀα ∈ [−1, 2]
    let e = smo
        .solve(
            &q,
            &Problem {
                p: &p,
                y: &y,
                delta: 2.5,
                lower: &ok_lo,
                upper: &ok_up,
            },
            None,
        )
        .unwrap_err();
    assert!(
        matches!(&e, Error::InvalidInput { what, .. } if what == "equality constraint"),
        "{e}"
    );
    assert!(smo
        .solve(
            &q,
            &Problem {
                p: &p,
                y: &y,
                delta: 2.0,
                lower: &ok_lo,
                upper: &ok_up
            },
            None
        )
        .is_ok());
    // NaN / wrong-sided infinite bounds, non-finite Δ, bad y, bad lengths
    assert!(smo
        .solve(
            &q,
            &Problem {
                p: &p,
                y: &y,
                delta: 0.0,
                lower: &[f64::NAN, 0.0, 0.0],
                upper: &ok_up
            },
            None
        )
        .is_err());
    assert!(smo
        .solve(
            &q,
            &Problem {
                p: &p,
                y: &y,
                delta: 0.0,
                lower: &[f64::INFINITY, 0.0, 0.0],
                upper: &[f64::INFINITY; 3]
            },
            None
        )
        .is_err());
    assert!(smo
        .solve(
            &q,
            &Problem {
                p: &p,
                y: &y,
                delta: 0.0,
                lower: &ok_lo,
                upper: &[f64::NEG_INFINITY, 1.0, 1.0]
            },
            None
        )
        .is_err());
    assert!(matches!(
        smo.solve(
            &q,
            &Problem {
                p: &p,
                y: &y,
                delta: f64::NAN,
                lower: &ok_lo,
                upper: &ok_up
            },
            None
        ),
        Err(Error::InvalidParam { .. })
    ));
    assert!(smo
        .solve(
            &q,
            &Problem {
                p: &p,
                y: &[1.0, 2.0, 1.0],
                delta: 0.0,
                lower: &ok_lo,
                upper: &ok_up
            },
            None
        )
        .is_err());
    assert!(matches!(
        smo.solve(
            &q,
            &Problem {
                p: &p[..2],
                y: &y,
                delta: 0.0,
                lower: &ok_lo,
                upper: &ok_up
            },
            None
        ),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        smo.solve(
            &q,
            &Problem {
                p: &[0.0, f64::NAN, 0.0],
                y: &y,
                delta: 0.0,
                lower: &ok_lo,
                upper: &ok_up
            },
            None
        ),
        Err(Error::NonFinite { .. })
    ));
    // construction errors of the Q types
    assert!(DenseSigned::new(k.as_ref(), 1.0, Some(&[1.0, 1.0])).is_err());
    assert!(DenseSigned::new(k.as_ref(), f64::NAN, None).is_err());
    assert!(SumOf::new(vec![]).is_err());
    let k2 = Mat::<f64>::identity(2, 2);
    assert!(matches!(
        SumOf::new(vec![q, DenseSigned::new(k2.as_ref(), 1.0, None).unwrap()]),
        Err(Error::Shape { .. })
    ));
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
    assert!(!m.converged);
    assert_eq!(m.n_iter, 3);
    assert!(m.max_violation >= 1e-3);
    // the general solver turns the flag into an error on request
    let q = DenseSigned::new(k.as_ref(), 1.0, Some(&y)).unwrap();
    let smo = SmoParams::new().max_iter(3).check().unwrap();
    let (p, lo, up) = (vec![-1.0; n], vec![0.0; n], vec![100.0; n]);
    let sol = smo
        .solve(
            &q,
            &Problem {
                p: &p,
                y: &y,
                delta: 0.0,
                lower: &lo,
                upper: &up,
            },
            None,
        )
        .unwrap();
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
