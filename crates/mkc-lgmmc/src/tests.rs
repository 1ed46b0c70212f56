//! Tests that need the crate internals: the two α-solvers against each other, and
//! Algorithm 1 on both paths.

use crate::cutting_plane::LgmmcFit;
use crate::fit::Input;
use crate::kernel_path::KernelSolver;
use crate::linear_path::LinearSolver;
use crate::params::{Balance, Lgmmc, LgmmcParams};
use crate::solver::{AlphaProblem, AlphaSolver};
use faer::{Mat, MatRef};
use mkc_core::{ParamGuard, Result, Timings};
use mkc_svm::CheckedKernel;

/// The linear path's engine (seed 0).
fn linear(p: &Lgmmc, x: MatRef<'_, f64>) -> Result<LgmmcFit> {
    p.run(Input::Features(x), 0, None, &mut Timings::default())
}

/// The kernel path's engine (seed 0).
fn kernel(p: &Lgmmc, k: MatRef<'_, f64>) -> Result<LgmmcFit> {
    p.run(Input::Kernel(k), 0, None, &mut Timings::default())
}

fn lcg(state: &mut u64) -> f64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
}

/// Two noisy groups in d dimensions (rows = samples).
fn blobs(n: usize, d: usize, seed: u64) -> Mat<f64> {
    let mut s = seed;
    Mat::from_fn(n, d, |i, j| {
        let c = if i % 2 == 0 { 1.0 } else { -1.0 };
        (if j == 0 { c } else { 0.0 }) + 0.6 * lcg(&mut s)
    })
}

fn linear_kernel(x: &Mat<f64>, bias: f64) -> Mat<f64> {
    let (n, d) = (x.nrows(), x.ncols());
    Mat::from_fn(n, n, |i, j| {
        (0..d).map(|k| x[(i, k)] * x[(j, k)]).sum::<f64>() + bias
    })
}

#[test]
fn feature_space_and_kernel_alpha_steps_agree() {
    let x = blobs(24, 3, 5);
    let k = linear_kernel(&x, 1.0);
    let mut s = 9u64;
    let labels: Vec<Vec<f64>> = (0..3)
        .map(|_| {
            (0..24)
                .map(|_| if lcg(&mut s) > 0.0 { 1.0 } else { -1.0 })
                .collect()
        })
        .collect();
    let mu = [0.5, 0.0, 0.5];
    for c in [0.1, 1.0, 10.0] {
        let mut lin = LinearSolver::new(x.as_ref(), false, 1.0, c, 1e-10, 0).unwrap();
        let kc = CheckedKernel::new(k.as_ref()).unwrap();
        let mut ker = KernelSolver::new(kc, c, 1e-10, x.clone());
        let a = lin.solve(AlphaProblem::cold(&labels, &mu)).unwrap();
        let b = ker.solve(AlphaProblem::cold(&labels, &mu)).unwrap();
        assert!(
            a.converged && b.converged,
            "C={c}: {} {} / {} {}",
            a.converged,
            a.iterations,
            b.converged,
            b.iterations
        );
        for i in 0..24 {
            assert!(
                (a.alpha[i] - b.alpha[i]).abs() < 1e-6,
                "C={c} α_{i}: {} vs {}",
                a.alpha[i],
                b.alpha[i]
            );
        }
        assert!((a.objective - b.objective).abs() < 1e-8 * b.objective.abs().max(1.0));
        for t in 0..3 {
            assert!((a.terms[t] - b.terms[t]).abs() < 1e-6 * b.terms[t].abs().max(1e-3));
        }
        // The violations agree too.
        let va = lin.violation(&a.alpha, &labels[1]).unwrap();
        let vb = ker.violation(&a.alpha, &labels[1]).unwrap();
        assert!((va - vb).abs() < 1e-10 * vb.max(1e-10));
        // Warm start from the other solution reaches the same point.
        let w = lin
            .solve(AlphaProblem::cold(&labels, &[0.2, 0.3, 0.5]).from(&a))
            .unwrap();
        let cold = lin
            .solve(AlphaProblem::cold(&labels, &[0.2, 0.3, 0.5]))
            .unwrap();
        assert!((w.objective - cold.objective).abs() < 1e-9 * cold.objective.abs());
    }
}

#[test]
fn both_paths_run_algorithm_1_identically() {
    for seed in [1u64, 2, 3] {
        let x = blobs(30, 3, seed);
        let k = linear_kernel(&x, 1.0);
        let p = LgmmcParams::new()
            .balance(Balance::Absolute(4.0))
            .solver_tol(1e-12)
            .mkl_tol(1e-9)
            .tol(1e-9)
            .max_iter(6)
            .center(false)
            .check()
            .unwrap();
        // The kernel path searches eq. (13) on the same features as the linear path.
        let f = x.clone();
        let a = linear(&p, x.as_ref()).unwrap();
        let b = p.run_kernel_with_features(k.as_ref(), f).unwrap();
        assert_eq!(a.diag.label_vectors, b.diag.label_vectors, "seed {seed}");
        assert_eq!(a.labels, b.labels);
        assert_eq!(a.objective_trace.len(), b.objective_trace.len());
        for (u, v) in a.objective_trace.iter().zip(&b.objective_trace) {
            assert!((u - v).abs() < 1e-6 * v.abs(), "{u} vs {v}");
        }
        for (u, v) in a.diag.mu.iter().zip(&b.diag.mu) {
            assert!((u - v).abs() < 1e-6, "μ {u} vs {v}");
        }
        for (u, v) in a.diag.alpha.iter().zip(&b.diag.alpha) {
            assert!((u - v).abs() < 1e-6);
        }
    }
}

#[test]
fn cutting_plane_objective_is_monotone_and_mu_on_simplex() {
    for seed in [4u64, 5, 6, 7] {
        let x = blobs(60, 4, seed);
        for c in [0.1, 1.0, 10.0] {
            let p = LgmmcParams::new()
                .c(c)
                .balance(Balance::Fraction(0.3))
                .tol(0.0)
                .max_iter(12)
                .check()
                .unwrap();
            let fit = linear(&p, x.as_ref()).unwrap();
            assert!(
                fit.objective_trace
                    .windows(2)
                    .all(|w| w[1] <= w[0] * (1.0 - 1e-12) || w[1] <= w[0] + 1e-9 * w[0].abs()),
                "seed {seed} C={c}: {:?}",
                fit.objective_trace
            );
            assert!((fit.diag.mu.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(fit.diag.mu.iter().all(|&m| m >= 0.0));
            assert!(fit
                .diag
                .label_vectors
                .iter()
                .all(|y| y.iter().sum::<f64>().abs() <= 0.3 * 60.0));
            assert!((fit.diag.alpha.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            // The blobs are found.
            let agree = fit
                .labels
                .iter()
                .enumerate()
                .filter(|(i, &l)| l == i % 2)
                .count();
            assert!(agree.max(60 - agree) >= 57, "seed {seed} C={c}: {agree}/60");
        }
    }
}

#[test]
fn gaussian_kernel_path_clusters_two_rings_apart() {
    // Two groups on a line that a Gaussian kernel separates.
    let n = 40;
    let xs: Vec<f64> = (0..n)
        .map(|i| {
            if i < 20 {
                i as f64 * 0.05
            } else {
                3.0 + i as f64 * 0.05
            }
        })
        .collect();
    let k = Mat::from_fn(n, n, |i, j| (-(xs[i] - xs[j]).powi(2) / 2.0).exp());
    let p = LgmmcParams::new()
        .balance(Balance::Fraction(0.2))
        .check()
        .unwrap();
    let fit = kernel(&p, k.as_ref()).unwrap();
    assert!(fit.labels[..20].iter().all(|&l| l == fit.labels[0]));
    assert!(fit.labels[20..].iter().all(|&l| l != fit.labels[0]));
    assert!(fit.diag.feature_dim >= 1 && fit.diag.feature_dim <= n);
    // Deterministic.
    let again = kernel(&p, k.as_ref()).unwrap();
    assert_eq!(fit.labels, again.labels);
    assert_eq!(fit.objective_trace, again.objective_trace);
}

#[test]
fn kernel_features_factor_the_centred_kernel_and_sqrt_features_the_kernel() {
    let x = blobs(20, 3, 8);
    let k = linear_kernel(&x, 0.5);
    let n = 20;
    let rank = crate::FeatureRank {
        energy_tol: 1e-12,
        max_rank: 50,
    };
    let f = crate::kernel_features(k.as_ref(), rank, 0).unwrap();
    let mut kc = k.clone();
    mkc_linalg::center_in_place(kc.as_mut()).unwrap();
    let s = crate::kernel_sqrt_features(k.as_ref(), rank, 0).unwrap();
    for i in 0..n {
        for j in 0..n {
            let ff: f64 = (0..f.ncols()).map(|c| f[(i, c)] * f[(j, c)]).sum();
            assert!((ff - kc[(i, j)]).abs() < 1e-8, "PCA features ({i}, {j})");
            let ss: f64 = (0..n).map(|c| s[(i, c)] * s[(j, c)]).sum();
            assert!((ss - k[(i, j)]).abs() < 1e-8, "sqrt features ({i}, {j})");
            assert!((s[(i, j)] - s[(j, i)]).abs() < 1e-10);
        }
    }
    // Rank 3 data (+ bias): the centred kernel has rank 3.
    assert_eq!(f.ncols(), 3);
}

/// The ascent refinement (`ascent` module): on random small problems every step keeps
/// ŷ in B and never lowers the violation `½(α∘ŷ)ᵀK(α∘ŷ)`, and its fixed points admit no
/// better linearised move (checked by brute force over B for n = 10).
#[test]
fn ascent_refinement_never_lowers_the_violation() {
    let n = 10;
    let beta = 0.0; // exactly balanced: the balance always binds
    let feasible: Vec<Vec<f64>> = (0u32..1 << n)
        .map(|m| {
            (0..n)
                .map(|i| if m >> i & 1 == 1 { 1.0 } else { -1.0 })
                .collect::<Vec<f64>>()
        })
        .filter(|y| y.iter().sum::<f64>().abs() <= beta)
        .collect();
    for seed in 0..8u64 {
        let mut s = 100 + seed;
        let x = Mat::from_fn(n, 3, |_, _| lcg(&mut s));
        let k = linear_kernel(&x, 1.0);
        let ker = KernelSolver::new(
            CheckedKernel::new(k.as_ref()).unwrap(),
            1.0,
            1e-8,
            x.clone(),
        );
        let mut alpha: Vec<f64> = (0..n)
            .map(|i| {
                if i % 3 == 2 {
                    0.0
                } else {
                    lcg(&mut s).abs().powi(3)
                }
            })
            .collect();
        let sum: f64 = alpha.iter().sum();
        alpha.iter_mut().for_each(|a| *a /= sum);
        let start = feasible[(seed as usize * 37) % feasible.len()].clone();
        let mut y = start.clone();
        let mut v = ker.violation(&alpha, &y).unwrap();
        let mut moved = false;
        for _ in 0..20 {
            let (next, taken) = crate::ascent::refine(&ker, &alpha, y.clone(), beta, 1).unwrap();
            assert!(next.iter().sum::<f64>().abs() <= beta);
            let vn = ker.violation(&alpha, &next).unwrap();
            assert!(
                vn >= v - 1e-12,
                "seed {seed}: violation fell from {v} to {vn}"
            );
            if taken == 0 {
                break;
            }
            moved = true;
            (y, v) = (next, vn);
        }
        assert!(moved, "seed {seed}: the start was already a fixed point");
        // A fixed point: no ŷ' ∈ B has a larger linearised value ŷ'ᵀ(α∘K(α∘ŷ)).
        let (fixed, _) = crate::ascent::refine(&ker, &alpha, y.clone(), beta, 50).unwrap();
        let coef: Vec<f64> = alpha.iter().zip(&fixed).map(|(a, b)| a * b).collect();
        let f = ker.kernel_times(&coef);
        let lin = |z: &[f64]| (0..n).map(|i| z[i] * alpha[i] * f[i]).sum::<f64>();
        let best = feasible
            .iter()
            .map(|z| lin(z))
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            lin(&fixed) >= best - 1e-12,
            "seed {seed}: not a fixed point"
        );
    }
}

/// `initial_labels`: the given vector is the first of the working set, and a wrong
/// length, an entry other than ±1 or a vector outside the balance set are errors.
#[test]
fn initial_labels_start_the_working_set_and_are_validated() {
    let x = blobs(30, 2, 3);
    let truth: Vec<f64> = (0..30)
        .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    let p = LgmmcParams::new()
        .balance(Balance::Fraction(0.1))
        .initial_labels(Some(truth.clone()))
        .check()
        .unwrap();
    let fit = linear(&p, x.as_ref()).unwrap();
    assert_eq!(fit.diag.label_vectors[0], truth);
    let run = |y: Vec<f64>| {
        LgmmcParams::new()
            .balance(Balance::Fraction(0.1))
            .initial_labels(Some(y))
            .check()
            .and_then(|p| linear(&p, x.as_ref()))
    };
    assert!(run(truth[..29].to_vec()).is_err());
    let mut bad = truth.clone();
    bad[3] = 0.5;
    assert!(run(bad).is_err());
    let mut unbalanced = truth.clone();
    unbalanced[..10].iter_mut().for_each(|v| *v = 1.0); // 1ᵀy = 10 > β = 3
    assert!(run(unbalanced).is_err());
}

/// With the ascent refinement the cutting plane still never raises eq. (7).
#[test]
fn refined_cutting_plane_is_monotone() {
    let x = blobs(60, 4, 21);
    let p = LgmmcParams::new()
        .balance(Balance::Fraction(0.1))
        .refine_steps(10)
        .check()
        .unwrap();
    let fit = linear(&p, x.as_ref()).unwrap();
    assert!(fit.objective_trace.windows(2).all(|w| w[1] <= w[0] + 1e-12));
    for y in &fit.diag.label_vectors {
        assert!(y.iter().sum::<f64>().abs() <= 6.0);
    }
}

/// The contract's `fit` is the engine of the path it picks: the linear path for
/// features (alone, or with one kernel named `linear`), the kernel path on the mean of
/// several kernels; same labels, trace, μ and rounds, labels 0/1, no kernel weights.
#[test]
fn contract_fit_equals_the_engine_on_both_paths() {
    use mkc_core::{Clusterer, KernelSet};
    let x = blobs(40, 3, 11);
    let gauss = |s: f64| {
        Mat::from_fn(40, 40, |i, j| {
            let d2: f64 = (0..3).map(|t| (x[(i, t)] - x[(j, t)]).powi(2)).sum();
            (-d2 / s).exp()
        })
    };
    let kernels = vec![gauss(1.0), gauss(4.0)];
    let mean = Mat::from_fn(40, 40, |i, j| {
        0.5 * (kernels[0][(i, j)] + kernels[1][(i, j)])
    });
    let p = LgmmcParams::new().balance(Balance::Fraction(0.2));
    let checked = p.check().unwrap();
    let seed = 5;
    let lin = [linear_kernel(&x, 0.0)];
    let cases = [
        (
            KernelSet::from_features(x.as_ref()).unwrap(),
            checked.run(
                Input::Features(x.as_ref()),
                seed,
                None,
                &mut Timings::default(),
            ),
        ),
        (
            KernelSet::new(&lin)
                .unwrap()
                .with_names(vec!["linear".into()])
                .unwrap()
                .with_features(x.as_ref())
                .unwrap(),
            checked.run(
                Input::Features(x.as_ref()),
                seed,
                None,
                &mut Timings::default(),
            ),
        ),
        (
            KernelSet::new(&kernels)
                .unwrap()
                .with_features(x.as_ref())
                .unwrap(),
            checked.run(
                Input::Kernel(mean.as_ref()),
                seed,
                None,
                &mut Timings::default(),
            ),
        ),
    ];
    for (t, (data, engine)) in cases.into_iter().enumerate() {
        let engine = engine.unwrap();
        let fit = p.fit(&data, 2, seed).unwrap();
        assert_eq!(fit.labels, engine.labels, "case {t}");
        assert!(fit.labels.iter().all(|&l| l < 2));
        assert_eq!(fit.objective, engine.objective_trace);
        assert_eq!(fit.iterations, engine.rounds);
        assert_eq!(fit.converged, engine.diag.stop.converged());
        assert_eq!(fit.diagnostics.mu, engine.diag.mu);
        assert_eq!(fit.diagnostics.label_vectors, engine.diag.label_vectors);
        assert_eq!(fit.diagnostics.linear_path, t < 2);
        assert!(fit.kernel_weights.is_none());
        let phases: Vec<&str> = fit.timings.phases().iter().map(|p| p.0).collect();
        assert_eq!(phases, ["features", "violated", "mkl", "labels"]);
        // Equal to the checked form's fit.
        assert_eq!(checked.fit(&data, 2, seed).unwrap().labels, fit.labels);
    }
}

/// The features computed once (`Lgmmc::features`, what the experiments runner shares
/// across a C grid) give every C the fit that computes its own: above n = 600 (the
/// eigensolver's seeded start) and below, with both feature maps and a bias; the linear
/// path has none. Wrong-sized features are a shape error.
#[test]
fn shared_features_give_each_c_its_own_fit() {
    use crate::params::FeatureMap;
    use mkc_core::{Clusterer, KernelSet};
    for (n, map, bias) in [
        (640, FeatureMap::Pca, 1.0),
        (90, FeatureMap::Pca, 0.0),
        (90, FeatureMap::Sqrt, 1.0),
    ] {
        let x = blobs(n, 3, 17);
        let k = [Mat::from_fn(n, n, |i, j| {
            let d2: f64 = (0..3).map(|t| (x[(i, t)] - x[(j, t)]).powi(2)).sum();
            (-d2 / 2.0).exp()
        })];
        let data = KernelSet::new(&k).unwrap();
        let seed = 9;
        let base = LgmmcParams::new()
            .balance(Balance::Fraction(0.2))
            .feature_map(map)
            .bias(bias)
            .max_iter(4);
        let f = base.check().unwrap().features(&data, 2, seed).unwrap();
        let f = f.expect("the kernel path has features");
        assert_eq!(f.nrows(), n);
        for c in [0.5, 10.0] {
            let p = base.clone().c(c).check().unwrap();
            let own = p.fit(&data, 2, seed).unwrap();
            let shared = p
                .fit_with_features(&data, 2, seed, Some(f.clone()))
                .unwrap();
            let what = format!("n = {n}, {map:?}, C = {c}");
            assert_eq!(own.labels, shared.labels, "{what}");
            assert_eq!(own.objective, shared.objective, "{what}");
            assert_eq!(own.diagnostics.mu, shared.diagnostics.mu, "{what}");
            assert_eq!(own.diagnostics.alpha, shared.diagnostics.alpha, "{what}");
            assert_eq!(own.diagnostics.feature_dim, shared.diagnostics.feature_dim);
        }
        let short = Mat::<f64>::zeros(n - 1, 2);
        assert!(matches!(
            base.check()
                .unwrap()
                .fit_with_features(&data, 2, seed, Some(short)),
            Err(mkc_core::Error::Shape { .. })
        ));
    }
    let x = blobs(30, 3, 3);
    let feats = KernelSet::from_features(x.as_ref()).unwrap();
    let p = LgmmcParams::new().check().unwrap();
    assert!(p.features(&feats, 2, 0).unwrap().is_none());
    assert!(p.features(&feats, 3, 0).is_err());
}
