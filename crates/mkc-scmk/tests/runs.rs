//! Whole runs through the engines: determinism, the three Z solvers agree, and the typed
//! errors of the engines and the building blocks.

use faer::Mat;
use mkc_core::{Error, ParamGuard};
use mkc_qp::CappedSimplexQp;
use mkc_scmk::{objective, optimal_weights, reconstruction_costs, solve_z, ZProblem};

mod common;

use common::*;

#[test]
fn same_seed_same_result() {
    let x = points(3, 5, 2.0, 6);
    let ks = [gaussian(x.as_ref(), 1.0), gaussian(x.as_ref(), 8.0)];
    let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let p = scmk(0.1, 1e-3).check().unwrap();
    let (a, b) = (
        p.fit_kernels(&refs, 3, 5).unwrap(),
        p.fit_kernels(&refs, 3, 5).unwrap(),
    );
    assert_eq!(a.labels, b.labels);
    assert_eq!(a.weights, b.weights);
    assert_eq!(a.info.objective, b.info.objective);
    assert!(a.info.iterations >= 10 && a.info.weights_trace.len() == a.info.iterations + 1);
}

/// The three Z solvers give the same SCMK run (to the QP tolerance).
#[test]
fn z_solvers_agree_on_a_whole_run() {
    let x = points(3, 6, 2.0, 8);
    let ks = [gaussian(x.as_ref(), 1.0), linear_scaled(x.as_ref())];
    let refs: Vec<_> = ks.iter().map(|k| k.as_ref()).collect();
    let fits: Vec<_> = SOLVERS
        .iter()
        .map(|&s| {
            scmk(0.05, 1e-2)
                .z_solver(s)
                .qp_tol(1e-11)
                .qp_max_iter(Some(100_000))
                .min_iter(12)
                .max_iter(12)
                .check()
                .unwrap()
                .fit_kernels(&refs, 3, 0)
                .unwrap()
        })
        .collect();
    for f in &fits[1..] {
        assert_eq!(f.labels, fits[0].labels);
        for (a, b) in f.info.objective.iter().zip(&fits[0].info.objective) {
            assert!((a - b).abs() <= 1e-7 * b.abs().max(1.0), "{a} vs {b}");
        }
    }
}

#[test]
fn bad_inputs_of_the_engines_are_typed_errors() {
    let x = points(2, 3, 1.0, 7);
    let k = gaussian(x.as_ref(), 1.0);
    let scmk = scmk(1.0, 1.0).check().unwrap();
    let scsk = scsk(1.0, 1.0).check().unwrap();
    assert!(matches!(
        scmk.fit_kernels(&[], 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    let small = Mat::<f64>::identity(4, 4);
    assert!(matches!(
        scmk.fit_kernels(&[k.as_ref(), small.as_ref()], 2, 0),
        Err(Error::Shape { .. })
    ));
    let mut nan = k.clone();
    nan[(1, 2)] = f64::NAN;
    assert!(matches!(
        scmk.fit_kernels(&[k.as_ref(), nan.as_ref()], 2, 0),
        Err(Error::NonFinite { .. })
    ));
    let mut asym = k.clone();
    asym[(0, 1)] += 0.5;
    let (wide, empty) = (Mat::<f64>::zeros(3, 4), Mat::<f64>::zeros(0, 0));
    for (bad, want) in [
        (&nan, "NonFinite"),
        (&asym, "NotSymmetric"),
        (&wide, "Shape"),
        (&empty, "InvalidInput"),
    ] {
        assert_eq!(variant(scsk.fit_kernel(bad.as_ref(), 2, 0)), want);
    }
    for c in [0, 7] {
        assert!(matches!(
            scsk.fit_kernel(k.as_ref(), c, 0),
            Err(Error::InvalidParam { .. })
        ));
        assert!(matches!(
            scmk.fit_kernels(&[k.as_ref()], c, 0),
            Err(Error::InvalidParam { .. })
        ));
    }
}

/// The name of the error's variant (`Shape`, `NonFinite`, …), or `Ok`.
fn variant<T>(r: Result<T, Error>) -> String {
    match r {
        Ok(_) => "Ok".to_string(),
        Err(e) => format!("{e:?}")
            .split([' ', '(', '{'])
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}

#[test]
fn bad_inputs_of_the_building_blocks_are_typed_errors() {
    let x = points(2, 3, 1.0, 7);
    let k = gaussian(x.as_ref(), 1.0);
    let small = Mat::<f64>::identity(4, 4);
    // eq. (22)
    assert!(matches!(
        optimal_weights(&[]),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        optimal_weights(&[1.0, f64::NAN]),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        optimal_weights(&[1.0, -0.5]),
        Err(Error::InvalidInput { .. })
    ));
    // the Z step, the objective and the costs
    let n = k.nrows();
    let solver = CappedSimplexQp::new(1.0).check().unwrap();
    let p = Mat::<f64>::zeros(n, 2);
    let wrong_p = Mat::<f64>::zeros(n + 1, 2);
    assert!(matches!(
        solve_z(
            &ZProblem::new(k.as_ref(), wrong_p.as_ref(), 1.0, 1.0),
            &solver
        ),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        solve_z(&ZProblem::new(k.as_ref(), p.as_ref(), 0.0, 1.0), &solver),
        Err(Error::InvalidParam { .. })
    ));
    let warm = Some(small.as_ref());
    assert!(matches!(
        solve_z(
            &ZProblem::new(k.as_ref(), p.as_ref(), 1.0, 1.0).with_warm(warm),
            &solver
        ),
        Err(Error::Shape { .. })
    ));
    let z = Mat::<f64>::identity(n, n);
    assert!(matches!(
        objective(&[k.as_ref()], &[1.0, 2.0], z.as_ref(), p.as_ref(), 1.0, 1.0),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        objective(&[k.as_ref()], &[1.0], small.as_ref(), p.as_ref(), 1.0, 1.0),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        reconstruction_costs(&[k.as_ref()], small.as_ref()),
        Err(Error::Shape { .. })
    ));
}
