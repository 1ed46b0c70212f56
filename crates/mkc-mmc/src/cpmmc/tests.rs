//! CPMMC's subproblems against brute force and certificates, and the fit's contract.

use super::cuts::CutSet;
use super::cutting_plane::{most_violated, working_set_slack};
use super::dual::{best_bias, slack_at, solve_step, StepData};
use super::gram::{FeatureGram, Gram, KernelGram};
use super::qp::kkt_residuals;
use super::*;
use faer::{Mat, MatRef};
use mkc_core::{Clusterer, Error, KernelSet, ParamGuard};
use rand::Rng;

/// Two Gaussian blobs in the plane (first half around (−2, 0), second around (2, 0.5)),
/// plus `extra` noise dimensions.
fn blobs(n: usize, extra: usize, seed: u64) -> Mat<f64> {
    let mut rng = mkc_core::seed::rng(seed);
    Mat::from_fn(n, 2 + extra, |i, j| {
        let centre = match (i < n / 2, j) {
            (true, 0) => -2.0,
            (false, 0) => 2.0,
            (false, 1) => 0.5,
            _ => 0.0,
        };
        centre + rng.random_range(-1.0..1.0)
    })
}

fn linear_kernel(x: MatRef<'_, f64>) -> Mat<f64> {
    let n = x.nrows();
    Mat::from_fn(n, n, |i, j| {
        (0..x.ncols()).map(|d| x[(i, d)] * x[(j, d)]).sum()
    })
}

fn rbf_kernel(x: MatRef<'_, f64>, sigma: f64) -> Mat<f64> {
    let n = x.nrows();
    Mat::from_fn(n, n, |i, j| {
        let d2: f64 = (0..x.ncols())
            .map(|d| (x[(i, d)] - x[(j, d)]).powi(2))
            .sum();
        (-d2 / (2.0 * sigma * sigma)).exp()
    })
}

fn random_cuts(n: usize, m: usize, rng: &mut impl Rng) -> Vec<Vec<bool>> {
    (0..m)
        .map(|_| (0..n).map(|_| rng.random_bool(0.6)).collect())
        .collect()
}

/// The working set `cuts` at signs `s`, built as the algorithm does.
fn cut_set(gram: &dyn Gram, cuts: &[Vec<bool>], s: &[f64]) -> CutSet {
    let mut set = CutSet::new(gram, cuts[0].clone(), s.to_vec());
    for c in &cuts[1..] {
        set.push(gram, c.clone());
    }
    set
}

#[test]
fn cut_embeddings_updated_by_sign_flips_equal_fresh_ones() {
    let mut rng = mkc_core::seed::rng(21);
    let x = blobs(30, 2, 5);
    let k = rbf_kernel(x.as_ref(), 1.0);
    let grams: [Box<dyn Gram>; 2] = [
        Box::new(FeatureGram::new(x.as_ref())),
        Box::new(KernelGram::new(k.as_ref())),
    ];
    for gram in &grams {
        let cuts = random_cuts(30, 4, &mut rng);
        let mut s: Vec<f64> = (0..30)
            .map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 })
            .collect();
        let mut set = cut_set(gram.as_ref(), &cuts[..2], &s);
        for round in 0..4 {
            for v in s.iter_mut() {
                if rng.random_bool(0.2) {
                    *v = -*v;
                }
            }
            set.set_signs(gram.as_ref(), &s);
            if round < 2 {
                set.push(gram.as_ref(), cuts[2 + round].clone());
            }
            let fresh = cut_set(gram.as_ref(), &set.cuts, &s);
            let (a, b) = (&set.e, &fresh.e);
            for j in 0..a.ncols() {
                for i in 0..a.nrows() {
                    assert!((a[(i, j)] - b[(i, j)]).abs() < 1e-13, "{i} {j}");
                }
                for i in 0..30 {
                    assert_eq!(set.u[(i, j)], fresh.u[(i, j)]);
                }
            }
            // ...and H agrees with UᵀGU from G itself.
            let h = StepData::new(gram.as_ref(), &set).h;
            for j in 0..h.ncols() {
                let gu = gram.apply(&set.u.col(j).iter().copied().collect::<Vec<_>>());
                for i in 0..h.nrows() {
                    let direct: f64 = (0..30).map(|t| set.u[(t, i)] * gu[t]).sum();
                    assert!((h[(i, j)] - direct).abs() < 1e-13);
                }
            }
        }
    }
}

/// The step's certificate: the QP's KKT conditions hold, the recovered primal
/// (w, b̃, ξ) is feasible for the linearised constraints, and primal = dual objective.
#[test]
fn each_cccp_step_is_optimal_by_kkt_and_strong_duality() {
    let mut rng = mkc_core::seed::rng(3);
    let x = blobs(24, 1, 11);
    let k = rbf_kernel(x.as_ref(), 1.5);
    let grams: [(&str, Box<dyn Gram>); 2] = [
        ("linear", Box::new(FeatureGram::new(x.as_ref()))),
        ("rbf", Box::new(KernelGram::new(k.as_ref()))),
    ];
    for (name, gram) in &grams {
        for trial in 0..12 {
            let m = 1 + trial % 5;
            let cuts = random_cuts(24, m, &mut rng);
            let s: Vec<f64> = (0..24)
                .map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 })
                .collect();
            let (c, kappa) = ([0.1, 1.0, 10.0][trial % 3], [0.03, 0.3][trial % 2]);
            let set = cut_set(gram.as_ref(), &cuts, &s);
            let data = StepData::new(gram.as_ref(), &set);
            let step = solve_step(&data, c, kappa).unwrap();
            let beta: Vec<f64> = (0..24)
                .map(|i| (0..m).map(|j| set.u[(i, j)] * step.lambda[j]).sum())
                .collect();
            let (q, lin, a, b) = data.standard_form(c, kappa);
            let (rp, rd, comp) = kkt_residuals(q.as_ref(), &lin, a.as_ref(), &b, &step.qp);
            assert!(
                rp < 1e-8 && rd < 1e-8 && comp < 1e-8,
                "{name} {trial}: {rp} {rd} {comp}"
            );
            assert!(step.lambda.iter().sum::<f64>() <= c * (1.0 + 1e-8));
            // Primal feasibility of the linearised constraints, evaluated from G directly.
            let f: Vec<f64> = gram.apply(&beta).iter().map(|v| v + step.bias).collect();
            assert!(step.bias.abs() <= kappa + 1e-12);
            // ∂/∂b̃: s̄ᵀλ = ν₁ − ν₂, and a bound multiplier is positive only at its bound.
            let sl: f64 = data
                .s_bar
                .iter()
                .zip(&step.lambda)
                .map(|(a, b)| a * b)
                .sum();
            assert!(
                (sl - step.nu[0] + step.nu[1]).abs() < 1e-8,
                "{name} {trial}"
            );
            if step.nu[0] > 1e-6 {
                assert!(
                    (step.bias - kappa).abs() < 1e-6,
                    "{name} {trial}: ν₁ > 0 off the bound"
                );
            }
            if step.nu[1] > 1e-6 {
                assert!(
                    (step.bias + kappa).abs() < 1e-6,
                    "{name} {trial}: ν₂ > 0 off the bound"
                );
            }
            for (j, cut) in cuts.iter().enumerate() {
                let lhs: f64 = (0..24)
                    .filter(|&i| cut[i])
                    .map(|i| s[i] * f[i])
                    .sum::<f64>()
                    / 24.0;
                assert!(
                    lhs >= data.c_bar[j] - step.xi - 1e-8,
                    "{name} {trial}: cut {j}"
                );
            }
            let w2 = crate::cpmmc::qp::dot(&beta, &gram.apply(&beta));
            assert!((w2 - step.w_norm2).abs() < 1e-8 * (1.0 + w2));
            let gap = step.primal - step.dual;
            assert!(
                gap.abs() < 1e-7 * (1.0 + step.primal.abs()),
                "{name} {trial}: gap {gap}"
            );
        }
    }
}

#[test]
fn bias_recovery_finds_the_minimum_of_the_slack() {
    let mut rng = mkc_core::seed::rng(5);
    for trial in 0..50 {
        let m = 1 + trial % 6;
        let r: Vec<f64> = (0..m).map(|_| rng.random_range(-0.5..0.8)).collect();
        let s: Vec<f64> = (0..m).map(|_| rng.random_range(-0.6..0.6)).collect();
        let kappa = [0.03, 0.3, 0.9][trial % 3];
        let (b, xi) = best_bias(&r, &s, kappa);
        assert!(b.abs() <= kappa && (xi - slack_at(&r, &s, b)).abs() < 1e-15);
        let grid_min = (0..=20000)
            .map(|t| slack_at(&r, &s, -kappa + 2.0 * kappa * t as f64 / 20000.0))
            .fold(f64::INFINITY, f64::min);
        assert!(xi <= grid_min + 1e-12, "trial {trial}: {xi} > {grid_min}");
    }
    // A flat minimum resolves to the midpoint of its interval: ξ(b) = max(0, 0.1 − b, b − 0.3).
    let (b, xi) = best_bias(&[0.1, -0.3], &[1.0, -1.0], 1.0);
    assert!((b - 0.2).abs() < 1e-9 && xi == 0.0, "{b} {xi}");
}

#[test]
fn most_violated_constraint_is_the_brute_force_maximiser() {
    let mut rng = mkc_core::seed::rng(9);
    for _ in 0..20 {
        let n = 10;
        let f: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
        let (c, v) = most_violated(&f);
        let brute = (0u32..(1 << n))
            .map(|mask| {
                (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| 1.0 - f[i].abs())
                    .sum::<f64>()
                    / n as f64
            })
            .fold(f64::NEG_INFINITY, f64::max);
        assert!((v - brute).abs() < 1e-15);
        // ...and its violation is the slack the cut alone demands.
        assert!((working_set_slack(&[c], &f) - v.max(0.0)).abs() < 1e-15);
    }
}

#[test]
fn cccp_objective_never_increases_within_a_round() {
    let x = blobs(60, 2, 4);
    let k = rbf_kernel(x.as_ref(), 2.0);
    for (set, c) in [
        (KernelSet::from_features(x.as_ref()).unwrap(), 1.0),
        (KernelSet::from_features(x.as_ref()).unwrap(), 100.0),
    ]
    .into_iter()
    .chain([(KernelSet::from_refs(vec![k.as_ref()]).unwrap(), 10.0)])
    {
        for seed in 0..3 {
            let fit = CpmmcParams::new()
                .c(c)
                .cccp_tol(0.0)
                .fit(&set, 2, seed)
                .unwrap();
            let d = &fit.diagnostics;
            let mut ends = d.round_starts.clone();
            ends.push(d.cccp_objective.len());
            for w in ends.windows(2) {
                let round = &d.cccp_objective[w[0]..w[1]];
                for pair in round.windows(2) {
                    assert!(
                        pair[1] <= pair[0] + 1e-9 * (1.0 + pair[0].abs()),
                        "{round:?}"
                    );
                }
            }
            assert_eq!(d.round_starts.len(), fit.iterations);
        }
    }
}

#[test]
fn separates_two_blobs_on_both_paths_identically() {
    let x = blobs(80, 1, 2);
    let k = linear_kernel(x.as_ref());
    let truth: Vec<usize> = (0..80).map(|i| usize::from(i >= 40)).collect();
    let feats = KernelSet::from_features(x.as_ref()).unwrap();
    let kern = KernelSet::from_refs(vec![k.as_ref()]).unwrap();
    let a = CpmmcParams::new().fit(&feats, 2, 1).unwrap();
    let b = CpmmcParams::new()
        .path(CpmmcPath::Kernel)
        .fit(&kern, 2, 1)
        .unwrap();
    assert!(a.diagnostics.linear_path && !b.diagnostics.linear_path);
    let acc = mkc_metrics::accuracy(&truth, &a.labels).unwrap();
    assert!(acc > 0.97, "accuracy {acc}");
    assert_eq!(a.labels, b.labels);
    for (fa, fb) in a.diagnostics.decision.iter().zip(&b.diagnostics.decision) {
        assert!((fa - fb).abs() < 1e-6, "{fa} vs {fb}");
    }
    assert!(a.converged && a.labels.iter().all(|&l| l < 2));
    // The balance constraint holds: the mean decision value is the centred bias.
    let mean = a.diagnostics.decision.iter().sum::<f64>() / 80.0;
    assert!((mean - a.diagnostics.centred_bias).abs() < 1e-9 && mean.abs() <= 0.03 + 1e-12);
}

#[test]
fn same_seed_same_fit_for_any_thread_count() {
    let x = blobs(50, 3, 8);
    let set = KernelSet::from_features(x.as_ref()).unwrap();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let four = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    for init in [CpmmcInit::Random, CpmmcInit::Pca] {
        let p = CpmmcParams::new().init(init);
        let a = one.install(|| p.fit(&set, 2, 3).unwrap());
        let b = four.install(|| p.fit(&set, 2, 3).unwrap());
        assert_eq!(a.labels, b.labels);
        assert_eq!(a.objective, b.objective);
        assert_eq!(a.diagnostics.decision, b.diagnostics.decision);
    }
}

#[test]
fn bad_parameters_and_data_get_typed_errors() {
    let named = |r: mkc_core::Result<Cpmmc>, name: &str| {
        assert!(
            matches!(&r, Err(Error::InvalidParam { name: n, .. }) if n == name),
            "{name}: {r:?}"
        );
    };
    named(CpmmcParams::new().c(0.0).check(), "C");
    named(CpmmcParams::new().c(f64::NAN).check(), "C");
    named(CpmmcParams::new().balance(0.0).check(), "balance");
    named(CpmmcParams::new().balance(1.0).check(), "balance");
    named(CpmmcParams::new().epsilon(-1.0).check(), "epsilon");
    named(CpmmcParams::new().cccp_tol(-0.1).check(), "cccp_tol");
    named(CpmmcParams::new().cccp_max_iter(0).check(), "cccp_max_iter");
    named(CpmmcParams::new().max_iter(0).check(), "max_iter");
    assert!(CpmmcParams::new().validate_params().is_ok());

    let x = blobs(20, 0, 1);
    let feats = KernelSet::from_features(x.as_ref()).unwrap();
    let three = CpmmcParams::new().fit(&feats, 3, 0);
    assert!(matches!(&three, Err(Error::InvalidParam { name, .. }) if name == "n_clusters"));
    // A kernel set without features cannot take the linear path.
    let k = linear_kernel(x.as_ref());
    let kern = KernelSet::from_refs(vec![k.as_ref()]).unwrap();
    let lin = CpmmcParams::new().path(CpmmcPath::Linear).fit(&kern, 2, 0);
    assert!(matches!(lin, Err(Error::InvalidInput { .. })), "{lin:?}");
    // Identical samples: nothing to separate.
    let same = Mat::from_fn(10, 2, |_, j| j as f64);
    let flat = CpmmcParams::new().fit(&KernelSet::from_features(same.as_ref()).unwrap(), 2, 0);
    assert!(matches!(flat, Err(Error::InvalidInput { .. })), "{flat:?}");
    // NaN and asymmetric kernels are stopped by the kernel set.
    let mut bad = k.clone();
    bad[(0, 1)] = f64::NAN;
    assert!(matches!(
        KernelSet::from_refs(vec![bad.as_ref()]),
        Err(Error::NonFinite { .. })
    ));
}

#[test]
fn kernel_row_sums_are_the_row_iterators_sums_bit_for_bit() {
    // Row by row, left to right (the previous code), against the column sweep: the same
    // bits, signed zeros included (a row of −0.0 stays −0.0), on a non-symmetric matrix.
    let mut rng = mkc_core::seed::rng(5);
    for n in [1, 2, 7, 130] {
        let mut k = Mat::from_fn(n, n, |_, _| {
            rng.random_range(-1.0..1.0) * 1e3f64.powi(rng.random_range(-3..4))
        });
        if n > 2 {
            for j in 0..n {
                k[(1, j)] = -0.0;
            }
        }
        let reference: Vec<u64> = (0..n)
            .map(|i| (0..n).map(|j| k[(i, j)]).sum::<f64>().to_bits())
            .collect();
        let sums: Vec<u64> = super::gram::row_sums(k.as_ref())
            .iter()
            .map(|s| s.to_bits())
            .collect();
        assert_eq!(sums, reference, "n = {n}");
    }
}
