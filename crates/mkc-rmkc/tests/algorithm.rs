//! Algorithm 1–2 behaviour: J never increases, the balance bound always holds, the
//! blobs are found, the projections keep θ feasible; and every bad input is a typed error.

mod common;

use common::{blobs, gaussians, noisy_labels};
use faer::{Mat, MatRef};
use mkc_core::{Error, ParamGuard};
use mkc_rmkc::label_step::{label_step, phase_length};
use mkc_rmkc::objective::{composite_into, evaluate};
use mkc_rmkc::{Balance, Norm, RmkcParams, Variance};
use mkc_svm::CheckedKernel;

fn kernels(n: usize, sep: f64, seed: u64) -> Vec<Mat<f64>> {
    gaussians(&blobs(n, sep, seed), &[0.3, 1.0, 3.0])
}

#[test]
fn objective_never_increases_and_theta_stays_feasible() {
    for (norm, seed) in [(Norm::L1, 1), (Norm::L2, 2), (Norm::None, 3)] {
        let ks = kernels(40, 1.0, seed);
        let ks: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
        let rmkc = RmkcParams::new(1.0).l(6).norm(norm).check().unwrap();
        let fit = rmkc.fit(&ks, seed).unwrap();
        assert!(
            fit.history.windows(2).all(|w| w[1] <= w[0]),
            "{norm:?}: {:?}",
            fit.history
        );
        assert!(fit.theta.iter().all(|&t| t >= 0.0));
        match norm {
            Norm::L1 => assert!((fit.theta.iter().sum::<f64>() - 1.0).abs() < 1e-9),
            Norm::L2 => assert!((fit.theta.iter().map(|t| t * t).sum::<f64>() - 1.0).abs() < 1e-9),
            Norm::None => assert!(fit.theta.iter().any(|&t| t > 0.0)),
        }
        let sum: f64 = fit.y.iter().sum();
        assert!(sum.abs() <= 20.0);
        assert!(fit.converged);
    }
}

#[test]
fn separated_blobs_are_recovered() {
    let ks = kernels(40, 3.0, 5);
    let ks: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
    let fit = RmkcParams::new(1.0)
        .l(5)
        .check()
        .unwrap()
        .fit(&ks, 11)
        .unwrap();
    let truth = noisy_labels(40, &[]);
    let agree = fit.y.iter().zip(&truth).filter(|(a, b)| a == b).count();
    assert!(agree == 40 || agree == 0, "agreement {agree}/40");
    // Deterministic for a seed.
    let again = RmkcParams::new(1.0)
        .l(5)
        .check()
        .unwrap()
        .fit(&ks, 11)
        .unwrap();
    assert_eq!(fit.y, again.y);
    assert_eq!(fit.theta, again.theta);
}

#[test]
fn label_step_respects_balance_and_never_raises_j() {
    let n = 30;
    let ks = kernels(n, 0.8, 7);
    let ks: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
    let theta = [0.2, 0.5, 0.3];
    let mut kt = Mat::zeros(n, n);
    composite_into(&mut kt, &theta, &ks).unwrap();
    let ck = CheckedKernel::new(kt.as_ref()).unwrap();
    for (ell, flips) in [
        (0.0, vec![]),
        (2.0, vec![0, 20]),
        (6.0, vec![1, 2, 3]),
        (10.0, vec![16, 17, 18, 19, 20]),
    ] {
        let mut y = noisy_labels(n, &flips);
        // make the start balanced within ℓ by construction
        let s: f64 = y.iter().sum();
        assert!(s.abs() <= ell, "test setup: |Σy| = {s} > ℓ = {ell}");
        let rmkc = RmkcParams::new(1.0).l(8).check().unwrap();
        for round in 0..4 {
            let var = Variance::new(&ks, &y).unwrap();
            let ev = evaluate(rmkc.svc(), &ck, &var, &theta, None).unwrap();
            let j0 = ev.j;
            let out = label_step(&rmkc, &ks, &ck, &theta, ell, var, ev).unwrap();
            let s: f64 = out.var.labels().iter().sum();
            assert!(s.abs() <= ell, "ℓ = {ell}, round {round}: |Σy| = {s}");
            assert!(out.eval.j <= j0);
            let moved = out
                .var
                .labels()
                .iter()
                .zip(&y)
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(moved, out.n_flips);
            assert!(out.n_flips <= 8);
            y = out.var.labels().to_vec();
        }
    }
    // The bound on L of Section 2.3.
    let y = noisy_labels(10, &[0]); // Σy = 2
    assert_eq!(phase_length(30, 4.0, &y, 1.0), 3); // (4 + 2)/2
    assert_eq!(phase_length(30, 4.0, &y, -1.0), 1); // (4 − 2)/2
    assert_eq!(phase_length(2, 4.0, &y, 1.0), 2);
    assert_eq!(phase_length(30, 100.0, &y, -1.0), 3); // keeps one −1
}

#[test]
fn balance_holds_after_fit_with_tight_bound() {
    let ks = kernels(31, 0.5, 9);
    let ks: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
    for ell in [1.0, 3.0, 7.0] {
        let fit = RmkcParams::new(10.0)
            .l(10)
            .balance(Balance::Absolute(ell))
            .check()
            .unwrap()
            .fit(&ks, 3)
            .unwrap();
        let s: f64 = fit.y.iter().sum();
        assert!(s.abs() <= ell, "ℓ = {ell}: Σy = {s}");
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    let param = |r: mkc_core::Result<mkc_rmkc::Rmkc>, name: &str| match r {
        Err(Error::InvalidParam { name: got, .. }) => assert_eq!(got, name),
        other => panic!("expected InvalidParam {name}, got {other:?}"),
    };
    param(RmkcParams::new(0.0).check(), "C");
    param(RmkcParams::new(-1.0).check(), "C");
    param(RmkcParams::new(f64::NAN).check(), "C");
    param(RmkcParams::new(1.0).l(0).check(), "L");
    param(
        RmkcParams::new(1.0)
            .balance(Balance::Fraction(-0.1))
            .check(),
        "balance",
    );
    param(RmkcParams::new(1.0).init_pairs(0.0).check(), "init_pairs");
    param(
        RmkcParams::new(1.0).armijo(1.0, 0.5, 20).check(),
        "armijo sigma",
    );
    param(
        RmkcParams::new(1.0).armijo(0.1, 0.0, 20).check(),
        "armijo beta",
    );
    param(RmkcParams::new(1.0).max_iter(0).check(), "max_iter");

    let rmkc = RmkcParams::new(1.0).check().unwrap();
    let ks = kernels(10, 1.0, 1);
    let small = kernels(8, 1.0, 1);
    // kernels of different sizes
    assert!(matches!(
        rmkc.fit(&[ks[0].as_ref(), small[0].as_ref()], 0),
        Err(Error::Shape { .. })
    ));
    // no kernels
    assert!(matches!(rmkc.fit(&[], 0), Err(Error::InvalidInput { .. })));
    // fewer than 2 points
    let one = Mat::from_fn(1, 1, |_, _| 1.0);
    assert!(matches!(
        rmkc.fit(&[one.as_ref()], 0),
        Err(Error::InvalidInput { .. })
    ));
    // non-finite and non-symmetric kernels
    let mut nan = ks[0].clone();
    nan[(2, 3)] = f64::NAN;
    assert!(matches!(
        rmkc.fit(&[nan.as_ref()], 0),
        Err(Error::NonFinite { .. })
    ));
    let mut asym = ks[0].clone();
    asym[(2, 3)] += 0.5;
    assert!(matches!(
        rmkc.fit(&[asym.as_ref()], 0),
        Err(Error::NotSymmetric { .. })
    ));
    // impossible balance: odd N with ℓ < 1
    let odd = kernels(9, 1.0, 1);
    let tight = RmkcParams::new(1.0)
        .balance(Balance::Absolute(0.5))
        .check()
        .unwrap();
    assert!(matches!(
        tight.fit(&[odd[0].as_ref()], 0),
        Err(Error::InvalidParam { .. })
    ));
    let tight = RmkcParams::new(1.0)
        .balance(Balance::Fraction(0.0))
        .check()
        .unwrap();
    assert!(matches!(
        tight.fit(&[odd[0].as_ref()], 0),
        Err(Error::InvalidParam { .. })
    ));
    // fit_from: bad θ0 and y0
    let k = [ks[0].as_ref(), ks[1].as_ref()];
    let y = noisy_labels(10, &[]);
    assert!(rmkc.fit_from(&k, &[0.5, 0.5], &y).is_ok());
    assert!(matches!(
        rmkc.fit_from(&k, &[0.5], &y),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        rmkc.fit_from(&k, &[-0.5, 1.0], &y),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        rmkc.fit_from(&k, &[0.0, 0.0], &y),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        rmkc.fit_from(&k, &[f64::INFINITY, 0.0], &y),
        Err(Error::NonFinite { .. }) | Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        rmkc.fit_from(&k, &[0.5, 0.5], &[1.0; 10]),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        rmkc.fit_from(&k, &[0.5, 0.5], &y[..9]),
        Err(Error::Shape { .. })
    ));
    let unbalanced = noisy_labels(10, &[0, 1, 2, 3]); // Σy = 8 > ℓ = 5
    assert!(matches!(
        rmkc.fit_from(&k, &[0.5, 0.5], &unbalanced),
        Err(Error::InvalidInput { .. })
    ));
    let mut bad = y.clone();
    bad[0] = 0.5;
    assert!(matches!(
        rmkc.fit_from(&k, &[0.5, 0.5], &bad),
        Err(Error::InvalidInput { .. })
    ));
}

#[test]
fn theta_step_lowers_j_for_every_norm() {
    use mkc_rmkc::theta_step::theta_step;
    let n = 30;
    let ks = kernels(n, 1.0, 13);
    let ks: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
    let y = noisy_labels(n, &[0, 29]);
    for (norm, theta) in [
        (Norm::L1, vec![0.8, 0.1, 0.1]),
        (Norm::L2, vec![0.98, 0.14, 0.14]),
        (Norm::None, vec![2.0, 0.1, 0.3]),
    ] {
        let rmkc = RmkcParams::new(1.0)
            .norm(norm)
            .svm_tol(1e-8)
            .check()
            .unwrap();
        let mut kt = Mat::zeros(n, n);
        let mut scratch = Mat::zeros(n, n);
        composite_into(&mut kt, &theta, &ks).unwrap();
        let var = Variance::new(&ks, &y).unwrap();
        let ev = evaluate(
            rmkc.svc(),
            &CheckedKernel::new(kt.as_ref()).unwrap(),
            &var,
            &theta,
            None,
        )
        .unwrap();
        let j0 = ev.j;
        let step = theta_step(&rmkc, &ks, &theta, &var, ev, &mut kt, &mut scratch).unwrap();
        assert!(
            step.moved && step.eval.j < j0,
            "{norm:?}: {} vs {j0}",
            step.eval.j
        );
        // K̃ on exit belongs to the new θ.
        let mut expect = Mat::zeros(n, n);
        composite_into(&mut expect, &step.theta, &ks).unwrap();
        assert!((&expect - &kt).norm_max() < 1e-12);
    }
}
