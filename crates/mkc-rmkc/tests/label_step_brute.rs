//! Algorithm 2 against a brute-force re-implementation (every candidate solved cold at a
//! tight tolerance), the final J against a cold re-evaluation, the initial splits'
//! balance, and independence of the number of rayon threads.

mod common;

use common::{balance, blobs, clusters, gaussians, noisy_labels, signs};
use faer::{Mat, MatRef};
use mkc_core::{Clusterer, KernelSet, ParamGuard};
use mkc_rmkc::init::{initial_labels, split};
use mkc_rmkc::label_step::{label_step, phase_length};
use mkc_rmkc::objective::{composite_into, evaluate};
use mkc_rmkc::{Balance, Norm, RmkcParams, Variance};
use mkc_svm::{CheckedKernel, KernelStack};

/// J(θ, y) and the decision values, solved cold at tolerance 1e-10.
fn cold(
    ks: &[MatRef<'_, f64>],
    kt: &CheckedKernel<'_>,
    theta: &[f64],
    y: &[f64],
) -> (f64, Vec<f64>) {
    let rmkc = RmkcParams::new().svm_tol(1e-10).check().unwrap();
    let var = Variance::new(ks, y).unwrap();
    let ev = evaluate(rmkc.svc(), kt, &var, theta, None).unwrap();
    (ev.j, ev.model.decision)
}

#[test]
fn label_step_is_algorithm_2() {
    let n = 26;
    let ks = gaussians(&blobs(n, 0.9, 17), &[0.4, 1.0, 2.5]);
    let ks: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
    let theta = [0.5, 0.3, 0.2];
    let mut kt = Mat::zeros(n, n);
    composite_into(&mut kt, &theta, &ks).unwrap();
    let ck = CheckedKernel::new(kt.as_ref()).unwrap();
    for (l, ell, flips) in [
        (6, 13.0, vec![0, 1, 2, 20]),
        (4, 4.0, vec![3, 22]),
        (10, 26.0, vec![5, 6, 7, 8, 9, 10]),
    ] {
        let y0 = noisy_labels(n, &flips);
        let rmkc = RmkcParams::new().l(l).svm_tol(1e-10).check().unwrap();
        let var = Variance::new(&ks, &y0).unwrap();
        let ev = evaluate(rmkc.svc(), &ck, &var, &theta, None).unwrap();
        // The step runs on the sum, formed column by column; the brute force on the
        // formed K̃.
        let sum = KernelStack::new(&ks).unwrap().sum(&theta).unwrap();
        let out = label_step(&rmkc, &ks, &sum, &theta, ell, var, ev).unwrap();
        // Brute force: both phases from y⁽⁰⁾, eq. (13) on cold decision values.
        let (j0, _) = cold(&ks, &ck, &theta, &y0);
        let mut cands: Vec<(f64, Vec<f64>)> = vec![(j0, y0.clone())];
        for sign in [1.0, -1.0] {
            let mut y = y0.clone();
            for _ in 0..phase_length(l, ell, &y0, sign) {
                let (_, f) = cold(&ks, &ck, &theta, &y);
                let i = (0..n)
                    .filter(|&i| y[i] == sign && y[i] == y0[i])
                    .min_by(|&a, &b| (y[a] * f[a]).total_cmp(&(y[b] * f[b])))
                    .unwrap();
                y[i] = -y[i];
                let s: f64 = y.iter().sum();
                assert!(
                    s.abs() <= ell,
                    "a candidate breaks the balance bound: Σy = {s}"
                );
                cands.push((cold(&ks, &ck, &theta, &y).0, y.clone()));
            }
        }
        assert_eq!(out.n_candidates, cands.len() - 1);
        // eq. (15): the returned labels are the cold argmin, and its J matches.
        let best = cands.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
        let got = cold(&ks, &ck, &theta, out.var.labels()).0;
        assert!(
            (out.eval.j - got).abs() <= 1e-7 * got.abs().max(1.0),
            "{} vs {got}",
            out.eval.j
        );
        assert!(
            got <= best + 1e-7 * best.abs().max(1.0),
            "L = {l}: chose J = {got}, best candidate {best}"
        );
        assert!(
            cands.iter().any(|c| c.1 == out.var.labels()),
            "the result is not a candidate"
        );
    }
}

#[test]
fn final_objective_matches_a_cold_evaluation_and_history_never_rises() {
    let n = 36;
    let ks = gaussians(&blobs(n, 1.1, 8), &[0.3, 1.0, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    let ks: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
    for norm in [Norm::None, Norm::L1, Norm::L2] {
        for c in [0.1, 10.0] {
            let fit = RmkcParams::new()
                .c(c)
                .l(8)
                .norm(norm)
                .svm_tol(1e-8)
                .fit(&data, 2, 4)
                .unwrap();
            assert!(
                fit.objective.windows(2).all(|w| w[1] <= w[0]),
                "{norm:?}, C = {c}: {:?}",
                fit.objective
            );
            let theta = fit.weights().unwrap();
            let mut kt = Mat::zeros(n, n);
            composite_into(&mut kt, theta, &ks).unwrap();
            let ck = CheckedKernel::new(kt.as_ref()).unwrap();
            let strict = RmkcParams::new().c(c).svm_tol(1e-10).check().unwrap();
            let var = Variance::new(&ks, &signs(&fit.labels)).unwrap();
            let ev = evaluate(strict.svc(), &ck, &var, theta, None).unwrap();
            let last = fit.final_objective().unwrap();
            assert!(
                (ev.j - last).abs() <= 1e-5 * ev.j.abs(),
                "{norm:?}, C = {c}: {} vs {last}",
                ev.j
            );
            assert!((ev.e - fit.diagnostics.variance).abs() <= 1e-12 * ev.e);
            assert!(ev.j <= fit.objective[0] * (1.0 + 1e-6));
            let d = &fit.diagnostics;
            assert!(d.init_solves >= 1 && d.theta_solves >= 1);
        }
    }
}

/// The contract's fit is the engine: the seeded start of [`mkc_rmkc::init`] (uniform θ,
/// the best pair split) handed to `fit_from` gives the same run.
#[test]
fn contract_fit_equals_the_engine_from_its_start() {
    let n = 40;
    let ks = gaussians(&blobs(n, 0.9, 10), &[0.3, 1.0, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    let refs: Vec<MatRef<'_, f64>> = ks.iter().map(|k| k.as_ref()).collect();
    for norm in [Norm::None, Norm::L1, Norm::L2] {
        let rmkc = RmkcParams::new().l(8).norm(norm).check().unwrap();
        for seed in [1, 2] {
            let fit = rmkc.fit(&data, 2, seed).unwrap();
            let theta0 = norm.uniform(3);
            let mut kt = Mat::zeros(n, n);
            composite_into(&mut kt, &theta0, &refs).unwrap();
            let ell = rmkc.balance_bound(n).unwrap();
            let ck = CheckedKernel::new(kt.as_ref()).unwrap();
            let (y0, ev0, solves) = initial_labels(&rmkc, &ck, ell, seed).unwrap();
            let from = rmkc.fit_from(&data, &theta0, &clusters(&y0)).unwrap();
            assert_eq!(from.labels, fit.labels, "{norm:?}, seed {seed}");
            assert_eq!(from.kernel_weights, fit.kernel_weights);
            assert_eq!(from.objective, fit.objective);
            // The start's J, solved cold here and warm in the initialisation.
            assert!((from.objective[0] - ev0.j).abs() <= 1e-4 * ev0.j.abs());
            assert_eq!(
                (from.iterations, from.converged),
                (fit.iterations, fit.converged)
            );
            assert_eq!(fit.diagnostics.init_solves, solves);
            assert_eq!(from.diagnostics.init_solves, 0);
            assert_eq!(from.diagnostics.theta_solves, fit.diagnostics.theta_solves);
            assert_eq!(from.diagnostics.label_solves, fit.diagnostics.label_solves);
        }
    }
}

#[test]
fn initial_splits_respect_the_balance_bound() {
    let n = 40;
    let ks = gaussians(&blobs(n, 0.5, 9), &[1.0]);
    let k = ks[0].as_ref();
    for ell in [0.0, 2.0, 6.0, 20.0, 40.0] {
        for a in (0..n).step_by(7) {
            for b in (1..n).step_by(5) {
                if a == b {
                    continue;
                }
                let y = split(k, a, b, ell);
                let s: f64 = y.iter().sum();
                assert!(s.abs() <= ell, "pair ({a}, {b}), ℓ = {ell}: Σy = {s}");
                assert_eq!((y[a], y[b]), (1.0, -1.0));
            }
        }
    }
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let n = 60;
    let ks = gaussians(&blobs(n, 0.8, 12), &[0.3, 1.0, 3.0]);
    let data = KernelSet::new(&ks).unwrap();
    let rmkc = RmkcParams::new()
        .l(10)
        .balance(Balance::Fraction(0.3))
        .check()
        .unwrap();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| rmkc.fit(&data, 2, 42).unwrap())
    };
    let (a, b) = (run(1), run(4));
    assert_eq!(a.labels, b.labels);
    assert_eq!(a.kernel_weights, b.kernel_weights);
    assert_eq!(a.objective, b.objective);
    assert!(balance(&a.labels).abs() <= 0.3 * n as f64);
}
