//! Algorithm 1–2 behaviour: J never increases, the balance bound always holds, the
//! blobs are found, the projections keep θ feasible (and on the reported constraint set);
//! and every bad parameter and input is a typed error.

mod common;

use common::{assert_rejected, balance, blobs, clusters, gaussians, noisy_labels};
use faer::{Mat, MatRef};
use mkc_core::{Clusterer, Error, KernelSet, ParamGuard, WeightConstraint};
use mkc_rmkc::label_step::{label_step, phase_length};
use mkc_rmkc::objective::{composite_into, evaluate};
use mkc_rmkc::{Balance, Norm, RmkcParams, Variance};
use mkc_svm::{CheckedKernel, KernelStack};

fn kernels(n: usize, sep: f64, seed: u64) -> Vec<Mat<f64>> {
    gaussians(&blobs(n, sep, seed), &[0.3, 1.0, 3.0])
}

#[test]
fn objective_never_increases_and_theta_stays_feasible() {
    for (norm, seed) in [(Norm::L1, 1), (Norm::L2, 2), (Norm::None, 3)] {
        let ks = kernels(40, 1.0, seed);
        let data = KernelSet::new(&ks).unwrap();
        let fit = RmkcParams::new()
            .l(6)
            .norm(norm)
            .fit(&data, 2, seed)
            .unwrap();
        assert!(
            fit.objective.windows(2).all(|w| w[1] <= w[0]),
            "{norm:?}: {:?}",
            fit.objective
        );
        // θ ≥ 0 on its norm's set, reported as that set.
        let theta = fit.kernel_weights.as_ref().unwrap();
        assert_eq!(theta.constraint, norm.constraint());
        assert!(theta.violation() < 1e-9, "{norm:?}: {:?}", theta.values);
        let expect = match norm {
            Norm::L1 => WeightConstraint::PNorm(1.0),
            Norm::L2 => WeightConstraint::PNorm(2.0),
            Norm::None => WeightConstraint::NonNegative,
        };
        assert_eq!(theta.constraint, expect);
        assert!(theta.values.iter().any(|&t| t > 0.0));
        assert!(balance(&fit.labels).abs() <= 20.0);
        assert!(fit.converged);
        assert_eq!(fit.iterations * 2 + 1, fit.objective.len());
        assert_eq!(fit.diagnostics.objective, fit.final_objective().unwrap());
        let phases: Vec<&str> = fit.timings.phases().iter().map(|p| p.0).collect();
        assert_eq!(phases, ["init", "theta", "labels"]);
    }
}

#[test]
fn separated_blobs_are_recovered() {
    let ks = kernels(40, 3.0, 5);
    let data = KernelSet::new(&ks).unwrap();
    let rmkc = RmkcParams::new().l(5);
    let fit = rmkc.fit(&data, 2, 11).unwrap();
    let truth = clusters(&noisy_labels(40, &[]));
    let agree = fit
        .labels
        .iter()
        .zip(&truth)
        .filter(|(a, b)| a == b)
        .count();
    assert!(agree == 40 || agree == 0, "agreement {agree}/40");
    // Deterministic for a seed, checked or not, and the same as a restart.
    let again = rmkc.check().unwrap().fit(&data, 2, 11).unwrap();
    assert_eq!(fit.labels, again.labels);
    assert_eq!(fit.kernel_weights, again.kernel_weights);
    assert_eq!(fit.objective, again.objective);
    let runs = rmkc.fit_restarts(&data, 2, &[3, 11]);
    assert_eq!(runs[1].as_ref().unwrap().labels, fit.labels);
    assert_eq!(runs[1].as_ref().unwrap().diagnostics, fit.diagnostics);
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
        let rmkc = RmkcParams::new().l(8).check().unwrap();
        for round in 0..4 {
            let var = Variance::new(&ks, &y).unwrap();
            let ev = evaluate(rmkc.svc(), &ck, &var, &theta, None).unwrap();
            let j0 = ev.j;
            let sum = KernelStack::new(&ks).unwrap().sum(&theta).unwrap();
            let out = label_step(&rmkc, &ks, &sum, &theta, ell, var, ev).unwrap();
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
    let data = KernelSet::new(&ks).unwrap();
    for ell in [1.0, 3.0, 7.0] {
        let fit = RmkcParams::new()
            .c(10.0)
            .l(10)
            .balance(Balance::Absolute(ell))
            .fit(&data, 2, 3)
            .unwrap();
        let s = balance(&fit.labels);
        assert!(s.abs() <= ell, "ℓ = {ell}: Σy = {s}");
    }
}

#[test]
fn every_bad_parameter_is_named() {
    let cases: Vec<(RmkcParams, &str)> = vec![
        (RmkcParams::new().c(0.0), "C"),
        (RmkcParams::new().c(-1.0), "C"),
        (RmkcParams::new().c(f64::NAN), "C"),
        (RmkcParams::new().l(0), "L"),
        (
            RmkcParams::new().balance(Balance::Fraction(-0.1)),
            "balance",
        ),
        (
            RmkcParams::new().balance(Balance::Absolute(f64::INFINITY)),
            "balance",
        ),
        (RmkcParams::new().init_pairs(0.0), "init_pairs"),
        (RmkcParams::new().svm_tol(0.0), "svm_tol"),
        (RmkcParams::new().max_iter(0), "max_iter"),
        (RmkcParams::new().tol(-1.0), "tol"),
        (RmkcParams::new().armijo(1.0, 0.5, 20), "armijo sigma"),
        (RmkcParams::new().armijo(0.1, 0.0, 20), "armijo beta"),
        (RmkcParams::new().armijo(0.1, 0.5, 0), "armijo trials"),
    ];
    let ks = kernels(10, 1.0, 1);
    let data = KernelSet::new(&ks).unwrap();
    assert_rejected(cases, &data);
    assert!(RmkcParams::default().validate_params().is_ok());
    assert_eq!(RmkcParams::default(), RmkcParams::new());
    assert_eq!(RmkcParams::new().check().unwrap().c(), 1.0);
}

#[test]
fn bad_data_are_typed_errors() {
    let rmkc = RmkcParams::new().check().unwrap();
    let ks = kernels(10, 1.0, 1);
    let data = KernelSet::new(&ks).unwrap();
    let param = |e: Error, name: &str| {
        assert!(
            matches!(&e, Error::InvalidParam { name: got, .. } if got == name),
            "expected InvalidParam {name}, got {e:?}"
        )
    };
    // Two clusters only, and at most n.
    for k in [0, 1, 3, 11] {
        param(rmkc.fit(&data, k, 0).unwrap_err(), "n_clusters");
    }
    // A single point cannot be split.
    let one = vec![Mat::from_fn(1, 1, |_, _| 1.0)];
    param(
        rmkc.fit(&KernelSet::new(&one).unwrap(), 2, 0).unwrap_err(),
        "n_clusters",
    );
    // Features only: RMKC needs kernels.
    let x = Mat::from_fn(10, 2, |i, j| (i * j) as f64);
    let features = KernelSet::from_features(x.as_ref()).unwrap();
    assert!(matches!(
        rmkc.fit(&features, 2, 0),
        Err(Error::InvalidInput { .. })
    ));
    // Kernels of different sizes, NaN and non-symmetric kernels: the set refuses them.
    let small = kernels(8, 1.0, 1);
    assert!(matches!(
        KernelSet::from_refs(vec![ks[0].as_ref(), small[0].as_ref()]),
        Err(Error::Shape { .. })
    ));
    let mut nan = ks[0].clone();
    nan[(2, 3)] = f64::NAN;
    assert!(matches!(
        KernelSet::from_refs(vec![nan.as_ref()]),
        Err(Error::NonFinite { .. })
    ));
    let mut asym = ks[0].clone();
    asym[(2, 3)] += 0.5;
    assert!(matches!(
        KernelSet::from_refs(vec![asym.as_ref()]),
        Err(Error::NotSymmetric { .. })
    ));
    // Impossible balance: odd N with ℓ < 1.
    let odd = kernels(9, 1.0, 1);
    let odd = KernelSet::new(&odd[..1]).unwrap();
    for b in [Balance::Absolute(0.5), Balance::Fraction(0.0)] {
        param(
            RmkcParams::new().balance(b).fit(&odd, 2, 0).unwrap_err(),
            "balance",
        );
    }
    // fit_from: bad θ0 and labels0.
    let two = KernelSet::new(&ks[..2]).unwrap();
    let y = clusters(&noisy_labels(10, &[]));
    assert!(rmkc.fit_from(&two, &[0.5, 0.5], &y).is_ok());
    let unbalanced = clusters(&noisy_labels(10, &[0, 1, 2, 3])); // Σy = 8 > ℓ = 5
    let mut three = y.clone();
    three[0] = 2;
    let bad: Vec<(&[f64], &[usize])> = vec![
        (&[0.5], &y),
        (&[-0.5, 1.0], &y),
        (&[0.0, 0.0], &y),
        (&[f64::INFINITY, 0.0], &y),
        (&[0.5, 0.5], &[1; 10]),
        (&[0.5, 0.5], &y[..9]),
        (&[0.5, 0.5], &unbalanced),
        (&[0.5, 0.5], &three),
    ];
    for (theta0, labels0) in bad {
        let e = rmkc.fit_from(&two, theta0, labels0).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Shape { .. } | Error::InvalidInput { .. } | Error::NonFinite { .. }
            ),
            "θ0 {theta0:?}, labels0 {labels0:?}: {e:?}"
        );
    }
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
        let rmkc = RmkcParams::new().norm(norm).svm_tol(1e-8).check().unwrap();
        let stack = KernelStack::new(&ks).unwrap();
        let mut kt = stack.sum(&theta).unwrap();
        let var = Variance::new(&ks, &y).unwrap();
        let ev = evaluate(rmkc.svc(), &kt, &var, &theta, None).unwrap();
        let j0 = ev.j;
        let step = theta_step(&rmkc, &ks, &stack, &theta, &var, ev, &mut kt).unwrap();
        assert!(
            step.moved && step.eval.j < j0,
            "{norm:?}: {} vs {j0}",
            step.eval.j
        );
        // K̃ on exit belongs to the new θ: the formed matrix's numbers, bit for bit.
        let mut expect = Mat::zeros(n, n);
        composite_into(&mut expect, &step.theta, &ks).unwrap();
        for j in 0..n {
            for i in 0..n {
                assert_eq!(kt.column(j)[i].to_bits(), expect[(i, j)].to_bits());
            }
        }
    }
}
